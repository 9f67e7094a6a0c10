"""Positions (state.py's declared shape, position.py): every state of the golden replays
round-trips through its text, a bad position gets one line naming the field, and the
invariants a GM may confirm are reported as warnings."""

from __future__ import annotations

import pytest

from pbem.core.engine import canonical_json
from pbem.core.kit import PositionError
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.battlelore.data import SEATS

from .helpers import R, blank, put

GOLDEN_GAMES = [("agincourt", 0, {}), ("spiders_lair", 11, {"decisions": "ask"})]


@pytest.mark.parametrize("variant,seed,options", GOLDEN_GAMES)
def test_every_state_of_the_golden_replays_round_trips(variant: str, seed: int,
                                                       options: dict[str, str]) -> None:
    p = play(R, GameConfig(SEATS, variant, options), seed, keep=True)
    paused = 0
    for out in p.outcomes:
        text = R.dump_position(out.state)
        back = R.load_position(text)
        assert canonical_json(R.dump(back)) == out.state_json  # state -> text -> state
        assert R.dump_position(back) == text  # text -> state -> text
        paused += out.state["pause"] is not None
    assert paused or not options, "the ask-mode replay paused for a decision"


def _text() -> str:
    s = blank()
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (13, 3))
    return R.dump_position(s)


@pytest.mark.parametrize("old,new,message", [
    ('phase = "turn"', 'phase = "lunch"',
     "position: phase: expected 'council' or 'keep' or 'place' or 'turn' or 'over', got 'lunch'"),
    ("hex = [13, 7]", "hex = [13, 8]", "position: units.N1.hex: [13, 8] is not a hex"),
    ("hex = [13, 7]", "hex = [13, 3]", "position: units.S1.hex: [13, 3] also holds N1"),
    ('type = "regular_infantry"', 'type = "dragon"',
     "position: units.N1.type: 'dragon' is not a unit type"),
    ('active = "north"', 'active = "east"', "position: active: 'east' is not a seat"),
    ("figures = 4", 'figures = "four"', "position: units.N1.figures: expected a whole number"),
    ("webbed = false", "wobbly = false", "position: units.N1.wobbly: unknown field"),
])
def test_a_bad_position_gets_one_line_naming_the_field(old: str, new: str,
                                                       message: str) -> None:
    text = _text()
    assert old in text
    with pytest.raises(PositionError) as err:
        R.load_position(text.replace(old, new, 1))
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_invariants_a_gm_may_confirm_are_warnings() -> None:
    s = blank()
    put(s, "N1", "north", "regular_infantry", (13, 7))
    warnings = R.position_warnings(s)
    assert any(w.startswith("banners.north: 0, but south lost") for w in warnings)
    assert R.position_problems(s) == []
