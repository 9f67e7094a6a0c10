"""The Lore system in play (rulebook chapters 6-8, p.26-35; spec §5.13-§5.14): Lore
tokens (pool and goblets), rolled Lore faces, creature powers and storing, and the
Lore-card windows of a turn. Card effects live in lore_cards.py; councils, the Lore deck
and the starting hands in council.py.
"""

from __future__ import annotations

from .ctx import Ctx


def gain_tokens(ctx: Ctx, seat: str, n: int, why: str) -> int:
    """p.32: tokens come from the common pool; an empty pool gives nothing."""
    lo = ctx.s["lore"]
    got = min(n, lo["pool"])
    if got > 0:
        lo["pool"] -= got
        lo["goblet"][seat] += got
        ctx.ev("tokens", f"{seat.capitalize()} takes {got} Lore token{'s' if got > 1 else ''} "
                         f"{why} ({lo['goblet'][seat]} in the goblet).", seat=seat, n=got)
    return got


def pay_tokens(ctx: Ctx, seat: str, n: int, why: str) -> bool:
    lo = ctx.s["lore"]
    if lo["goblet"][seat] < n:
        return False
    lo["goblet"][seat] -= n
    lo["pool"] += n
    if n:
        ctx.ev("pay", f"{seat.capitalize()} pays {n} Lore token{'s' if n > 1 else ''} {why} "
                      f"({lo['goblet'][seat]} left).", seat=seat, n=n)
    return True
