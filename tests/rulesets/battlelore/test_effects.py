"""Lore card effects (effects.py): one handler per effect id of data/lore_cards.toml, the
rulebook's value notation, and the target checks made before a card is paid for."""

from __future__ import annotations

from pbem.rulesets.battlelore.data import data, lore_card
from pbem.rulesets.battlelore.effects import EFFECTS, halve, target_problem, value

from .helpers import lore_state, put


def test_every_lore_effect_in_the_data_has_a_handler() -> None:
    ids = {c["effect"] for c in data("lore_cards")["cards"].values()}
    assert ids and EFFECTS.missing(ids) == []
    assert EFFECTS.ids() == ids, "a handler for an effect no card has"


def test_tc43_tc60_notation_and_halving() -> None:
    assert [value("2/level+3", lv) for lv in (1, 2, 3)] == [5, 7, 9]
    assert [value("1/level-1", lv) for lv in (1, 2, 3)] == [0, 1, 2]
    assert value("2/level+0", 1) == 2 and value("2/level+0", 2) == 4
    assert halve(7) == 4 and halve(6) == 3


def test_tc50_a_movement_card_only_on_units_not_yet_moved() -> None:
    s = lore_state({"wizard": 1}, goblets=(9, 0))
    put(s, "N1", "north", "regular_infantry", (13, 7))
    put(s, "S1", "south", "regular_infantry", (25, 1))
    s["this_turn"]["ordered"] = ["N1"]
    assert target_problem(s, "north", lore_card("portal"), "N1", (13, 5), {}) is None
    s["this_turn"]["moved"]["N1"] = 1
    assert "already moved" in (target_problem(s, "north", lore_card("portal"), "N1", (13, 5),
                                              {}) or "")


def test_targets_are_checked_before_a_card_is_paid_for() -> None:
    s = lore_state({"wizard": 1, "cleric": 1}, goblets=(9, 0))
    put(s, "N1", "north", "regular_infantry", (13, 7), fig=4)
    put(s, "S1", "south", "regular_infantry", (25, 1))
    assert target_problem(s, "north", lore_card("heal"), "N1", None, {}) == \
        "N1 is at full strength"
    assert target_problem(s, "north", lore_card("fireball"), "N1", None, {}) == \
        "it needs an enemy unit (ON <unit>)"
    assert target_problem(s, "north", lore_card("creeping_doom"), "", None, {}) == \
        "it needs a hex (TO <hex>)"
    assert target_problem(s, "north", lore_card("move_as_the_wind"), "N1", None, {}) == \
        "N1 is not ordered"
