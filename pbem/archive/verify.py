"""`pbem archive verify`: recompute a whole game from its stored config, orders and seeds.

Every step is replayed through the same pure engine that processed it: the step seed is
derived again from the master seed and checked against its commitment, the orders digest
is recomputed from the applied order texts, and the rolls, events and resulting state must
match what was stored. A step the GM closed (a game started from a position, a ruling,
an adjudicated step) is a stated input: its position must give the next state and its
digests and events must match, so a ruling cannot hide a changed die. The first
difference is named.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, col, select

from pbem.archive.gm import KINDS, RulingRecord, check_ruling_files, is_ruling
from pbem.core.dice import commitment, orders_digest, step_seed
from pbem.core.engine import StepOutcome, canonical_json, digest, process, set_up
from pbem.service.games import config_of, find_game, ruleset_of
from pbem.service.rulings import ruling_state, verify_ruling
from pbem.service.vault import master_seed_of, step_seed_of
from pbem.store.models import Step

# Steps closed by the GM instead of the engine: checked as stated inputs.
RULINGS = tuple(KINDS)


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
    seats = list(config_of(game).seats)
    checked = 0
    # The state the previous step must have produced, and who says so.
    expected: str | None = None
    source = "the recomputed one"
    # One pass in order, a step at a time (the history is never all in memory).
    steps = session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                         .order_by(col(Step.number)).execution_options(yield_per=50))
    for step in steps:
        seed = step_seed(master, step.number)
        problem = None
        if expected is not None and step.state_json != expected:
            problem = f"step {step.number}: stored state differs from {source}"
        problem = problem or _check_stored(step, step_seed_of(session, step), seed)
        if problem is None and (step.closed_at is None or step.applied_json is None):
            break  # the open step (or the final position)
        if problem is None and step.kind in RULINGS:
            # A GM ruling is a stated input: its position gives the next state.
            problem = verify_ruling(ruleset, step, None, seats)
            if problem is None and orders_digest(json.loads(step.file_hashes_json or "{}")) \
                    != step.orders_digest:
                problem = f"step {step.number}: orders digest differs"
            expected, source = ruling_state(ruleset, step), "the ruling's position"
        elif problem is None:
            if step.number == 0:
                outcome = set_up(ruleset, config_of(game), master)
            else:
                outcome = process(ruleset, step.state_json, json.loads(step.applied_json or "{}"),
                                  seed=seed, force=True)
            problem = _compare(step, outcome)
            expected, source = outcome.state_json, "the recomputed one"
        if problem:
            return Verification(game.name, checked, problem)
        checked += 1
        if progress:
            progress(1)
    return Verification(game.name, checked)


def verify_archive_rulings(session: Session, name: str, directory: Path) -> str | None:
    """Check an exported site's GM section: every ruling's position file is there and
    gives the state whose digest the ruling stored. None when it all holds."""
    game = find_game(session, name)
    steps = session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                         .where(col(Step.ruling_json).is_not(None))
                         .order_by(col(Step.number)))
    records = [RulingRecord.of(step) for step in steps if is_ruling(step)]
    if records and game.status != "finished":
        return (f"{game.name} is not over: an archive has the rulings' position files only "
                "after the game ends")
    return check_ruling_files(ruleset_of(game), records, directory)


def _check_stored(step: Step, stored_seed: bytes, seed: bytes) -> str | None:
    if stored_seed != seed or step.commitment != commitment(seed):
        return (f"step {step.number}: stored seed or commitment does not derive from the "
                "master seed")
    if step.number > 0 and step.state_digest != digest(step.state_json):
        return f"step {step.number}: stored state does not match its digest"
    return None


def _compare(step: Step, outcome: StepOutcome) -> str | None:
    """The first difference between a stored step and its recomputation, or None."""
    if outcome.orders_digest != step.orders_digest:
        return (f"step {step.number}: orders digest differs (stored "
                f"{(step.orders_digest or '')[:12]}, recomputed {outcome.orders_digest[:12]})")
    rolls = [r.to_json() for r in outcome.rolls]
    stored_rolls = json.loads(step.rolls_json or "[]")
    for i, (a, b) in enumerate(zip(stored_rolls, rolls, strict=False)):
        if a != b:
            return (f"step {step.number}: roll {i + 1} ({a['purpose']}) was {a['value']}, "
                    f"recomputed {b['value']}")
    if len(stored_rolls) != len(rolls):
        return f"step {step.number}: {len(stored_rolls)} rolls stored, {len(rolls)} recomputed"
    if canonical_json([e.to_json() for e in outcome.events]) != step.events_json:
        return f"step {step.number}: events differ"
    return None
