"""The three actions and what they trigger: prepare land, build (temple or city building),
move the Sun with its sunlight and circuits, and bonus actions
(rulebook p. 5-11, 13, 16; spec §5.2-§5.8, §5.13).

`check_*` say why an action is illegal now (None when legal) without changing anything;
`perform` applies a legal action. Player mistakes are values; broken invariants raise.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.rulesets.helios import board, data, economy, supply
from pbem.rulesets.helios.board import Cell, key
from pbem.rulesets.helios.orders import Build, Decline, Place, Sun, Temple

State = dict[str, Any]
Events = list[Event]


def say(events: Events, kind: str, text: str, to: tuple[str, ...] | None = None, **d: Any) -> None:
    events.append(Event(kind, text, d, to))


def tileset(player: dict[str, Any]) -> frozenset[Cell]:
    return frozenset(board.unkey(k) for k in player["tiles"])


def sun_cell(player: dict[str, Any]) -> Cell:
    return (player["sun"][0], player["sun"][1])


def walk_of(player: dict[str, Any]) -> board.Walk:
    return board.Walk(tileset(player), sun_cell(player), player["sun_k"])


def max_steps(player: dict[str, Any]) -> int | None:
    return None if player["sun_infinite"] else player["sun_value"]


def gain_vp(state: State, seat: str, n: int, why: str, events: Events) -> None:
    if n:
        state["players"][seat]["vp"] += n
        say(events, "vp", f"{seat} scores {n} VP ({why}).", seat=seat, vp=n)


def gain_mana(state: State, seat: str, n: int, why: str, events: Events) -> None:
    room = supply.mana_room(state)
    if n > room:
        say(events, "supply", f"Only {room} mana is left in the supply for {seat}.", seat=seat)
        n = room
    if n:
        state["players"][seat]["mana"] += n
        say(events, "mana", f"{seat} gains {n} mana ({why}).", seat=seat, mana=n)


def raise_sun(state: State, seat: str, n: int, why: str, events: Events) -> None:
    if n:
        p = state["players"][seat]
        p["sun_value"] += n
        say(events, "sun_track", f"{seat}'s Sun distance rises by {n} to "
            f"{'infinite' if p['sun_infinite'] else p['sun_value']} ({why}).", seat=seat)


# --- PREPARE_LAND (rulebook p. 5, 13; spec §5.2, §5.8) -------------------------------

def display_slot(state: State, item: str) -> str | None:
    """Which display slot offers `item`: a land type's own slot first, then the extra slot;
    a bonus tile type while one is left."""
    if item in data.BONUS_TYPES:
        return item if state["bonus_supply"][item] > 0 else None
    if state["display"].get(item):
        return item
    if state["display"].get("extra") == item:
        return "extra"
    return None


def check_place(state: State, seat: str, o: Place) -> str | None:
    if display_slot(state, o.item) is None:
        return f"no {o.item} tile is on offer"
    p = state["players"][seat]
    return board.placement_problem(o.cell, tileset(p), sun_cell(p))


def put_tile(state: State, seat: str, cell: Cell, kind: str, typ: str, cubes: list[str],
             bonus: str | None, events: Events) -> None:
    """Place a tile and fire its special space (rulebook p. 13; spec §5.8)."""
    p = state["players"][seat]
    p["tiles"][key(cell)] = {"kind": kind, "type": typ, "cubes": list(cubes), "temple": False}
    say(events, "place", f"{seat} places {typ.replace('_', ' ')} on {key(cell)}.",
        seat=seat, cell=key(cell), tile=typ)
    if cell in board.BONUS_SPACES:
        colour = bonus or (data.LAND_COLOUR[typ] if kind == "land" else "blue")
        if supply.cube_available(state, colour, events):
            p["tiles"][key(cell)]["cubes"].append(colour)
            say(events, "bonus_resource", f"{seat} puts a bonus {colour} resource on "
                f"{key(cell)} (bonus-resource space).", seat=seat)
    if cell in board.MANA_SPACES:
        gain_mana(state, seat, 2, "mana space", events)


def do_place(state: State, seat: str, o: Place, events: Events) -> None:
    slot = display_slot(state, o.item)
    if o.item in data.BONUS_TYPES:
        state["bonus_supply"][o.item] -= 1
        put_tile(state, seat, o.cell, "bonus", o.item, [], o.bonus, events)
    else:
        assert slot is not None
        cubes = [data.LAND_COLOUR[o.item]] if state["display_cubes"].get(slot) else []
        if slot == "extra":
            state["display"]["extra"] = None
        else:
            state["display"][o.item] = False
        state["display_cubes"][slot] = False
        # Rulebook p. 5: the tile comes with its resource; nothing is turned up now.
        put_tile(state, seat, o.cell, "land", o.item, cubes, o.bonus, events)


# --- BUILD: temple (rulebook p. 6-7; spec §5.3) --------------------------------------

def temple_cost(player: dict[str, Any]) -> int:
    # Rulebook p. 16: with the Citadel every later temple costs 1 resource (A24).
    return 1 if "citadel" in player["buildings"] else player["temples"] + 1


def check_temple(state: State, seat: str, o: Temple) -> str | None:
    p = state["players"][seat]
    t = p["tiles"].get(key(o.cell))
    if t is None:
        return f"you have no tile on {key(o.cell)}"
    if t["temple"]:
        return f"{key(o.cell)} already has a temple"
    if supply.houses_left(state) <= 0:
        return "no house is left in the supply"
    n = temple_cost(p)
    _, problem = economy.payment(p, ["any"] * n, o.pay, f"temple no. {p['temples'] + 1}", o.cell)
    return problem


def do_temple(state: State, seat: str, o: Temple, events: Events) -> None:
    p = state["players"][seat]
    n = temple_cost(p)
    located, problem = economy.payment(p, ["any"] * n, o.pay, "a temple", o.cell)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    t = p["tiles"][key(o.cell)]
    lost = list(t["cubes"])
    t["cubes"] = []  # Rulebook p. 6: resources and a temple never share a tile.
    t["temple"] = True
    p["temples"] += 1
    say(events, "temple", f"{seat} builds temple no. {p['temples']} on {key(o.cell)}, paying "
        f"{', '.join(c for c, _ in located)}" + (f"; {', '.join(lost)} returned to the supply"
                                                  if lost else "") + ".", seat=seat)
    gain_mana(state, seat, p["temples"], f"temple no. {p['temples']}", events)


# --- BUILD: city building (rulebook p. 7, 16; spec §2.7, §5.4) -----------------------

def check_build(state: State, seat: str, o: Build) -> str | None:
    p = state["players"][seat]
    b = data.buildings()[o.building]
    if o.building in p["buildings"]:
        return f"you have already built the {o.building.replace('_', ' ')}"
    if supply.houses_left(state) <= 0:
        return "no house is left in the supply"
    located, problem = economy.payment(p, list(b["cost"]), o.pay, o.building.replace("_", " "))
    if problem:
        return problem
    if o.building == "bazaar" and (o.convert or 0) > p["mana"] + b["mana"]:
        return f"you have {p['mana']} mana, too little to convert {o.convert}"
    return None


def do_build(state: State, seat: str, o: Build, dice: Dice, events: Events,
             bonus_queue: list[Any]) -> None:
    from pbem.rulesets.helios import flow  # bonus actions run through the turn machinery

    p = state["players"][seat]
    b = data.buildings()[o.building]
    located, problem = economy.payment(p, list(b["cost"]), o.pay, o.building)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    p["buildings"].append(o.building)
    say(events, "building", f"{seat} builds the {o.building.replace('_', ' ')}, paying "
        f"{', '.join(c for c, _ in located)}.", seat=seat, building=o.building)
    if b["ability"] == "infinite_sun":
        p["sun_infinite"] = True
    raise_sun(state, seat, b["sun"], o.building.replace("_", " "), events)
    if b["ability"] == "infinite_sun":
        say(events, "sun_track", f"{seat}'s Sun may now move any distance; no more circuit VP "
            "(Power Plant).", seat=seat)
    gain_mana(state, seat, b["mana"], o.building.replace("_", " "), events)
    if b["ability"] == "bazaar":
        n = min(o.convert if o.convert is not None else 3, p["mana"], 3)
        if n:
            p["mana"] -= n
            gain_vp(state, seat, 4 * n, f"Bazaar converts {n} mana", events)
    elif b["ability"] == "estate":
        estate_manager(state, seat, o, dice, events)
    elif b["ability"] == "bonus_action":
        say(events, "bonus", f"{seat} gets a bonus action (Palace).", seat=seat)
        flow.bonus_action(state, seat, dice, events, bonus_queue)


class Suspend(Exception):
    """The turn waits for the seat's answer (Estate Manager with decisions = ask)."""


