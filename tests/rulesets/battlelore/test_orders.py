"""The order language: round trip of canonical forms, errors that say what would be right,
the sample order files, and pinned counts ("perft") at the Agincourt start."""

from __future__ import annotations

import pathlib

from hypothesis import given
from hypothesis import strategies as st

from pbem.core.kit import Question
from pbem.core.names import fold
from pbem.core.ruleset import GameConfig
from pbem.rulesets.battlelore.board import ALL_HEXES
from pbem.rulesets.battlelore.data import MASTERS, SEATS, command_card, data, full_deck
from pbem.rulesets.battlelore.orders import (
    GRAMMAR,
    Answer,
    Battle,
    Battleback,
    Council,
    Creature,
    Discard,
    Drill,
    Free,
    Ignore,
    Keep,
    Lore,
    Move,
    OrderUnits,
    Passage,
    Place,
    Play,
    React,
    Replenish,
    Retreat,
    Rush,
)
from pbem.rulesets.battlelore.rules.battle import targets
from pbem.rulesets.battlelore.rules.cards import candidate_units
from pbem.rulesets.battlelore.rules.movement import allowance, reachable
from pbem.rulesets.battlelore.state import jcopy

from .helpers import R as RULESET
from .helpers import Zero

ROOT = pathlib.Path(__file__).resolve().parents[3]


def start(variant: str = "agincourt", phase: str = "turn") -> dict:
    s = RULESET.setup(GameConfig(("north", "south"), variant), Zero())
    s["hands"]["north"] = sorted(set(full_deck()))
    s["hands"]["south"] = sorted(set(full_deck()))
    if s["mode"] == "lore" and phase == "turn":
        every = sorted(data("lore_cards")["cards"])
        s["lore"]["hands"] = {"north": every, "south": every}
        s["phase"] = "turn"
    if phase == "keep":
        s["lore"]["council"] = {"north": {"wizard": 2}, "south": {"wizard": 2}}
        s["lore"]["offer"] = {x: ["eagle_eye", "fireball", "heal", "portal"] for x in SEATS}
        s["phase"] = "keep"
    if phase == "place":
        s["phase"] = "place"
        s["place_queue"] = [{"seat": "north", "kind": "pentagram"},
                            {"seat": "north", "kind": "stronghold"}]
    if phase == "decision":  # a turn paused for south's retreat (the kit's pause record)
        q = Question("south", "retreat", "where to?", "ANSWER 12-4", ("ANSWER 12-4", "ANSWER 14-4"))
        s["pause"] = {"phase": "turn", "snapshot": jcopy(s), "script": {}, "answers": [],
                      "late": [], "dice": [], "emitted": 0, "questions": [q.to_json()]}
    return s


S = start()
NORTH = sorted(u for u, x in S["units"].items() if x["owner"] == "north")
SOUTH = sorted(u for u, x in S["units"].items() if x["owner"] == "south")
hexes = st.sampled_from(ALL_HEXES)

orders = st.one_of(
    st.builds(Play, st.sampled_from(sorted(set(full_deck())))),
    st.builds(OrderUnits, st.lists(st.sampled_from(NORTH), min_size=1, max_size=4, unique=True)
              .map(tuple)),
    st.builds(Move, st.sampled_from(NORTH), st.lists(hexes, min_size=1, max_size=3).map(tuple)),
    st.builds(Rush, st.sampled_from(NORTH), hexes, st.sampled_from(SOUTH)),
    st.builds(Battle, st.sampled_from(NORTH),
              st.lists(st.sampled_from([*SOUTH, "ANY"]), min_size=1, max_size=3).map(tuple),
              st.booleans(), st.booleans(), st.lists(hexes, max_size=2).map(tuple),
              st.booleans(), st.lists(st.sampled_from(SOUTH), max_size=2).map(tuple),
              st.booleans()),
    st.builds(Move, st.sampled_from(NORTH), st.lists(hexes, min_size=1, max_size=2).map(tuple),
              st.lists(hexes, max_size=2).map(tuple)),
    st.builds(Ignore, st.sampled_from(["all", "none", "1", "2"]), st.sampled_from(["", *NORTH])),
    st.builds(Retreat, st.sampled_from(["safe", "left", "right", "centre", "12-4", "12-4 11-3"]),
              st.sampled_from(["", *NORTH])),
    st.builds(Battleback, st.sampled_from(["always", "never", "2", "3"]),
              st.sampled_from(["", *NORTH])),
)


