"""Helios static data: the player board, components, buildings and characters.

Read once from the package's TOML files (importlib.resources); nothing here is state.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any


def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def board() -> dict[str, Any]:
    return _load("board.toml")


@cache
def components() -> dict[str, Any]:
    return _load("components.toml")


@cache
def buildings() -> dict[str, Any]:
    return _load("buildings.toml")


@cache
def characters() -> dict[str, Any]:
    return _load("characters.toml")


COLOURS: tuple[str, ...] = tuple(components()["colours"]["order"])
LANDS: tuple[str, ...] = tuple(components()["lands"]["order"])
LAND_COLOUR: dict[str, str] = dict(components()["lands"]["colour"])
STARTING_LANDS: tuple[str, ...] = tuple(components()["lands"]["starting"])
BONUS_TYPES: tuple[str, ...] = tuple(components()["bonus_tiles"]["order"])
SYMBOLS: tuple[str, ...] = tuple(components()["actions"]["order"])
TILE_COLOURS: tuple[str, ...] = tuple(components()["actions"]["colours"])
AREAS: tuple[str, ...] = tuple(components()["areas"]["order"])
BUILDINGS: tuple[str, ...] = tuple(buildings())
CHARACTERS: tuple[str, ...] = tuple(characters())


def player_count(n: int) -> dict[str, Any]:
    return components()["player_counts"][str(n)]
