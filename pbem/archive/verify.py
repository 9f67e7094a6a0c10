"""`pbem archive verify`: recompute a whole game from its stored config, orders and seeds.

Every step is replayed through the same pure engine that processed it: the step seed is
derived again from the master seed and checked against its commitment, the orders digest
is recomputed from the applied order texts, and the rolls, events and resulting state must
match what was stored. The first difference is named.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session, select

from pbem.core.dice import commitment, step_seed
from pbem.core.engine import canonical_json, digest, process, set_up
from pbem.service.games import config_of, find_game, ruleset_of
from pbem.store.models import Step


@dataclass
class Verification:
    game: str
    steps_checked: int
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify_game(session: Session, name: str, *,
                progress: Callable[[int], None] | None = None) -> Verification:
    game = find_game(session, name)
    ruleset = ruleset_of(game)
    master = bytes.fromhex(game.master_seed)
    checked = 0
    expected: str | None = None  # the state the previous step's recomputation produced

    def fail(msg: str) -> Verification:
        return Verification(game.name, checked, msg)

    # One pass in order, a step at a time (the history is never all in memory).
    steps = session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                         .order_by(Step.number).execution_options(yield_per=50))  # type: ignore[arg-type]
    for step in steps:
        if expected is not None and step.state_json != expected:
            return fail(f"step {step.number}: stored state differs from the recomputed one")
        seed = step_seed(master, step.number)
        if step.seed != seed.hex() or step.commitment != commitment(seed):
            return fail(f"step {step.number}: stored seed or commitment does not derive from "
                        "the master seed")
        if step.number > 0 and step.state_digest != digest(step.state_json):
            return fail(f"step {step.number}: stored state does not match its digest")
        if step.closed_at is None or step.applied_json is None:
            break  # the open step (or the final position)
        if step.number == 0:
            outcome = set_up(ruleset, config_of(game), master)
        else:
            texts = json.loads(step.applied_json)
            outcome = process(ruleset, step.state_json, texts, seed=seed, force=True)
        if outcome.orders_digest != step.orders_digest:
            return fail(f"step {step.number}: orders digest differs "
                        f"(stored {step.orders_digest[:12]}, recomputed {outcome.orders_digest[:12]})")
        rolls = [r.to_json() for r in outcome.rolls]
        stored_rolls = json.loads(step.rolls_json or "[]")
        for i, (a, b) in enumerate(zip(stored_rolls, rolls, strict=False)):
            if a != b:
                return fail(f"step {step.number}: roll {i + 1} ({a['purpose']}) was {a['value']}, "
                            f"recomputed {b['value']}")
        if len(stored_rolls) != len(rolls):
            return fail(f"step {step.number}: {len(stored_rolls)} rolls stored, "
                        f"{len(rolls)} recomputed")
        events = [e.to_json() for e in outcome.events]
        if canonical_json(events) != step.events_json:
            return fail(f"step {step.number}: events differ")
        expected = outcome.state_json
        checked += 1
        if progress:
            progress(1)
    return Verification(game.name, checked)
