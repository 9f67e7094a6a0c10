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

from pbem.core.i18n import Msg, _, join, n_

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


# The names players read (messages, so a report shows them in the reader's language).
_SYMBOL_TILES = {"castle": _("Castle influence"), "helmet": _("Helmet influence"),
                 "tent": _("Tent influence"), "key": _("Key influence")}
_KIND_NAMES = {"sea": _("Sea voyage"), "vp": _("Victory point"), "swap": _("Marker swap"),
               "movement": _("Movement"), "merlin": _("Merlin"), "serpent": _("Serpent"),
               "rebellion": _("Rebellion")}
# Words the view carries as data (markers, tile types, cycles, units, decisions): the
# report templates translate them with the `term` filter.
TERMS = {"castle": _("castle"), "helmet": _("helmet"), "tent": _("tent"), "key": _("key"),
         "magic": _("magic"), "steel": _("steel"), "mage": _("mage"), "knight": _("knight"),
         "sea": _("sea"), "vp": _("vp"), "swap": _("swap"), "movement": _("movement"),
         "merlin": _("merlin"), "serpent": _("serpent"), "rebellion": _("rebellion"),
         "strength-castle": _("strength-castle"), "strength-helmet": _("strength-helmet"),
         "strength-tent": _("strength-tent"), "strength-key": _("strength-key"),
         "bid": _("bid"), "effect": _("effect"), "retreat": _("retreat")}


def term(word: str | None) -> Msg | str:
    """A marker, tile type, cycle or unit word as a message ('castle'); other text as is."""
    return TERMS.get(word or "", word or "")


def tile_name(tile_type: str) -> Msg:
    """Display name of a tile type, e.g. 'Castle influence', 'Strength (tent)'."""
    if tile_type in _SYMBOL_TILES:
        return _SYMBOL_TILES[tile_type]
    if tile_type.startswith("strength-"):
        return _("Strength ({symbol})", symbol=term(tile_type.split("-", 1)[1]))
    return _KIND_NAMES.get(tile_type) or Msg(tile_type.capitalize())


def unit_word(unit: str, n: int) -> Msg:
    if unit == KNIGHT:
        return n_("{n} knight", "{n} knights", n)
    return n_("{n} mage", "{n} mages", n)


def units_text(knights: int, mages: int) -> Msg:
    if knights and mages:
        return _("{knights} and {mages}", knights=unit_word(KNIGHT, knights),
                 mages=unit_word(MAGE, mages))
    if knights:
        return unit_word(KNIGHT, knights)
    if mages:
        return unit_word(MAGE, mages)
    return _("no units")


def listed(items: list[Any], sep: str = ", ") -> Msg | str:
    """Items shown together, each translated; an empty list is no text at all (an empty
    message would be looked up as the catalog's header)."""
    return join(items, sep) if items else ""


def both(items: list[Any]) -> Any:
    """One name, or two joined by 'and' (seats that score, win or tie)."""
    return _("{a} and {b}", a=items[0], b=items[1]) if len(items) == 2 else items[0]


def either(items: list[Any]) -> Any:
    """Choices shown as 'a or b or c' (each 'or' a message)."""
    out = items[0]
    for item in items[1:]:
        out = _("{a} or {b}", a=out, b=item)
    return out
