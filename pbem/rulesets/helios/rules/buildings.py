"""BUILD a city building (rulebook p. 7-8, 16; spec §2.7, §5.4): each at most once per
player, paid with resources, with its printed Sun and mana bonus and its ability
(effects.py `BUILT`).

`check_build` says why a building is illegal now (None when legal); `do_build` builds a
legal one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.i18n import Msg, _
from pbem.core.kit import Context
from pbem.rulesets.helios import data
from pbem.rulesets.helios.effects import BUILT
from pbem.rulesets.helios.orders import Build
from pbem.rulesets.helios.rules import economy, supply
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import idterm, term, terms


def check_build(state: State, seat: str, o: Build) -> Msg | None:
    p = state["players"][seat]
    b = data.buildings()[o.building]
    if o.building in p["buildings"]:
        return _("you have already built the {building}", building=term(o.building))
    if supply.houses_left(state) <= 0:
        return _("no house is left in the supply")
    located, problem = economy.payment(p, list(b["cost"]), o.pay, term(o.building))
    if problem:
        return problem
    if o.building == "bazaar" and (o.convert or 0) > p["mana"] + b["mana"]:
        return _("you have {mana} mana, too little to convert {n}", mana=p["mana"],
                 n=o.convert)
    return None


def do_build(ctx: Context, seat: str, o: Build, rest: Sequence[str] = ()) -> bool:
    """Build; True when the building grants a bonus action now (the Palace). The ability
    acts as the building is built, before its Sun and mana bonus."""
    state: State = ctx.state
    p = state["players"][seat]
    b = data.buildings()[o.building]
    located, problem = economy.payment(p, list(b["cost"]), o.pay, idterm(o.building))
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    p["buildings"].append(o.building)
    name = term(o.building)
    ctx.log.public("building", _("{seat} builds the {building}, paying {paid}.", seat=seat,
                                 building=name, paid=terms(c for c, _cell in located)),
                   seat=seat, building=o.building)
    bonus_action = BUILT(b["ability"], ctx, seat, o, rest)
    supply.raise_sun(ctx, seat, b["sun"], name)
    supply.gain_mana(ctx, seat, b["mana"], name)
    return bool(bonus_action)
