"""The order language: canonical round trip (hypothesis, and the orders of random playouts),
aliases, error messages, and every sample order file in orders/examples/cherubion parses
cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from pbem.core.envelope import parse_envelope
from pbem.core.kit import OrderError, Question
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.cherubion import RULESET, data
from pbem.rulesets.cherubion.board import get_board
from pbem.rulesets.cherubion.orders import (
    GRAMMAR,
    Attack,
    BaseChoice,
    Build,
    Cond,
    Deck,
    Deploy,
    Else,
    If,
    Move,
    Play,
    Team,
    Upgrade,
    When,
)
from tests.support.cases import set_path

from .helpers import build, parse_line

EXAMPLES = Path(__file__).resolve().parents[3] / "orders" / "examples" / "cherubion"
FIELDS = sorted(get_board(6).fields)
PIECES = sorted(data.piece_templates()) + ["S1", "S12"]
CARDS = sorted(data.cards())

field = S.sampled_from(FIELDS)
piece = S.sampled_from(PIECES)
card = S.sampled_from(CARDS)
path_tok = S.one_of(field, S.just("OUT"), S.just("HOME"),
                    S.integers(1, 9).map(lambda i: f"GATE T{i}"))

orders = S.one_of(
    S.builds(Move, piece, S.lists(path_tok, min_size=1, max_size=8).map(tuple), S.just(""),
             S.lists(piece, max_size=2).map(tuple), S.booleans()),
    S.builds(Move, piece, S.just(()), field, S.lists(piece, max_size=2).map(tuple),
             S.booleans()),
    S.builds(Deploy, piece, field),
    S.builds(Build, S.sampled_from(["small", "medium", "large"]), field),
    S.builds(Upgrade, field, S.sampled_from(["medium", "large"])),
    S.builds(Play, card, piece, S.lists(S.one_of(piece, field), max_size=3).map(tuple),
             S.integers(1, 4)),
    S.builds(Attack, piece, piece, S.one_of(S.just(""), piece)),
    S.builds(When, S.just("DAMAGE"), card, S.one_of(S.just("ANY"), piece),
             S.one_of(S.just("ANY"), piece), S.just("ANY"), S.integers(0, 20)),
    S.builds(When, S.just("CAST"), card, S.one_of(S.just("ANY"), piece),
             S.one_of(S.just("ANY"), piece), S.one_of(S.just("ANY"), card), S.just(0)),
    S.builds(Team, S.lists(S.sampled_from(data.TEAMS), min_size=1, max_size=5).map(tuple)),
    S.builds(BaseChoice, S.lists(S.integers(1, 5), min_size=1, max_size=5).map(tuple)),
    S.builds(Deck, S.dictionaries(card, S.integers(1, 4), max_size=6).map(
        lambda d: tuple(sorted(d.items())))),
)
conds = S.one_of(
    S.builds(Cond, piece, S.sampled_from(["ALIVE", "DEAD", "ENGAGED"])),
    S.builds(Cond, piece, S.just("AT"), field),
    S.builds(Cond, S.sampled_from(["ME", "ENERGY"]), S.sampled_from([">=", "<"]),
             S.integers(0, 40).map(str)),
    S.builds(Cond, piece, S.sampled_from([">=", "<"]), S.integers(0, 60).map(str)),
)
turn_orders = S.one_of(S.builds(Attack, piece, piece, S.just("")), S.builds(Deploy, piece, field),
                       S.builds(Play, card, piece, S.lists(piece, max_size=2).map(tuple),
                                S.integers(1, 3)))
orders = S.one_of(orders, S.builds(If, conds, turn_orders), S.builds(Else, turn_orders))


@settings(max_examples=300, deadline=None)
@given(orders)
def test_canonical_round_trip(o: object) -> None:
    assert parse_line(str(o)) == o


@pytest.mark.parametrize("text,canonical", [
    ("move me2 k11 k12", "MOVE ME2 K11 K12"),
    ("LÉP ME2 K11 K12", "MOVE ME2 K11 K12"),
    ("menekül me4 h13 h14 i13", "FLEE ME4 H13 H14 I13"),
    ("kijátszik Barlangi gyík által ME1 ra J10", "PLAY n01 BY ME1 ON J10"),
    ("PLAY cave lizard BY me1 ON j10 x 2", "PLAY n01 BY ME1 ON J10 X 2"),
    ("PLAY Időcsapda BY CH2 ON Alpha", "PLAY ch04 BY CH2 ON alpha"),
    ("tamad ch2 me4 elfog ch4", "ATTACK CH2 ME4 CAPTURE CH4"),
    ("épít nagy e13", "BUILD large E13"),
    ("bővít l10 közepes", "UPGRADE L10 medium"),
    ("huz", "DRAW"),
    ("amikor sebzes on me4 over 6 play eppenhogy by any",
     "WHEN DAMAGE ON ME4 OVER 6 PLAY n05 BY ANY"),
    ("WHEN ZERO PLAY Gyogyitas BY ANY", "WHEN ZERO ON ANY PLAY n22 BY ANY"),
    ("csapat melan choler", "TEAM melan choler"),
    ("pakli alap", "DECK DEFAULT"),
    ("MOVE SA5 E9 E10 kapu dob e16", "MOVE SA5 E9 E10 GATE ROLL E16"),
    ("ha ch2 el akkor tamad me4 ch2", "IF CH2 ALIVE THEN ATTACK ME4 CH2"),
    ("IF me4 ep >= 20 THEN flee me4 h13", "IF ME4 EP >= 20 THEN FLEE ME4 H13"),
    ("if energia >= 5 then play n05 by me4 on ch2", "IF ENERGY >= 5 THEN PLAY n05 BY ME4 ON CH2"),
    ("kulonben move me4 to h14", "ELSE MOVE ME4 TO H14"),
])
def test_aliases_and_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_line(text, 6, ("alpha", "beta"))) == canonical


@pytest.mark.parametrize("text,fragment", [
    ("MOVE ME2 K11 Z99", '"Z99" is not a field'),
    ("MOVE ME2 K11 K1Z", "did you mean"),
    ("MOVR ME2 K11", 'did you mean "MOVE"'),
    ("PLAY Barlangi gyk BY ME1 ON J10", 'did you mean'),
    ("PLAY Barlangi gyik ON J10", "PLAY needs BY <caster>"),
    ("ATTACK CH2", "ATTACK takes a piece and a target"),
    ("BUILD HUGE E13", "sizes are SMALL, MEDIUM, LARGE"),
    ("BASE 6", "side 6 is No-Man's Land"),
    ("MOVE SA5 E10 GATE ROLL E16 E17", "put further steps in a new MOVE line"),
    ("DECK n01", "write each card as name=copies"),
    ("SCRY zeta", "is not a seat"),
    ("WHEN DAMAGE ON ME4", "a trigger needs PLAY"),
    ("IF CH2 ALIVE ATTACK ME4 CH2", "IF needs THEN"),
    ("IF CH2 HAPPY THEN DRAW", "conditions:"),
    ("IF CH2 ALIVE THEN SURRENDER", "IF/ELSE take a turn order"),
])
def test_errors_say_what_and_what_would_be_right(text: str, fragment: str) -> None:
    with pytest.raises(OrderError) as e:
        parse_line(text, 6, ("alpha", "beta"))
    assert fragment in str(e.value)


def test_parse_rejects_orders_of_another_step() -> None:
    st = build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1})
    st["pieces"]["ME1"]["loc"] = "K8"
    st["players"]["alpha"]["me"] = 1
    p = RULESET.parse(st, "alpha", "TEAM melan\nMOVE ME1 K9\nPLACE ME1 K8")
    assert [ln.ok for ln in p.lines] == [False, True, False]
    assert "TEAM is not part of this step; it asks for your turn orders" in p.lines[0].error


def test_orders_of_random_playouts_parse_back_from_their_canonical_form() -> None:
    """`parse(str(order)) == order` for every order line the random bot writes."""
    seen = 0
    for n, opts in ((3, {"decisions": "ask"}), (2, {"diplomacy": True})):
        config = GameConfig(RULESET.seat_ids(n, "standard"), "standard", opts)
        p = play(RULESET, config, 4, keep=True)
        for before, after in zip(p.outcomes, p.outcomes[1:], strict=False):
            for seat, text in after.applied.items():
                for ln in RULESET.parse(before.state, seat, text).lines:
                    if not ln.ok:
                        continue
                    o = ln.order
                    assert GRAMMAR.parse_line(before.state, seat, str(o)) == o, str(o)
                    seen += 1
    assert seen > 200


# The position each sample turn file is written for (set paths, as in the case files):
# a file is judged on arrival against the board, so the board must fit it.
EXAMPLE_POSITIONS: dict[str, dict[str, Any]] = {
    "turn.txt": {
        "players.alpha.me": 14, "players.alpha.energy": 20,
        "players.alpha.deck": ["n01"], "players.alpha.deck_size": 1,
        "players.alpha.hand": ["me01", "me01", "me03"],
        "pieces.ME2.loc": "K10", "pieces.ME5.loc": "K8", "pieces.ME8.loc": "K8",
        "pieces.ME4.loc": "H12", "pieces.ME7.loc": "K6", "pieces.CH2.loc": "I12",
        "pieces.CH3.loc": "K6",
    },
    "turn_hu.txt": {
        "players.beta.me": 26, "players.beta.energy": 10,
        "players.beta.deck": ["n01"], "players.beta.deck_size": 1, "players.beta.hand": ["n09"],
        "pieces.CH2.loc": "D12", "pieces.CH3.loc": "E12", "pieces.CH5.loc": "E13",
        "pieces.CH4.loc": "F16", "pieces.ME4.loc": "F16", "pieces.SA7.loc": "prison:beta",
        "resources.N1": {"id": "N1", "owner": "beta", "field": "B6", "size": "medium",
                         "ep": 40, "active": True},
    },
    "exchange.txt": {
        "players.alpha.me": 6, "players.alpha.deck": ["n01"], "players.alpha.deck_size": 1,
        "pieces.ME2.loc": "K11", "pieces.CH5.loc": "prison:alpha", "pieces.ME8.loc": "prison:beta",
    },
    "gates.txt": {
        "players.gamma.me": 12, "players.gamma.energy": 13,
        "players.gamma.hand": ["n16", "sa03"],
        "pieces.SA6.loc": "E4", "pieces.SA5.loc": "E8", "pieces.SA7.loc": "B3",
        "pieces.SA8.loc": "C2", "pieces.SA1.loc": "H13", "pieces.ME8.loc": "I12",
        "pieces.ME7.loc": "I13",
        "markers": {mid: {"id": mid, "kind": "T", "field": f, "owner": "gamma", "card": "n15",
                          "hidden": False} for mid, f in (("T1", "E7"), ("T2", "I10"),
                                                          ("T3", "E10"))},
        "id_counters.T": 3,
    },
}
SIDES = {"alpha": 4, "beta": 1, "gamma": 3, "delta": 2, "epsilon": 5}


def _state_for(name: str, seat: str) -> dict:
    st = build({s: t for s, t in zip(RULESET.seat_ids(5, "standard"), data.TEAMS, strict=False)},
               SIDES)
    for path, value in EXAMPLE_POSITIONS.get(name, {}).items():
        set_path(st, path, value)
    if name in ("draft.txt", "custom_deck.txt"):
        st["phase"] = "draft"
    elif name == "placement.txt":
        st["phase"] = "place"
    elif name not in ("standing_unasked.txt", "surrender.txt"):
        st["active"] = seat  # a turn file: its seat is the active one
    if name.startswith("answer"):
        kind, options = {"answer_freeattack.txt": ("FREEATTACK", ("FREEATTACK NO", "PASS")),
                         "answer_scry.txt": ("SCRY", ("SCRY gamma", "PASS"))}.get(
            name, ("DAMAGE", ("PLAY n05 BY ME4 ON CH2", "PASS")))
        q = Question(seat, kind, "", "PASS", options, exhaustive=bool(options))
        st["pause"] = {"phase": "turn", "snapshot": {}, "script": {}, "answers": [],
                       "late": [], "dice": [], "emitted": 0, "questions": [q.to_json()]}
    return st


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_example_files_parse(path: Path) -> None:
    env = parse_envelope(path.read_text(encoding="utf-8"))
    assert env.complete, env.problems
    st = _state_for(path.name, env.seat)
    parsed = RULESET.parse(st, env.seat, env.body)
    assert parsed.ok, parsed.echo()
    assert parsed.lines


def test_examples_exist() -> None:
    assert len(list(EXAMPLES.glob("*.txt"))) >= 6
