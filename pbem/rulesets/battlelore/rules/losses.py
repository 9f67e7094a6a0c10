"""Losses (rulebook p.13-15, p.20, p.23; spec §5.7, §8): figures lost, units eliminated,
Victory Banners and the end of the game, critical hits on creatures.

Not here: which dice hit (battle.py), retreats (morale.py).
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _, n_
from pbem.core.kit import Context

from ..data import COLOUR_FACE, term
from ..state import Unit, lore_of, other, uclass, utype
from .common import GameOver, faces, state_of
from .tokens import gain_tokens


def check_victory(ctx: Context) -> None:
    s = state_of(ctx)
    order = [s["active"], other(s["active"])]  # spec §8 assumption: the active player first
    for seat in order:
        if s["banners"][seat] >= s["victory"][seat]:
            s["result"] = {"winner": seat, "reason": _(
                "{seat} reached {n} Victory Banners", seat=seat, n=s["banners"][seat])}
            ctx.log.public("victory", _("{seat} has {n} Victory Banners and wins the battle.",
                                        seat=seat.capitalize(), n=s["banners"][seat]),
                           seat=seat)
            raise GameOver


def eliminate(ctx: Context, u: Unit, why: Msg) -> None:
    s = state_of(ctx)
    winner = other(u["owner"])
    del s["units"][u["id"]]
    s["banners"][winner] += 1
    ctx.log.public("eliminated", _("{unit} ({type}) is eliminated {why}; {seat} takes a Victory "
                                   "Banner ({n}).", unit=u["id"],
                                   type=term(utype(u)["name"].lower()), why=why, seat=winner,
                                   n=s["banners"][winner]),
                   unit=u["id"], banners=s["banners"][winner])
    if uclass(u) == "creature" and s["mode"] == "lore":
        gain_tokens(ctx, winner, 1, _("for killing a creature (p.23)"))
        if u["stored_lore"]:
            lore_of(s)["pool"] += u["stored_lore"]  # p.24: its stored Lore is lost
    check_victory(ctx)


def lose_figures(ctx: Context, u: Unit, n: int, why: Msg) -> bool:
    """Remove `n` figures (banner bearer last); True if the unit is eliminated."""
    if n <= 0:
        return False
    if n >= u["figures"]:
        u["figures"] = 0
        eliminate(ctx, u, why)
        return True
    u["figures"] -= n
    ctx.log.public("losses", n_("{unit} loses {n} figure {why} ({left} left).",
                                "{unit} loses {n} figures {why} ({left} left).", n,
                                unit=u["id"], why=why, left=u["figures"]),
                   unit=u["id"], lost=n)
    return False


def critical(ctx: Context, u: Unit, n: int) -> bool:
    """p.23: re-roll the hit dice; a helmet of the creature's colour is a critical hit."""
    if n <= 0:
        return False
    rolled = faces(ctx.dice, n, _("critical re-roll against {unit}", unit=u["id"]))
    crit = rolled.count(COLOUR_FACE[u["colour"]]) > 0
    text = (_("Critical re-roll against {unit}: {faces} - critical hit.", unit=u["id"],
              faces=" ".join(rolled)) if crit else
            _("Critical re-roll against {unit}: {faces} - no critical hit.", unit=u["id"],
              faces=" ".join(rolled)))
    ctx.log.public("critical", text, faces=rolled)
    return crit
