"""The card effect registry (effects.py, rules/reactions.py ANSWERS): every effect id named
in data/cards.toml has exactly one handler, and the registries hold no effect no card
has."""

from __future__ import annotations

from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.rules.cards import EFFECTS, TARGETS
from pbem.rulesets.cherubion.rules.reactions import ANSWERS


def test_every_effect_of_the_card_data_has_a_handler() -> None:
    named = {c["effect"] for c in data.cards().values()}
    assert EFFECTS.missing(named - ANSWERS.ids()) == []
    assert not EFFECTS.ids() & ANSWERS.ids(), "an effect is handled twice"
    assert (EFFECTS.ids() | ANSWERS.ids()) == named, "a handler no card uses"
    assert set(TARGETS) == named
