"""The general supply with the optional component limits (spec §2.9, A15).

The rulebook gives the physical counts (14 resources per colour, 30 mana, 35 houses;
rulebook p. 2) but no rule for running out. Default: unlimited. With the option
`enforce_component_limits = yes` a gain the supply cannot cover is lost (cubes, mana) and
a temple or building needs a house left in the supply.
"""

from __future__ import annotations

from typing import Any

from pbem.core.events import Event
from pbem.rulesets.helios import data

CUBES_PER_COLOUR = 14
MANA = 30
HOUSES = 35


def limited(state: dict[str, Any]) -> bool:
    return state["options"].get("enforce_component_limits") == "yes"


def cubes_in_play(state: dict[str, Any], colour: str) -> int:
    n = sum(t["cubes"].count(colour) for p in state["players"].values()
            for t in p["tiles"].values())
    disp = state["display"]
    cubes = state["display_cubes"]
    n += sum(1 for t in data.LANDS if disp[t] and cubes.get(t) and data.LAND_COLOUR[t] == colour)
    if disp["extra"] and cubes.get("extra") and data.LAND_COLOUR[disp["extra"]] == colour:
        n += 1
    return n


def cube_available(state: dict[str, Any], colour: str, events: list[Event] | None = None) -> bool:
    if not limited(state) or cubes_in_play(state, colour) < CUBES_PER_COLOUR:
        return True
    if events is not None:
        events.append(Event("supply", f"No {colour} resource is left in the supply.", {}))
    return False


def mana_room(state: dict[str, Any]) -> int:
    if not limited(state):
        return 1 << 30
    return max(0, MANA - sum(p["mana"] for p in state["players"].values()))


def houses_left(state: dict[str, Any]) -> int:
    if not limited(state):
        return 1 << 30
    used = sum(p["temples"] + len(p["buildings"]) for p in state["players"].values())
    return HOUSES - used
