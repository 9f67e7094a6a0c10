"""The rulebook's worked examples (spec section 9, T1-T28) as case files in `cases/`, run by
the shared case runner with the rulebook's numbers.

Every case starts from a fresh set-up and its `set` edits, plus three shorthands read by
the hooks below: `place = { county = "owner 2 inf 1 cav" }` (units), `lords = { seat =
"county" }` and `standing = { seat = "LEAD all inf\nTARGET ..." }` (standing orders).
Then one hook (`do`) runs the rule under test in isolation:

- `move`: the `steps` ([seat, MOVE line] in order) one by one; `why` lists the reason each
  was skipped ("" when made);
- `battles`: the `steps`, then phase IV with the scripted dice (auto decisions);
- `movement`: the movement rounds with each seat's `orders` as its step list;
- `recruit`: phase II (ransom and recruitment lines of `orders`, in turn order);
- `election`: the election, with the `orders` as pre-bids; `auction`: one auction of
  `bids`;
- `probe`: nothing is done (derived values only);
- `year`: a whole step through the engine with `orders` and the scripted dice.

Every hook returns the state as `state`, and per county `units` and `holder` ("" when
nobody), per seat `income` and `allowance` (steps). Dice are scripted in the engine's
rolling order: per exchange the attacker's dice first, then the defender's, each side's
arms in the order cavalry, infantry, archers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.kit import Context, Log
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Ruleset
from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.rules.battles import run_battles
from pbem.rulesets.kard_es_korona.rules.control import controller, step_allowance
from pbem.rulesets.kard_es_korona.rules.economy import income_of
from pbem.rulesets.kard_es_korona.rules.elections import (
    resolve_auction,
    run_election,
    start_election,
)
from pbem.rulesets.kard_es_korona.rules.victory import check_victory
from pbem.rulesets.kard_es_korona.rules.year import keep_prebids, movement_rounds, recruitment
from pbem.rulesets.kard_es_korona.state import State, add_units, units_in
from tests.support.cases import Case, Outcome, case_params, check_case

from .helpers import RULESET, order, run_step, standing, step

CASES = Path(__file__).parent / "cases"


def prepare(state: State, case: Case) -> State:
    """Apply the shorthands `place`, `lords` and `standing`."""
    for county, text in (case.get("place") or {}).items():
        owner, *words = text.split()
        counts = {"cav": 0, "inf": 0, "arch": 0}
        for n, arm in zip(words[::2], words[1::2], strict=True):
            counts[arm] = int(n)
        add_units(state, county, owner, counts)
    for seat, county in (case.get("lords") or {}).items():
        state["players"][seat]["lord"] = county
    for seat, lines in (case.get("standing") or {}).items():
        standing(state, seat, *lines.splitlines())
    for b in state["battles"]:  # battles written with `set` need only the rulebook's fields
        b.setdefault("pinned", False)
        b.setdefault("free_owner", None)
        b.setdefault("free", 0)
    return state


def probe(state: State, events: list[Any], **extra: Any) -> Outcome:
    counties = sorted(game_map(state["version"]).counties)
    data = {"state": state,
            "units": {c: units_in(state, c) for c in counties},
            "holder": {c: controller(state, c) or "" for c in counties},
            "income": {s: income_of(state, s) for s in state["seats"]},
            "allowance": {s: step_allowance(state, s) for s in state["seats"]}, **extra}
    winners = list(state["result"]["winners"]) if state["result"] else None
    return Outcome(data, events, winners=winners)


def _context(state: State, case: Case) -> tuple[Context, ScriptedDice]:
    dice = ScriptedDice(case.get("dice") or [])
    return Context(state, dice, Log()), dice


def _all_used(dice: ScriptedDice, case: Case) -> None:
    left = case.get("dice_left", 0)
    assert dice.remaining == left, f"{case}: {dice.remaining} scripted dice left, expected {left}"


def _lines(state: State, seat: str, text: str) -> list[OrderLine]:
    return [OrderLine(i, line, order(state, line, seat))
            for i, line in enumerate(text.splitlines(), start=1) if line.strip()]


def hook_move(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    why, events = [], []
    for seat, line in case.get("steps") or []:
        reason, evs = step(state, seat, line)
        why.append(reason)
        events += evs
    return probe(state, events, why=why)


def hook_battles(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    events = []
    for seat, line in case.get("steps") or []:
        reason, evs = step(state, seat, line)
        assert reason == "", f"{case}: {line}: {reason}"
        events += evs
    ctx, dice = _context(state, case)
    over = run_battles(ctx)
    _all_used(dice, case)
    return probe(state, events + ctx.log.events, over=over)


def hook_movement(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    for seat in state["seats"]:
        state["players"][seat]["steps_left"] = step_allowance(state, seat)
    ctx, dice = _context(state, case)
    scripts = {seat: _lines(state, seat, text) for seat, text in (case.get("orders") or {}).items()}
    over = movement_rounds(ctx, scripts)
    _all_used(dice, case)
    return probe(state, ctx.log.events, over=over)


def hook_recruit(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    ctx, dice = _context(state, case)
    lines = {seat: _lines(state, seat, text) for seat, text in (case.get("orders") or {}).items()}
    recruitment(ctx, lines)
    _all_used(dice, case)
    return probe(state, ctx.log.events)


def hook_election(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    ctx, dice = _context(state, case)
    for seat, text in (case.get("orders") or {}).items():
        keep_prebids(state, seat, [ln.order for ln in _lines(state, seat, text)])
    if start_election(state, ctx.log):
        run_election(ctx)
    check_victory(state, ctx.log)
    _all_used(dice, case)
    return probe(state, ctx.log.events)


def hook_auction(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    ctx, dice = _context(state, case)
    state["election"] = {"office": int(case.get("office", 0)), "declared": {}, "results": []}
    resolve_auction(ctx, dict(case.get("bids") or {}))
    _all_used(dice, case)
    return probe(state, ctx.log.events)


def hook_probe(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    return probe(prepare(state, case), [])


def hook_year(ruleset: Ruleset, state: State, case: Case) -> Outcome:
    state = prepare(state, case)
    out = run_step(state, dict(case.get("orders") or {}), list(case.get("dice") or []))
    got = probe(out.state, out.events)
    got.awaiting = sorted(out.awaiting)
    return got


HOOKS = {"move": hook_move, "battles": hook_battles, "movement": hook_movement,
         "recruit": hook_recruit, "election": hook_election, "auction": hook_auction,
         "probe": hook_probe, "year": hook_year}


@pytest.mark.parametrize("case", case_params(CASES))
def test_rulebook_case(case: Case) -> None:
    check_case(RULESET, case, HOOKS)


def test_every_worked_example_of_the_spec_is_a_case() -> None:
    ids = {c.values[0].id.split("-")[0] for c in case_params(CASES)}
    assert {f"T{i}" for i in range(1, 29)} <= ids
