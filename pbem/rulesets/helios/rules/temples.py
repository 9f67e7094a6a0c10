"""BUILD a temple (rulebook p. 6-7, 16; spec §5.3): the n-th temple costs n resources
(1 with the Citadel), gives n mana, and clears the tile's resources.

`check_temple` says why a temple is illegal now (None when legal); `do_temple` builds a
legal one.
"""

from __future__ import annotations

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.orders import Temple
from pbem.rulesets.helios.rules import economy, supply
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import terms


def temple_cost(player: Player) -> int:
    # Rulebook p. 16: with the Citadel every later temple costs 1 resource (A24).
    return 1 if "citadel" in player["buildings"] else player["temples"] + 1


def check_temple(state: State, seat: str, o: Temple) -> Msg | None:
    p = state["players"][seat]
    t = p["tiles"].get(key(o.cell))
    if t is None:
        return _("you have no tile on {cell}", cell=key(o.cell))
    if t["temple"]:
        return _("{cell} already has a temple", cell=key(o.cell))
    if supply.houses_left(state) <= 0:
        return _("no house is left in the supply")
    n = temple_cost(p)
    _paid, problem = economy.payment(p, ["any"] * n, o.pay,
                                 _("temple no. {n}", n=p["temples"] + 1), o.cell)
    return problem


def do_temple(ctx: Context, seat: str, o: Temple) -> None:
    state: State = ctx.state
    p = state["players"][seat]
    n = temple_cost(p)
    located, problem = economy.payment(p, ["any"] * n, o.pay, _("a temple"), o.cell)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    t = p["tiles"][key(o.cell)]
    lost = list(t["cubes"])
    t["cubes"] = []  # Rulebook p. 6: resources and a temple never share a tile.
    t["temple"] = True
    p["temples"] += 1
    args = dict(seat=seat, n=p["temples"], cell=key(o.cell),
                paid=terms(c for c, _cell in located), lost=terms(lost))
    ctx.log.public("temple", _("{seat} builds temple no. {n} on {cell}, paying {paid}; {lost} "
                               "returned to the supply.", **args) if lost else
                   _("{seat} builds temple no. {n} on {cell}, paying {paid}.", **args), seat=seat)
    supply.gain_mana(ctx, seat, p["temples"], _("temple no. {n}", n=p["temples"]))
