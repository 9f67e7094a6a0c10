"""The rulebook's worked examples (spec §9, TC-01 to TC-33) as case files (cases/*.toml),
run by the shared case runner. A few examples test one rule in isolation and use a hook:
`score` (final scoring of the position), `look` (the public view: where a Sun can go),
`temple_value`, `phase1` and `rounds` (whole phases on the NMR defaults)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core.engine import canonical_json, process
from pbem.core.ruleset import Ruleset
from pbem.rulesets.helios import RULESET, board
from pbem.rulesets.helios.rules import scoring, sun
from tests.support.cases import Case, case_params, check_case, load_cases

CASES = Path(__file__).parent / "cases"


def score(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    final = {s: scoring.final_scores(state, s) for s in state["seats"]}
    totals = {s: f["total"] for s, f in final.items()}
    winners, ranking = scoring.winners(state, totals)
    return {"scores": final, "winners": winners, "ranking": ranking,
            "text": scoring.winner_text(state, totals, winners)}


def look(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    return ruleset.view(state, None)


def temple_value(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    return {seat: {k: sun.temple_value(p, board.unkey(k)) for k, t in p["tiles"].items()
                   if t["temple"]} for seat, p in state["players"].items()}


def _steps(state: Any, until: Any) -> tuple[Any, list[Any]]:
    """Steps on the NMR defaults (nobody sends orders) until `until(state)`."""
    state_json = canonical_json(RULESET.dump(state))
    events: list[Any] = []
    seen = [state]
    for n in range(500):
        out = process(RULESET, state_json, {}, seed=b"case-%d" % n)
        state_json, state = out.state_json, out.state
        events += out.events
        seen.append(state)
        if until(state):
            return seen, events
    raise AssertionError("no end in 500 steps")


def phase1(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    seen, events = _steps(state, lambda s: s["phase"] != "actions")
    leftovers = sum(len(m.group(1).split(", ")) for e in events
                    if (m := re.match(r"Leftover \w+ tiles discarded: (.*)\.", e.text)))
    return {"state": seen[-1], "turns": sum(1 for e in events if e.kind == "take"),
            "leftovers": leftovers}


def rounds(ruleset: Ruleset, state: Any, case: Case) -> dict[str, Any]:
    """Tiles in the columns as each Phase 1 starts and as it ends, round by round."""
    seen, _ = _steps(state, lambda s: s["phase"] == "over")
    counts = [sum(len(c) for c in seen[0]["columns"].values())]
    for before, after in zip(seen, seen[1:], strict=False):
        if (before["phase"] == "actions") != (after["phase"] == "actions"):
            counts.append(sum(len(c) for c in after["columns"].values()))
    return {"columns": counts, "rounds": seen[-1]["round"]}


HOOKS = {"score": score, "look": look, "temple_value": temple_value, "phase1": phase1,
         "rounds": rounds}


@pytest.mark.parametrize("case", case_params(CASES))
def test_rulebook_case(case: Case) -> None:
    check_case(RULESET, case, HOOKS)


def test_every_spec_example_has_a_case() -> None:
    """Spec §9 lists TC-01 to TC-33; each is a case here."""
    ids = " ".join(c.id for c in load_cases(CASES))
    assert [n for n in range(1, 34) if f"TC-{n:02d}" not in ids] == []


def test_case_positions_load() -> None:
    for path in (CASES / "positions").glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        state = RULESET.load_position(text)
        assert RULESET.dump_position(state) == text
        assert json.loads(canonical_json(state))["phase"] == "actions"
        assert RULESET.position_warnings(state) == []
