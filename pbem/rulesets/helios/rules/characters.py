"""Phase 2: hiring and activating characters (rulebook p. 11-12, 15; spec §4.3, §5.10).

Every seat sends a script for the whole phase (HIRE priority lists, ACTIVATE lines); the
engine plays it turn by turn in the phase order, or, with the option `phase2 = turns`, one
turn per step.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.kit import Context, Order
from pbem.rulesets.helios import data
from pbem.rulesets.helios.orders import Activate, Hire
from pbem.rulesets.helios.rules import economy, supply
from pbem.rulesets.helios.rules.seats import order_from
from pbem.rulesets.helios.state import State


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


def activate(ctx: Context, seat: str, o: Activate) -> None:
    state: State = ctx.state
    p = state["players"][seat]
    ch = data.characters()[o.name]
    located, problem = economy.payment(p, list(ch["cost"]), o.pay, o.name)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    state["characters"][o.name]["active"] = True
    ctx.log.public("activate", f"{seat} activates the {o.name.replace('_', ' ')}, paying "
                   f"{', '.join(c for c, _ in located)}.", seat=seat, character=o.name)
    supply.raise_sun(ctx, seat, ch["sun"], o.name)
    supply.gain_mana(ctx, seat, ch["mana"], o.name)
    if ch["place"]:
        # Rulebook p. 15: the Architect and the Cartographer place one resource.
        economy.place_cube(ctx, seat, o.colour or economy.rarest_colour(p), o.cell, o.name)


def run_characters(ctx: Context, scripts: dict[str, list[Order]]) -> None:
    """Phase 2 from every seat's script, turn by turn in phase order, until all pass in a
    row (spec §4.3, A18, A19; batching per spec §4.5)."""
    state: State = ctx.state
    order = phase2_order(state)
    ctx.log.public("phase2", "Phase 2 (characters): order " + ", ".join(order) + ".")
    queues = {s: [o for o in scripts.get(s, []) if isinstance(o, Hire | Activate)]
              for s in order}
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
        for o in q:
            ctx.log.private([seat], "skipped", f"{seat}'s {o} is not used.")


def phase2_turn(ctx: Context, seat: str, q: list[Hire | Activate]) -> bool:
    """One Phase 2 turn (rulebook p. 11): at most one hire and any activations, in the
    order the player wants ("eldöntheti a fenti akciók végrehajtási sorrendjét"). The
    engine takes the order that leaves every choice open: first the activations of
    characters already owned (they only add mana), then the first HIRE line that can hire
    (one per turn), then the activation of the character just hired. Used lines leave
    `q`; a HIRE line passed over for a later one, or not possible, is dropped. True if
    the seat acted."""
    activated = _activations(ctx, seat, q)
    hired = _hire_from(ctx, seat, q)
    if hired:
        activated = _activations(ctx, seat, q) or activated
    if not (hired or activated):
        ctx.log.public("pass", f"{seat} passes.", seat=seat)
    return hired or activated


def _hire_from(ctx: Context, seat: str, q: list[Hire | Activate]) -> bool:
    """Use the first HIRE line of `q` that can hire now; the lines before it are dropped
    (reported), and all of them when none can."""
    lines = [o for o in q if isinstance(o, Hire)]
    for i, o in enumerate(lines):
        if hire_choice(ctx.state, seat, o) is not None:
            for dead in lines[:i]:
                q.remove(dead)
                _hire_skipped(ctx, seat, dead)
            q.remove(o)
            return hire(ctx, seat, o)
    for dead in lines:
        q.remove(dead)
        _hire_skipped(ctx, seat, dead)
    return False


def _activations(ctx: Context, seat: str, q: list[Hire | Activate]) -> bool:
    acted = False
    for o in [o for o in q if isinstance(o, Activate)]:
        if ctx.state["characters"][o.name]["owner"] is None:
            continue  # may be hired on a later turn
        q.remove(o)
        problem = activation_problem(ctx.state, seat, o)
        if problem:
            ctx.log.public("skipped", f"{seat}'s {o} is skipped: {problem}.", seat=seat)
        else:
            activate(ctx, seat, o)
            acted = True
    return acted


def start_phase2_turns(ctx: Context) -> None:
    """Option phase2 = turns: the rulebook's one-turn-at-a-time Phase 2, one step a turn."""
    order = phase2_order(ctx.state)
    ctx.state["phase2"] = {"order": order, "turn": 0, "passes": 0}
    ctx.log.public("phase2", "Phase 2 (characters): order " + ", ".join(order) + ".")


def phase2_current(state: State) -> str:
    p2 = state["phase2"]
    assert p2 is not None
    return p2["order"][p2["turn"] % len(p2["order"])]


def phase2_step(ctx: Context, seat: str, orders: Sequence[Order]) -> bool:
    """Apply one turn; True when the phase is over (all passed in a row)."""
    p2 = ctx.state["phase2"]
    assert p2 is not None
    q = [o for o in orders if isinstance(o, Hire | Activate)]
    acted = phase2_turn(ctx, seat, q)
    for o in q:
        ctx.log.private([seat], "skipped", f"{seat}'s {o} is not used (one turn per step).")
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


def _hire_skipped(ctx: Context, seat: str, o: Hire) -> None:
    ctx.log.public("skipped", f"{seat}'s {o} is skipped: none of them is free and "
                   "affordable.", seat=seat)


def hire(ctx: Context, seat: str, o: Hire) -> bool:
    state: State = ctx.state
    name = hire_choice(state, seat, o)
    if name is None:
        _hire_skipped(ctx, seat, o)
        return False
    cost = data.characters()[name]["hire"]
    state["characters"][name]["owner"] = seat
    state["players"][seat]["mana"] -= cost
    ctx.log.public("hire", f"{seat} hires the {name.replace('_', ' ')} for {cost} mana.",
                   seat=seat, character=name)
    return True
