"""Phase 2: hiring and activating characters (rulebook p. 11-12, 15; spec §4.3, §5.10).

Every seat sends a script for the whole phase (HIRE priority lists, ACTIVATE lines); the
engine plays it turn by turn in the phase order, or, with the option `phase2 = turns`, one
turn per step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.i18n import Msg, _, join
from pbem.core.kit import CHANGED, DONE, NOT_NEEDED, REFUSED, Context, Order
from pbem.core.orders import OrderLine
from pbem.rulesets.helios import data
from pbem.rulesets.helios.orders import Activate, Hire, Pass
from pbem.rulesets.helios.rules import economy, supply
from pbem.rulesets.helios.rules.seats import order_from
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import idterm, term, terms


def phase2_order(state: State) -> list[str]:
    """Most mana first; ties go to the seat closest clockwise to the start player."""
    order = order_from(state, state["start"])
    first = max(order, key=lambda s: (state["players"][s]["mana"], -order.index(s)))
    return order_from(state, first)


def activation_problem(state: State, seat: str, o: Activate) -> Msg | None:
    ch = state["characters"][o.name]
    if ch["owner"] != seat:
        return _("you do not own the {character}", character=idterm(o.name))
    if ch["active"]:
        return _("your {character} is already active", character=idterm(o.name))
    cost = list(data.characters()[o.name]["cost"])
    return economy.payment(state["players"][seat], cost, o.pay,
                           _("the {character}", character=term(o.name)))[1]


def activate(ctx: Context, seat: str, o: Activate) -> Msg | None:
    """Activate a hired character (legal now). Returns what differs from the line (where
    the Architect's or Cartographer's resource went), None when it went as written."""
    state: State = ctx.state
    p = state["players"][seat]
    ch = data.characters()[o.name]
    located, problem = economy.payment(p, list(ch["cost"]), o.pay, idterm(o.name))
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    state["characters"][o.name]["active"] = True
    ctx.log.public("activate", _("{seat} activates the {character}, paying {paid}.", seat=seat,
                                 character=term(o.name), paid=terms(c for c, _cell in located)),
                   seat=seat, character=o.name)
    supply.raise_sun(ctx, seat, ch["sun"], idterm(o.name))
    supply.gain_mana(ctx, seat, ch["mana"], idterm(o.name))
    if ch["place"]:
        # Rulebook p. 15: the Architect and the Cartographer place one resource.
        return economy.place_cube(ctx, seat, o.colour or economy.rarest_colour(p), o.cell,
                                  idterm(o.name))
    return None


def run_characters(ctx: Context, scripts: Mapping[str, Sequence[OrderLine]]) -> None:
    """Phase 2 from every seat's script, turn by turn in phase order, until all pass in a
    row (spec §4.3, A18, A19; batching per spec §4.5)."""
    state: State = ctx.state
    order = phase2_order(state)
    ctx.log.public("phase2", _("Phase 2 (characters): order {seats}.", seats=", ".join(order)))
    queues = {s: _script(ctx, s, scripts.get(s, ())) for s in order}
    passes = 0
    i = 0
    while passes < len(order):
        seat = order[i % len(order)]
        i += 1
        if phase2_turn(ctx, seat, queues[seat]):
            passes = 0
        else:
            passes += 1
    for seat, q in queues.items():
        for ln in q:
            ctx.log.outcome(seat, ln, NOT_NEEDED, _unused(state, seat, ln.order))


def _script(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> list[OrderLine]:
    """The HIRE and ACTIVATE lines of a seat's Phase 2 script; PASS is done at once."""
    for ln in lines:
        if isinstance(ln.order, Pass):
            ctx.log.outcome(seat, ln, DONE, _("you pass when you have nothing else to do"))
    return [ln for ln in lines if isinstance(ln.order, Hire | Activate)]


def _unused(state: State, seat: str, o: Order) -> Msg:
    if isinstance(o, Activate) and state["characters"][o.name]["owner"] is None:
        return _("you did not hire the {character}", character=term(o.name))
    return _("Phase 2 ended before it was used")


def phase2_turn(ctx: Context, seat: str, q: list[OrderLine]) -> bool:
    """One Phase 2 turn (rulebook p. 11): at most one hire and any activations, in the
    order the player wants ("eldöntheti a fenti akciók végrehajtási sorrendjét"). The
    engine takes the order that leaves every choice open: first the activations of
    characters already owned (they only add mana), then the first HIRE line that can hire
    (one per turn), then the activation of the character just hired. Used lines leave
    `q`; a HIRE line passed over for a later one, or not possible, is refused. True if
    the seat acted."""
    activated = _activations(ctx, seat, q)
    hired = _hire_from(ctx, seat, q)
    if hired:
        activated = _activations(ctx, seat, q) or activated
    if not (hired or activated):
        ctx.log.public("pass", _("{seat} passes.", seat=seat), seat=seat)
    return hired or activated


