"""The one phase of Macht & Ohnmacht: a seat's turn, carried out from its order script.

Rulebook "A játékos köre"; spec §4.3, §5.5. A turn has 2 actions (1 in the starting
player's first turn after a VP tie). The active seat's file is a script: each action line
is tried in order; one that is illegal when reached is refused (its outcome says why) and
the next line is tried; consecutive PLAY lines form one action D, and a line `END D` ends
one so that the next PLAY line starts another. When the script runs out
with actions left, each missing action is a RECRUIT (always legal; spec A13: no passing).
As soon as the last cube leaves the hourglass, the current tile, auction or response is
finished and the cycle ends; the rest of the script is not used.

Decisions in the middle of a turn (auction bids, serpent, retreat, lightning effect) are
`ctx.decide` calls in rules/take.py and rules/play.py: the kit pauses and replays.
Not here: the rules of each action (rules/), the phase table (ruleset.py).
"""

from __future__ import annotations

import random
from itertools import islice

from pbem.core.i18n import Msg, _, join, n_
from pbem.core.kit import Context, Lines
from pbem.core.orders import OrderLine, Prompt

from . import board, bot, data
from .data import listed, term
from .orders import EndD, If, Place, Play, Recruit, Take
from .rules import actions, cycle, play, take
from .state import State


def awaits(state: State) -> list[str]:
    return [state["turn"]["seat"]] if state["turn"] else []


def prompt(state: State, seat: str) -> Prompt:
    t = state["turn"]
    assert t is not None
    n = t["actions"]
    text = n_("Cycle {cycle} ({type}), hourglass {hourglass}: your turn, {n} action. Write your "
              "actions in order, with fallbacks: a line that is illegal when it is reached is "
              "refused and the next one is tried.",
              "Cycle {cycle} ({type}), hourglass {hourglass}: your turn, {n} actions. Write "
              "your actions in order, with fallbacks: a line that is illegal when it is "
              "reached is refused and the next one is tried.", n, cycle=state["cycle"],
              type=term(state["cycle_type"]), hourglass=state["hourglass"])
    options = tuple(str(o) for o in islice(bot.legal_actions(state, seat, full=False,
                                                               rng=random.Random(0)), 60))
    skeleton = ("# One order per line; a line illegal when reached is refused, the next tried.",
                "# TAKE <tile> [BID <n>] [IFWIN ...] | PLACE <region> | RECRUIT |",
                "# PLAY <tile> ... (consecutive PLAY lines are one action D; END D ends one)",
                "# Standing orders: BID <type> <n>, SERPENT ..., RETREAT ...",
                *("RECRUIT" for _i in range(n)))
    return Prompt(text, skeleton, options, {"phase": "turn", "actions": n})


def default(state: State, seat: str) -> list[str]:
    """NMR: a turn recruits with every action."""
    t = state["turn"]
    return ["RECRUIT"] * (t["actions"] if t else 0)


def resolve(ctx: Context, lines: Lines) -> None:
    state = ctx.state
    t = state["turn"]
    seat = t["seat"]
    n = t["actions"]
    ctx.log.public("turn", n_("{seat}'s turn {number} of cycle {cycle} ({n} action).",
                              "{seat}'s turn {number} of cycle {cycle} ({n} actions).", n,
                              seat=seat, number=t["number"], cycle=state["cycle"]), seat=seat)
    run_script(ctx, seat, list(lines.get(seat, ())))