L = start("dwarves_at_the_ford")
NL = sorted(u for u, x in L["units"].items() if x["owner"] == "north")
LORES = sorted(data("lore_cards")["cards"])
lore_orders = st.one_of(
    st.builds(Lore, st.sampled_from(LORES), st.sampled_from(["", *NL]),
              st.one_of(st.none(), hexes)),
    st.builds(React, st.sampled_from(LORES), st.sampled_from(["ANY", *NL])),
    st.builds(React, st.sampled_from(["ask", "none"])),
    st.builds(Replenish, st.sampled_from(["cards", "card_token", "tokens"])),
    st.builds(Keep, st.lists(st.sampled_from(LORES), min_size=1, max_size=3).map(tuple)),
    st.builds(Discard, st.lists(st.sampled_from(LORES), min_size=1, max_size=3).map(tuple)),
    st.builds(Council, st.lists(st.tuples(st.sampled_from(MASTERS), st.integers(1, 3)),
                                min_size=1, max_size=5, unique_by=lambda x: x[0])
              .map(lambda x: tuple(sorted(x, key=lambda m: MASTERS.index(m[0]))))),
    st.builds(Place, st.sampled_from(["pentagram", "hideout", "training_camp",
                                      "healing_spring", "stronghold"]),
              st.lists(hexes, min_size=1, max_size=2).map(tuple)),
    st.builds(Drill, st.sampled_from(NL)),
    st.builds(Free, st.sampled_from(NL)),
    st.builds(Passage, st.sampled_from(NL), hexes),
    st.builds(Answer, st.sampled_from(["yes", "no", "0", "2", "12-4", "first_strike", "none"])),
    st.builds(Creature, st.sampled_from(["auto", "web", "poison", "store"]),
              st.sampled_from(["", *NL])),
)


@given(lore_orders)
def test_parse_of_canonical_lore_orders_is_identity(o) -> None:
    p = GRAMMAR.parse(L, "north", str(o))
    assert p.ok, p.echo()
    assert p.orders == [o]


def test_docs_cover_every_command() -> None:
    doc = (ROOT / "docs" / "rulesets" / "battlelore.md").read_text(encoding="utf-8")
    for cls in GRAMMAR.orders:
        verb, *aliases = cls.verbs
        assert f"`{verb}" in doc, verb
        assert any(fold(a) in fold(doc) for a in aliases), verb


@given(orders)
def test_parse_of_canonical_is_identity(o) -> None:
    p = GRAMMAR.parse(S, "north", str(o))
    assert p.ok, p.echo()
    assert p.orders == [o]


def test_aliases_accents_and_case() -> None:
    p = GRAMMAR.parse(S, "north", "kijátszik Scout Left\nlép n3 19-7\ntámad N3 s5 or any\n")
    assert p.ok and [str(o) for o in p.orders] == [
        "PLAY scout_left", "MOVE N3 19-7", "BATTLE N3 S5 OR ANY"]


def test_errors_name_the_problem_and_the_fix() -> None:
    p = GRAMMAR.parse(S, "north", "PLAY scuot left\nMOVE N3 13-4\nBATTLE N3 N4\nMOVE X9 1-1\n"
                   "FLY N1\nMOVE N3 0-2\n")
    errs = [ln.error for ln in p.lines]
    assert 'did you mean "scout_left"' in errs[0]
    assert "even columns" in errs[1]
    assert "your own unit" in errs[2]
    assert "not a unit on the board" in errs[3]
    assert "not a command" in errs[4]
    assert "off the board" in errs[5]
    q = RULESET.parse(start() | {"hands": {"north": ["scout_left"], "south": []}}, "north",
                      "PLAY red banners\n")
    assert "not in your hand; you hold scout_left" in (q.lines[0].error or "")
    r = RULESET.parse(start(), "north", "ANSWER 12-4\nRETREAT SAFE\n")
    assert "not part of this step" in (r.lines[0].error or "") and r.lines[1].ok


