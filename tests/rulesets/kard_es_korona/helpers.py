"""Builders for the Kard és Korona tests: a bare state, units, lords, standing orders, one
movement step, phase IV with scripted dice, a whole step through the engine, and the hooks
of the rulebook cases (`cases/*.toml`)."""

from __future__ import annotations

import json
from typing import Any

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process
from pbem.core.events import Event
from pbem.core.kit import Context, Log, Order, Question
from pbem.core.ruleset import GameConfig
from pbem.rulesets.kard_es_korona import RULESET
from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.orders import GRAMMAR, Move
from pbem.rulesets.kard_es_korona.phases import keep_standing
from pbem.rulesets.kard_es_korona.rules.battles import run_battles
from pbem.rulesets.kard_es_korona.rules.control import controller
from pbem.rulesets.kard_es_korona.rules.movement import do_step
from pbem.rulesets.kard_es_korona.state import State, add_units, units_in

__all__ = ["RULESET", "army", "bare", "battles", "lord", "order", "put", "standing", "step",
           "run_step", "units_in", "controller"]


def army(cav: int = 0, inf: int = 0, arch: int = 0) -> dict[str, int]:
    return {"cav": cav, "inf": inf, "arch": arch}


def bare(seats: tuple[str, ...] = ("felvidek", "tiszahat"), version: str = "basic",
         year: int = 1302, **options: Any) -> State:
    """A state in the year-orders phase with an empty board and no lords placed."""
    state: State = RULESET.setup(GameConfig(seats=seats, variant=version, options=options),
                                 ScriptedDice([0]))
    state["start"] = state["seats"][0]
    state["board"] = {}
    state["year"] = year
    state["phase"] = "orders"
    return state


def put(state: State, county: str, owner: str, cav: int = 0, inf: int = 0,
        arch: int = 0) -> None:
    add_units(state, county, owner, army(cav, inf, arch))


def lord(state: State, seat: str, county: str) -> None:
    state["players"][seat]["lord"] = county


def order(state: State, line: str, seat: str | None = None) -> Order:
    return GRAMMAR.parse_line(state, seat, line)


def standing(state: State, seat: str, *lines: str) -> None:
    for line in lines:
        keep_standing(state, seat, order(state, line, seat))


def step(state: State, seat: str, line: str) -> tuple[str, list[Event]]:
    """One MOVE line carried out now: why it was skipped ("" if made), the events."""
    log = Log()
    mv = order(state, line, seat)
    assert isinstance(mv, Move)
    return do_step(state, log, seat, mv), log.events


def battles(state: State, dice_values: list[int]) -> tuple[ScriptedDice, list[Event]]:
    """Phase IV with scripted dice (auto decisions)."""
    dice = ScriptedDice(dice_values)
    ctx = Context(state, dice, Log())
    run_battles(ctx)
    return dice, ctx.log.events


def run_step(state: State, texts: dict[str, str], dice: list[int] | None = None,
             seed: bytes = b"kek" * 11) -> Any:
    """A whole step through the engine (scripted dice if given; all must be used)."""
    d = ScriptedDice(dice) if dice is not None else None
    out = process(RULESET, canonical_json(state), texts, seed=seed, dice=d)
    if d is not None:
        assert d.remaining == 0, f"{d.remaining} scripted dice left"
    return out


def reload(state: State) -> State:
    return json.loads(canonical_json(state))


def counties(state: State) -> list[str]:
    return sorted(game_map(state["version"]).counties)


def asked(state: State, seat: str, kind: str, default: str = "", **data: Any) -> State:
    """`state` with an open question of `kind` for `seat` (as a paused resolution leaves
    it), for tests of what may be sent while a decision is open."""
    q = Question(seat, kind, f"a {kind} question", default, (default,) if default else (),
                 exhaustive=False, data=data)
    state["pause"] = {"phase": state["phase"], "snapshot": reload(state), "script": {},
                      "answers": [], "late": [], "dice": [], "emitted": 0,
                      "questions": [q.to_json()]}
    return state
