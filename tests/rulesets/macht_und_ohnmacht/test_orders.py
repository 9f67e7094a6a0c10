"""The order language: example files parse cleanly, errors say what is wrong and what
would be right, parse(str(order)) == order (hypothesis), and perft-style pins of the
number of legal single actions."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.dice import HmacDice
from pbem.core.engine import split_setup
from pbem.core.envelope import parse_envelope
from pbem.core.kit import Question
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.macht_und_ohnmacht import board, bot, data
from pbem.rulesets.macht_und_ohnmacht import orders as o
from pbem.rulesets.macht_und_ohnmacht.orders import GRAMMAR, parse_line
from pbem.rulesets.macht_und_ohnmacht.rules import cycle

from .helpers import RS, ex1

EXAMPLES = Path(__file__).parents[3] / "orders" / "examples" / "macht-und-ohnmacht"


def standard_state() -> dict[str, Any]:
    return split_setup(RS.setup(GameConfig(("orange", "white"), "standard"), HmacDice(b"seed", "x")))[0]


def in_step(step: str, seat: str) -> dict[str, Any]:
    """A standard-map state in which `seat` is asked for `step` ('turn', 'bid swap', ...):
    a turn, or a decision open in the other seat's turn (the kit's pause record)."""
    state = standard_state()
    other = board.opponent(state, seat)
    kind, _, extra = step.partition(" ")
    if kind == "turn":  # the seat holds a tile of every kind it may play
        state["turn"] = cycle.new_turn(seat, 2, number=2)
        for tile_type in data.tile_types():
            tid = data.first_of_type(state["pile"], tile_type)
            if tid is not None and not data.type_info(tile_type)["lightning"]:
                state["pile"].remove(tid)
                state["held"][seat].append(tid)
            tid = data.first_of_type(state["pile"], tile_type)  # and one on display
            if tid is not None:
                state["pile"].remove(tid)
                state["display"].append(tid)
        return state
    state["turn"] = cycle.new_turn(other, 2, number=2)
    pending = {
        "bid": {"kind": "bid", "type": extra or "vp", "tile": f"{extra or 'vp'}_1",
                "taker": other, "need": [seat]},
        "serpent": {"kind": "serpent", "seat": seat, "by": other,
                    "order": "PLAY castle SEIZE mer", "tile": "castle_1"},
        "retreat": {"kind": "retreat", "seat": seat, "attacker": other, "region": "mer",
                    "place": True, "options": ["wes"]},
        "effect": {"kind": "effect", "seat": seat, "type": extra, "tile": f"{extra}_1"},
    }[kind]
    if kind == "effect":  # the opponent holds Mercia, a target for a rebellion
        state["regions"]["mer"].update({"owner": other, "knight": 1, "mage": 1})
    if kind == "retreat":  # the seat loses Mercia, where it has a knight and a mage
        state["regions"]["mer"].update({"owner": seat, "knight": 1, "mage": 1})
    question = Question(seat, kind, "?", "PASS", exhaustive=False,
                        data={"line": 1, "pending": pending, "sealed": {}})
    state["pause"] = {"phase": "turn", "snapshot": copy.deepcopy(state),
                      "script": {other: [[1, "RECRUIT"]]}, "answers": [], "late": [],
                      "dice": [], "emitted": 0, "questions": [question.to_json()]}
    return state


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_example_files_parse(path: Path) -> None:
    env = parse_envelope(path.read_text(encoding="utf-8"))
    assert env.complete and env.game == "example"
    step = next(line.split(":", 1)[1].strip() for line in env.body.splitlines()
                if line.startswith("# step:"))
    state = in_step(step, env.seat)
    before = copy.deepcopy(state)
    parsed = RS.parse(state, env.seat, env.body)
    assert parsed.ok, parsed.echo()
    assert parsed.orders
    assert state == before  # parsing never mutates


def test_examples_cover_every_command() -> None:
    seen: set[type] = set()
    for path in EXAMPLES.glob("*.txt"):
        env = parse_envelope(path.read_text(encoding="utf-8"))
        step = next(line.split(":", 1)[1].strip() for line in env.body.splitlines()
                    if line.startswith("# step:"))
        seen |= {type(x) for x in RS.parse(in_step(step, env.seat), env.seat, env.body).orders}
    everything = {o.Take, o.Place, o.Recruit, o.PlayInfluence, o.PlayStrength, o.PlayMovement,
                  o.PlaySea, o.PlayRecruit, o.EndD, o.If, *o.STANDING, *o.EFFECTS, o.BidAnswer,
                  o.RetreatAnswer, o.Cancel, o.Pass}
    assert everything - seen == set()


@pytest.mark.parametrize(("text", "needle"), [
    ("PLACE Mercai", 'did you mean "mer"?'),
    ("PLAY castel SEIZE mer", 'did you mean "castle"?'),
    ("MOVE mer wes", '"MOVE" is not a command'),
    ("PLAY vp", "auctioned when taken"),
    ("PLAY castle RECRUIT", "no recruit strip"),
    ("PLAY merlin RECRUIT", "2 knights or 2 mages"),
    ("TAKE castle BID 2", "not a lightning tile"),
    ("TAKE rebellion BID 1 IFWIN REBEL mer 2K 1M", "at most 2 units"),
    ("TAKE rebellion BID 1 IFWIN SWAP mer tent", "write REBEL"),
    ("PLAY sea mer mer 1K", "another region"),
    ("PLAY movement mer wes", "at least one unit"),
    ("PLAY serpent SEIZE mer", "opponent's turn"),
    ("CANCEL", "CANCEL is not part of this step; it asks for your turn's actions"),
    ("BID 3", "BID is not part of this step"),
    ("DECLINE", "DECLINE is not part of this step"),
    ("RETREAT sideways", "not a unit choice"),
    ("SERPENT NEXT vp", "never played in action D"),
    ("PLACE", "the line ends where a region should follow"),
    ("RECRUIT now", 'unexpected "now"'),
    ("IF HOLD mer PLACE mer", "followed by THEN"),
    ("BID any 2 IFWIN REBEL mer 1K 0M", "name the tile"),
    ("IF HOURGLASS > 2 THEN RECRUIT", "not a comparison"),
    ("IF HOLD mer THEN CANCEL", "takes an action"),
    ("IF sunny THEN RECRUIT", "IF HOLD <region> THEN"),
])
def test_errors_name_the_problem(text: str, needle: str) -> None:
    parsed = RS.parse(in_step("turn", "orange"), "orange", f"# comment\n{text}\n")
    assert not parsed.ok
    line = parsed.errors[0]
    assert line.lineno == 2
    assert needle in line.error, line.error


def test_step_specific_errors() -> None:
    state = in_step("bid vp", "orange")
    assert "bid 0-5" in RS.parse(state, "orange", "BID 9").errors[0].error
    assert "RECRUIT does not answer the question" in RS.parse(state, "orange",
                                                               "RECRUIT").errors[0].error
    assert RS.parse(state, "orange", "BID vp 3\nBID 2").ok  # standing orders always fit
    state = in_step("turn", "white")
    assert "RECRUIT is not yours to send now: white is awaited; you may send standing orders " \
        "only" in RS.parse(state, "orange", "RECRUIT").errors[0].error


def test_aliases_and_accents() -> None:
    state = in_step("turn", "orange")
    parsed = RS.parse(state, "orange", "vesz KASTÉLY\nkijátszik Erő-Sátor\nFELRAK east-anglia")
    assert [str(x) for x in parsed.orders] == ["TAKE castle", "PLAY strength-tent", "PLACE ean"]


REGIONS = sorted(data.map_data()["region"], key=lambda r: r["id"])
REG = st.sampled_from([r["id"] for r in REGIONS])
SYM = st.sampled_from(data.symbols())
N = st.integers(0, 9)
EFFECT = st.one_of(st.builds(o.Rebel, REG, st.integers(0, 1), st.integers(0, 1)),
                   st.builds(o.Swap, REG, SYM), st.just(o.Decline()))
ORDERS = st.one_of(
    st.builds(o.Take, st.sampled_from(["castle", "movement", "strength-key", "sea"])),
    st.builds(o.Take, st.just("vp"), st.one_of(st.none(), N)),
    st.builds(o.Take, st.just("rebellion"), N,
              st.one_of(st.none(), st.builds(o.Rebel, REG, st.integers(0, 1),
                                             st.integers(0, 1)))),
    st.builds(o.Take, st.just("swap"), N, st.one_of(st.none(), st.builds(o.Swap, REG, SYM))),
    st.builds(o.Place, REG),
    st.just(o.Recruit()),
    st.builds(lambda s, m, r, p, u: o.PlayInfluence(s, s, m, r, p or m == "BOLSTER",
                                                     u and m == "SEIZE"),
              SYM, st.sampled_from(["BOLSTER", "SEIZE"]), REG, st.booleans(), st.booleans()),
    st.builds(lambda s, m, r, p, u: o.PlayInfluence("merlin", s, m, r, p or m == "BOLSTER",
                                                     u and m == "SEIZE"),
              SYM, st.sampled_from(["BOLSTER", "SEIZE"]), REG, st.booleans(), st.booleans()),
    st.builds(o.PlayStrength, SYM),
    st.builds(o.PlayMovement, st.just("mer"), st.just("wes"), st.integers(1, 5), N, N, N),
    st.builds(o.PlaySea, st.just("ken"), REG.filter(lambda r: r != "ken"), st.integers(1, 5), N),
    st.builds(o.PlayRecruit, st.sampled_from(["sea", "movement", "strength-castle"])),
    st.builds(o.PlayRecruit, st.sampled_from(["merlin", "serpent"]),
              st.sampled_from(["knight", "mage"])),
    st.builds(o.BidAnswer, N),
    st.builds(o.StandingBid, st.sampled_from(["vp", "any"]), N),
    st.builds(o.Serpent, st.sampled_from(["NEXT", "EVERY"]),
              st.sampled_from(["seize", "bolster", "any", "castle", "merlin", "strength-tent"]),
              st.one_of(st.none(), REG)),
    st.just(o.Serpent("NEVER")),
    st.builds(o.RetreatPref, st.sampled_from(["active", "passive", "mage", "knight"]),
              st.lists(REG, max_size=3).map(tuple)),
    st.just(o.RetreatPref("none")),
    st.just(o.Cancel()), st.just(o.Pass()),
    st.builds(o.Clear, st.sampled_from(["bid", "serpent", "retreat"])),
    EFFECT,
    st.builds(o.If, st.just("HOLD"), REG, st.builds(o.Place, REG)),
    st.builds(o.If, st.just("NOT HOLD"), REG,
              st.builds(o.PlayInfluence, st.just("key"), st.just("key"), st.just("SEIZE"), REG)),
    st.builds(o.If, st.sampled_from(["HOURGLASS >=", "HOURGLASS <=", "HOURGLASS ="]),
              st.integers(0, 8).map(str), st.just(o.Recruit())),
)
_STATE = standard_state()


@settings(max_examples=400, deadline=None)
@given(ORDERS)
def test_parse_of_str_is_identity(order: Any) -> None:
    assert parse_line(_STATE, str(order)) == order
    assert parse_line(_STATE, str(order).lower()) == order


def test_perft_pins() -> None:
    """Pinned numbers of legal single actions (regression guard)."""
    state = ex1(cycle_type="steel", held={"orange": ["castle", "tent", "movement", "sea"]},
                reserve={"orange": (1, 1)}, display=["castle", "vp"])
    acts = bot.legal_actions(state, "orange")
    counts = {}
    for a in acts:
        counts[type(a).__name__] = counts.get(type(a).__name__, 0) + 1
    # Counted by hand on EX1 (steel): TAKE castle, vp; PLACE a, g (3 units each), f;
    # influence: castle SEIZE d, tent BOLSTER a/g and SEIZE b; no movement (every orange
    # region borders only white ones); sea only from a (coastal, 2K 1M: 5 splits) to g or
    # f (no empty region): 10; recruit mode of movement and sea: 2.
    assert counts == {"Take": 2, "Place": 3, "Recruit": 1, "PlayInfluence": 4,
                      "PlaySea": 10, "PlayRecruit": 2}
    # magic: a and g share the tent marker: 6 x 6 - 1 = 35 movement splits
    state["cycle_type"] = "magic"
    assert len(bot.legal_actions(state, "orange")) == 2 + 3 + 1 + 4 + 35 + 10 + 2
    std = standard_state()
    seat = std["turn"]["seat"]
    types = {data.ttype(t) for t in std["display"]}
    assert len(types) == 5  # this seed: castle, merlin, movement, sea, serpent
    assert len(bot.legal_actions(std, seat)) == len(types) + 15 + 1 == 21


def test_parse_of_str_is_identity_for_the_orders_of_random_playouts() -> None:
    """Every line the random bot wrote in whole games (turns, bids, serpents, retreats,
    effects, standing orders) reads back to the same order from its canonical form."""
    seen: set[str] = set()
    for seed, options in ((10, {"decisions": "ask"}), (4, {})):
        p = play(RS, GameConfig(("orange", "white"), "standard", options), seed, keep=True)
        for before, after in zip(p.outcomes, p.outcomes[1:], strict=False):
            for seat, text in after.applied.items():
                for line in RS.parse(before.state, seat, text).lines:
                    assert line.ok, line.error
                    again = GRAMMAR.parse_line(before.state, seat, str(line.order))
                    assert again == line.order
                    seen.add(type(line.order).__name__)
    assert {"Take", "PlayInfluence", "BidAnswer", "Serpent"} <= seen