def estate_manager(state: State, seat: str, o: Build, dice: Dice, events: Events) -> None:
    """Rulebook p. 16: draw the bottom two tiles of the extra pile and place them, each with
    1 matching resource. Placement rules and special spaces apply (SPEC-AMBIGUITY A22); an
    unplaceable tile leaves the game. Without a plan (TO ...) and with decisions = ask the
    turn stops here and the seat is asked where the drawn tiles go."""
    drawn = []
    for i in range(2):
        if not state["extra_pile"]:
            say(events, "estate", "The extra pile is empty; no tile for the Estate Manager.")
            break
        drawn.append(dice.draw(state["extra_pile"],
                               f"Estate Manager, {seat}, tile {i + 1} from the extra pile"))
    if drawn:
        say(events, "estate", f"{seat}'s Estate Manager draws {' and '.join(drawn)}.", seat=seat)
    if drawn and not o.cells and state["options"].get("decisions") == "ask":
        state["estate"] = {"seat": seat, "tiles": drawn, "bonus": o.bonus}
        raise Suspend()
    place_estate_tiles(state, seat, drawn, o.cells, o.bonus, events)


def place_estate_tiles(state: State, seat: str, drawn: list[str], plan: Any,
                       bonus: str | None, events: Events) -> None:
    """Each tile on the first legal cell of the plan that applies to its type, else on the
    first legal cell in reading order (documented default)."""
    p = state["players"][seat]
    for typ in drawn:
        tiles, sun = tileset(p), sun_cell(p)
        wanted = [e[1] if isinstance(e[0], str) else e for e in plan
                  if not isinstance(e[0], str) or e[0] == typ]
        spot = next((c for c in wanted if board.placement_problem(c, tiles, sun) is None), None)
        if spot is None:
            legal = board.legal_placements(tiles, sun)
            spot = legal[0] if legal else None
        if spot is None:
            state["removed_lands"] += 1
            say(events, "estate", f"The Estate Manager's {typ} cannot be placed and leaves the game.")
            continue
        colour = data.LAND_COLOUR[typ]
        cubes = [colour] if supply.cube_available(state, colour, events) else []
        put_tile(state, seat, spot, "land", typ, cubes, bonus, events)


