"""BUILD a city building (rulebook p. 7-8, 16; spec §2.7, §5.4): each at most once per
player, paid with resources, with its printed Sun and mana bonus and its ability
(effects.py `BUILT`).

`check_build` says why a building is illegal now (None when legal); `do_build` builds a
legal one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.kit import Context
from pbem.rulesets.helios import data
from pbem.rulesets.helios.effects import BUILT
from pbem.rulesets.helios.orders import Build
from pbem.rulesets.helios.rules import economy, supply
from pbem.rulesets.helios.state import State


def check_build(state: State, seat: str, o: Build) -> str | None:
    p = state["players"][seat]
    b = data.buildings()[o.building]
    if o.building in p["buildings"]:
        return f"you have already built the {o.building.replace('_', ' ')}"
    if supply.houses_left(state) <= 0:
        return "no house is left in the supply"
    located, problem = economy.payment(p, list(b["cost"]), o.pay, o.building.replace("_", " "))
    if problem:
        return problem
    if o.building == "bazaar" and (o.convert or 0) > p["mana"] + b["mana"]:
        return f"you have {p['mana']} mana, too little to convert {o.convert}"
    return None


def do_build(ctx: Context, seat: str, o: Build, rest: Sequence[str] = ()) -> bool:
    """Build; True when the building grants a bonus action now (the Palace). The ability
    acts as the building is built, before its Sun and mana bonus."""
    state: State = ctx.state
    p = state["players"][seat]
    b = data.buildings()[o.building]
    located, problem = economy.payment(p, list(b["cost"]), o.pay, o.building)
    if problem:
        raise AssertionError(problem)
    economy.spend(p, located)
    p["buildings"].append(o.building)
    name = o.building.replace("_", " ")
    ctx.log.public("building", f"{seat} builds the {name}, paying "
                   f"{', '.join(c for c, _ in located)}.", seat=seat, building=o.building)
    bonus_action = BUILT(b["ability"], ctx, seat, o, rest)
    supply.raise_sun(ctx, seat, b["sun"], name)
    supply.gain_mana(ctx, seat, b["mana"], name)
    return bool(bonus_action)
