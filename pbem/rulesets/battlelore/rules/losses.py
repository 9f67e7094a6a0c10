"""Losses (rulebook p.13-15, p.20, p.23; spec §5.7, §8): figures lost, units eliminated,
Victory Banners and the end of the game, critical hits on creatures.

Not here: which dice hit (battle.py), retreats (morale.py).
"""

from __future__ import annotations

from pbem.core.kit import Context

from ..data import COLOUR_FACE
from ..state import Unit, lore_of, other, uclass, utype
from .common import GameOver, faces, state_of
from .tokens import gain_tokens


def check_victory(ctx: Context) -> None:
    s = state_of(ctx)
    order = [s["active"], other(s["active"])]  # spec §8 assumption: the active player first
    for seat in order:
        if s["banners"][seat] >= s["victory"][seat]:
            s["result"] = {"winner": seat, "reason":
                           f"{seat} reached {s['banners'][seat]} Victory Banners"}
            ctx.log.public("victory", f"{seat.capitalize()} has {s['banners'][seat]} Victory "
                           f"Banners and wins the battle.", seat=seat)
            raise GameOver


def eliminate(ctx: Context, u: Unit, why: str) -> None:
    s = state_of(ctx)
    winner = other(u["owner"])
    del s["units"][u["id"]]
    s["banners"][winner] += 1
    ctx.log.public("eliminated", f"{u['id']} ({utype(u)['name'].lower()}) is eliminated "
                   f"{why}; {winner} takes a Victory Banner ({s['banners'][winner]}).",
                   unit=u["id"], banners=s["banners"][winner])
    if uclass(u) == "creature" and s["mode"] == "lore":
        gain_tokens(ctx, winner, 1, "for killing a creature (p.23)")
        if u["stored_lore"]:
            lore_of(s)["pool"] += u["stored_lore"]  # p.24: its stored Lore is lost
    check_victory(ctx)


def lose_figures(ctx: Context, u: Unit, n: int, why: str) -> bool:
    """Remove `n` figures (banner bearer last); True if the unit is eliminated."""
    if n <= 0:
        return False
    if n >= u["figures"]:
        u["figures"] = 0
        eliminate(ctx, u, why)
        return True
    u["figures"] -= n
    ctx.log.public("losses", f"{u['id']} loses {n} figure{'s' if n > 1 else ''} {why} "
                   f"({u['figures']} left).", unit=u["id"], lost=n)
    return False


def critical(ctx: Context, u: Unit, n: int, purpose: str) -> bool:
    """p.23: re-roll the hit dice; a helmet of the creature's colour is a critical hit."""
    if n <= 0:
        return False
    rolled = faces(ctx.dice, n, purpose)
    crit = rolled.count(COLOUR_FACE[u["colour"]]) > 0
    ctx.log.public("critical", f"Critical re-roll against {u['id']}: {' '.join(rolled)}"
                   f" - {'critical hit' if crit else 'no critical hit'}.", faces=rolled)
    return crit
