"""Processing a step: lock its orders, run the engine, store the outcome in one transaction.

The step row is re-read inside the transaction and must still be open, so a step is never
processed twice, even by two processes on one database (SQLite takes its write lock at
BEGIN; PostgreSQL locks the game row with SELECT ... FOR UPDATE).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from pbem.core.engine import MissingOrders, StepOutcome, process
from pbem.service.games import (
    ServiceError,
    audit,
    awaiting_of,
    close_step,
    find_game,
    live_step,
    open_next,
    ruleset_of,
)
from pbem.service.orders import counts_as_in, orders_on_file
from pbem.service.vault import step_seed_of
from pbem.store.models import Game, Step


@dataclass
class Processed:
    game: str
    step: int  # the step that was processed
    outcome: StepOutcome
    next_step: int
    finished: bool


def _lock_game(session: Session, name: str) -> Game:
    game = find_game(session, name)
    if session.get_bind().dialect.name != "sqlite":
        game = session.exec(select(Game).where(Game.id == game.id).with_for_update()).one()
    return game


def run_step(session: Session, game: Game, step: Step, *, force: bool) -> StepOutcome:
    """The engine run for the step's locked orders; writes nothing."""
    if step.closed_at is not None:
        raise ServiceError(f"step {step.number} of {game.name} is already processed")
    ruleset = ruleset_of(game)
    on_file = orders_on_file(session, step)
    awaited = awaiting_of(step)
    texts = {seat: sub.body for seat, sub in on_file.items()}  # the engine keeps what counts
    try:
        # Live: no round-trip check (archive verify and the tests run it).
        return process(ruleset, step.state_json, texts, seed=step_seed_of(session, step),
                       force=force, verify=False)
    except MissingOrders:
        missing = sorted(s for s in awaited if s not in texts)
        raise ServiceError(f"step {step.number} still awaits orders from "
                           + ", ".join(missing) + " (use --force to apply their default orders)"
                           ) from None


def process_turn(session: Session, name: str, *, now: datetime, force: bool = False,
                 actor: str = "gm") -> Processed:
    game = _lock_game(session, name)
    if game.status == "finished":
        raise ServiceError(f"game {game.name} is over")
    if game.status == "paused" and actor != "gm":
        raise ServiceError(f"game {game.name} is paused")
    step = live_step(session, game)
    outcome = run_step(session, game, step, force=force)
    close_step(step, outcome, now=now, session=session)
    session.add(step)
    nxt = open_next(session, game, ruleset_of(game), outcome, base=step, now=now)
    audit(session, game, "process", now=now, actor=actor, step=step.number, force=force,
          defaulted=outcome.defaulted, orders_digest=outcome.orders_digest)
    return Processed(game.name, step.number, outcome, nxt.number, game.status == "finished")


def preview_turn(session: Session, name: str, *, force: bool = True) -> StepOutcome:
    """What processing the open step now would give; nothing is stored."""
    game = find_game(session, name)
    return run_step(session, game, live_step(session, game), force=force)


def ready(session: Session, game: Game, *, now: datetime) -> str | None:
    """Why the game's open step is due now ('all orders in', 'deadline'), or None."""
    if game.status != "open":
        return None
    step = live_step(session, game)
    awaited = awaiting_of(step)
    on_file = orders_on_file(session, step)
    if game.deadline is not None and now >= game.deadline:
        return "deadline"
    settings = json.loads(game.settings_json or "{}")
    if settings.get("early", True) and all(s in on_file and counts_as_in(on_file[s])
                                           for s in awaited) \
            and not any(sub.wait for sub in on_file.values()):
        return "all orders in"
    return None
