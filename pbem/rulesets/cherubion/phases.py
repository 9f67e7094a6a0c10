"""The steps of a game of Cherubion, as the kit's phase table uses them: how each step
resolves, what becomes of standing orders, and the outcome of every order line.

1. draft (sealed, every seat): TEAM, BASE, LINEUP, DECK;
2. place (one seat at a time, in choice order): PLACE, RESOURCE; the last one starts turn 1;
3. turn (the active seat): its script, then mandatory melee, the end step, and the next
   turns' start steps until orders are needed again.

Every line of a file that a step applies ends with exactly one outcome (carried out, not
needed, changed, refused), seen by its seat only. Decisions that fall to another seat in
the middle (reaction windows, free attacks, an intruder, a resource loss, SCRY) are
`ctx.decide` calls in rules/. Not here: any rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.i18n import _
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
    Pass,
    Place,
    Scry,
    StartResource,
    StrikeBack,
    Surrender,
    When,
)
from pbem.rulesets.cherubion.rules import diplomacy
from pbem.rulesets.cherubion.rules.life import eliminate
from pbem.rulesets.cherubion.rules.results import Result, done, not_needed
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
    apply_draft(ctx, lines)


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
            ctx.log.refused(seat, ln, why)
        elif isinstance(o, Place):
            place_piece(ctx, seat, o)
            placed.append(o.piece)
            ctx.log.done(seat, ln)
        elif isinstance(o, StartResource) and len(res_fields) < teams:
            start_resource(ctx, seat, o.field)
            res_fields.append(o.field)
            ctx.log.done(seat, ln)
        else:
            ctx.log.refused(seat, ln, _("you have your starting resource already (one per "
                                        "team)"))
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
    seat = state["active"]
    assert seat is not None
    own = lines.get(seat, ())
    if state["phase"] != "turn":
        _lapse(ctx, seat, own, _("the game is over"))  # a surrender sent with it ended it
        return
    run_script(ctx, seat, own)
    if state["phase"] != "turn":
        return
    pass_line = next((ln for ln in own if isinstance(ln.order, Pass)), None)
    walked = finish_turn(ctx, seat, walk_out=pass_line is not None)
    if pass_line is not None:
        ctx.log.outcome(seat, pass_line, *walked)
    if state["phase"] == "turn":
        end_turn(ctx)
        start_turn(ctx)


def _lapse(ctx: Context, seat: str, lines: Sequence[OrderLine], why: str) -> None:
    for ln in lines:
        if not ctx.log.has_outcome(seat, ln.lineno):
            ctx.log.not_needed(seat, ln, why)


def run_script(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    """The seat's turn orders, line by line, each with its outcome. `IF <cond> THEN
    <order>` runs the order only if the condition holds when the line is reached; an `ELSE
    <order>` right after an IF whose condition failed runs instead. PASS ends the turn (its
    outcome comes with the end of the turn)."""
    state: State = ctx.state
    last_if: bool | None = None  # False: the IF just before failed
    for ln in lines:
        o = ln.order
        if isinstance(o, Pass):
            continue
        if state["phase"] != "turn":
            ctx.log.not_needed(seat, ln, _("the game is over"))
            continue
        if not state["players"][seat]["alive"]:
            ctx.log.not_needed(seat, ln, _("you are out of the game"))
            continue
        if isinstance(o, If):
            if holds(state, seat, o.cond):
                last_if = None
                ctx.log.outcome(seat, ln, *execute(ctx, seat, o.order))
            else:
                last_if = False
                ctx.log.public("condition", _("{seat}: IF {cond} does not hold; skipped",
                                              seat=seat, cond=str(o.cond)), seat=seat)
                ctx.log.not_needed(seat, ln, _("{cond} did not hold", cond=str(o.cond)))
            continue
        if isinstance(o, Else):
            if last_if is False:
                last_if = None
                ctx.log.outcome(seat, ln, *execute(ctx, seat, o.order))
            else:
                ctx.log.not_needed(seat, ln, _("the IF line before it held (or there was "
                                               "none)"))
            continue
        last_if = None
        ctx.log.outcome(seat, ln, *execute(ctx, seat, o))


# --- standing orders ----------------------------------------------------------------------

KEPT = _("kept as your standing order")


def absorb_standing(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    """Standing orders sent in any file replace those of the same kind (WHEN: a file with
    any WHEN or FORGET line replaces all triggers); diplomacy offers are recorded and
    matched; a SURRENDER takes effect now (spec DP16). Each line gets its outcome."""
    state: State = ctx.state
    pl = state["players"][seat]
    whens = [ln for ln in lines if isinstance(ln.order, When)]
    forget = [ln for ln in lines if isinstance(ln.order, Forget)]
    if whens or forget:
        pl["triggers"] = [ln.order.to_trigger() for ln in whens]
    for ln in whens:
        ctx.log.done(seat, ln, _("kept as a standing trigger ({n} in all: a file with WHEN "
                                 "lines replaces your triggers)", n=len(whens)))
    for ln in forget:
        ctx.log.done(seat, ln, _("your earlier triggers are forgotten; this file's {n} WHEN "
                                 "lines are kept", n=len(whens)) if whens
                     else _("your earlier triggers are forgotten"))
    _store_all(ctx, seat, lines)
    offers = [ln for ln in lines if isinstance(ln.order, diplomacy.OFFERS)]
    for ln, result in zip(offers, diplomacy.apply(ctx, seat, [ln.order for ln in offers]),
                          strict=True):
        ctx.log.outcome(seat, ln, *result)
    for ln in lines:
        if isinstance(ln.order, Surrender):
            ctx.log.outcome(seat, ln, *_surrender(ctx, seat))


def _surrender(ctx: Context, seat: str) -> Result:
    state: State = ctx.state
    if not state["players"][seat]["alive"]:
        return not_needed(_("you were already out of the game"))
    if state["phase"] == "over":
        return not_needed(_("the game is over"))
    ctx.log.public("surrender", _("{seat} surrenders", seat=seat), seat=seat)
    eliminate(ctx, seat, None, _("surrendered"))
    return done(_("you surrendered: you are out of the game"))


def _key(o: object) -> str | None:
    """Which standing order a line sets (a later line of the same key replaces it)."""
    if isinstance(o, StrikeBack):
        return f"strikeback:{o.piece}"
    kinds = {Intruder: "intruder", FreeAttack: "freeattack", Loss: "loss", Scry: "scry",
             CaptureWith: "capture"}
    return kinds.get(type(o))


def _store_all(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
    last: dict[str, OrderLine] = {}
    for ln in lines:
        key = _key(ln.order)
        if key is not None:
            last[key] = ln
    for ln in lines:
        key = _key(ln.order)
        if key is None:
            continue
        if last[key] is not ln:
            ctx.log.changed(seat, ln, _("replaced by line {n}", n=last[key].lineno))
            continue
        _store(ctx.state, seat, ln.order)
        ctx.log.done(seat, ln, KEPT)


def _store(state: State, seat: str, o: object) -> None:
    standing = state["players"][seat]["standing"]
    if isinstance(o, Intruder):
        standing["intruder"] = "kill" if o.choice == "kill" else "prisoner"
    elif isinstance(o, FreeAttack):
        standing["freeattack"] = o.take
    elif isinstance(o, Loss):
        standing["loss"] = [f"{pid}={n}" if n else pid for pid, n in o.items()]
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

