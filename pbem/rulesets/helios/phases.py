"""Set-up, the round's phases 2 and 3, and the end of the game
(rulebook p. 2-4, 11-14; spec §3, §4.3, §4.4, §5.9, §5.10, §8).

Phase 1 turns live in flow.py. Action piles and the extra land pile hold no hidden order:
each draw picks from what is still in the pile at that moment (dice contract).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.core.dice import Dice
from pbem.rulesets.helios import actions, board, data, economy, supply
from pbem.rulesets.helios.actions import Events, State, say
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.orders import Activate, Catchup, Hire, Start


def new_player() -> dict[str, Any]:
    return {
        "tiles": {}, "sun": list(board.SUN_START), "sun_k": board.SUN_ANCHOR,
        "phi": board.theta(board.SUN_START), "laps": 0, "circuit_round": 0,
        "sun_value": data.board()["sun_track_start"], "sun_infinite": False,
        "mana": 1, "vp": 0, "temples": 0, "buildings": [],
        "under": {a: [] for a in data.AREAS}, "pending": [], "catchup": None,
    }


def setup(seats: list[str], options: dict[str, Any], variant: str, dice: Dice) -> State:
    """Rulebook p. 2-3; spec §3. Start tiles and the seats-3/4 resource come as orders."""
    n = len(seats)
    pc = data.player_count(n)
    comp = data.components()
    per = comp["actions"]["per_colour"]
    state: State = {
        "seats": list(seats), "options": dict(options), "variant": variant,
        "round": 1, "rounds": pc["rounds"], "turns": pc["turns"], "phase": "setup",
        "start": dice.choice(seats, "start player (rulebook p. 3; PBEM: random)"),
        "turn_index": 0, "asking": [],
        "piles": {s: sorted(c for c in data.TILE_COLOURS for _ in range(per)) for s in data.SYMBOLS},
        "columns": {s: [] for s in data.SYMBOLS},
        "discards": {s: [] for s in data.SYMBOLS},
        "type_piles": {t: comp["lands"]["pile_size"] for t in data.LANDS},
        "extra_pile": [], "display": {t: False for t in data.LANDS} | {"extra": None},
        "bonus_supply": {b: comp["bonus_tiles"]["count"] for b in data.BONUS_TYPES},
        "characters": {c: {"owner": None, "active": False} for c in data.CHARACTERS},
        "players": {s: new_player() for s in seats},
        "final": None, "removed_lands": 0, "display_cubes": {}, "phase2": None,
        "estate": None,
    }
    for s in data.SYMBOLS:
        fill_column(state, s, dice)
    return state


def order_from(state: State, first: str) -> list[str]:
    seats = state["seats"]
    i = seats.index(first)
    return seats[i:] + seats[:i]


def catchup_seats(state: State) -> list[str]:
    """Rulebook p. 2, 13: seats 3 and 4 relative to the start player (spec §3 step 8)."""
    order = order_from(state, state["start"])
    return [order[i - 1] for i in data.player_count(len(order))["catchup_seats"]]


def finish_setup(state: State, starts: dict[str, str], extras: dict[str, Catchup | None],
                 dice: Dice, events: Events) -> None:
    """Start tiles, the piles, the display and the seats-3/4 resource (spec §3 steps 6-8)."""
    counts = Counter(data.components()["lands"]["count"])
    for seat in order_from(state, state["start"]):
        land = starts[seat]
        counts[land] -= 1
        state["players"][seat]["tiles"][key(board.CENTRE)] = {
            "kind": "land", "type": land, "cubes": [data.LAND_COLOUR[land]], "temple": False}
        say(events, "start_tile", f"{seat} starts with {land} on the centre.", seat=seat)
    for t in data.LANDS:
        counts[t] -= state["type_piles"][t]
    state["extra_pile"] = sorted(t for t, c in counts.items() for _ in range(c))
    reveal_display(state, dice, events)
    for seat in catchup_seats(state):
        c = extras.get(seat)
        colour = c.colour if c else "blue"
        if state["options"].get("setup_bonus_must_differ") == "yes":
            own = state["players"][seat]["tiles"][key(board.CENTRE)]["cubes"][0]
            if colour == own:
                colour = "blue" if own != "blue" else "black"
        if supply.cube_available(state, colour, events):
            state["players"][seat]["tiles"][key(board.CENTRE)]["cubes"].append(colour)
        say(events, "catchup", f"{seat} adds a {colour} resource to the start tile.", seat=seat)
    start_round(state, events)


def reveal_display(state: State, dice: Dice, events: Events) -> None:
    """Rulebook p. 2, 12: one tile of each type plus the top of the extra pile."""
    for t in data.LANDS:
        if state["type_piles"][t] > 0:
            state["type_piles"][t] -= 1
            state["display_cubes"][t] = supply.cube_available(state, data.LAND_COLOUR[t], events)
            state["display"][t] = True
    if state["extra_pile"]:
        t = dice.draw(state["extra_pile"], "extra land pile, top tile")
        state["display_cubes"]["extra"] = supply.cube_available(state, data.LAND_COLOUR[t], events)
        state["display"]["extra"] = t
    shown = [t for t in data.LANDS if state["display"][t]] + \
        ([f"extra {state['display']['extra']}"] if state["display"]["extra"] else [])
    bare = [s for s in [*data.LANDS, "extra"] if s in state["display_cubes"]
            and not state["display_cubes"][s] and (state["display"][s])]
    say(events, "display", "Land display: " + ", ".join(shown) + " (each with 1 resource"
        + (f" except {', '.join(bare)}" if bare else "") + ").")


def fill_column(state: State, symbol: str, dice: Dice) -> None:
    """Spec §5.9: 6 tiles; an empty pile takes its symbol's discards; short if both run out."""
    size = data.components()["actions"]["column_size"]
    col = state["columns"][symbol]
    while len(col) < size:
        pile = state["piles"][symbol]
        if not pile:
            if not state["discards"][symbol]:
                break
            pile.extend(state["discards"][symbol])
            pile.sort()
            state["discards"][symbol] = []
        col.append(dice.draw(pile, f"{symbol} column, tile {len(col) + 1}"))


