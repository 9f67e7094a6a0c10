"""Positions (position.py, the kit's TOML notation): every state of the golden replays
round-trips, and a bad position gets one line naming the field."""

from __future__ import annotations

import re

import pytest

from pbem.core.engine import canonical_json
from pbem.core.kit import PositionError
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.helios import RULESET

from .helpers import SEATS, new_game


@pytest.mark.parametrize("n,seed,options", [(2, 11, {}), (3, 12, {}), (4, 13, {}),
                                            (4, 3, {"decisions": "ask", "phase2": "turns"})])
def test_every_state_of_a_replay_round_trips(n, seed, options):
    pl = play(RULESET, GameConfig(SEATS[n], "standard", options), seed, keep=True)
    paused = 0
    for out in pl.outcomes:
        text = RULESET.dump_position(out.state)
        back = RULESET.load_position(text)
        assert canonical_json(RULESET.dump(back)) == out.state_json
        assert RULESET.dump_position(back) == text
        assert RULESET.position_warnings(back) == []
        paused += out.state["pause"] is not None
    assert paused or not options, "the ask-mode replay paused for a decision"


def _bad(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_a_bad_position_gets_one_line_naming_the_field():
    text = RULESET.dump_position(new_game(2, start="north"))
    cases = {
        _bad(text, 'phase = "actions"', 'phase = "lunch"'):
            "position: phase: expected 'setup' or 'actions' or 'characters' or 'over'",
        _bad(text, "sun_value = 2", 'sun_value = "two"'):
            "position: players.east.sun_value: expected a whole number, got 'two'",
        _bad(text, "round = 1", "rounds_played = 1"): "position: rounds_played: unknown field",
        _bad(text, 'start = "north"', 'start = "south"'): "position: start: 'south' is not a seat",
        _bad(text, 'type = "granite"', 'type = "marble"'):
            "position: players.east.tiles.0,0.type: 'marble' is not a land tile type",
        _bad(text, 'cubes = ["grey"]', 'cubes = ["grey", "blue", "black"]'):
            "position: players.east.tiles.0,0.cubes: a tile holds at most 2 resources",
        re.sub(r'(\[columns\]\n(?:.*\n){2}sun = \[)"\w+"', r'\1"pink"', text):
            "position: columns.sun: 'pink' is not an action tile colour",
        _bad(text, "[players.north.tiles.\"0,0\"]", "[players.north.tiles.\"4,0\"]"):
            "position: players.north.tiles.4,0: tiles go on light cells only",
    }
    for bad, message in cases.items():
        with pytest.raises(PositionError) as err:
            RULESET.load_position(bad)
        assert str(err.value).startswith(message), str(err.value)
        assert "\n" not in str(err.value)


def test_warnings_name_broken_counts():
    state = new_game(2, start="north")
    assert RULESET.position_warnings(state) == []
    state["columns"]["sun"].append("red")
    state["bonus_supply"]["temples"] = 3
    state["players"]["north"]["temples"] = 1
    warnings = RULESET.position_warnings(state)
    assert any(w.startswith("sun action tiles: expected 4 of each colour") for w in warnings)
    assert any(w.startswith("bonus_supply.temples: 3 temples tiles") for w in warnings)
    assert "players.north.temples: 1, but 0 tiles carry a temple" in warnings
