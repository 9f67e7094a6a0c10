"""The static data of Kard és Korona: the data files (`data/*.toml`: maps, provinces, event
cards, picture layout) and the fixed tables of the rulebook (arms, movement points, offices).

Each data-file entry says its source (rulebook, spec or assumption). Read once, never
changed. Not here: the map's geometry (`board.py`) and anything that depends on a game.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.names import NameIndex

ARMS: tuple[str, ...] = ("cav", "inf", "arch")
ARM_NAMES = {"cav": _("cavalry"), "inf": _("infantry"), "arch": _("archer")}
# The arm ids (and the lord) as a report shows them next to a count ("2 cav").
ARM_WORDS = {"cav": _("cav"), "inf": _("inf"), "arch": _("arch"), "lord": _("lord")}
ARM_ALIASES = {
    "cav": ("c", "cavalry", "cavalries", "horse", "knight", "knights", "l", "lovas", "lovasok",
            "lovag", "lovagok"),
    "inf": ("i", "inf", "infantry", "foot", "gy", "gyalogos", "gyalogosok", "gyalog"),
    "arch": ("a", "archer", "archers", "arch", "ij", "ijasz", "ijaszok", "ijász", "íjászok"),
}
# Rulebook p. 4: cavalry and the lord 4 MP, infantry and archers 2 MP; spec 2.2.
MP = {"cav": 4, "inf": 2, "arch": 2, "lord": 4}
OFFICES: tuple[str, ...] = ("judge", "treasurer", "palatine")
OFFICE_NAMES = {"judge": _("Judge Royal (Országbíró)"),
                "treasurer": _("Master of the Treasury (Tárnokmester)"),
                "palatine": _("Palatine (Nádor)")}
# The office ids as players read them in reports (the ids stay the order keywords).
OFFICE_WORDS = {"judge": _("judge"), "treasurer": _("treasurer"), "palatine": _("palatine")}
BATTLE_KINDS = {"open": _("open"), "terrain": _("terrain"), "siege": _("siege")}
TERRAINS = {"plain": _("plain"), "castle": _("castle"), "mountain": _("mountain"),
            "swamp": _("swamp")}
OFFICE_ALIASES = {
    "judge": ("judge royal", "orszagbiro", "biro", "jr"),
    "treasurer": ("treasury", "master of the treasury", "tarnokmester", "tarnok", "mt"),
    "palatine": ("nador", "pal"),
}
# Battle types of the instructions (LEAD/TARGET): plain, mountain/swamp, castle, the volley.
KINDS = ("open", "terrain", "siege", "volley")
KIND_ALIASES = {"open": ("nyilt", "field"), "terrain": ("hegy", "mocsar", "mountain", "swamp"),
                "siege": ("ostrom", "castle"), "volley": ("sortuz", "ijaszsortuz"),
                "all": ("any", "mind")}
CENTRE = "kiralyi"

ARM_INDEX = NameIndex({k: list(v) for k, v in ARM_ALIASES.items()}, what=_("arm"))
OFFICE_INDEX = NameIndex({k: list(v) for k, v in OFFICE_ALIASES.items()}, what=_("office"))
KIND_INDEX = NameIndex({k: list(v) for k, v in KIND_ALIASES.items()}, what=_("battle type"))


def read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def provinces_data() -> dict[str, Any]:
    return read("provinces.toml")


@cache
def events_data() -> tuple[dict[str, Any], ...]:
    return tuple(read("events.toml")["card"])


# The English gloss after each card's (Hungarian) name: a message, so that a Hungarian
# report shows what the card does instead (the data file's `english` says the same).
CARD_GLOSS: dict[str, Msg] = {
    "kiralyvalasztas": _("King election"), "cehek": _("The guilds grow strong"),
    "parasztlazadas": _("Peasant revolt"), "pestis": _("Plague"),
    "veres_kard": _("The bloody sword"), "esos_osz": _("Rainy autumn"),
    "szuret": _("Vintage"), "bo_termes": _("Rich harvest"), "rossz_termes": _("Poor harvest"),
    **{f"quiet_{n}": _("Quiet year (card {n})", n=n) for n in range(10, 17)},
}


@cache
def card(card_id: str) -> dict[str, Any]:
    for c in events_data():
        if c["id"] == card_id:
            return c
    raise KeyError(card_id)


def ring() -> list[str]:
    """The lords' provinces clockwise (the seating order)."""
    return list(provinces_data()["ring"])


def province_name(pid: str) -> str:
    return str(provinces_data()["province"][pid]["name"])


def lord_name(pid: str) -> str:
    return str(provinces_data()["province"][pid]["lord"])


def colour(pid: str) -> str:
    return str(provinces_data()["province"][pid]["colour"])
