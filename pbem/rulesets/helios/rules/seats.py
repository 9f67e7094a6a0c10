"""Who plays when: seating order from a seat, the Phase 1 turn order, and the seats that
get a catch-up resource (rulebook p. 3-4, 11, 13-14; spec §3, §4.1, §4.4).
"""

from __future__ import annotations

from pbem.rulesets.helios import data
from pbem.rulesets.helios.state import State


def order_from(state: State, first: str) -> list[str]:
    """The seats clockwise, starting with `first`."""
    seats = state["seats"]
    i = seats.index(first)
    return seats[i:] + seats[:i]


def turn_order(state: State) -> list[str]:
    """Phase 1: from the start player clockwise, each seat `turns` times."""
    order = order_from(state, state["start"])
    return [order[i % len(order)] for i in range(len(order) * state["turns"])]


def current_seat(state: State) -> str | None:
    """The seat whose Phase 1 turn it is (None when every turn is played)."""
    seats, i = state["seats"], state["turn_index"]
    if i >= len(seats) * state["turns"]:
        return None
    return seats[(seats.index(state["start"]) + i) % len(seats)]


def catchup_seats(state: State) -> list[str]:
    """Rulebook p. 2, 13: seats 3 and 4 relative to the start player (spec §3 step 8)."""
    order = order_from(state, state["start"])
    return [order[i - 1] for i in data.player_count(len(order))["catchup_seats"]]
