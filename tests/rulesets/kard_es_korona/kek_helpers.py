"""Builders for Kard és Korona rule tests: a bare state, units, lords, scripted battles
(imported by the test modules; the folder is put on sys.path by conftest.py)."""

from __future__ import annotations

from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.events import Event
from pbem.core.ruleset import GameConfig
from pbem.rulesets.kard_es_korona import RULESET
from pbem.rulesets.kard_es_korona.battles import run_battles
from pbem.rulesets.kard_es_korona.movement import do_step
from pbem.rulesets.kard_es_korona.orders import parse_line
from pbem.rulesets.kard_es_korona.state import add_units


def bare(seats: tuple[str, ...] = ("felvidek", "tiszahat"), version: str = "basic",
         year: int = 1302, **options: Any) -> dict[str, Any]:
    """A state in the movement phase with an empty board and no lords placed."""
    state = RULESET.setup(GameConfig(seats=seats, variant=version, options=options),
                          ScriptedDice([0]))
    state["start"] = state["seats"][0]
    state["board"] = {}
    state["year"] = year
    state["phase"] = "orders"
    state["stage"] = "orders"
    return state


def put(state: dict[str, Any], county: str, owner: str, cav: int = 0, inf: int = 0,
        arch: int = 0) -> None:
    add_units(state, county, owner, {"cav": cav, "inf": inf, "arch": arch})


def lord(state: dict[str, Any], seat: str, county: str) -> None:
    state["players"][seat]["lord"] = county


def standing(state: dict[str, Any], seat: str, *lines: str) -> None:
    from pbem.rulesets.kard_es_korona.flow import store_standing
    for line in lines:
        store_standing(state, seat, parse_line_for(state, line))


def parse_line_for(state: dict[str, Any], line: str) -> Any:
    from pbem.rulesets.kard_es_korona.state import gmap
    return parse_line(gmap(state), state["seats"], line)


def step(state: dict[str, Any], seat: str, line: str) -> tuple[str, list[Event]]:
    events: list[Event] = []
    why = do_step(state, seat, parse_line_for(state, line), events)
    return why, events


def battles(state: dict[str, Any], dice_values: list[int]) -> tuple[ScriptedDice, list[Event]]:
    dice = ScriptedDice(dice_values)
    events: list[Event] = []
    r = run_battles(state, dice, events, lambda: False)
    assert r == "done"
    return dice, events


