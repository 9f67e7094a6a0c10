"""What a Macht & Ohnmacht position must satisfy beyond its declared shape (state.py):
hard problems that make it unplayable, and invariants a GM may still confirm.

Not here: the shape check itself (the kit's position module, from `state_schema`).
"""

from __future__ import annotations

from . import data
from .state import State


def problems(state: State) -> list[str]:
    """Hard errors, one line each, naming the field."""
    out: list[str] = []
    seats = state["seats"]
    if sorted(seats) != sorted(data.SEATS):
        return [f"seats: expected orange and white, got {', '.join(seats) or 'none'}"]
    for rid, reg in state["regions"].items():
        if rid not in state["map"]:
            out.append(f"regions.{rid}: no such region on the map")
        if reg["owner"] not in (None, *seats):
            out.append(f"regions.{rid}.owner: {reg['owner']!r} is not a seat")
        if (reg["owner"] is None) != (reg["mage"] + reg["knight"] == 0):
            out.append(f"regions.{rid}: an owner needs units there, and units need an owner")
        if reg["marker"] is not None and reg["marker"] not in data.symbols():
            out.append(f"regions.{rid}.marker: {reg['marker']!r} is not a symbol "
                       f"({', '.join(data.symbols())})")
    for rid, info in state["map"].items():
        bad = [b for b in info["borders"] if b not in state["map"]]
        if bad:
            out.append(f"map.{rid}.borders: {bad[0]!r} is not a region")
    for field in ("reserve", "stock", "held", "vp", "standing", "strength"):
        missing = [s for s in seats if s not in state[field]]
        if missing:
            out.append(f"{field}: no entry for {missing[0]}")
    tiles = [*state["display"], *state["pile"], *state["discard"],
             *(t for s in seats for t in state["held"].get(s, []))]
    unknown = [t for t in tiles if t not in data.tile_catalogue()]
    if unknown:
        out.append(f"tiles: {unknown[0]!r} is not an action tile id (e.g. castle_1)")
    turn = state["turn"]
    if turn is not None and turn["seat"] not in seats:
        out.append(f"turn.seat: {turn['seat']!r} is not a seat")
    if turn is None and state["result"] is None:
        out.append("turn: a game that is not over needs a turn")
    return out


def warnings(state: State) -> list[str]:
    """Invariants a GM may confirm: 16 units of each type per seat, the 40 action tiles,
    the 18 region markers, lightning tiles never held, the hourglass within 0-8."""
    out: list[str] = []
    per_type = data.unit_rules()["per_type"]
    for seat in state["seats"]:
        for unit in data.UNIT_TYPES:
            on_board = sum(r[unit] for r in state["regions"].values() if r["owner"] == seat)
            total = on_board + state["reserve"][seat][unit] + state["stock"][seat][unit]
            if total != per_type:
                out.append(f"{seat} has {total} {unit}s on the board, in reserve and in stock, "
                           f"not {per_type}")
        if any(data.tile(t)["lightning"] for t in state["held"][seat]):
            out.append(f"held.{seat}: a lightning tile is never held")
    tiles = [*state["display"], *state["pile"], *state["discard"],
             *(t for s in state["seats"] for t in state["held"][s])]
    if sorted(tiles) != sorted(data.tile_catalogue()):
        out.append(f"tiles: {len(tiles)} action tiles in display, piles and reserves, each of "
                   f"the {len(data.tile_catalogue())} exactly once expected")
    if len(state["regions"]) == len(data.map_data()["region"]):
        markers = sorted([*(r["marker"] or "" for r in state["regions"].values()),
                          *state["set_aside"]])
        expected = sorted(m["id"] for m in data.components()["symbol"]
                          for _ in range(m["markers"]))
        if markers != expected:
            out.append("region markers: the board and the set-aside markers are not the 18 "
                       "of the game (5 castle, 5 helmet, 4 tent, 4 key)")
    if not 0 <= state["hourglass"] <= 8:
        out.append(f"hourglass: {state['hourglass']} cubes, expected 0-8")
    return out
