"""BattleLore's game data: the TOML files in data/ and the fixed numbers of the rulebook.

data/units.toml (unit types, weapons), terrain.toml (terrain and landmark rules),
command_cards.toml (the Command deck), lore_cards.toml (the Lore deck and its classes),
scenarios.toml (adventures). Each entry says whether it comes from the rulebook, a public
source or an assumption. Not here: the state (state.py), rules (rules/).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from pbem.core.i18n import Msg

SEATS = ("north", "south")
FULL = {"foot": 4, "mounted": 3, "creature": 1}  # figures of a full unit, p.6, p.43
BASE_DICE = {"green": 2, "blue": 3, "red": 4}  # p.12
MOVE = {("foot", "green"): 2, ("foot", "blue"): 2, ("foot", "red"): 1,
        ("mounted", "green"): 4, ("mounted", "blue"): 3, ("mounted", "red"): 2}  # p.9-10
FACES = {1: "G", 2: "B", 3: "R", 4: "BS", 5: "F", 6: "L"}  # spec §2.3; die value -> face
FACE_NAMES = {"G": "green helmet", "B": "blue helmet", "R": "red helmet",
              "BS": "bonus strike", "F": "flag", "L": "lore"}
COLOUR_FACE = {"green": "G", "blue": "B", "red": "R"}
MASTERS = ("commander", "wizard", "cleric", "rogue", "warrior")
LORE_CLASSES = ("wizard", "cleric", "rogue", "warrior")
LANDMARKS = ("pentagram", "hideout", "training_camp", "healing_spring", "stronghold")


@cache
def data(name: str) -> dict[str, Any]:
    text = resources.files("pbem.rulesets.battlelore").joinpath("data", f"{name}.toml").read_text(
        encoding="utf-8")
    return _names_as_terms(tomllib.loads(text))


def term(word: str) -> Msg:
    """A word of the game's data (a name, a colour, a face) as a message: terms.py lists
    each one with `_()`, so the catalog has it and the report shows it translated."""
    return word if isinstance(word, Msg) else Msg(word)


def _names_as_terms(x: Any) -> Any:
    """Every `name` (and an adventure's `sides`) of the data as a message: a `Msg` is its
    English text, so code that compares or prints it is unchanged."""
    if isinstance(x, dict):
        return {k: term(v) if k == "name" and isinstance(v, str)
                else {s: term(n) for s, n in v.items()} if k == "sides"
                else _names_as_terms(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_names_as_terms(v) for v in x]
    return x


def unit_type(type_id: str) -> dict[str, Any]:
    t: dict[str, Any] = data("units")["types"][type_id]
    return t


def weapon_of(type_id: str) -> dict[str, Any]:
    w: dict[str, Any] = data("units")["weapons"][unit_type(type_id)["weapon"]]
    return w


def terrain_data(kind: str) -> dict[str, Any]:
    t: dict[str, Any] = data("terrain")[kind]
    return t


@cache
def command_card(card_id: str) -> dict[str, Any]:
    """A Command card's data with its id (do not change the returned dict: it is shared)."""
    return {"id": card_id, **data("command_cards")[card_id]}


def card_name(card_id: str) -> Msg:
    return term(data("command_cards")[card_id]["name"])


def full_deck() -> list[str]:
    out: list[str] = []
    for cid, c in data("command_cards").items():
        out += [cid] * int(c["copies"])
    return sorted(out)


@cache
def lore_card(card_id: str) -> dict[str, Any]:
    """A Lore card's data with its id (shared: do not change it)."""
    return {"id": card_id, **data("lore_cards")["cards"][card_id]}


def scenario(variant: str) -> dict[str, Any]:
    sc: dict[str, Any] = data("scenarios")[variant]
    return sc