def _hire_from(ctx: Context, seat: str, q: list[OrderLine]) -> bool:
    """Use the first HIRE line of `q` that can hire now; the lines before it are refused,
    and all of them when none can."""
    lines = [ln for ln in q if isinstance(ln.order, Hire)]
    for i, ln in enumerate(lines):
        assert isinstance(ln.order, Hire)
        if hire_choice(ctx.state, seat, ln.order) is not None:
            for dead in lines[:i]:
                q.remove(dead)
                _hire_refused(ctx, seat, dead)
            q.remove(ln)
            return hire(ctx, seat, ln)
    for dead in lines:
        q.remove(dead)
        _hire_refused(ctx, seat, dead)
    return False


def _activations(ctx: Context, seat: str, q: list[OrderLine]) -> bool:
    acted = False
    for ln in [ln for ln in q if isinstance(ln.order, Activate)]:
        o = ln.order
        assert isinstance(o, Activate)
        if ctx.state["characters"][o.name]["owner"] is None:
            continue  # may be hired on a later turn
        q.remove(ln)
        problem = activation_problem(ctx.state, seat, o)
        if problem:
            ctx.log.outcome(seat, ln, REFUSED, problem)
            continue
        moved = activate(ctx, seat, o)
        if moved:
            ctx.log.outcome(seat, ln, CHANGED, _("the {colour} resource: {what}",
                                                   colour=term(o.colour or "bonus"),
                                                   what=moved))
        else:
            ctx.log.outcome(seat, ln, DONE)
        acted = True
    return acted


def start_phase2_turns(ctx: Context) -> None:
    """Option phase2 = turns: the rulebook's one-turn-at-a-time Phase 2, one step a turn."""
    order = phase2_order(ctx.state)
    ctx.state["phase2"] = {"order": order, "turn": 0, "passes": 0}
    ctx.log.public("phase2", _("Phase 2 (characters): order {seats}.", seats=", ".join(order)))


def phase2_current(state: State) -> str:
    p2 = state["phase2"]
    assert p2 is not None
    return p2["order"][p2["turn"] % len(p2["order"])]


def phase2_step(ctx: Context, seat: str, lines: Sequence[OrderLine]) -> bool:
    """Apply one turn; True when the phase is over (all passed in a row)."""
    p2 = ctx.state["phase2"]
    assert p2 is not None
    q = _script(ctx, seat, lines)
    acted = phase2_turn(ctx, seat, q)
    for ln in q:
        ctx.log.outcome(seat, ln, NOT_NEEDED, _("one Phase 2 turn per step: send it again on "
                                                "your next turn"))
    p2["passes"] = 0 if acted else p2["passes"] + 1
    p2["turn"] += 1
    if p2["passes"] >= len(p2["order"]):
        ctx.state["phase2"] = None
        return True
    return False


def hire_choice(state: State, seat: str, o: Hire) -> str | None:
    """The first character of the line that is still free and that the seat can pay."""
    mana = state["players"][seat]["mana"]
    return next((n for n in o.names if state["characters"][n]["owner"] is None
                 and mana >= data.characters()[n]["hire"]), None)


def hire_problem(state: State, seat: str, o: Hire) -> Msg:
    """Why none of the characters of a HIRE line can be hired now."""
    mana = state["players"][seat]["mana"]
    why = []
    for n in o.names:
        owner = state["characters"][n]["owner"]
        cost = data.characters()[n]["hire"]
        name = term(n)
        if owner == seat:
            why.append(_("the {character} is yours already", character=name))
        elif owner:
            why.append(_("the {character} is taken by {seat}", character=name, seat=owner))
        else:
            why.append(_("the {character} costs {cost} mana, you have {mana}", character=name,
                         cost=cost, mana=mana))
    return join(why, "; ")


def _hire_refused(ctx: Context, seat: str, ln: OrderLine) -> None:
    assert isinstance(ln.order, Hire)
    ctx.log.outcome(seat, ln, REFUSED, hire_problem(ctx.state, seat, ln.order))


def hire(ctx: Context, seat: str, ln: OrderLine) -> bool:
    state: State = ctx.state
    o = ln.order
    assert isinstance(o, Hire)
    name = hire_choice(state, seat, o)
    if name is None:
        _hire_refused(ctx, seat, ln)
        return False
    cost = data.characters()[name]["hire"]
    state["characters"][name]["owner"] = seat
    state["players"][seat]["mana"] -= cost
    ctx.log.public("hire", _("{seat} hires the {character} for {cost} mana.", seat=seat,
                             character=term(name), cost=cost), seat=seat, character=name)
    ctx.log.outcome(seat, ln, DONE, _("hired the {character} for {cost} mana",
                                      character=term(name), cost=cost))
    return True
