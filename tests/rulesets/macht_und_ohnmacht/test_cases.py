"""The rulebook's worked examples and the spec's test cases (§9, TC-01..TC-33) as data:
cases/*.toml run by the shared case runner, with the hooks below for the examples that
test one rule in isolation (a cycle start, a cycle end, a reveal, a seize count) or run
several turns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process, split_setup
from pbem.core.kit import Log
from pbem.core.ruleset import GameConfig, Ruleset
from pbem.rulesets.macht_und_ohnmacht import RULESET, board
from pbem.rulesets.macht_und_ohnmacht.rules import cycle
from tests.support.cases import Case, Outcome, case_params, check_case

CASES = Path(__file__).parent / "cases"


def _dice(case: Case) -> ScriptedDice:
    return ScriptedDice(case.get("dice") or [0] * 40)


def cycle_start(rs: Ruleset, state: Any, case: Case) -> Outcome:
    log = Log()
    cycle.start_cycle(state, _dice(case), log)
    return Outcome(state, log.events)


def cycle_end(rs: Ruleset, state: Any, case: Case) -> Outcome:
    log = Log()
    cycle.end_cycle(state, _dice(case), log)
    return Outcome(state, log.events)


def start_player(rs: Ruleset, state: Any, case: Case) -> Outcome:
    log = Log()
    cycle.choose_start_player(state, _dice(case), log)
    return Outcome(state, log.events)


def reveal(rs: Ruleset, state: Any, case: Case) -> Outcome:
    log = Log()
    cycle.reveal(state, _dice(case), log, int(case.get("reveal")))
    return Outcome(state, log.events)


def setup(rs: Ruleset, state: Any, case: Case) -> Outcome:
    new, events = split_setup(rs.setup(GameConfig(("orange", "white"), "standard"),
                                       _dice(case)))
    return Outcome(new, list(events))


def seize_count(rs: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    attacker, target = case.get("seize")
    attack, defence = board.seize_count(state, attacker, target)
    return {"attack": attack, "defence": defence,
            "neighbours": board.neighbours(state, target),
            "retreat": board.retreat_options(state, board.opponent(state, attacker), target)}


def turns(rs: Ruleset, state: Any, case: Case) -> Outcome:
    """Several steps in a row: `turns = [[seat, orders], ...]` (optionally after the
    start-player rule, `start_player = true`)."""
    dice = _dice(case)
    events: list[Any] = []
    if case.get("start_player"):
        log = Log()
        cycle.choose_start_player(state, dice, log)
        events += log.events
    out = None
    state_json = canonical_json(rs.dump(state))
    for seat, text in case.get("turns"):
        out = process(rs, state_json, {seat: text + "\n"}, seed=b"case" * 8, dice=dice)
        events += out.events
        state_json = out.state_json
    assert out is not None
    return Outcome(json.loads(out.state_json), events, sorted(out.awaiting),
                   list(out.result.winners) if out.result else None)


HOOKS = {"cycle_start": cycle_start, "cycle_end": cycle_end, "start_player": start_player,
         "reveal": reveal, "setup": setup, "seize_count": seize_count, "turns": turns}


@pytest.mark.parametrize("case", case_params(CASES))
def test_case(case: Case) -> None:
    check_case(RULESET, case, hooks=HOOKS)
