"""rules/victory.py: the thresholds (T27) and the control of empty counties."""

from __future__ import annotations

from pbem.rulesets.kard_es_korona.rules import economy
from pbem.rulesets.kard_es_korona.rules.victory import (
    CASTLES_TO_WIN,
    held_castles,
    provinces_to_win,
    update_claims,
)

from .helpers import bare, lord, put, step


def test_t27_victory_thresholds():
    assert [CASTLES_TO_WIN["basic"][n] for n in range(2, 7)] == [9, 7, 7, 6, 6]
    assert [CASTLES_TO_WIN["advanced"][n] for n in range(2, 7)] == [13, 11, 11, 9, 9]
    assert provinces_to_win(bare(("felvidek", "tiszahat"))) == 4
    assert provinces_to_win(bare(("felvidek", "erdely", "szlavonia"))) == 4
    assert provinces_to_win(bare(("erdely", "delvidek", "pannonia", "felvidek"))) == 3


def test_persistent_control_keeps_empty_counties_for_victory():
    for model, expected in (("presence", 0), ("persistent", 1)):
        s = bare(("felvidek", "tiszahat"), control_model=model)
        put(s, "trencsen", "felvidek", inf=1)
        put(s, "nyitra", "felvidek", inf=1)
        lord(s, "felvidek", "nyitra")
        update_claims(s)
        assert step(s, "felvidek", "MOVE TO nyitra FROM trencsen 1 inf")[0] == ""
        update_claims(s)
        assert len(held_castles(s, {"felvidek"})) == expected, model
        assert economy.income_of(s, "felvidek") == 1  # income follows the units
