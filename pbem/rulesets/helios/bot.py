"""Legal options and the random bot (drives selfplay and fuzzing), plus order skeletons.

`options_*` list legal actions for a seat in the current state; the bot samples from
them with the rng it is given (never the game's dice).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pbem.core.kit import Question
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.orders import Action, Build, Place, Sun, Temple
from pbem.rulesets.helios.rules import economy
from pbem.rulesets.helios.rules.buildings import check_build
from pbem.rulesets.helios.rules.land import offered_items
from pbem.rulesets.helios.rules.seats import catchup_seats, current_seat, turn_order
from pbem.rulesets.helios.rules.sun import destinations
from pbem.rulesets.helios.rules.temples import check_temple
from pbem.rulesets.helios.state import State


def options_place(state: State, seat: str) -> list[Place]:
    p = state["players"][seat]
    cells = board.legal_placements(board.tileset(p), board.sun_cell(p))
    return [Place(item, c) for item in offered_items(state) for c in cells]


def options_temple(state: State, seat: str) -> list[Temple]:
    p = state["players"][seat]
    out = []
    for k, t in p["tiles"].items():
        if not t["temple"]:
            o = Temple(board.unkey(k))
            if check_temple(state, seat, o) is None:
                out.append(o)
    return out


def options_build(state: State, seat: str) -> list[Build]:
    out = []
    for b in data.BUILDINGS:
        o = Build(b, convert=min(3, state["players"][seat]["mana"]) if b == "bazaar" else None)
        if check_build(state, seat, o) is None:
            out.append(o)
    return out


def options_sun(state: State, seat: str) -> list[Sun]:
    dests = destinations(state, seat)
    return [Sun((c,)) for c in board.all_cells() if c in dests]


Options = Callable[[State, str], Sequence[Action]]


def random_action(state: State, seat: str, rng: random.Random,
                  column: str | None = None) -> Action | None:
    """A random legal action; with `column`, one that a tile of that column grants."""
    by_column: dict[str, list[Options]] = {
        "sun": [options_sun], "land": [options_place], "build": [options_build, options_temple]}
    kinds = list(by_column.get(column or "", [options_sun, options_place, options_build,
                                              options_temple]))
    rng.shuffle(kinds)
    for f in kinds:
        opts = f(state, seat)
        if opts:
            o = rng.choice(opts)
            if isinstance(o, Sun) and rng.random() < 0.3:
                path = destinations(state, seat)[o.cells[0]]
                o = Sun(tuple(path), True)
            if isinstance(o, Place) and o.cell in board.BONUS_SPACES and rng.random() < 0.5:
                o = Place(o.item, o.cell, rng.choice(data.COLOURS))
            return o
    return None


def random_turn(state: State, seat: str, rng: random.Random, *, now: bool = True) -> list[str]:
    """One turn of alternatives; `now`: the turn played at once (its tiles are known), else
    a stored turn (UNDER then only where it agrees with IF)."""
    lines: list[str] = []
    cols = [c for c in data.SYMBOLS if state["columns"][c]] or list(data.SYMBOLS)
    strict = state["options"]["conditional_orders"] == "no"
    for i in range(1 if strict else rng.choice([1, 1, 2])):
        if i:
            lines.append("OR")
        col = rng.choice(cols)
        low = state["columns"][col][-1] if state["columns"][col] else None
        take = f"TAKE {col}"
        only = None
        if low and not strict and rng.random() < 0.2:
            take += f" IF {low}"
            only = low
        if rng.random() < 0.5:
            area = rng.choice(data.AREAS)
            # rulebook p. 4: a coloured tile goes under its own colour
            if (low in ("grey", area)) if now else (only in (None, "grey", area)):
                take += f" UNDER {area}"
        lines.append(take)
        action = random_action(state, seat, rng, col) if rng.random() < 0.95 else None
        lines.append(str(action) if action is not None else "DECLINE")
        for _ in range(rng.choice([0, 1, 2])):
            b = random_action(state, seat, rng)
            lines.append(f"BONUS {b}" if b is not None else "BONUS DECLINE")
    return lines


def random_orders(state: State, seat: str, rng: random.Random,
                  questions: Sequence[Question] = ()) -> list[str]:
    asked = {q.kind for q in questions if q.seat == seat}
    if "estate" in asked:
        return _estate(state, seat, rng)
    if "catchup" in asked:
        tiles = economy.cube_tiles(state["players"][seat])
        colour = rng.choice(data.COLOURS)
        return [f"CATCHUP {colour}" + (f" AT {rng.choice(tiles)}" if tiles else "")]
    ph = state["phase"]
    if ph == "setup":
        land = rng.choice(data.STARTING_LANDS)
        out = [f"START {land}"]
        if seat in catchup_seats(state):
            colours = [c for c in data.COLOURS if c != data.LAND_COLOUR[land]
                       or state["options"]["setup_bonus_must_differ"] == "no"]
            out.append(f"CATCHUP {rng.choice(colours)}")
        return out
    if ph == "actions":
        return _turns(state, seat, rng)
    if ph == "characters":
        return _phase2(state, seat, rng)
    return []


def _estate(state: State, seat: str, rng: random.Random) -> list[str]:
    p = state["players"][seat]
    cells = board.legal_placements(board.tileset(p), board.sun_cell(p))
    if cells and rng.random() < 0.7:
        picks = rng.sample(cells, min(len(cells), 2))
        return ["ESTATE TO " + " ".join(board.key(c) for c in picks)]
    return ["ESTATE"]


def _turns(state: State, seat: str, rng: random.Random) -> list[str]:
    now = current_seat(state) == seat
    if not now and seat not in turn_order(state)[state["turn_index"]:]:
        return [f"CATCHUP {rng.choice(data.COLOURS)}"]  # no turn left this round
    out = random_turn(state, seat, rng, now=now)
    # the coming turns after the first of this script (a seat not on turn plays its first
    # one at its next turn)
    left = turn_order(state)[state["turn_index"] + 1:].count(seat) - (0 if now else 1)
    if left and state["options"]["conditional_orders"] != "no" and rng.random() < 0.5:
        # plan the rest of the round now (stored turns), each with a fallback
        # alternative that always works while its column has tiles
        for _ in range(left if rng.random() < 0.7 else 1):
            out += ["NEXT", *random_turn(state, seat, rng, now=False)]
            for col in rng.sample(list(data.SYMBOLS), 3):
                out += ["OR", f"TAKE {col}", "DECLINE"]
    if rng.random() < 0.1:
        out.append(f"CATCHUP {rng.choice(data.COLOURS)}")
    return out


def _phase2(state: State, seat: str, rng: random.Random) -> list[str]:
    out = []
    free = [c for c in data.CHARACTERS if state["characters"][c]["owner"] is None]
    mine = [c for c in data.CHARACTERS if state["characters"][c]["owner"] == seat
            and not state["characters"][c]["active"]]
    for _ in range(rng.choice([0, 1, 2])):
        if free:
            pick = rng.sample(free, min(len(free), rng.choice([1, 2])))
            out.append("HIRE " + " OR ".join(pick))
            mine += pick
    for c in dict.fromkeys(mine):
        if rng.random() < 0.8:
            out.append(f"ACTIVATE {c}")
    if rng.random() < 0.3:
        out.append(f"CATCHUP {rng.choice(data.COLOURS)}")
    return out or ["PASS"]