def run_script(ctx: Context, seat: str, script: list[OrderLine]) -> None:
    """Carry out the script until the turn's actions are used (then the next seat's turn
    starts) or the cycle ends. Every line gets its outcome."""
    state = ctx.state
    t = state["turn"]
    in_d = False  # a run of PLAY lines is one action D
    i = 0
    while state["hourglass"] > 0:
        if i < len(script):
            order = script[i].order
            if isinstance(order, EndD):
                i += 1
                end_d(ctx, seat, script[i - 1], in_d)
                in_d = False
                continue
            inner = order.order if isinstance(order, If) else order
            in_d = in_d and isinstance(inner, Play)
            if not in_d and t["used"] >= t["actions"]:
                break
            i += 1
            in_d = execute(ctx, seat, script[i - 1], in_d)
        elif t["used"] < t["actions"]:
            ctx.log.public("default_recruit", _("{seat} has an action left and no more usable "
                                                "orders: RECRUIT.", seat=seat), seat=seat)
            t["used"] += 1
            actions.do_recruit(state, seat, ctx.log)
        else:
            break
    if state["hourglass"] == 0:
        # Rulebook "A ciklus vége": the cycle ends at once; the action that took the
        # last cube has been carried out; the rest of the turn does not happen.
        for ln in script[i:]:
            ctx.log.not_needed(seat, ln, _("the cycle ended (the last cube left the hourglass) "
                                           "before this line"))
        cycle.end_cycle(state, ctx.dice, ctx.log)
        return
    for ln in script[i:]:
        ctx.log.not_needed(seat, ln, n_("your {n} action was used before this line",
                                        "your {n} actions were used before this line",
                                        t["actions"]))
    state["turn"] = cycle.new_turn(board.opponent(state, seat), 2, number=t["number"] + 1)


def end_d(ctx: Context, seat: str, ln: OrderLine, in_d: bool) -> None:
    if in_d:
        ctx.log.done(seat, ln, _("the action D ends here; a PLAY line after it starts a new one"))
    else:
        ctx.log.not_needed(seat, ln, _("no action D was running"))


def on_display(state: State) -> Msg:
    """The tile types on display, as the order language names them ('nothing' if none)."""
    shown = sorted({data.ttype(t) for t in state["display"]})
    return join([term(t) for t in shown]) if shown else _("nothing")


def condition_holds(state: State, seat: str, o: If) -> bool:
    if o.test == "HOLD":
        return state["regions"][o.arg]["owner"] == seat
    if o.test == "NOT HOLD":
        return state["regions"][o.arg]["owner"] != seat
    n, h = int(o.arg), state["hourglass"]
    return {"HOURGLASS >=": h >= n, "HOURGLASS <=": h <= n, "HOURGLASS =": h == n}[o.test]


def execute(ctx: Context, seat: str, ln: OrderLine, in_d: bool) -> bool:
    """Carry out one line and give it its outcome; returns whether an action D runs on."""
    state = ctx.state
    t = state["turn"]
    o = ln.order
    if isinstance(o, If):
        if not condition_holds(state, seat, o):
            ctx.log.not_needed(seat, ln, _("the condition {test} {arg} does not hold",
                                           test=o.test, arg=o.arg))
            return in_d
        o = o.order
    why = refusal(state, seat, o)
    if why:
        ctx.log.refused(seat, ln, why)
        return in_d
    if isinstance(o, Play):
        if not in_d:
            t["used"] += 1
        ctx.log.done(seat, ln, play.play(ctx, seat, ln, o))
        return True
    t["used"] += 1
    if isinstance(o, Take):
        status, what = take.take(ctx, seat, ln, o)
        ctx.log.outcome(seat, ln, status, what)
    elif isinstance(o, Place):
        actions.do_place(state, seat, o, ctx.log)
        ctx.log.done(seat, ln)
    else:
        assert isinstance(o, Recruit)
        actions.do_recruit(state, seat, ctx.log)
        ctx.log.done(seat, ln)
    return False


def refusal(state: State, seat: str, o: object) -> Msg | None:
    """Why an action cannot be carried out now, with the legal choices (None: it can)."""
    if isinstance(o, Take):
        why = actions.check_take(state, seat, o)
        if why:
            return _("{why}; on display: {tiles}", why=why, tiles=on_display(state))
    if isinstance(o, Place):
        why = actions.check_place(state, seat, o)
        if why:
            legal = actions.placeable(state, seat)
            return _("{why}; you may place on: {regions}", why=why,
                     regions=listed(legal) if legal else _("no region now"))
    if isinstance(o, Play):
        return actions.check_play(state, seat, o)
    return None
