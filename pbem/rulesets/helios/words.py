"""The game's words that come as data (a colour, a land type, a building...) as messages,
so a report shows them in the reader's language: `term("sun_hut")` is the message "sun hut".
The rulebook prints some ids as they are ("fortune_teller"); `idterm` is that word, the
same in English as before, translated all the same. Cells, seats and order lines stay as
they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.core.i18n import Msg, _, join

TERMS: dict[str, Msg] = {
    # resource colours (rulebook p. 2) and action tile colours (areas under the board)
    "brown": _("brown"), "grey": _("grey"), "green": _("green"), "blue": _("blue"),
    "black": _("black"), "red": _("red"), "yellow": _("yellow"),
    # land types
    "redwood": _("redwood"), "granite": _("granite"), "bamboo": _("bamboo"),
    "spring": _("spring"), "obsidian": _("obsidian"),
    # bonus tile types
    "empty_spaces": _("empty spaces"), "prepared_land": _("prepared land"),
    "resources": _("resources"), "temples": _("temples"),
    # action symbols (the three columns)
    "land": _("land"), "build": _("build"), "sun": _("sun"),
    # city buildings
    "observatory": _("observatory"), "shrine": _("shrine"), "sun_hut": _("sun hut"),
    "sacred_grove": _("sacred grove"), "power_plant": _("power plant"),
    "town_hall": _("town hall"), "citadel": _("citadel"), "clock_tower": _("clock tower"),
    "bazaar": _("bazaar"), "warehouse": _("warehouse"), "estate_manager": _("estate manager"),
    "palace": _("palace"),
    # characters
    "architect": _("architect"), "inventor": _("inventor"), "priestess": _("priestess"),
    "explorer": _("explorer"), "fortune_teller": _("fortune teller"),
    "cartographer": _("cartographer"), "princess": _("princess"), "treasurer": _("treasurer"),
    # a character's side, a cost's neutral symbol
    "active": _("active"), "hired": _("hired"), "any": _("any"), "bonus": _("bonus"),
}

# The ids with an underscore, shown as they are (see the module's doc).
IDS: dict[str, Msg] = {
    "sun_hut": _("sun_hut"), "sacred_grove": _("sacred_grove"),
    "power_plant": _("power_plant"), "town_hall": _("town_hall"),
    "clock_tower": _("clock_tower"), "estate_manager": _("estate_manager"),
    "fortune_teller": _("fortune_teller"), "empty_spaces": _("empty_spaces"),
    "prepared_land": _("prepared_land"),
}


def term(word: Any) -> Any:
    """The word as a message (spaces for underscores); anything else as it is."""
    return TERMS.get(word, word) if isinstance(word, str) else word


def idterm(word: str) -> Any:
    """The id as the rulebook data spells it ("fortune_teller"), as a message."""
    return IDS.get(word) or term(word)


def terms(words: Iterable[str], sep: str = ", ") -> Msg:
    return join([term(w) for w in words], sep)


def idterms(words: Iterable[str], sep: str = ", ") -> Msg:
    return join([idterm(w) for w in words], sep)
