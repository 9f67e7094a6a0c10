"""The steps of a game of Cherubion, as the kit's phase table uses them: who is awaited,
what a seat's NMR default is, how each step resolves, and what becomes of standing orders.

1. draft (sealed, every seat): TEAM, BASE, LINEUP, DECK;
2. place (one seat at a time, in choice order): PLACE, RESOURCE; the last one starts turn 1;
3. turn (the active seat): its script, then mandatory melee, the end step, and the next
   turns' start steps until orders are needed again.

Decisions that fall to another seat in the middle (reaction windows, free attacks, an
intruder, a resource loss, SCRY) are `ctx.decide` calls in rules/. Not here: any rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.kit import Context, Lines
from pbem.core.orders import OrderLine
from pbem.rulesets.cherubion.orders import (
    CaptureWith,
    Else,
    Forget,
    FreeAttack,
    If,
    Intruder,
    Loss,
    Place,
    Scry,
    StartResource,
    StrikeBack,
    Surrender,
    When,
)
from pbem.rulesets.cherubion.rules import diplomacy
from pbem.rulesets.cherubion.rules.life import eliminate
from pbem.rulesets.cherubion.rules.setup import (
    apply_draft,
    default_resource_field,
    opening_hand,
    place_piece,
    placement_problem,
    start_resource,
)
from pbem.rulesets.cherubion.rules.turn import (
    end_turn,
    execute,
    finish_turn,
    holds,
    start_turn,
)
from pbem.rulesets.cherubion.state import State


def resolve_draft(ctx: Context, lines: Lines) -> None:
    apply_draft(ctx, {seat: [ln.order for ln in seat_lines] for seat, seat_lines in lines.items()})


def resolve_place(ctx: Context, lines: Lines) -> None:
    """Place up to 5 pieces and the starting large resource, then draw 10 (Rulebook "Példa
    a kezdésre"). A missing resource goes on the first free field nearest the Base's middle
    border field (NMR default). The last seat's placement starts the first turn."""
    state: State = ctx.state
    seat = state["order"][state["placing"]]
    placed: list[str] = []
    res_fields: list[str] = []
    teams = len(state["players"][seat]["own_sides"])  # Multiple Bases: one per team [A]
    for ln in lines.get(seat, ()):
        o = ln.order
        why = placement_problem(state, seat, o, placed)
        if why:
            ctx.log.public("skipped", f"{seat}: {o} skipped: {why}", seat=seat)
            continue
        if isinstance(o, Place):
            place_piece(ctx, seat, o)
            placed.append(o.piece)
        elif isinstance(o, StartResource) and len(res_fields) < teams:
            start_resource(ctx, seat, o.field)
            res_fields.append(o.field)
    while len(res_fields) < teams:
        f = default_resource_field(state, seat)
        start_resource(ctx, seat, f)
        res_fields.append(f)
    opening_hand(ctx, seat)
    state["placing"] += 1
    if state["placing"] >= len(state["order"]):
        state["phase"] = "turn"
        state["round"] = 1
        state["active"] = state["order"][0]
        state["turn"] = {}
        start_turn(ctx)


def resolve_turn(ctx: Context, lines: Lines) -> None:
    """The active seat's turn: its script, then the end of the turn and the start of the
    next ones, until a seat's orders are needed or the game ends."""
    state: State = ctx.state
    if state["phase"] != "turn":
        return  # a surrender sent with the file ended the game
    seat = state["active"]
    assert seat is not None
    run_script(ctx, seat, lines.get(seat, ()))
    if state["phase"] != "turn":
        return
    finish_turn(ctx, seat)
    if state["phase"] == "turn":
        end_turn(ctx)
        start_turn(ctx)


def run_script(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    """The seat's turn orders, line by line. `IF <cond> THEN <order>` runs the order only if
    the condition holds when the line is reached; an `ELSE <order>` right after an IF whose
    condition failed runs instead."""
    state: State = ctx.state
    last_if: bool | None = None  # False: the IF just before failed
    for ln in lines:
        if state["phase"] != "turn" or not state["players"][seat]["alive"]:
            continue
        o = ln.order
        if isinstance(o, If):
            if holds(state, seat, o.cond):
                last_if = None
                execute(ctx, seat, o.order)
            else:
                last_if = False
                ctx.log.public("condition", f"{seat}: IF {o.cond} does not hold; skipped",
                               seat=seat)
            continue
        if isinstance(o, Else):
            if last_if is False:
                last_if = None
                execute(ctx, seat, o.order)
            continue
        last_if = None
        execute(ctx, seat, o)


def absorb_standing(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    """Standing orders sent in any file replace those of the same kind (WHEN: a file with
    any WHEN or FORGET line replaces all triggers); diplomacy offers are recorded and
    matched; a SURRENDER takes effect now (spec DP16)."""
    state: State = ctx.state
    pl = state["players"][seat]
    orders = [ln.order for ln in lines]
    whens = [o for o in orders if isinstance(o, When)]
    if whens or any(isinstance(o, Forget) for o in orders):
        pl["triggers"] = [w.to_trigger() for w in whens]  # type: ignore[misc]
    for o in orders:
        _store(state, seat, o)
    offers = [o for o in orders if isinstance(o, diplomacy.OFFERS)]
    if offers and state["phase"] != "draft":
        diplomacy.apply(ctx, seat, offers)
    if any(isinstance(o, Surrender) for o in orders) and pl["alive"] and \
            state["phase"] != "over":
        ctx.log.public("surrender", f"{seat} surrenders", seat=seat)
        eliminate(ctx, seat, None, "surrendered")


def _store(state: State, seat: str, o: object) -> None:
    standing = state["players"][seat]["standing"]
    if isinstance(o, Intruder):
        standing["intruder"] = "kill" if o.choice == "kill" else "prisoner"
    elif isinstance(o, FreeAttack):
        standing["freeattack"] = o.take
    elif isinstance(o, Loss):
        standing["loss"] = list(o.pieces)
    elif isinstance(o, Scry):
        standing["scry"] = o.seat
    elif isinstance(o, CaptureWith):
        standing["capture"] = o.carrier
    elif isinstance(o, StrikeBack):
        plans = standing.setdefault("strikeback", {})
        if o.targets:
            plans[o.piece] = list(o.targets)
        else:
            plans.pop(o.piece, None)
