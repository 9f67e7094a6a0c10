"""MOVE_SUN: the Sun's path, sunlight on tiles and temples, circuits
(rulebook p. 8-10, 16; spec §5.6). The geometry is board.py's.

`check_sun` says why a move is illegal now (None when legal); `do_sun` carries out a legal
one.
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import Cell, key
from pbem.rulesets.helios.orders import Sun
from pbem.rulesets.helios.rules import supply
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import term


def walk_of(player: Player) -> board.Walk:
    return board.walk(board.tileset(player), board.sun_cell(player), player["sun_anchor"])


def max_steps(player: Player) -> int | None:
    return None if player["sun_infinite"] else player["sun_value"]


def destinations(state: State, seat: str) -> dict[Cell, list[Cell]]:
    """Every cell the seat's Sun may end on, with the shortest path there."""
    p = state["players"][seat]
    return board.reachable(walk_of(p), max_steps(p))


def sun_path(state: State, seat: str,
             o: Sun) -> tuple[board.Walk, list[Cell], list[int], Msg | None]:
    p = state["players"][seat]
    w = walk_of(p)
    if o.path:
        positions, problem = board.follow_path(w, list(o.cells), max_steps(p))
        return w, list(o.cells), positions, problem
    dest = o.cells[-1]
    paths = board.reachable(w, max_steps(p))
    if dest not in paths:
        near = ", ".join(key(c) for c in board.all_cells() if c in paths) or _("none")
        return w, [], [], _("your Sun cannot reach {cell}; it can reach {cells}",
                            cell=key(dest), cells=near)
    path = paths[dest]
    positions, problem = board.follow_path(w, path, max_steps(p))
    return w, path, positions, problem


def check_sun(state: State, seat: str, o: Sun) -> Msg | None:
    return sun_path(state, seat, o)[3]


def do_sun(ctx: Context, seat: str, o: Sun) -> None:
    state: State = ctx.state
    p = state["players"][seat]
    w, path, positions, problem = sun_path(state, seat, o)
    if problem:
        raise AssertionError(problem)
    a = board.sun_cell(p)
    ctx.log.public("sun", _("{seat}'s Sun moves {path}.", seat=seat,
                            path=" -> ".join(map(key, [a, *path]))),
                   seat=seat, path=[key(c) for c in path])
    for c in path:
        p["sun_angle"] += board.delta(a, c)
        a = c
        lap = p["sun_angle"] // board.FULL
        if lap > p["laps"]:
            p["laps"] = lap
            circuit(ctx, seat)
    p["sun"] = list(path[-1])
    cell, k = board.new_anchor(w, positions[-1])
    assert cell == path[-1]
    p["sun_anchor"] = k
    sunlight(ctx, seat, path[-1], not o.nostore, frozenset(o.nostore_at))


def circuit(ctx: Context, seat: str) -> None:
    """Rulebook p. 9, 16; spec §5.6.5: 5 VP (Clock Tower 10), once per round, never after
    the Power Plant."""
    state: State = ctx.state
    p = state["players"][seat]
    if "power_plant" in p["buildings"]:
        ctx.log.public("circuit", _("{seat}'s Sun completes a circuit; no VP (Power Plant).",
                                    seat=seat), seat=seat)
    elif p["circuit_round"] == state["round"]:
        ctx.log.public("circuit", _("{seat}'s Sun completes a circuit; already scored this "
                                    "round.", seat=seat), seat=seat)
    else:
        p["circuit_round"] = state["round"]
        supply.gain_vp(ctx, seat, 10 if "clock_tower" in p["buildings"] else 5, _("circuit"))


def temple_value(player: Player, cell: Cell) -> int:
    """Rulebook p. 9: 1 for the temple + 1 per neighbouring land or bonus tile."""
    return 1 + sum(1 for n in board.neighbours(cell) if key(n) in player["tiles"])


def sunlight(ctx: Context, seat: str, at: Cell, store: bool,
             keep: frozenset[Cell] = frozenset()) -> None:
    """Rulebook p. 8-9; spec §5.6.3: what the Sun shines on at its final cell. With the
    Warehouse a land tile holding 1 cube may get a second (rulebook p. 16, optional:
    not at all when `store` is False, not on the tiles in `keep`)."""
    state: State = ctx.state
    p = state["players"][seat]
    warehouse = "warehouse" in p["buildings"] and store
    for n in board.neighbours(at):
        t = p["tiles"].get(key(n))
        if t is None:
            continue
        if t["temple"]:
            supply.gain_vp(ctx, seat, temple_value(p, n), _("sunlit temple on {cell}", cell=key(n)))
            if "town_hall" in p["buildings"]:
                # Rulebook p. 16 (Városháza): 3 more VP per sunlit temple.
                supply.gain_vp(ctx, seat, 3, _("Town Hall, temple on {cell}", cell=key(n)))
        elif t["kind"] == "land":
            colour = data.LAND_COLOUR[t["type"]]
            if (not t["cubes"] or (warehouse and len(t["cubes"]) == 1 and n not in keep)) and \
                    supply.cube_available(state, colour, ctx.log):
                t["cubes"].append(colour)
                args = dict(seat=seat, tile=term(t["type"]), cell=key(n), colour=term(colour))
                ctx.log.public("produce", _("{seat}'s {tile} on {cell} produces 1 {colour} "
                                            "(Warehouse).", **args) if len(t["cubes"]) == 2
                               else _("{seat}'s {tile} on {cell} produces 1 {colour}.", **args),
                               seat=seat)
