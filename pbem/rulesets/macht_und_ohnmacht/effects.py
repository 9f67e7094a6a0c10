"""The effects of the three lightning tiles (rulebook "A) Akciólapka elvétele"; spec §5.2),
one function each, looked up by the tile kind of data/components.toml. The auction's
winner has already paid and chosen (`choice`: the effect line, or None for the VP tile).

Not here: the auction and the choice (rules/take.py).
"""

from __future__ import annotations

from pbem.core.i18n import _
from pbem.core.kit import Context, Effects

from . import board
from .data import KNIGHT, MAGE, Unit, term, units_text
from .orders import Effect, Rebel, Swap

EFFECTS = Effects("lightning tile")


@EFFECTS.register("vp")
def victory_point(ctx: Context, winner: str, choice: Effect | None) -> None:
    """"Győzelmi pont: A győztes 1 győzelmi pontot kap, amit nyomban le is lép"."""
    state = ctx.state
    state["vp"][winner] += 1
    ctx.log.public("vp", _("{seat} gains 1 VP ({vp}).", seat=winner, vp=state["vp"][winner]),
                   seat=winner)


@EFFECTS.register("rebellion")
def rebellion(ctx: Context, winner: str, choice: Effect | None) -> None:
    """"Lázadás: A győztes nyomban leveheti egy régióról ellenfele legfeljebb két (aktív
    vagy passzív) egységét. A levett egységek a készletbe kerülnek." """
    if not isinstance(choice, Rebel):
        return _decline(ctx, winner)
    state = ctx.state
    opp = board.opponent(state, winner)
    removed: tuple[tuple[Unit, int], ...] = ((KNIGHT, choice.knights), (MAGE, choice.mages))
    for unit, n in removed:
        board.remove_units(state, choice.region, unit, n)
        state["stock"][opp][unit] += n
    ctx.log.public("rebellion", _("Rebellion: {seat} removes {units} of {opp} from {region}.",
                                  seat=winner, units=units_text(choice.knights, choice.mages),
                                  opp=opp, region=board.region_name(state, choice.region)),
                   region=choice.region)


@EFFECTS.register("swap")
def marker_swap(ctx: Context, winner: str, choice: Effect | None) -> None:
    """"Régiójelző cseréje: A győztes a térképről levehet egy régiójelzőt, hogy a
    félretettek közül egy másikat rakjon fel helyette ... A cserének nem akadálya, ha a
    régiót ellenfele irányítja." """
    if not isinstance(choice, Swap):
        return _decline(ctx, winner)
    state = ctx.state
    reg = state["regions"][choice.region]
    old = reg["marker"]
    assert old is not None
    state["set_aside"].remove(choice.marker)
    reg["marker"] = choice.marker
    # SPEC-AMBIGUITY A18: the removed marker joins the set-aside markers.
    state["set_aside"] = sorted([*state["set_aside"], old])
    ctx.log.public("swap", _("Marker swap: {region} now carries {marker} (was {old}).",
                             region=board.region_name(state, choice.region),
                             marker=term(choice.marker), old=term(old)),
                   region=choice.region, marker=choice.marker, old=old)


def _decline(ctx: Context, winner: str) -> None:
    ctx.log.public("decline", _("{seat} declines the effect.", seat=winner))
