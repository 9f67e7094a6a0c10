"""Order lines judged on arrival, against the position as it stands: a line that is
illegal now is refused with the reason (and the legal choices); the structure of a Phase 1
script (alternatives, turns) is checked as a whole.

Not here: the phase a line belongs to (the kit's phase table), carrying lines out (rules/).
"""

from __future__ import annotations

from pbem.core.kit import Order, Verdict
from pbem.core.orders import OrderLine, Parsed
from pbem.rulesets.helios.orders import ACTIONS, Bonus, Catchup, Next, Or, Take
from pbem.rulesets.helios.rules import actions
from pbem.rulesets.helios.rules.seats import catchup_seats
from pbem.rulesets.helios.state import State


def check(state: State, seat: str, order: Order) -> Verdict:
    if isinstance(order, Catchup) and state["phase"] == "setup" \
            and seat not in catchup_seats(state):
        return "only seats 3 and 4 after the start player get a set-up resource"
    if state["phase"] == "actions" and state["options"]["conditional_orders"] == "no" and (
            isinstance(order, Or | Next) or (isinstance(order, Take) and order.only_if)):
        return ("conditional orders (OR, NEXT, IF) are switched off in this game; send one "
                "plain turn")
    return None


def script(parsed: Parsed) -> Parsed:
    """A Phase 1 script: each alternative is TAKE, at most one action that fits the tile's
    symbol, and BONUS lines; OR starts the next alternative, NEXT the next turn."""
    out: list[OrderLine] = []
    took = acted = False
    column = ""
    for ln in parsed.lines:
        o = ln.order
        if not ln.ok:
            out.append(ln)
            continue
        err = None
        if isinstance(o, Take):
            if took:
                err = "a second TAKE in one alternative; write OR (or NEXT) before it"
            took, acted, column = True, False, o.column
        elif isinstance(o, Or | Next):
            if not took:
                err = f"{o} must follow a TAKE"
            took = acted = False
        elif isinstance(o, Bonus):
            if not took:
                err = "BONUS must follow a TAKE"
        elif isinstance(o, ACTIONS):
            if not took:
                err = f"start a turn with TAKE before {str(o).split()[0]}"
            elif acted:
                err = "one action per turn; write OR to start an alternative"
            else:
                err = actions.mismatch(column, o)
            acted = True
        out.append(ln if err is None else OrderLine(ln.lineno, ln.text, None, err))
    return Parsed.of(out)