# --- MOVE_SUN (rulebook p. 8-10; spec §5.6) -------------------------------------------

def sun_path(state: State, seat: str, o: Sun) -> tuple[board.Walk, list[Cell], list[int], str | None]:
    p = state["players"][seat]
    w = walk_of(p)
    if o.path:
        positions, problem = board.follow_path(w, list(o.cells), max_steps(p))
        return w, list(o.cells), positions, problem
    dest = o.cells[-1]
    paths = board.reachable(w, max_steps(p))
    if dest not in paths:
        near = ", ".join(key(c) for c in board.all_cells() if c in paths) or "none"
        return w, [], [], f"your Sun cannot reach {key(dest)}; it can reach {near}"
    path = paths[dest]
    positions, problem = board.follow_path(w, path, max_steps(p))
    return w, path, positions, problem


def check_sun(state: State, seat: str, o: Sun) -> str | None:
    return sun_path(state, seat, o)[3]


def do_sun(state: State, seat: str, o: Sun, events: Events) -> None:
    p = state["players"][seat]
    w, path, positions, problem = sun_path(state, seat, o)
    if problem:
        raise AssertionError(problem)
    a = sun_cell(p)
    say(events, "sun", f"{seat}'s Sun moves {key(a)} -> " + " -> ".join(map(key, path)) + ".",
        seat=seat, path=[key(c) for c in path])
    for c in path:
        p["phi"] += board.delta(a, c)
        a = c
        lap = p["phi"] // board.FULL
        if lap > p["laps"]:
            p["laps"] = lap
            circuit(state, seat, events)
    p["sun"] = list(path[-1])
    cell, k = board.new_anchor(w, positions[-1])
    assert cell == path[-1]
    p["sun_k"] = k
    sunlight(state, seat, path[-1], not o.nostore, events, frozenset(o.nostore_at))