def start_round(state: State, events: Events) -> None:
    state["phase"] = "actions"
    state["turn_index"] = 0
    say(events, "round", f"Round {state['round']} begins; {state['start']} is start player.")


def turn_order(state: State) -> list[str]:
    order = order_from(state, state["start"])
    return [order[i % len(order)] for i in range(len(order) * state["turns"])]


def current_seat(state: State) -> str | None:
    order = turn_order(state)
    return order[state["turn_index"]] if state["turn_index"] < len(order) else None


def end_actions(state: State, events: Events) -> None:
    """Rulebook p. 11, 14: leftovers are discarded except 2p rounds 1 and 3."""
    pc = data.player_count(len(state["seats"]))
    if state["round"] not in pc["keep_leftovers_after"]:
        for s in data.SYMBOLS:
            if state["columns"][s]:
                say(events, "discard", f"Leftover {s} tiles discarded: {', '.join(state['columns'][s])}.")
            state["discards"][s].extend(state["columns"][s])
            state["discards"][s].sort()
            state["columns"][s] = []
    for p in state["players"].values():
        p["pending"] = []
    state["phase"] = "characters"
    if state["options"].get("phase2") == "turns":
        start_phase2_turns(state, events)


# --- Phase 2: characters (rulebook p. 11-12; spec §4.3, §5.10) ------------------------

def phase2_order(state: State) -> list[str]:
    """Most mana first; ties go to the seat closest clockwise to the start player."""
    order = order_from(state, state["start"])
    first = max(order, key=lambda s: (state["players"][s]["mana"], -order.index(s)))
    return order_from(state, first)


def activation_problem(state: State, seat: str, o: Activate) -> str | None:
    ch = state["characters"][o.name]
    if ch["owner"] != seat:
        return f"you do not own the {o.name}"
    if ch["active"]:
        return f"your {o.name} is already active"
    cost = list(data.characters()[o.name]["cost"])
    return economy.payment(state["players"][seat], cost, o.pay, f"the {o.name}")[1]


