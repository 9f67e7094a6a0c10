"""The three actions (rulebook p. 4-10; spec §5.2-§5.6): which action a tile's symbol
grants, whether an action is legal now, and carrying one out.

`check` says why an action is illegal now (None when legal) without changing anything;
`perform` carries out a legal one. Player mistakes are values; broken invariants raise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context, Order
from pbem.rulesets.helios.orders import Action, Build, Decline, Place, Sun, Temple
from pbem.rulesets.helios.rules.buildings import check_build, do_build
from pbem.rulesets.helios.rules.land import check_place, do_place
from pbem.rulesets.helios.rules.sun import check_sun, do_sun
from pbem.rulesets.helios.rules.temples import check_temple, do_temple
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import term

# Rulebook p. 4: the tile's symbol is the action it grants (any tile may be declined).
SYMBOL_ACTIONS: dict[str, tuple[type[Order], ...]] = {
    "land": (Place,), "build": (Temple, Build), "sun": (Sun,)}
SYMBOL_VERBS = {"land": "PLACE", "build": _("TEMPLE or BUILD"), "sun": "SUN"}


def mismatch(column: str, action: Order | None) -> Msg | None:
    """Why `action` cannot be done with a tile of `column` (None when it can)."""
    if action is None or isinstance(action, (Decline, *SYMBOL_ACTIONS[column])):
        return None
    return _("a {column} tile grants {verbs} (or DECLINE), not {verb}", column=term(column),
             verbs=SYMBOL_VERBS[column], verb=str(action).split()[0])


_CHECKS: dict[type[Order], Callable[[State, str, Any], Msg | None]] = {
    Place: check_place, Temple: check_temple, Build: check_build, Sun: check_sun}


def check(state: State, seat: str, o: Action) -> Msg | None:
    if isinstance(o, Decline):
        return None
    return _CHECKS[type(o)](state, seat, o)


def perform(ctx: Context, seat: str, o: Action, rest: Sequence[str] = ()) -> bool:
    """Carry out a legal action; True when it grants a bonus action now (the Palace).
    `rest` is the rest of the turn (its unused BONUS lines, for the Estate Manager's
    question)."""
    if isinstance(o, Decline):
        ctx.log.public("decline", _("{seat} declines the action.", seat=seat), seat=seat)
    elif isinstance(o, Place):
        do_place(ctx, seat, o)
    elif isinstance(o, Temple):
        do_temple(ctx, seat, o)
    elif isinstance(o, Build):
        return do_build(ctx, seat, o, rest)
    else:
        do_sun(ctx, seat, o)
    return False
