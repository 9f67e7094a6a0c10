"""Lore tokens (rulebook p.32, p.48; spec §5.13): taken from the common pool into a
seat's goblet, paid back into it. Not here: what tokens buy (lore.py, creatures.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, n_
from pbem.core.kit import Context

from ..state import lore_of
from .common import state_of


def gain_tokens(ctx: Context, seat: str, n: int, why: Msg) -> int:
    """p.32: tokens come from the common pool; an empty pool gives nothing (TC-59)."""
    lo = lore_of(state_of(ctx))
    got = min(n, lo["pool"])
    if got > 0:
        lo["pool"] -= got
        lo["goblet"][seat] += got
        ctx.log.public("tokens", n_("{seat} takes {n} Lore token {why} ({left} in the goblet).",
                                    "{seat} takes {n} Lore tokens {why} ({left} in the goblet).",
                                    got, seat=seat.capitalize(), why=why,
                                    left=lo["goblet"][seat]),
                       seat=seat, n=got)
    return got


def pay_tokens(ctx: Context, seat: str, n: int, why: Msg) -> bool:
    lo = lore_of(state_of(ctx))
    if lo["goblet"][seat] < n:
        return False
    lo["goblet"][seat] -= n
    lo["pool"] += n
    if n:
        ctx.log.public("pay", n_("{seat} pays {n} Lore token {why} ({left} left).",
                                 "{seat} pays {n} Lore tokens {why} ({left} left).", n,
                                 seat=seat.capitalize(), why=why, left=lo["goblet"][seat]),
                       seat=seat, n=n)
    return True
