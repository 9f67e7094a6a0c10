"""The components of Macht & Ohnmacht from `data/*.toml`: the map, the marker symbols, unit
and cycle numbers, and the catalogue of the 40 action tiles (each entry in the files names
its source: rulebook, public source or assumption).

Not here: anything that reads the state (board.py).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

Unit = Literal["mage", "knight"]
MAGE: Final = "mage"
KNIGHT: Final = "knight"
UNIT_TYPES: tuple[Unit, Unit] = (MAGE, KNIGHT)
MAGIC: Final = "magic"
STEEL: Final = "steel"
# Rulebook "Definíciók": mages are active in the magic cycle, knights in the steel cycle.
ACTIVE: dict[str, Unit] = {MAGIC: MAGE, STEEL: KNIGHT}
PASSIVE: dict[str, Unit] = {MAGIC: KNIGHT, STEEL: MAGE}
SEATS = ("orange", "white")


@cache
def _toml(name: str) -> dict[str, Any]:
    ref = resources.files(__package__).joinpath("data", name)
    return tomllib.loads(ref.read_text(encoding="utf-8"))


def map_data() -> dict[str, Any]:
    return _toml("map.toml")


def components() -> dict[str, Any]:
    return _toml("components.toml")


def symbols() -> list[str]:
    return [s["id"] for s in components()["symbol"]]


def symbol_info() -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in components()["symbol"]}


def unit_rules() -> dict[str, Any]:
    return components()["units"]


def cycle_rules() -> dict[str, Any]:
    return components()["cycle"]


@cache
def tile_catalogue() -> dict[str, dict[str, Any]]:
    """Every physical action tile by id: kind, symbol, lightning flag, recruit strip.

    Ids are `<type>_<n>`, e.g. `castle_3`, `strength-tent_1`, `movement_2`.
    """
    out: dict[str, dict[str, Any]] = {}
    for entry in components()["tile"]:
        ttype = tile_type_of(entry["kind"], entry.get("symbol"))
        for n in range(1, entry["count"] + 1):
            out[f"{ttype}_{n}"] = {
                "kind": entry["kind"], "symbol": entry.get("symbol"), "type": ttype,
                "lightning": bool(entry.get("lightning", False)),
                "recruit": entry.get("recruit"),
            }
    return out


def tile_type_of(kind: str, symbol: str | None) -> str:
    """The order-language name of a tile type: influence tiles by symbol ('castle'),
    strength tiles as 'strength-<symbol>', the others by kind ('sea', 'merlin')."""
    if kind == "influence":
        assert symbol is not None
        return symbol
    if kind == "strength":
        return f"strength-{symbol}"
    return kind


@cache
def tile_types() -> tuple[str, ...]:
    seen: list[str] = []
    for info in tile_catalogue().values():
        if info["type"] not in seen:
            seen.append(info["type"])
    return tuple(seen)


def lightning_types() -> list[str]:
    """The tile types auctioned when taken (their effects: effects.py)."""
    return [t for t in tile_types() if type_info(t)["lightning"]]


def tile(tile_id: str) -> dict[str, Any]:
    return tile_catalogue()[tile_id]


def ttype(tile_id: str) -> str:
    """The type of a tile id (`castle_3` -> `castle`): ids are `<type>_<n>`."""
    return tile_id.rpartition("_")[0]


@cache
def type_info(tile_type: str) -> dict[str, Any]:
    """Kind/symbol/lightning/recruit of a tile type (all tiles of a type are alike)."""
    for info in tile_catalogue().values():
        if info["type"] == tile_type:
            return info
    raise KeyError(tile_type)


def first_of_type(tiles: list[str], tile_type: str) -> str | None:
    """The first tile id of that type (in sorted order), or None."""
    return min((t for t in tiles if t.rpartition("_")[0] == tile_type), default=None)


def tile_name(tile_type: str) -> str:
    """Display name of a tile type, e.g. 'Castle influence', 'Strength (tent)'."""
    if tile_type in symbols():
        return f"{tile_type.capitalize()} influence"
    if tile_type.startswith("strength-"):
        return f"Strength ({tile_type.split('-', 1)[1]})"
    return {"sea": "Sea voyage", "vp": "Victory point", "swap": "Marker swap"}.get(
        tile_type, tile_type.capitalize())


def unit_word(unit: str, n: int) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def units_text(knights: int, mages: int) -> str:
    parts = []
    if knights:
        parts.append(unit_word(KNIGHT, knights))
    if mages:
        parts.append(unit_word(MAGE, mages))
    return " and ".join(parts) or "no units"
