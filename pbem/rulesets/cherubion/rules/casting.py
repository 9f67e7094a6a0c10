"""Playing a card in one's own turn: check, pay, announce, the CAST window (others may
cancel it), the effect, and the AFTER window (others may remove what it left on a piece).

Rulebook "A kártyalapok felépítése" (instants any time; a cancelled card's cost stays
paid, spec §2.8 n04), "A lapok kijátszási költsége"; spec §5.7, §5.21.
"""

from __future__ import annotations

from functools import partial

from pbem.core.i18n import _
from pbem.core.kit import Context
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.orders import Play
from pbem.rulesets.cherubion.rules.cards import (
    announce,
    check_play,
    hidden_play,
    pay,
    resolve_card,
)
from pbem.rulesets.cherubion.rules.life import to_grave
from pbem.rulesets.cherubion.rules.queries import cut_short
from pbem.rulesets.cherubion.rules.reactions import Item, others, window
from pbem.rulesets.cherubion.rules.results import LEFT_THE_GAME, Result, changed, done, refused
from pbem.rulesets.cherubion.state import Piece, State


def play_card(ctx: Context, seat: str, play: Play) -> Result:
    """A PLAY line, and what became of it."""
    state: State = ctx.state
    why = check_play(state, seat, play)
    if why:  # told to the seat alone, in the line's outcome (the card stays hidden)
        return refused(why)
    announce(ctx, seat, play, pay(ctx, seat, play))
    c = data.card(play.card)
    hidden = hidden_play(play.card)
    item = Item(seat)
    if not hidden:
        # W1 (spec §5.21.1): every card announced openly may be answered by any other seat
        # (spec §5.21.2); a face-down play is not announced, so nobody can answer it
        window(ctx, item, "CAST", others(state, seat), _cast_info(state, seat, play))
        if cut_short(state):
            to_grave(state, seat, play.card)
            return changed(LEFT_THE_GAME)
    if item.countered:
        to_grave(state, seat, play.card)
        ctx.log.public("countered", _("{card} is cancelled", card=c["name_hu"]))
        return changed(_("cancelled by an enemy instant; the energy stays paid"))
    gone = [t for t in play.targets
            if (t in state["pieces"] and state["pieces"][t]["loc"] == "gone")
            or (t in state["players"] and not state["players"][t]["alive"])]
    if gone:
        # its target left play while the window was open (e.g. its player surrendered)
        to_grave(state, seat, play.card)
        ctx.log.public("fizzle", _("{card} has no effect: {gone} left the game",
                                   card=c["name_hu"], gone=", ".join(gone)))
        return changed(_("no effect: {gone} left the game; the energy stays paid",
                         gone=", ".join(gone)))
    resolve_card(ctx, seat, play)
    if not hidden:
        _after_windows(ctx, seat, play)
    return done()


def _cast_info(state: State, seat: str, play: Play) -> dict[str, object]:
    owners = sorted({state["pieces"][t]["owner"] for t in play.targets
                     if t in state["pieces"] and state["pieces"][t]["owner"] != seat}
                    | {t for t in play.targets if t in state["players"] and t != seat}
                    | {state["resources"][t]["owner"] for t in play.targets
                       if t in state["resources"] and state["resources"][t]["owner"] != seat})
    mine = {state["pieces"][t]["owner"]: t for t in play.targets if t in state["pieces"]}
    return {"card": play.card, "caster": play.caster, "seat": seat, "mine_of": mine,
            "concerns": owners}


def _after_windows(ctx: Context, seat: str, play: Play) -> None:
    """The AFTER window (Rulebook "A kártyalapok felépítése": instants at any time; spec
    §5.21.2): the card left a permanent card or a binding status on a piece; every other
    seat may remove it at once with Kötés Oldása / Maradandóság Feloldása."""
    state: State = ctx.state
    for t in dict.fromkeys(play.targets):
        p = state["pieces"].get(t)
        if p is None or p["loc"] == "gone" or p["hidden"] or not (p["attached"] or p["status"]):
            continue
        window(ctx, Item(None), "AFTER", others(state, seat), {
            "card": play.card, "caster": play.caster, "seat": seat, "piece": t,
            "mine_of": {p["owner"]: t}}, still=partial(_holds_something, p))
        if cut_short(state):
            return


def _holds_something(p: Piece) -> bool:
    return p["loc"] != "gone" and bool(p["attached"] or p["status"])
