"""The general supply and what players take from it: resources, mana, VP and the Sun
track (rulebook p. 2, 6-8; spec §2.9, §5.11, A15).

The rulebook gives the physical counts (14 resources per colour, 30 mana, 35 houses;
rulebook p. 2) but no rule for running out. Default: unlimited. With the option
`enforce_component_limits = yes` a gain the supply cannot cover is lost (resources, mana)
and a temple or building needs a house left in the supply.
"""

from __future__ import annotations

from typing import Any, cast

from pbem.core.i18n import _
from pbem.core.kit import Context, Log
from pbem.rulesets.helios import data
from pbem.rulesets.helios.state import State
from pbem.rulesets.helios.words import term

CUBES_PER_COLOUR = 14
MANA = 30
HOUSES = 35


def display(state: State) -> dict[str, Any]:
    """The land display by slot name (a land type or "extra")."""
    return cast(dict[str, Any], state["display"])


def limited(state: State) -> bool:
    return state["options"]["enforce_component_limits"] == "yes"


def cubes_in_play(state: State, colour: str) -> int:
    n = sum(t["cubes"].count(colour) for p in state["players"].values()
            for t in p["tiles"].values())
    disp = display(state)
    cubes = state["display_cubes"]
    n += sum(1 for t in data.LANDS if disp[t] and cubes.get(t) and data.LAND_COLOUR[t] == colour)
    if disp["extra"] and cubes.get("extra") and data.LAND_COLOUR[disp["extra"]] == colour:
        n += 1
    return n


def cube_available(state: State, colour: str, log: Log | None = None) -> bool:
    if not limited(state) or cubes_in_play(state, colour) < CUBES_PER_COLOUR:
        return True
    if log is not None:
        log.public("supply", _("No {colour} resource is left in the supply.", colour=term(colour)))
    return False


def mana_room(state: State) -> int:
    if not limited(state):
        return 1 << 30
    return max(0, MANA - sum(p["mana"] for p in state["players"].values()))


def houses_left(state: State) -> int:
    if not limited(state):
        return 1 << 30
    used = sum(p["temples"] + len(p["buildings"]) for p in state["players"].values())
    return HOUSES - used


def gain_vp(ctx: Context, seat: str, n: int, why: Any) -> None:
    if n:
        ctx.state["players"][seat]["vp"] += n
        ctx.log.public("vp", _("{seat} scores {n} VP ({why}).", seat=seat, n=n, why=why), seat=seat,
                       vp=n)


def gain_mana(ctx: Context, seat: str, n: int, why: Any) -> None:
    room = mana_room(ctx.state)
    if n > room:
        ctx.log.public("supply", _("Only {room} mana is left in the supply for {seat}.",
                                   room=room, seat=seat), seat=seat)
        n = room
    if n:
        ctx.state["players"][seat]["mana"] += n
        ctx.log.public("mana", _("{seat} gains {n} mana ({why}).", seat=seat, n=n, why=why),
                       seat=seat, mana=n)


def raise_sun(ctx: Context, seat: str, n: int, why: Any) -> None:
    """Rulebook p. 7, 12: buildings and characters move the Sun track marker at once."""
    if n:
        p = ctx.state["players"][seat]
        p["sun_value"] += n
        to = _("infinite") if p["sun_infinite"] else p["sun_value"]
        ctx.log.public("sun_track", _("{seat}'s Sun distance rises by {n} to {to} ({why}).",
                                      seat=seat, n=n, to=to, why=why), seat=seat)
