"""What a Helios position must satisfy beyond its declared shape (state.py): hard errors
(`problems`: a seat, tile, colour or building that does not exist) and invariants a GM may
confirm (`warnings`: component counts).

Each message is one line naming the field. Not here: the shape check itself (the kit).
"""

from __future__ import annotations

from collections import Counter

from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import unkey
from pbem.rulesets.helios.rules.supply import display
from pbem.rulesets.helios.state import Player, State

_CELL_KEY = "a cell written q,r"


def problems(state: State) -> list[str]:
    seats = state["seats"]
    out: list[str] = []
    if not 2 <= len(seats) <= 4 or len(set(seats)) != len(seats):
        out.append(f"seats: expected 2 to 4 different seats, got {seats}")
    if set(state["players"]) != set(seats):
        out.append(f"players: expected one table per seat ({', '.join(seats)}), got "
                   + ", ".join(sorted(state["players"])))
    if state["start"] not in seats:
        out.append(f"start: {state['start']!r} is not a seat")
    for where, table in (("piles", state["piles"]), ("columns", state["columns"]),
                         ("discards", state["discards"])):
        for sym in data.SYMBOLS:
            bad = [c for c in table.get(sym, []) if c not in data.TILE_COLOURS]
            if sym not in table:
                out.append(f"{where}.{sym}: missing")
            elif bad:
                out.append(f"{where}.{sym}: {bad[0]!r} is not an action tile colour "
                           f"({', '.join(data.TILE_COLOURS)})")
    for name, ch in state["characters"].items():
        if name not in data.CHARACTERS:
            out.append(f"characters.{name}: no such character")
        elif ch["owner"] is not None and ch["owner"] not in seats:
            out.append(f"characters.{name}.owner: {ch['owner']!r} is not a seat")
    for seat, p in state["players"].items():
        out += player_problems(f"players.{seat}", p)
    return out


def player_problems(where: str, p: Player) -> list[str]:
    out = []
    for k, t in p["tiles"].items():
        at = f"{where}.tiles.{k}"
        try:
            cell = unkey(k)
        except ValueError:
            out.append(f"{at}: the key must be {_CELL_KEY}")
            continue
        if not board.is_light(cell):
            out.append(f"{at}: tiles go on light cells only (up to 3 steps from 0,0)")
        if t["type"] not in (*data.LANDS, *data.BONUS_TYPES) or \
                (t["kind"] == "land") != (t["type"] in data.LANDS):
            out.append(f"{at}.type: {t['type']!r} is not a {t['kind']} tile type")
        if any(c not in data.COLOURS for c in t["cubes"]):
            out.append(f"{at}.cubes: resource colours are {', '.join(data.COLOURS)}")
        if len(t["cubes"]) > 2 or (t["temple"] and t["cubes"]):
            out.append(f"{at}.cubes: a tile holds at most 2 resources, none with a temple")
    if len(p["sun"]) != 2 or not board.on_board(board.sun_cell(p)) \
            or board.sun_cell(p) in board.tileset(p):
        out.append(f"{where}.sun: expected a free cell [q, r] on the board")
    bad = [b for b in p["buildings"] if b not in data.BUILDINGS]
    if bad:
        out.append(f"{where}.buildings: {bad[0]!r} is not a building")
    for area, tiles in p["under"].items():
        if area not in data.AREAS:
            out.append(f"{where}.under.{area}: colour areas are {', '.join(data.AREAS)}")
        elif any(len(x) != 2 or x[0] not in data.SYMBOLS or x[1] not in data.TILE_COLOURS
                 for x in tiles):
            out.append(f"{where}.under.{area}: each tile is [symbol, colour], e.g. "
                       '["sun", "red"]')
    return out


def warnings(state: State) -> list[str]:
    """Component counts (rulebook p. 2): 16 action tiles per symbol, 4 of each colour; 36
    land tiles; 2 bonus tiles per type; one temple per temple tile counted."""
    out = []
    for sym in data.SYMBOLS:
        where = Counter(state["piles"][sym] + state["columns"][sym] + state["discards"][sym]
                        + [c for p in state["players"].values() for a in p["under"].values()
                           for s, c in a if s == sym])
        want = data.components()["actions"]["per_colour"]
        if where != Counter({c: want for c in data.TILE_COLOURS}):
            out.append(f"{sym} action tiles: expected {want} of each colour in piles, columns, "
                       f"discards and under boards, got {dict(sorted(where.items()))}")
    bonus = Counter(t["type"] for p in state["players"].values() for t in p["tiles"].values()
                    if t["kind"] == "bonus")
    for b in data.BONUS_TYPES:
        n = bonus[b] + state["bonus_supply"].get(b, 0)
        if n != data.components()["bonus_tiles"]["count"]:
            out.append(f"bonus_supply.{b}: {n} {b} tiles in play and supply, expected "
                       f"{data.components()['bonus_tiles']['count']}")
    if state["phase"] != "setup" and not state["pause"]:
        lands = sum(1 for p in state["players"].values() for t in p["tiles"].values()
                    if t["kind"] == "land")
        disp = display(state)
        shown = sum(1 for t in data.LANDS if disp[t]) + (1 if disp["extra"] else 0)
        total = lands + shown + sum(state["type_piles"].values()) + len(state["extra_pile"]) \
            + state["removed_lands"]
        if total != sum(data.components()["lands"]["count"].values()):
            out.append(f"land tiles: {total} on boards, on display, in piles and removed, "
                       "expected 36")
    for seat, p in state["players"].items():
        temples = sum(1 for t in p["tiles"].values() if t["temple"])
        if temples != p["temples"]:
            out.append(f"players.{seat}.temples: {p['temples']}, but {temples} tiles carry a "
                       "temple")
    return out