def activate(state: State, seat: str, o: Activate, events: Events) -> None:
    p = state["players"][seat]
    ch = data.characters()[o.name]
    located, problem = economy.payment(p, list(ch["cost"]), o.pay, o.name)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    state["characters"][o.name]["active"] = True
    say(events, "activate", f"{seat} activates the {o.name.replace('_', ' ')}, paying "
        f"{', '.join(c for c, _ in located)}.", seat=seat, character=o.name)
    actions.raise_sun(state, seat, ch["sun"], o.name, events)
    actions.gain_mana(state, seat, ch["mana"], o.name, events)
    if ch["place"]:
        place_cube(state, seat, o.colour or economy.rarest_colour(p), o.cell, o.name, events)


def place_cube(state: State, seat: str, colour: str, cell: tuple[int, int] | None, why: str,
               events: Events) -> None:
    """A chosen resource onto one of your tiles (no temple, max 2); lost if none can take it
    (spec §5.13)."""
    p = state["players"][seat]
    t = p["tiles"].get(key(cell)) if cell else None
    if t is None or not economy.can_take_cube(t):
        cell = economy.first_cube_tile(p)
    if cell is None:
        say(events, "cube_lost", f"{seat}'s {colour} resource ({why}) is lost: no tile can take it.")
        return
    if not supply.cube_available(state, colour, events):
        return
    p["tiles"][key(cell)]["cubes"].append(colour)
    say(events, "cube", f"{seat} puts a {colour} resource on {key(cell)} ({why}).", seat=seat)


def run_characters(state: State, scripts: dict[str, list[Any]], events: Events) -> None:
    """Phase 2 from every seat's script, turn by turn in phase order, until all pass in a
    row (spec §4.3, A18, A19; batching per spec §4.5)."""
    order = phase2_order(state)
    say(events, "phase2", "Phase 2 (characters): order " + ", ".join(order) + ".")
    queues = {s: [o for o in scripts.get(s, []) if isinstance(o, Hire | Activate)] for s in order}
    passes = 0
    i = 0
    while passes < len(order):
        seat = order[i % len(order)]
        i += 1
        if phase2_turn(state, seat, queues[seat], events):
            passes = 0
        else:
            passes += 1
    for seat, q in queues.items():
        for o in q:
            say(events, "skipped", f"{seat}'s {o} is not used.", (seat,))


def phase2_turn(state: State, seat: str, q: list[Any], events: Events) -> bool:
    """One Phase 2 turn (rulebook p. 11): at most one hire and any activations, in the
    order the player wants ("eldöntheti a fenti akciók végrehajtási sorrendjét"). The
    engine takes the order that leaves every choice open: first the activations of
    characters already owned (they only add mana), then the first HIRE line that can hire
    (one per turn), then the activation of the character just hired. Used lines leave
    `q`; a HIRE line passed over for a later one, or not possible, is dropped. True if
    the seat acted."""
    activated = _activations(state, seat, q, events)
    hired = _hire_from(state, seat, q, events)
    if hired:
        activated = _activations(state, seat, q, events) or activated
    if not (hired or activated):
        say(events, "pass", f"{seat} passes.", seat=seat)
    return hired or activated


def _hire_from(state: State, seat: str, q: list[Any], events: Events) -> bool:
    """Use the first HIRE line of `q` that can hire now; the lines before it are dropped
    (reported), and all of them when none can."""
    lines = [o for o in q if isinstance(o, Hire)]
    for i, o in enumerate(lines):
        if hire_choice(state, seat, o) is not None:
            for dead in lines[:i]:
                q.remove(dead)
                _hire_skipped(events, seat, dead)
            q.remove(o)
            return hire(state, seat, o, events)
    for dead in lines:
        q.remove(dead)
        _hire_skipped(events, seat, dead)
    return False


