"""The board of Macht & Ohnmacht: component data, adjacency, control and the seize count.

Pure helpers over the state dict (see `state.py` for its layout). Data comes from
`data/*.toml` (read with importlib.resources); nothing here changes the state except the
small unit-moving helpers at the end, which keep the one-owner invariant.
Not here: actions (actions.py), tile effects (tiles.py), cycles (cycle.py).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

State = dict[str, Any]

MAGE = "mage"
KNIGHT = "knight"
UNIT_TYPES = (MAGE, KNIGHT)
MAGIC = "magic"
STEEL = "steel"
# Rulebook "Definíciók": mages are active in the magic cycle, knights in the steel cycle.
ACTIVE = {MAGIC: MAGE, STEEL: KNIGHT}
PASSIVE = {MAGIC: KNIGHT, STEEL: MAGE}
SEATS = ("orange", "white")
LIGHTNING_KINDS = ("vp", "rebellion", "swap")
RECRUIT_KINDS = ("strength", "movement", "sea", "merlin", "serpent")


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


def tile_types() -> list[str]:
    seen: list[str] = []
    for info in tile_catalogue().values():
        if info["type"] not in seen:
            seen.append(info["type"])
    return seen


def tile(tile_id: str) -> dict[str, Any]:
    return tile_catalogue()[tile_id]


def ttype(tile_id: str) -> str:
    return tile_catalogue()[tile_id]["type"]


def type_info(tile_type: str) -> dict[str, Any]:
    """Kind/symbol/lightning/recruit of a tile type (all tiles of a type are alike)."""
    for info in tile_catalogue().values():
        if info["type"] == tile_type:
            return info
    raise KeyError(tile_type)


def first_of_type(tiles: list[str], tile_type: str) -> str | None:
    for t in sorted(tiles):
        if ttype(t) == tile_type:
            return t
    return None


# --- the state's board ------------------------------------------------------------------

def opponent(state: State, seat: str) -> str:
    a, b = state["seats"]
    return b if seat == a else a


def active_type(state: State, ctype: str | None = None) -> str:
    return ACTIVE[ctype or state["cycle_type"]]


def passive_type(state: State, ctype: str | None = None) -> str:
    return PASSIVE[ctype or state["cycle_type"]]


def region_ids(state: State) -> list[str]:
    return sorted(state["regions"])


def units_in(state: State, rid: str) -> int:
    r = state["regions"][rid]
    return r[MAGE] + r[KNIGHT]


def owner(state: State, rid: str) -> str | None:
    return state["regions"][rid]["owner"]


def neighbours(state: State, rid: str, ctype: str | None = None) -> list[str]:
    """Regions adjacent to `rid` in the given (default: current) cycle.

    Rulebook "Szomszédság": in the steel cycle regions sharing a border are adjacent
    (markers ignored); in the magic cycle regions with the same region marker are
    adjacent wherever they lie (borders ignored). Spec §5.1.
    """
    ctype = ctype or state["cycle_type"]
    if ctype == STEEL:
        return sorted(state["map"][rid]["borders"])
    marker = state["regions"][rid]["marker"]
    return sorted(r for r, reg in state["regions"].items() if r != rid and reg["marker"] == marker)


def adjacent(state: State, a: str, b: str) -> bool:
    return b in neighbours(state, a)


def is_active_region(state: State, rid: str, ctype: str | None = None) -> bool:
    """Rulebook: a region is active if it holds more active than passive units; equal
    numbers make it not active. Spec §5.1."""
    r = state["regions"][rid]
    act, pas = ACTIVE[ctype or state["cycle_type"]], PASSIVE[ctype or state["cycle_type"]]
    return r["owner"] is not None and r[act] > r[pas]


def controlled(state: State, seat: str) -> list[str]:
    return [r for r in region_ids(state) if state["regions"][r]["owner"] == seat]


def active_regions(state: State, seat: str, ctype: str | None = None) -> list[str]:
    return [r for r in controlled(state, seat) if is_active_region(state, r, ctype)]


def empty_or_own(state: State, rid: str, seat: str) -> bool:
    return state["regions"][rid]["owner"] in (None, seat)


def seize_count(state: State, attacker: str, target: str) -> tuple[int, int]:
    """(attack, defence) for a seize of `target` by `attacker`. Spec §5.7; rulebook
    "Megszerzés": the attacker counts his active units in adjacent regions, minus the
    defender's active units in adjacent regions and all (active and passive) defender
    units in the region itself; the seize succeeds if the result is 1 or more. Passive
    units next door count for nobody. Strength tiles add +1 per tile to either side for
    the target's symbol ("Erő", spec §5.6.2)."""
    att, dfn = seize_parts(state, attacker, target)
    return sum(n for _, n in att), sum(n for _, n in dfn)


def seize_parts(state: State, attacker: str, target: str
                ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The terms of the seize count (see seize_count), each as (what, number), so a
    report can show how the count was made."""
    defender = opponent(state, attacker)
    act = active_type(state)
    marker = state["regions"][target]["marker"]
    att: list[tuple[str, int]] = []
    dfn: list[tuple[str, int]] = []
    here = units_in(state, target)
    if here:
        dfn.append((f"in {region_name(state, target)} {here} unit{'' if here == 1 else 's'}", here))
    for rid in neighbours(state, target):
        reg = state["regions"][rid]
        if reg["owner"] == attacker and reg[act]:
            att.append((f"{region_name(state, rid)} {unit_word(act, reg[act])}", reg[act]))
        elif reg["owner"] == defender and reg[act]:
            dfn.append((f"{region_name(state, rid)} {unit_word(act, reg[act])}", reg[act]))
    for side, seat in ((att, attacker), (dfn, defender)):
        bonus = state["strength"][seat].get(marker, 0)
        if bonus:
            side.append((f"strength +{bonus}", bonus))
    return att, dfn


def add_units(state: State, rid: str, seat: str, unit: str, n: int) -> None:
    reg = state["regions"][rid]
    if n <= 0:
        return
    if reg["owner"] not in (None, seat):
        raise AssertionError(f"{seat} units into {rid}, held by {reg['owner']}")
    reg[unit] += n
    reg["owner"] = seat


def remove_units(state: State, rid: str, unit: str, n: int) -> None:
    reg = state["regions"][rid]
    if n > reg[unit] or n < 0:
        raise AssertionError(f"cannot remove {n} {unit} from {rid}")
    reg[unit] -= n
    if reg[MAGE] + reg[KNIGHT] == 0:
        reg["owner"] = None


def unit_word(unit: str, n: int) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def units_text(knights: int, mages: int) -> str:
    parts = []
    if knights:
        parts.append(unit_word(KNIGHT, knights))
    if mages:
        parts.append(unit_word(MAGE, mages))
    return " and ".join(parts) or "no units"


def region_name(state: State, rid: str) -> str:
    return state["map"][rid]["name"]


def tile_name(tile_type: str) -> str:
    """Display name of a tile type, e.g. 'Castle influence', 'Strength (tent)'."""
    if tile_type in symbols():
        return f"{tile_type.capitalize()} influence"
    if tile_type.startswith("strength-"):
        return f"Strength ({tile_type.split('-', 1)[1]})"
    return {"sea": "Sea voyage", "vp": "Victory point", "swap": "Marker swap"}.get(
        tile_type, tile_type.capitalize())
