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

from sqlmodel import Session

from pbem.core.dice import commitment, step_seed
from pbem.core.engine import canonical_json, digest, process, set_up
from pbem.service.games import config_of, find_game, live_steps, ruleset_of
from pbem.service.vault import master_seed_of, step_seed_of


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
    master = master_seed_of(session, game)
    steps = live_steps(session, game)
    by_number = {s.number: s for s in steps}
    checked = 0

    def fail(msg: str) -> Verification:
        return Verification(game.name, checked, msg)

    for step in steps:
        seed = step_seed(master, step.number)
        if step_seed_of(session, step) != seed or step.commitment != commitment(seed):
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
        nxt = by_number.get(step.number + 1)
        if nxt is not None and nxt.state_json != outcome.state_json:
            return fail(f"step {step.number + 1}: stored state differs from the recomputed one")
        checked += 1
        if progress:
            progress(1)
    return Verification(game.name, checked)
