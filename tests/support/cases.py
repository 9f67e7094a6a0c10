"""The one runner for rulebook cases kept as data (`tests/rulesets/<game>/cases/*.toml`).

A case file holds `[[case]]` tables. Each case starts from a position and runs one step
with scripted dice, then compares what came out with what the rulebook says:

    [[case]]
    id = "TC-05"                      # the spec's test-case number, or a short name
    page = "p. 7"                     # where the example is in the rulebook
    title = "a seize with two strength tiles"
    position = "positions/seize.toml" # a position file (relative to the case file), or
    # setup = { seats = ["orange", "white"], variant = "standard", seed = "tc05",
    #           options = { decisions = "ask" } }   # a fresh set-up
    set = { "regions.pow.owner" = "white", "hourglass" = 3 }   # edits by dotted path
    orders = { orange = "PLAY key SEIZE pow" }
    dice = [3, 4]                     # die faces (1..n) and picks (0..n-1), in order
    do = "step"                       # or a game's own hook (an attack, a battle)
    [case.expect]                     # dotted paths into the resulting state
    "regions.pow.owner" = "orange"

Steps that come before (a worked example played turn by turn): `steps = [{ orders = {...},
dice = [...] }, ...]` are processed in order first, each with its own scripted dice (all
used), and the case's own `orders` and `dice` are the last step.

More checks: `view = { seat = { path = value } }` (what a seat sees), `events = ["..."]`
(texts some event must contain), `no_events`, `outcomes = { seat = [[line, "status"]] }`,
`awaiting = ["seat"]`, `winners = ["seat"]`, `dice_left = 0` (default: every scripted
die is used). A game with hooks passes `hooks={"attack": fn}`; `fn(ruleset, state, case)`
returns the state (or a dict) the `expect` paths are read from.

A failure names the case, the page, the path, the expected and the actual value.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pbem.core.dice import ScriptedDice
from pbem.core.engine import canonical_json, process, set_up
from pbem.core.ruleset import GameConfig, Ruleset

Hook = Callable[[Ruleset, Any, "Case"], Any]


@dataclass
class Case:
    id: str
    title: str
    page: str
    file: Path
    data: dict[str, Any] = field(repr=False)

    def __str__(self) -> str:
        return f"{self.id} ({self.page}): {self.title}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def load_cases(directory: Path) -> list[Case]:
    cases = []
    for path in sorted(Path(directory).glob("*.toml")):
        with path.open("rb") as f:
            data = tomllib.load(f)
        for c in data.get("case", []):
            cases.append(Case(str(c["id"]), str(c.get("title", "")), str(c.get("page", "")),
                              path, c))
    ids = [c.id for c in cases]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"case ids used twice in {directory}: {', '.join(dup)}")
    return cases


def case_params(directory: Path) -> list[Any]:
    """pytest parameters, one per case, named by the case id."""
    return [pytest.param(c, id=c.id) for c in load_cases(directory)]


# --- paths -------------------------------------------------------------------------------

_MISSING = object()


def get_path(data: Any, path: str) -> Any:
    cur = data
    for part in path.split("."):
        if isinstance(cur, list) and (part.isdigit() or part.startswith("-")):
            i = int(part)
            cur = cur[i] if -len(cur) <= i < len(cur) else _MISSING
        elif isinstance(cur, Mapping):
            cur = cur.get(part, _MISSING)
        else:
            cur = _MISSING
        if cur is _MISSING:
            return _MISSING
    return cur


def set_path(data: Any, path: str, value: Any) -> None:
    parts = path.split(".")
    cur = data
    for part in parts[:-1]:
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    last = parts[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


# --- running -----------------------------------------------------------------------------

def start_state(ruleset: Ruleset, case: Case) -> Any:
    """The case's position: a position file or text, or a fresh set-up; then its edits."""
    if case.get("position") is not None:
        pos = str(case.get("position"))
        text = pos if "\n" in pos else (case.file.parent / pos).read_text(encoding="utf-8")
        state = ruleset.dump(ruleset.load_position(text))
    else:
        su = case.get("setup") or {}
        seats = tuple(su.get("seats") or ruleset.seat_ids(ruleset.min_players,
                                                          ruleset.default_variant()))
        cfg = GameConfig(seats, su.get("variant") or ruleset.default_variant(),
                         dict(su.get("options") or {}))
        seed = hashlib.sha256(str(su.get("seed", case.id)).encode()).digest()
        state = json.loads(set_up(ruleset, cfg, seed).state_json)
    for path, value in (case.get("set") or {}).items():
        set_path(state, path, value)
    return state