def circuit(state: State, seat: str, events: Events) -> None:
    """Rulebook p. 9, 16; spec §5.6.5: 5 VP (Clock Tower 10), once per round, never after
    the Power Plant."""
    p = state["players"][seat]
    if "power_plant" in p["buildings"]:
        say(events, "circuit", f"{seat}'s Sun completes a circuit; no VP (Power Plant).", seat=seat)
    elif p["circuit_round"] == state["round"]:
        say(events, "circuit", f"{seat}'s Sun completes a circuit; already scored this round.",
            seat=seat)
    else:
        p["circuit_round"] = state["round"]
        gain_vp(state, seat, 10 if "clock_tower" in p["buildings"] else 5, "circuit", events)


def temple_value(player: dict[str, Any], cell: Cell) -> int:
    """Rulebook p. 9: 1 for the temple + 1 per neighbouring land or bonus tile."""
    return 1 + sum(1 for n in board.neighbours(cell) if key(n) in player["tiles"])


def sunlight(state: State, seat: str, at: Cell, store: bool, events: Events,
             keep: frozenset[Cell] = frozenset()) -> None:
    """Rulebook p. 8-9; spec §5.6.3: what the Sun shines on at its final cell. With the
    Warehouse a land tile holding 1 cube may get a second (rulebook p. 16, optional:
    not at all when `store` is False, not on the tiles in `keep`)."""
    p = state["players"][seat]
    warehouse = "warehouse" in p["buildings"] and store
    for n in board.neighbours(at):
        t = p["tiles"].get(key(n))
        if t is None:
            continue
        if t["temple"]:
            v = temple_value(p, n)
            gain_vp(state, seat, v, f"sunlit temple on {key(n)}", events)
            if "town_hall" in p["buildings"]:
                gain_vp(state, seat, 3, f"Town Hall, temple on {key(n)}", events)
        elif t["kind"] == "land":
            colour = data.LAND_COLOUR[t["type"]]
            if (not t["cubes"] or (warehouse and len(t["cubes"]) == 1 and n not in keep)) and \
                    supply.cube_available(state, colour, events):
                t["cubes"].append(colour)
                say(events, "produce", f"{seat}'s {t['type']} on {key(n)} produces 1 {colour}"
                    + (" (Warehouse)." if len(t["cubes"]) == 2 else "."), seat=seat)


# --- dispatch ---------------------------------------------------------------------------

def check(state: State, seat: str, o: Any) -> str | None:
    if isinstance(o, Decline):
        return None
    if isinstance(o, Place):
        return check_place(state, seat, o)
    if isinstance(o, Temple):
        return check_temple(state, seat, o)
    if isinstance(o, Build):
        return check_build(state, seat, o)
    if isinstance(o, Sun):
        return check_sun(state, seat, o)
    return f"{o} is not an action"


def perform(state: State, seat: str, o: Any, dice: Dice, events: Events,
            bonus_queue: list[Any]) -> None:
    if isinstance(o, Decline):
        say(events, "decline", f"{seat} declines the action.", seat=seat)
    elif isinstance(o, Place):
        do_place(state, seat, o, events)
    elif isinstance(o, Temple):
        do_temple(state, seat, o, events)
    elif isinstance(o, Build):
        do_build(state, seat, o, dice, events, bonus_queue)
    elif isinstance(o, Sun):
        do_sun(state, seat, o, events)
    else:  # pragma: no cover
        raise AssertionError(f"not an action: {o}")
