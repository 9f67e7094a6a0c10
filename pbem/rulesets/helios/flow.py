"""Phase 1 turns: taking an action tile, the action, 4th-tile and Palace bonus actions,
and the conditional-order layer (rulebook p. 4, 10-11; spec §4.2, §4.5, §5.7).

A turn block is a list of alternatives separated by OR; each alternative is
`TAKE ...`, at most one action line and any number of `BONUS ...` lines. The engine uses
the first alternative whose tile is there (and matches IF) and whose action is legal now.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Dice
from pbem.rulesets.helios import actions, data
from pbem.rulesets.helios.actions import Events, State, say
from pbem.rulesets.helios.orders import Bonus, Build, Decline, Next, Or, Place, Sun, Take, Temple

Alternative = dict[str, Any]  # {"take": Take, "action": Action | None, "bonus": [Action]}


def split_turns(orders: list[Any]) -> list[list[Alternative]]:
    """Order objects -> turn blocks (split at NEXT) -> alternatives (split at OR)."""
    turns: list[list[Alternative]] = []
    block: list[Alternative] = []
    for o in orders + [Next()]:
        if isinstance(o, Next):
            if block:
                turns.append(block)
            block = []
        elif isinstance(o, Or):
            continue
        elif isinstance(o, Take):
            block.append({"take": o, "action": None, "bonus": []})
        elif isinstance(o, Bonus):
            if block:
                block[-1]["bonus"].append(o.action)
        elif block and block[-1]["action"] is None:
            block[-1]["action"] = o
    return turns


def default_area(player: dict[str, Any]) -> str:
    """Grey tile without UNDER: the area with most tiles (ties red, yellow, blue)."""
    return max(data.AREAS, key=lambda a: (len(player["under"][a]), -data.AREAS.index(a)))


def take_problem(state: State, t: Take) -> str | None:
    col = state["columns"][t.column]
    if not col:
        return f"the {t.column} column is empty"
    if t.only_if and col[-1] not in t.only_if:
        return f"the lowest {t.column} tile is {col[-1]}, not {'/'.join(t.only_if)}"
    return None


# Rulebook p. 4: the tile's symbol is the action it grants.
SYMBOL_ACTIONS: dict[str, tuple[type, ...]] = {"land": (Place,), "build": (Temple, Build),
                                               "sun": (Sun,)}


def mismatch(column: str, action: Any) -> str | None:
    """Why `action` cannot be done with a tile of `column` (None when it can)."""
    if action is None or isinstance(action, Decline) or isinstance(action, SYMBOL_ACTIONS[column]):
        return None
    verbs = {"land": "PLACE", "build": "TEMPLE or BUILD", "sun": "SUN"}
    return (f"a {column} tile grants {verbs[column]} (or DECLINE), not "
            f"{str(action).split()[0]}")


def viable(state: State, seat: str, alt: Alternative) -> str | None:
    problem = take_problem(state, alt["take"]) or mismatch(alt["take"].column, alt["action"])
    if problem:
        return problem
    if alt["action"] is not None:
        return actions.check(state, seat, alt["action"])
    return None


def run_turn(state: State, seat: str, block: list[Alternative], dice: Dice, events: Events,
             *, stored: bool) -> bool:
    """Play `seat`'s turn from a block. Returns False when a stored block has no usable
    alternative (the seat is then asked); a fresh block always plays."""
    for alt in block:
        problem = viable(state, seat, alt)
        if problem is None:
            play_alternative(state, seat, alt, dice, events)
            return True
        say(events, "skipped", f"{seat}: alternative skipped, {alt['take']}: {problem}.", (seat,))
    if stored:
        return False
    # Fresh orders with no usable alternative: take the first tile that is there and
    # decline the action (documented fallback).
    for alt in block:
        if take_problem(state, alt["take"]) is None:
            play_alternative(state, seat, {"take": alt["take"], "action": Decline(),
                                           "bonus": alt["bonus"]}, dice, events)
            return True
    fallback_turn(state, seat, dice, events)
    return True


def fallback_turn(state: State, seat: str, dice: Dice, events: Events) -> None:
    """NMR / nothing usable: first non-empty column of sun, land, build; action declined.
    With all three columns empty the turn is skipped (SPEC-AMBIGUITY A21)."""
    for col in ("sun", "land", "build"):
        if state["columns"][col]:
            play_alternative(state, seat, {"take": Take(col), "action": Decline(), "bonus": []},
                             dice, events)
            return
    say(events, "skip_turn", f"{seat} skips the turn: all three columns are empty.")


def play_alternative(state: State, seat: str, alt: Alternative, dice: Dice, events: Events) -> None:
    p = state["players"][seat]
    t: Take = alt["take"]
    colour = state["columns"][t.column].pop()
    area = colour if colour in data.AREAS else (t.under or default_area(p))
    p["under"][area].append([t.column, colour])
    say(events, "take", f"{seat} takes a {colour} {t.column} tile and puts it under "
        f"{area}.", seat=seat, column=t.column, colour=colour, area=area)
    queue = list(alt["bonus"])
    action = alt["action"] if alt["action"] is not None else Decline()
    if mismatch(t.column, action):
        say(events, "skipped", f"{seat}'s {action} is skipped: {mismatch(t.column, action)}.",
            seat=seat)
        action = Decline()
    # Rulebook p. 10: an action may be declined; the tile is taken either way.
    problem = actions.check(state, seat, action)
    if problem:
        say(events, "skipped", f"{seat}'s {action} is skipped: {problem}.", seat=seat)
    else:
        try:
            actions.perform(state, seat, action, dice, events, queue)
        except actions.Suspend:
            suspend(state, seat, area, queue, stage=2)
            return
    finish_turn(state, seat, area, queue, dice, events)


def finish_turn(state: State, seat: str, area: str, queue: list[Any], dice: Dice,
                events: Events) -> None:
    """Rulebook p. 11: the 4th tile of a colour gives a bonus action after the normal one;
    the four tiles are then discarded by symbol."""
    p = state["players"][seat]
    if len(p["under"][area]) >= 4:
        say(events, "bonus", f"{seat} gets a bonus action (4th {area} tile).", seat=seat)
        try:
            bonus_action(state, seat, dice, events, queue)
        except actions.Suspend:
            suspend(state, seat, area, queue, stage=3)
            return
        discard_area(state, seat, area)


def discard_area(state: State, seat: str, area: str) -> None:
    p = state["players"][seat]
    for symbol, c in p["under"][area]:
        state["discards"][symbol].append(c)
        state["discards"][symbol].sort()
    p["under"][area] = []


def suspend(state: State, seat: str, area: str, queue: list[Any], *, stage: int) -> None:
    """Keep what is left of the turn while the seat places its Estate Manager tiles."""
    state["estate"].update({"area": area, "stage": stage,
                            "queue": [str(Bonus(a)) for a in queue]})


def resume(state: State, plan: Any, bonus: str | None, dice: Dice, events: Events) -> None:
    """Place the Estate Manager tiles, then finish the suspended turn."""
    from pbem.rulesets.helios.orders import parse_line

    est = state["estate"]
    state["estate"] = None
    seat = est["seat"]
    actions.place_estate_tiles(state, seat, est["tiles"], plan, bonus or est["bonus"], events)
    queue = [parse_line(line).action for line in est["queue"]]
    if est["stage"] == 2:
        finish_turn(state, seat, est["area"], queue, dice, events)
    else:
        discard_area(state, seat, est["area"])


def bonus_action(state: State, seat: str, dice: Dice, events: Events, queue: list[Any]) -> None:
    """Spec §5.7: any one action without a tile, now or never. BONUS lines are used in
    order; an illegal one is skipped with an event and the next is tried."""
    while queue:
        action = queue.pop(0)
        problem = actions.check(state, seat, action)
        if problem is None:
            actions.perform(state, seat, action, dice, events, queue)
            return
        say(events, "skipped", f"{seat}'s BONUS {action} is skipped: {problem}.", seat=seat)
    say(events, "bonus_lost", f"{seat} forfeits the bonus action.", seat=seat)