@dataclass
class Outcome:
    state: Any
    events: list[Any] = field(default_factory=list)
    awaiting: list[str] = field(default_factory=list)
    winners: list[str] | None = None
    views: dict[str, Any] = field(default_factory=dict)


def run_case(ruleset: Ruleset, case: Case, hooks: Mapping[str, Hook] | None = None) -> Outcome:
    state = start_state(ruleset, case)
    dice = ScriptedDice(case.get("dice") or [])
    do = case.get("do", "step")
    if do != "step":
        if not hooks or do not in hooks:
            raise AssertionError(f"{case}: no hook for do = {do!r}")
        got = hooks[do](ruleset, ruleset.load(state), case)
        out = Outcome(got if not isinstance(got, Outcome) else got.state)
        if isinstance(got, Outcome):
            out = got
    else:
        for i, before in enumerate(case.get("steps") or [], start=1):
            pre = ScriptedDice(before.get("dice") or [])
            done = process(ruleset, canonical_json(state), _texts(before.get("orders")),
                           seed=b"case" * 8, dice=pre)
            if pre.remaining:
                raise AssertionError(f"{case}: step {i} left {pre.remaining} scripted dice "
                                     "unused")
            state = json.loads(done.state_json)
        step = process(ruleset, canonical_json(state), _texts(case.get("orders")),
                       seed=b"case" * 8, dice=dice)
        out = Outcome(json.loads(step.state_json), step.events, sorted(step.awaiting),
                      list(step.result.winners) if step.result else None)
        for seat in (case.get("view") or {}):
            out.views[seat] = ruleset.view(step.state, None if seat == "public" else seat)
    left = case.get("dice_left", 0)
    if do == "step" and dice.remaining != left:
        raise AssertionError(f"{case}: {dice.remaining} scripted dice left unused, expected "
                             f"{left}")
    return out


def _texts(orders: Mapping[str, str] | None) -> dict[str, str]:
    return {seat: text if text.endswith("\n") else text + "\n"
            for seat, text in (orders or {}).items()}


def check_case(ruleset: Ruleset, case: Case, hooks: Mapping[str, Hook] | None = None) -> None:
    """Run the case and compare; the AssertionError names the case and every mismatch."""
    out = run_case(ruleset, case, hooks)
    wrong: list[str] = []

    def compare(where: str, data: Any, expected: Mapping[str, Any]) -> None:
        for path, want in expected.items():
            got = get_path(data, path)
            if got is _MISSING:
                wrong.append(f"{where}{path}: expected {want!r}, but there is no such field")
            elif got != want:
                wrong.append(f"{where}{path}: expected {want!r}, got {got!r}")

    compare("", out.state, case.get("expect") or {})
    for seat, expected in (case.get("view") or {}).items():
        compare(f"view of {seat}: ", out.views.get(seat, {}), expected)
    texts = [e.text for e in out.events]
    for want in case.get("events") or []:
        if not any(want in t for t in texts):
            wrong.append(f"events: expected one containing {want!r}; events were: "
                         + " | ".join(texts))
    for unwanted in case.get("no_events") or []:
        hits = [t for t in texts if unwanted in t]
        if hits:
            wrong.append(f"events: expected none containing {unwanted!r}, got {hits[0]!r}")
    for seat, pairs in (case.get("outcomes") or {}).items():
        got = [[e.data["line"], e.data["status"]] for e in out.events
               if e.kind == "outcome" and e.to == (seat,)]
        if sorted(got) != sorted([list(p) for p in pairs]):
            wrong.append(f"outcomes of {seat}: expected {pairs}, got {got}")
    if case.get("awaiting") is not None and sorted(case.get("awaiting")) != out.awaiting:
        wrong.append(f"awaiting: expected {sorted(case.get('awaiting'))}, got {out.awaiting}")
    if case.get("winners") is not None and case.get("winners") != out.winners:
        wrong.append(f"winners: expected {case.get('winners')}, got {out.winners}")
    if wrong:
        raise AssertionError(f"case {case} [{case.file.name}]\n  " + "\n  ".join(wrong))
