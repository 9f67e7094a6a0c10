"""Positions (position.py and the declared state shape): every state of the golden replay
and of ask-mode playouts round-trips through its text; bad positions get one line naming
the field."""

from __future__ import annotations

import pytest

from pbem.core.engine import canonical_json
from pbem.core.kit import PositionError
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.kard_es_korona.rules.setup import DEFAULT_SEATS

from .helpers import RULESET, bare, lord, put

GAMES = [(("felvidek", "erdely", "szlavonia"), "advanced", {}, 1),  # the golden replay
         (DEFAULT_SEATS[4], "basic", {"decisions": "ask"}, 3),
         (DEFAULT_SEATS[3], "advanced", {"movement": "strict", "decisions": "ask"}, 5)]


@pytest.mark.parametrize("seats,variant,options,seed", GAMES)
def test_every_state_round_trips_through_its_position(seats, variant, options, seed):
    game = play(RULESET, GameConfig(seats, variant, options), seed, keep=True)
    paused = 0
    for out in game.outcomes:
        text = RULESET.dump_position(out.state)
        back = RULESET.load_position(text)
        assert canonical_json(RULESET.dump(back)) == out.state_json
        assert RULESET.dump_position(back) == text
        assert RULESET.position_warnings(back) == []
        paused += out.state["pause"] is not None
    assert paused > 0, "a question was open at least once"


def _text():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=2)
    lord(s, "felvidek", "trencsen")
    return RULESET.dump_position(s)


@pytest.mark.parametrize("old,new,message", [
    ('phase = "orders"', 'phase = "dance"',
     "position: phase: expected 'deploy' or 'orders' or 'bid' or 'over', got 'dance'"),
    ("year = 1302", 'year = "1302"', "position: year: expected a whole number, got '1302'"),
    ("year = 1302", "years = 1302", "position: years: unknown field"),
    ('start = "felvidek"', 'start = "erdely"', "position: start: 'erdely' is not a seat"),
    ("board.trencsen", "board.kassa", "position: board.kassa: no such county"),
    ('owner = "felvidek"', 'owner = "turks"', "position: board.trencsen.owner: 'turks'"),
    ('lord = "trencsen"', 'lord = "vienna"', "position: players.felvidek.lord: 'vienna'"),
])
def test_a_bad_position_gets_one_line_naming_the_field(old, new, message):
    text = _text()
    assert old in text
    with pytest.raises(PositionError) as err:
        RULESET.load_position(text.replace(old, new))
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_warnings_name_broken_invariants():
    s = bare(("felvidek", "tiszahat"))
    put(s, "trencsen", "felvidek", inf=8)
    lord(s, "felvidek", "trencsen")
    s["deck"].pop()
    warnings = RULESET.position_warnings(s)
    assert "board.trencsen: more than 7 units in a castle county (rulebook p. 3)" in warnings
    assert any(w.startswith("deck:") for w in warnings)
    assert "players.tiszahat.lord: the lord stands without his units" in warnings
