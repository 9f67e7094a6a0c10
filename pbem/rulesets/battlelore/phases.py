"""The steps of a BattleLore game, each a row of the phase table in ruleset.py: who is
awaited, what the report asks (prompt and pre-filled skeleton), the NMR default, how the
step resolves, and how its lines are judged on arrival.

- council (Lore adventures with a custom War Council): both seats, sealed (D1);
- keep: the seats with a Lore Master keep their starting Lore cards, sealed (D2);
- place: the landmarks of level-3 masters and the Stronghold, first player first (D3);
- turn: the active player's whole turn as one script (rules/turn.py).

Decisions of the other seat inside a turn go through the kit (rules/common.decide).
Not here: the rules themselves (rules/), the views (view.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.core.kit import Context, Lines, Order, Verdict
from pbem.core.orders import Prompt

from .board import Hex, hex_name
from .data import SEATS
from .orders import Council, Keep, Place
from .rules.cards import candidate_units, default_card, effective
from .rules.common import GameOver, state_of
from .rules.council import (
    apply_councils,
    apply_keep,
    apply_places,
    budget,
    council_problem,
    default_council,
    default_keep,
    default_place,
    keep_count,
    keep_problem,
    keepers,
)
from .rules.turn import run_turn
from .state import State, lore_of, unit_sort

# --- council (D1) --------------------------------------------------------------------------


def council_prompt(s: State, seat: str) -> Prompt:
    return Prompt(f"Build your War Council secretly: up to {budget(s, seat)} levels "
                  f"(Commander, Wizard, Cleric, Rogue, Warrior; level 1-3 each).",
                  tuple(council_default(s, seat)))


def council_default(s: State, seat: str) -> list[str]:
    return ["COUNCIL " + " ".join(f"{m} {n}" for m, n in default_council(s, seat).items())]


def resolve_council(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    chosen: dict[str, dict[str, int] | None] = {}
    for seat in SEATS:
        chosen[seat] = next((dict(ln.order.levels) for ln in lines.get(seat, ())
                             if isinstance(ln.order, Council)
                             and council_problem(s, seat, ln.order.levels) is None), None)
    apply_councils(ctx, chosen)


# --- keep (D2) ---------------------------------------------------------------------------------

def keep_prompt(s: State, seat: str) -> Prompt:
    offer = lore_of(s)["offer"][seat]
    return Prompt(f"Keep {keep_count(s, seat)} of your 4 Lore cards: {', '.join(offer)}.",
                  tuple(keep_default(s, seat)))


def keep_default(s: State, seat: str) -> list[str]:
    return ["KEEP " + " ".join(default_keep(s, seat))] if seat in keepers(s) else []


def resolve_keep(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    kept: dict[str, Sequence[str]] = {}
    for seat in SEATS:
        for ln in lines.get(seat, ()):
            if isinstance(ln.order, Keep) and keep_problem(s, seat, ln.order.cards) is None:
                kept[seat] = ln.order.cards
                break
    apply_keep(ctx, kept)


# --- place (D3) -----------------------------------------------------------------------------------

def placing(s: State) -> list[str]:
    return [s["place_queue"][0]["seat"]] if s["place_queue"] else []


def place_prompt(s: State, seat: str) -> Prompt:
    kinds = [p["kind"] for p in s["place_queue"] if p["seat"] == seat]
    return Prompt("Place " + ", ".join(kinds) + " (Lore-Master landmarks on an empty hex in your "
                  "3rd or 4th row; the Stronghold under one of your units).",
                  tuple(place_default(s, seat)))


def place_default(s: State, seat: str) -> list[str]:
    return [f"PLACE {p['kind']} {hex_name(default_place(s, seat, p['kind']))}"
            for p in s["place_queue"] if p["seat"] == seat]


def resolve_place(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    seat = s["place_queue"][0]["seat"]
    wanted: dict[str, tuple[Hex, ...]] = {}
    for ln in lines.get(seat, ()):
        if isinstance(ln.order, Place) and ln.order.landmark not in wanted:
            wanted[ln.order.landmark] = ln.order.hexes
    apply_places(ctx, seat, wanted)


# --- turn -----------------------------------------------------------------------------------------

def active(s: State) -> list[str]:
    return [s["active"]]


def turn_default(s: State, seat: str) -> list[str]:
    """NMR: play the card that orders the most units, order them, no moves, every ordered
    unit battles ANY legal target."""
    if s["active"] != seat:
        return []
    cid = default_card(s, seat)
    c = effective(s, seat, cid)
    out = [f"PLAY {cid}"]
    if c is not None:
        units = candidate_units(s, seat, c, len(s["hands"][seat]))
        if units:
            out.append("ORDER " + " ".join(units))
            out += [f"BATTLE {u} ANY" for u in units]
    return out


def turn_prompt(s: State, seat: str) -> Prompt:
    hand = sorted(set(s["hands"][seat]))
    mine = sorted((u for u in s["units"].values() if u["owner"] == seat), key=unit_sort)
    sk = [f"# Your hand: {', '.join(hand)}",
          "# The lines below are what you get if you send nothing (NMR); edit them.",
          *turn_default(s, seat),
          "# ORDER <unit> ...   (units named in MOVE/BATTLE lines are ordered too)"]
    if mine:
        sk.append(f"# MOVE {mine[0]['id']} <hex> OR <hex>")
        sk.append(f"# BATTLE {mine[0]['id']} <enemy unit> OR ANY")
    sk += ["# standing orders for your units when attacked:", "# IGNORE ALL", "# RETREAT SAFE",
           "# BATTLEBACK ALWAYS"]
    if s["mode"] == "lore":
        sk += ["# LORE <card> [ON <unit>] [TO <hex>]", "# REPLENISH CARD_TOKEN"]
    return Prompt(f"Turn {s['turn']}: play a Command card and give your orders.", tuple(sk),
                  tuple(f"PLAY {c}" for c in hand))


def resolve_turn(ctx: Context, lines: Lines) -> None:
    s = state_of(ctx)
    try:
        run_turn(ctx, [ln.order for ln in lines.get(s["active"], ())])
    except GameOver:
        s["phase"] = "over"


# --- judged on arrival ------------------------------------------------------------------------------

def _check_council(s: State, seat: str, o: Any) -> Verdict:
    return council_problem(s, seat, o.levels)


def _check_keep(s: State, seat: str, o: Any) -> Verdict:
    return keep_problem(s, seat, o.cards) if s["phase"] == "keep" else None


CHECKS: dict[type[Order], Callable[[State, str, Any], Verdict]] = {
    Council: _check_council, Keep: _check_keep}


def check(s: State, seat: str, order: Order) -> Verdict:
    """A line of the step, judged against the position as it stands."""
    judge = CHECKS.get(type(order))
    return judge(s, seat, order) if judge is not None else None