def _activations(state: State, seat: str, q: list[Any], events: Events) -> bool:
    acted = False
    for o in [o for o in q if isinstance(o, Activate)]:
        if state["characters"][o.name]["owner"] is None:
            continue  # may be hired on a later turn
        q.remove(o)
        problem = activation_problem(state, seat, o)
        if problem:
            say(events, "skipped", f"{seat}'s {o} is skipped: {problem}.", seat=seat)
        else:
            activate(state, seat, o, events)
            acted = True
    return acted


def start_phase2_turns(state: State, events: Events) -> None:
    """Option phase2 = turns: the rulebook's one-turn-at-a-time Phase 2, one step a turn."""
    order = phase2_order(state)
    state["phase2"] = {"order": order, "i": 0, "passes": 0}
    say(events, "phase2", "Phase 2 (characters): order " + ", ".join(order) + ".")


def phase2_current(state: State) -> str:
    p2 = state["phase2"]
    return p2["order"][p2["i"] % len(p2["order"])]


def phase2_step(state: State, seat: str, orders: list[Any], events: Events) -> bool:
    """Apply one turn; True when the phase is over (all passed in a row)."""
    p2 = state["phase2"]
    q = [o for o in orders if isinstance(o, Hire | Activate)]
    acted = phase2_turn(state, seat, q, events)
    for o in q:
        say(events, "skipped", f"{seat}'s {o} is not used (one turn per step).", (seat,))
    p2["passes"] = 0 if acted else p2["passes"] + 1
    p2["i"] += 1
    if p2["passes"] >= len(p2["order"]):
        state["phase2"] = None
        return True
    return False


def hire_choice(state: State, seat: str, o: Hire) -> str | None:
    """The first character of the line that is still free and that the seat can pay."""
    mana = state["players"][seat]["mana"]
    return next((n for n in o.names if state["characters"][n]["owner"] is None
                 and mana >= data.characters()[n]["hire"]), None)


def _hire_skipped(events: Events, seat: str, o: Hire) -> None:
    say(events, "skipped", f"{seat}'s {o} is skipped: none of them is free and affordable.",
        seat=seat)


def hire(state: State, seat: str, o: Hire, events: Events) -> bool:
    name = hire_choice(state, seat, o)
    if name is None:
        _hire_skipped(events, seat, o)
        return False
    cost = data.characters()[name]["hire"]
    state["characters"][name]["owner"] = seat
    state["players"][seat]["mana"] -= cost
    say(events, "hire", f"{seat} hires the {name.replace('_', ' ')} for {cost} mana.",
        seat=seat, character=name)
    return True


# --- Phase 3: refill and catch-up (rulebook p. 12-13; spec §4.4) ----------------------

def phase3(state: State, dice: Dice, events: Events) -> None:
    for t in data.LANDS:
        if state["display"][t]:
            state["removed_lands"] += 1
            say(events, "display", f"The untaken {t} leaves the game.")
        state["display"][t] = False
    if state["display"]["extra"]:
        state["removed_lands"] += 1
        say(events, "display", f"The untaken extra {state['display']['extra']} leaves the game.")
    state["display"]["extra"] = None
    state["display_cubes"] = {}
    reveal_display(state, dice, events)
    if state["round"] in data.player_count(len(state["seats"]))["refill_after"]:
        for s in data.SYMBOLS:
            fill_column(state, s, dice)
        say(events, "refill", "The action columns are refilled.")
    state["start"] = order_from(state, state["start"])[1]
    say(events, "dragon", f"The dragon passes to {state['start']}.")


def catchup_default(state: State, seat: str) -> Catchup:
    p = state["players"][seat]
    return Catchup(economy.rarest_colour(p), economy.first_cube_tile(p))


def apply_catchup(state: State, seat: str, c: Catchup, events: Events) -> None:
    place_cube(state, seat, c.colour, c.cell, "catch-up resource", events)


def next_round(state: State, events: Events) -> None:
    state["round"] += 1
    state["asking"] = []
    start_round(state, events)


def is_start(o: Any) -> bool:
    return isinstance(o, Start)
