"""The pure step engine: set up a game and process one step, with auditable dice.

Used alike by the database service, selfplay, `archive verify` and the tests, so a game
processed live and the same game recomputed from its archive go through one code path.

A step parses its stored state once, dumps the new state once and reloads it once: the
next step (and the prompts stored with it) must see the state exactly as stored, dict order
included. Selfplay hands that reloaded state straight to the next step (one load and one
dump a step). The round-trip check (dump the reloaded state again and compare) runs where it
finds bugs (`archive verify`, selfplay, the tests: the default); live processing turns it
off (`verify=False`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Dice, HmacDice, Roll, file_hash, orders_digest, step_seed
from pbem.core.events import Event
from pbem.core.orders import Parsed, Prompt
from pbem.core.ruleset import GameConfig, Result, Ruleset, State


def canonical_json(data: Any) -> str:
    """Compact, key-sorted JSON: the stored form of states, whose digest is stable."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class StepOutcome:
    """Everything a processed step produced."""

    state: State
    state_json: str
    events: list[Event]
    rolls: list[Roll]
    file_hashes: dict[str, str]  # seat -> hash of the order text that was applied
    orders_digest: str
    applied: dict[str, str]  # seat -> the order text that was applied (submitted or NMR)
    defaulted: list[str] = field(default_factory=list)  # seats that got default orders
    awaiting: dict[str, Prompt] = field(default_factory=dict)
    result: Result | None = None

    @property
    def seed_public(self) -> bool:
        """True when every draw of the step was public: its seed may be revealed now."""
        return all(r.visible_to is None for r in self.rolls)


class MissingOrders(Exception):
    """Orders are missing from awaited seats and the step was not forced."""


def set_up(ruleset: Ruleset, config: GameConfig, master_seed: bytes, *,
           verify: bool = True) -> StepOutcome:
    """Step 0: the starting position, its random set-up drawn from step 0's seed."""
    problems = ruleset.check_config(config)
    if problems:
        raise ValueError(problems[0])
    dice = HmacDice(step_seed(master_seed, 0), orders_digest({}))
    state, events = split_setup(ruleset.setup(config, dice))
    return _finish(ruleset, state, events, dice, {}, {}, [], verify=verify)


def split_setup(value: Any) -> tuple[State, list[Event]]:
    """`setup` returns the state, or `SetupResult(state, events)` to report what the
    set-up drew (markers, a start player) in the first report."""
    if isinstance(value, SetupResult):
        return value.state, list(value.events)
    return value, []


@dataclass(frozen=True)
class SetupResult:
    state: State
    events: tuple[Event, ...] = ()


def process(ruleset: Ruleset, state_json: str, texts: Mapping[str, str | None], *,
            seed: bytes, force: bool = True, dice: Dice | None = None,
            verify: bool = True, state: State | None = None) -> StepOutcome:
    """Resolve one step from its stored state and the seats' order texts.

    `texts[seat]` is the order body a seat sent (None or missing: nothing sent). Seats that
    sent nothing get the ruleset's default orders when `force`, else MissingOrders.
    Orders from seats not awaited are used only where the ruleset `accepts_unasked` them.
    `dice` overrides the HMAC dice (tests). `verify` adds the round-trip check. `state` is
    `state_json` already loaded, from an earlier outcome the caller does not use again
    (resolve changes it in place).
    """
    if state is None:
        state = load_state(ruleset, state_json)
    awaited = ruleset.awaiting(state)
    if not awaited:
        raise ValueError("the game is over; there is no step to process")
    applied: dict[str, str] = {}
    parsed: dict[str, Parsed] = {}
    defaulted: list[str] = []
    for seat in awaited:
        text = texts.get(seat)
        if text is None:
            if not force:
                raise MissingOrders(f"no orders from {seat}")
            p = ruleset.default_orders(state, seat)
            text = p.canonical()
            defaulted.append(seat)
        applied[seat] = text
    for seat, text in sorted(texts.items()):
        if seat not in awaited and text is not None and ruleset.accepts_unasked(state, seat):
            applied[seat] = text
    hashes = {seat: file_hash(text) for seat, text in applied.items()}
    od = orders_digest(hashes)
    for seat, text in applied.items():
        parsed[seat] = ruleset.parse(state, seat, text)
    if dice is None:
        dice = HmacDice(seed, od)
    new_state, events = ruleset.resolve(state, parsed, dice)
    return _finish(ruleset, new_state, events, dice, hashes, applied, defaulted, verify=verify)


def load_state(ruleset: Ruleset, state_json: str) -> State:
    """A state from its stored JSON: one parse; no copy where the state is plain JSON data."""
    data = json.loads(state_json)
    return data if ruleset.state_is_plain_json else ruleset.load(data)


def _finish(ruleset: Ruleset, state: State, events: list[Event], dice: Dice,
            hashes: dict[str, str], applied: dict[str, str], defaulted: list[str], *,
            verify: bool) -> StepOutcome:
    state_json = canonical_json(state if ruleset.state_is_plain_json else ruleset.dump(state))
    # The outcome is the state as stored: what the next step will load (key order too).
    state = ruleset.load(json.loads(state_json)) if verify else load_state(ruleset, state_json)
    if verify and canonical_json(ruleset.dump(state)) != state_json:
        raise AssertionError(f"{ruleset.id}: state does not round-trip through JSON")
    awaiting = ruleset.awaiting(state)
    result = ruleset.result(state)
    if not awaiting and result is None:
        raise AssertionError(f"{ruleset.id}: nobody is awaited but the game has no result")
    return StepOutcome(state, state_json, list(events), list(dice.log), hashes,
                       orders_digest(hashes), applied, defaulted, awaiting, result)
