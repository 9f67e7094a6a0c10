"""Issue 14 for BattleLore: every line judged on arrival (refused with the reason and the
legal choices, or accepted with a note) and ending with exactly one outcome seen by its
seat only; the rulebook's choices that had no order language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.engine import canonical_json, process, set_up
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.rulesets.battlelore.data import SEATS
from pbem.rulesets.battlelore.rules.battle import attack

from .helpers import R, Zero, blank, ctx, dice, lore_state, put, texts


def outcomes(events: list[Any], seat: str) -> dict[int, tuple[str, str]]:
    out = {}
    for e in events:
        if e.kind == OUTCOME:
            assert e.to == (seat,) and e.data["seat"] == seat, e.text
            assert e.data["line"] not in out, f"a second outcome: {e.text}"
            out[e.data["line"]] = (e.data["status"], e.data["why"])
    return out


def placing() -> Any:
    s = R.setup(GameConfig(SEATS, "spiders_lair"), Zero())
    s["lore"]["council"] = {"north": {"wizard": 3, "commander": 3}, "south": {"cleric": 1}}
    s["phase"] = "place"
    s["hands"] = {"north": ["scout_centre"] * 6, "south": ["scout_centre"] * 4}
    s["hand_size"] = {"north": 6, "south": 4}
    s["place_queue"] = [{"seat": "north", "kind": "pentagram"},
                        {"seat": "north", "kind": "stronghold"}]
    return s


def test_place_on_the_wrong_row_or_onto_a_unit_is_refused_on_arrival() -> None:
    """p.34: "A tereptárgyat üres hexára kell tenni, attól a játékostól számított 3. vagy
    4. sorra, akinek tudásmesteréé az adott tereptárgy." A PLACE elsewhere was replaced by
    the hex nearest the centre; now it is refused with the legal hexes."""
    s = placing()
    p = R.parse(s, "north", "PLACE pentagram 13-5\nPLACE pentagram 12-8\n")
    assert p.lines[0].error.startswith("13-5 is in your row 5, not your 3rd or 4th; legal "
                                       "hexes: 13-7 ")
    assert p.lines[1].error.startswith("12-8 holds a unit; legal hexes: ")
    ok = R.parse(s, "north", "PLACE pentagram 13-5 OR 13-7\nPLACE stronghold 12-8\n")
    assert ok.ok and ok.lines[0].note == "13-5 is in your row 5, not your 3rd or 4th: the " \
                                         "next hex of the line is used"
    out = process(R, canonical_json(s), {"north": "PLACE pentagram 13-5 OR 13-7\n"
                                                  "PLACE stronghold 12-8\n"},
                  seed=b"p" * 32, dice=dice())
    assert out.state["landmarks"]["13-7"] == {"kind": "pentagram", "owner": "north"}
    assert outcomes(out.events, "north") == {
        1: ("carried out", "13-5 taken; placed at 13-7"), 2: ("carried out", "placed at 12-8")}


def test_place_of_a_landmark_the_seat_does_not_get_is_refused() -> None:
    """A PLACE pentagram by a seat that gets no pentagram was ignored without a word."""
    s = placing()
    s["place_queue"] = [{"seat": "north", "kind": "stronghold"}]
    p = R.parse(s, "north", "PLACE pentagram 13-7\nPLACE stronghold 12-8\n"
                            "PLACE stronghold 10-8\n")
    assert p.lines[0].error == "you place no pentagram; you place: stronghold"
    assert p.lines[1].ok
    assert p.lines[2].error == ("PLACE is already given on line 2: one place for each "
                                "landmark (p.33-34)")


def test_nmr_default_placement_has_an_outcome() -> None:
    s = placing()
    default = R.default_orders(s, "north")
    assert default.ok and [str(o) for o in default.orders] == [
        "PLACE pentagram 13-7", "PLACE stronghold 12-8"]
    out = process(R, canonical_json(s), {}, seed=b"p" * 32, dice=dice())
    assert out.defaulted == ["north"]
    assert [st for st, _ in outcomes(out.events, "north").values()] == ["carried out"] * 2


def test_a_second_replenish_line_is_refused_on_arrival() -> None:
    """p.32: "Előre meg kell mondanod, hogy a három lehetőség közül melyiket választod": one
    replenish choice; a second REPLENISH line was dropped without a word."""
    s = lore_state({"wizard": 1})
    p = R.parse(s, "north", "PLAY scout_centre\nREPLENISH TOKENS\nREPLENISH CARDS\n")
    assert p.lines[1].ok
    assert p.lines[2].error == ("REPLENISH is already given on line 2: one replenish per turn "
                                "(p.32)")
    out = process(R, canonical_json(s), {"north": "PLAY scout_centre\nREPLENISH TOKENS\n"
                                                  "REPLENISH CARDS\n"},
                  seed=b"r" * 32, dice=dice(0))
    got = outcomes(out.events, "north")
    assert got[2] == ("carried out", "takes 2 tokens")
    assert got[3][0] == "refused"
    assert out.state["lore"]["goblet"]["north"] == 2


def test_a_move_after_a_battle_is_announced_to_come_first() -> None:
    """p.9: "Csak azután kerül sor a harcokra (4. fázis), hogy minden egységed befejezte
    mozgását." A MOVE written after a BATTLE is carried out before it: the arrival note and
    the outcome say so."""
    s = blank()
    s["hands"]["north"] = ["order_two_centre"] * 6
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (15, 7))
    put(s, "S1", "south", "regular_infantry", (12, 6))
    text = "PLAY order_two_centre\nBATTLE N1 S1\nMOVE N2 15-5\n"
    p = R.parse(s, "north", text)
    assert p.lines[2].note == ("moves are made before battles (p.9-10): this move comes before "
                               "the BATTLE on line 2")
    out = process(R, canonical_json(s), {"north": text}, seed=b"m" * 32,
                  dice=dice("G", "G", "G", 0))
    got = outcomes(out.events, "north")
    assert got[3] == ("carried out", "N2 moved to 15-5; moves are made before battles "
                                     "(p.9-10), so it moved before the BATTLE on line 2")
    texts = [e.text for e in out.events]
    moved = next(i for i, t in enumerate(texts) if t.startswith("N2 moves to 15-5"))
    assert moved < next(i for i, t in enumerate(texts) if "attacks S1" in t)


@pytest.mark.parametrize("text,why", [
    ("RUSH S1 13-5 AT N1", "only goblinoid foot units can Goblin Rush (p.21); S1 is not one"),
    ("DRILL S1", "S1 is not on a Training Camp of yours (p.40)"),
    ("FREE S1", "S1 is not webbed"),
    ("PASSAGE S1 3-7", "S1 is not on a Rogue's Hideout of yours (p.39)"),
    ("CREATURE S1 WEB", "S1 is not a creature; CREATURE orders are for creatures (p.24-26)"),
    ("LORE fearless", "Fearless is played in the opponent's windows (before_opponent_rolls), "
                      "not by a LORE line; write REACT fearless ON <unit> or ANY"),
])
def test_definitely_illegal_lines_are_refused_on_arrival(text: str, why: str) -> None:
    s = lore_state({"rogue": 1})
    s["active"] = "south"
    s["lore"]["hands"]["south"] = ["fearless"]
    put(s, "S1", "south", "regular_infantry", (13, 3))
    put(s, "N1", "north", "regular_infantry", (13, 7))
    assert R.parse(s, "south", text).lines[0].error == why


def test_lines_that_may_still_change_get_a_note() -> None:
    s = blank()
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "N2", "north", "regular_infantry", (12, 6))
    put(s, "S1", "south", "regular_infantry", (13, 3))
    p = R.parse(s, "north", "MOVE N1 11-5\nBATTLE N2 S1\n")
    assert p.ok
    assert p.lines[0].note.startswith("if the board stays as it is, 11-5 cannot be reached")
    assert p.lines[1].note == ("if the board stays as it is, no target named is a legal target "
                               "of N2 (legal now: none)")


# --- creatures: storing is a choice (p.24), unused Lore is a token (p.32) -------------------------

def spider(standing: str, stored: int = 0) -> Any:
    s = lore_state()
    s["standing"]["south"] = {"creature": standing}
    sp = put(s, "S1", "south", "giant_spider", (13, 5))
    sp["stored_lore"] = stored
    s["lore"]["pool"] -= stored
    put(s, "N1", "north", "archers", (12, 6))
    return s


def test_creature_token_takes_the_rolled_lore_as_tokens() -> None:
    """p.24: "Amikor egy szörnyed tudásikont dob, dönthetsz úgy is, hogy nem használod fel,
    hanem tartalékolod" (storing is a choice), and p.32: Lore neither used nor stored gives
    a token. CREATURE TOKEN: no power, the rolled Lore as tokens (the engine always stored
    while there was room)."""
    s = spider("token")
    c = ctx(s, "L", "R")
    attack(c, s["units"]["S1"], s["units"]["N1"], melee=True)
    assert s["units"]["S1"]["stored_lore"] == 0 and s["lore"]["goblet"]["south"] == 1
    s = spider("web token")
    c = ctx(s, "L", "L")  # two Lore: one webs, the other is a token
    attack(c, s["units"]["S1"], s["units"]["N1"], melee=True)
    assert s["units"]["N1"]["webbed"] and s["units"]["S1"]["stored_lore"] == 0
    assert s["lore"]["goblet"]["south"] == 1


def test_a_creature_standing_order_that_does_not_fit_is_reported() -> None:
    """CREATURE POISON with one Lore and no hit used to become the default in silence; now
    the seat is told, and POISON OR WEB falls back as written."""
    s = spider("poison")
    c = ctx(s, "L", "R")
    attack(c, s["units"]["S1"], s["units"]["N1"], melee=True)
    assert ("Your standing order CREATURE POISON does not fit here (the choices are store, "
            "token, web): the default (web) is taken.") in texts(c)
    notice = next(e for e in c.log.events if e.kind == "standing_unfit")
    assert notice.to == ("south",)
    s = spider("poison or web token")
    c = ctx(s, "L", "L")
    attack(c, s["units"]["S1"], s["units"]["N1"], melee=True)
    assert "does not fit" not in texts(c)
    assert s["units"]["N1"]["webbed"] and s["lore"]["goblet"]["south"] == 1


def test_the_creature_question_offers_the_token() -> None:
    s = spider("")
    del s["standing"]["south"]["creature"]
    s["options"]["decisions"] = "ask"
    s["hands"]["south"] = ["scout_centre"] * 4
    s["active"] = "south"
    out = process(R, canonical_json(s), {"south": "PLAY scout_centre\nBATTLE S1 N1\n"
                                                  "REPLENISH TOKENS\n"},
                  seed=b"c" * 32, dice=dice("L", "R"))
    q = R.questions(out.state)[0]
    assert q.kind == "creature"
    assert q.options == ("ANSWER store", "ANSWER token", "ANSWER web")


# --- every line gets exactly one outcome, seen by its seat only ---------------------------------

JUNK = ["PLAY", "MOVE N1 99-99", "BATTLE S1", "RUSH N1 1-1 AT S1", "ORDER X9", "REPLENISH NONE",
        "COUNCIL wizard 4", "KEEP", "PLACE castle 1-1", "ANSWER", "LORE", "fly away", "DRILL"]


def _broken(lines: list[str], state: Any, seat: str, rng: random.Random) -> list[str]:
    """The bot's lines with broken ones mixed in: junk, another seat's units, a line from
    another step, a doubled line, a far hex."""
    foes = sorted(u for u, x in state["units"].items() if x["owner"] != seat)
    mine = sorted(u for u, x in state["units"].items() if x["owner"] == seat)
    extra = [rng.choice(JUNK), "ANSWER none", "COUNCIL commander 1", "KEEP portal",
             f"MOVE {rng.choice(mine or ['N1'])} 1-1", f"BATTLE {rng.choice(mine or ['N1'])} "
             f"{rng.choice(foes or ['S1'])}", f"ORDER {rng.choice(foes or ['S1'])}",
             "PLACE pentagram 13-5", "REPLENISH TOKENS", "IGNORE ALL"]
    if lines:
        extra.append(rng.choice(lines))
    out = list(lines)
    for _ in range(rng.randrange(4)):
        out.insert(rng.randrange(len(out) + 1), rng.choice(extra))
    return out


@pytest.mark.parametrize("variant,ask", [("agincourt", False), ("spiders_lair", True),
                                         ("dwarves_at_the_ford", True),
                                         ("spiders_lair", False)])
def test_random_playouts_with_broken_lines_give_every_line_one_outcome(variant: str,
                                                                       ask: bool) -> None:
    """Wrong counts, unreachable targets, wrong phase, wrong owner, other seats' lines and
    unasked seats' files: every line of every applied file ends with exactly one outcome,
    seen by its seat only (the answer steps of a paused turn included)."""
    rng = random.Random(f"{variant} {ask}")
    cfg = GameConfig(SEATS, variant, {"decisions": "ask" if ask else "auto"})
    checked = 0
    for seed in range(3):
        out = set_up(R, cfg, bytes([seed]) * 32)
        open_lines: dict[tuple[str, int], set[int]] = {}
        for step in range(1, 250):
            if not out.awaiting:
                break
            before = out.state
            pause = before["pause"]
            k = len(pause["answers"]) + 1 if pause else 0
            texts = {}
            for seat in SEATS:
                if seat in out.awaiting:
                    lines = _broken(R.legal_orders(before, seat, rng), before, seat, rng)
                elif rng.random() < 0.3:
                    lines = [rng.choice(["REACT NONE", "RETREAT SAFE", "BATTLE N1 S1",
                                         "CREATURE TOKEN", "IGNORE 1"])]
                else:
                    continue
                if rng.random() < 0.1 and seat in out.awaiting:
                    continue  # NMR: the default lines need outcomes too
                texts[seat] = "".join(f"{x}\n" for x in lines)
            out = process(R, out.state_json, texts, seed=bytes([seed, step % 256]) * 16)
            for seat, text in out.applied.items():
                open_lines[(seat, k)] = {ln.lineno for ln in R.parse(before, seat, text).lines}
            for e in out.events:
                if e.kind != OUTCOME:
                    continue
                seat, line, file = e.data["seat"], e.data["line"], e.data["file"]
                assert e.to == (seat,)
                assert line in open_lines.get((seat, file), set()), (step, e.text)
                open_lines[(seat, file)].discard(line)
                checked += 1
            if not out.state["pause"]:
                assert not any(open_lines.values()), (step, open_lines)
                open_lines = {}
    assert checked > 300
