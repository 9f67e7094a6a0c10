"""Positions (position.py and the kit's TOML positions): every state of the golden replay
round-trips through its text (state -> text -> state identical, text -> state -> text
identical), bad positions get one line naming the field, and the invariants a GM may
confirm are reported."""

from __future__ import annotations

import json

import pytest

from pbem.core.engine import canonical_json
from pbem.core.kit import PositionError
from pbem.rulesets.cherubion import RULESET

from .helpers import build, place, two
from .test_golden import SEED, transcript


def test_every_state_of_the_golden_replay_round_trips_through_its_position() -> None:
    _, pl = transcript(SEED)
    paused = 0
    for out in pl.outcomes:
        text = RULESET.dump_position(out.state)
        back = RULESET.load_position(text)
        assert canonical_json(RULESET.dump(back)) == out.state_json
        assert RULESET.dump_position(back) == text
        assert RULESET.position_problems(back) == []
        assert RULESET.position_warnings(back) == []
        paused += out.state["pause"] is not None
    assert paused >= 4, "the replay stops for questions"


def _text() -> str:
    st = two()
    place(st, ME1="K8", CH1="B8")
    return RULESET.dump_position(st)


@pytest.mark.parametrize("edit,message", [
    (('phase = "turn"', 'phase = "dance"'),
     "position: phase: expected 'draft' or 'place' or 'turn' or 'over', got 'dance'"),
    (('loc = "K8"', 'loc = "Z99"'),
     "position: pieces.ME1.loc: 'Z99' is not a place: a field, base:<side>, prison:<seat>, "
     "nml or gone"),
    (("ep = 60\n", 'ep = "sixty"\n'), "position: pieces.CH1.ep: expected a whole number, got 'sixty'"),
    (('active = "alpha"', 'active = "zeta"'), "position: active: 'zeta' is not a seat"),
    (("board_size = 6", "board_size = 5"), "position: board_size: 5 is not a board"),
    (("turn_no = 0", "turns_no = 0"), "position: turns_no: unknown field"),
    (('owner = "alpha"\n', 'owner = "omega"\n'), "position: pieces."),
])
def test_a_bad_position_gets_one_line_naming_the_field(edit: tuple[str, str],
                                                        message: str) -> None:
    text = _text()
    assert edit[0] in text
    with pytest.raises(PositionError) as err:
        RULESET.load_position(text.replace(edit[0], edit[1], 1))
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_warnings_name_broken_invariants() -> None:
    st = two()
    st["players"]["alpha"]["deck_size"] = 5
    st["players"]["alpha"]["hand"] = ["n01", "n02"]
    st["pieces"]["ME1"]["ep"] = 99
    st["pieces"].pop("CH10")
    warnings = RULESET.position_warnings(RULESET.load(json.loads(json.dumps(st))))
    assert "pieces: team choler has 9 pieces, not 10" in warnings
    assert "pieces.ME1.ep: 99 is above its maximum 60" in warnings
    assert "players.alpha: 2 cards accounted for, but the deck registered 5" in warnings


def test_a_paused_state_is_judged_by_the_state_its_step_began_with() -> None:
    st = build({"alpha": "melan", "beta": "choler"}, {"alpha": 4, "beta": 1},
               options={"decisions": "ask"})
    snapshot = json.loads(json.dumps(st))
    st["players"]["alpha"]["deck_size"] = 3  # mid-resolution: a card paid, not resolved
    st["pause"] = {"phase": "turn", "snapshot": snapshot, "script": {}, "answers": [],
                   "late": [], "dice": [], "emitted": 0, "questions": []}
    assert RULESET.position_warnings(st) == []
    text = RULESET.dump_position(st)
    assert RULESET.dump_position(RULESET.load_position(text)) == text
