"""The effect registries (effects.py): every effect id in the data files has a handler."""

from __future__ import annotations

from pbem.rulesets.helios import data
from pbem.rulesets.helios.effects import BONUS_TILE_VP, BUILT, CHARACTER_VP


def test_every_effect_in_the_data_files_has_a_handler():
    assert BUILT.missing(b["ability"] for b in data.buildings().values()) == []
    assert CHARACTER_VP.missing(c["scoring"] for c in data.characters().values()) == []
    assert BONUS_TILE_VP.missing(data.BONUS_TYPES) == []
    # and no handler is dead weight
    assert BUILT.ids() == {b["ability"] for b in data.buildings().values()}
    assert CHARACTER_VP.ids() == {c["scoring"] for c in data.characters().values()}
    assert BONUS_TILE_VP.ids() == set(data.BONUS_TYPES)