def test_example_files_parse_cleanly() -> None:
    files = sorted((ROOT / "orders" / "examples" / "battlelore").glob("*.txt"))
    assert files
    for f in files:
        lines = f.read_text(encoding="utf-8").splitlines()
        seat = next(x.split()[1] for x in lines if x.upper().startswith("SEAT"))
        i = next(k for k, x in enumerate(lines) if x.upper().startswith("PASSWORD"))
        body = "\n".join(x for x in lines[i + 1:] if x.strip().upper() != "END")
        meta = {"variant": "agincourt", "phase": "turn"}
        for x in lines:
            for key in meta:
                if x.startswith(f"# {key}:"):
                    meta[key] = x.split(":", 1)[1].strip()
        s = start(meta["variant"], meta["phase"])
        assert RULESET.view(s, None)["phase"] == meta["phase"], f.name
        if s["phase"] == "turn":
            s["active"] = seat  # each turn file is written for its own turn
        SITUATIONS.get(f.name, lambda s: None)(s)
        p = RULESET.parse(s, seat, body)
        assert p.ok, (f.name, p.echo())


def _spider_turn(s: dict) -> None:
    """The position spiders_lair_spider_turn.txt is written for (its comment says so): N3
    has come forward, S4 is webbed, S6 stands on south's Training Camp, S7 on its Rogue's
    Hideout, and south has Lore tokens."""
    s["units"]["N3"]["hex"] = [10, 6]
    s["units"]["S4"]["webbed"] = True
    s["landmarks"]["11-3"] = {"kind": "training_camp", "owner": "south"}
    s["landmarks"]["15-3"] = {"kind": "hideout", "owner": "south"}
    s["lore"]["goblet"]["south"] = 9


SITUATIONS = {"spiders_lair_spider_turn.txt": _spider_turn}


def test_perft_agincourt_start() -> None:
    """Pinned counts at the Agincourt start (regression pins)."""
    s = start()
    n = {cid: len(candidate_units(s, "north", command_card(cid), 6)) for cid in
         ("scout_left", "order_three_centre", "advance_left", "line_advance", "darken_the_sky",
          "blue_banners", "mounted_charge")}
    assert n == {"scout_left": 1, "order_three_centre": 3, "advance_left": 2, "line_advance": 3,
                 "darken_the_sky": 5, "blue_banners": 3, "mounted_charge": 0}
    reach = {u: len(reachable(s, s["units"][u], allowance(s, s["units"][u])[0]))
             for u in sorted(s["units"])}
    assert sum(reach.values()) == PINNED_REACH
    assert all(targets(s, x) == [] for x in s["units"].values())


PINNED_REACH = 217


WORDS = ["PLAY", "ORDER", "MOVE", "RUSH", "BATTLE", "LORE", "REACT", "KEEP", "COUNCIL",
         "PLACE", "ANSWER", "IGNORE", "RETREAT", "BATTLEBACK", "CREATURE", "OR", "AT", "ON",
         "TO", "ANY", "HOLD", "PURSUE", "BONUS", "N1", "S3", "X9", "13-5", "0-2", "13-4",
         "99-99", "scout", "left", "fireball", "wizard", "3", "-1", "yes", "ALL", "é", ""]


@given(st.lists(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=7)
                .map(" ".join), max_size=6).map("\n".join))
def test_parse_never_raises_and_every_line_is_judged(text: str) -> None:
    for s in (S, L):
        for seat in ("north", "south"):
            p = RULESET.parse(s, seat, text)
            assert all(ln.ok or ln.error for ln in p.lines)
            assert all(str(ln.order) for ln in p.lines if ln.ok)
