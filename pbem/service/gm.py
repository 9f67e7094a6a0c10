"""GM tools: pause, resume, extend, roll back and re-process, replace a seat, announce.

Every action writes an audit row. A rollback keeps history: the steps after the target are
marked not live and a new generation is opened from the target step with the same seed
and the same orders, which the GM may re-process at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.core.engine import canonical_json
from pbem.core.i18n import Msg, _
from pbem.service import game_settings, retention
from pbem.service.games import (
    ServiceError,
    audit,
    clean_address,
    find_game,
    hash_password,
    live_step,
    live_steps,
    mark_due,
    new_password,
    next_deadline,
    ruleset_of,
    seat_row,
)
from pbem.service.orders import orders_on_file
from pbem.service.turns import process_turn
from pbem.service.vault import new_secret
from pbem.store import steptexts
from pbem.store.models import Audit, Game, Seat, Step, Submission, stored_id


def pause(session: Session, name: str, *, now: datetime, reason: str = "") -> Game:
    game = find_game(session, name)
    if game.status != "open":
        raise ServiceError(f"game {game.name} is {game.status}, not open")
    game.status = "paused"
    settings = json.loads(game.settings_json or "{}")
    if game.deadline is not None:  # keep the time left, to restore it on resume
        settings["paused_time_left"] = (game.deadline - now).total_seconds()
    game.settings_json = canonical_json(settings)
    game.deadline = None
    session.add(game)
    audit(session, game, "pause", now=now, reason=reason)
    return game


MIN_RESUME_HOURS = 1.0  # the least a resumed step gets (also what it gets after a hold)


def resume(session: Session, name: str, *, now: datetime, hours: float | None = None) -> Game:
    """Reopen a paused game. The deadline is `hours` from now when given; else the time
    the step had left when the GM paused it, at least an hour; after an automatic hold
    (the deadline had passed) that minimum: one hour."""
    game = find_game(session, name)
    if game.status != "paused":
        raise ServiceError(f"game {game.name} is {game.status}, not paused")
    game.status = "open"
    settings = json.loads(game.settings_json or "{}")
    left = settings.pop("paused_time_left", None)
    if hours is not None:
        game.deadline = now + timedelta(hours=hours)
    elif left is not None:
        game.deadline = now + timedelta(seconds=max(left, MIN_RESUME_HOURS * 3600))
    game.settings_json = canonical_json(settings)
    _sync_step_deadline(session, game)
    mark_due(game, now)
    session.add(game)
    audit(session, game, "resume", now=now,
          deadline=game.deadline.isoformat() if game.deadline else None)
    return game


@dataclass
class Extension:
    """What `extend` did: the deadline before and after (open game), or the time the step
    will have when the paused game resumes."""

    before: datetime | None
    after: datetime | None
    paused_left_hours: float | None = None


def extend(session: Session, name: str, *, hours: float, now: datetime,
           shorten: bool = False) -> Extension:
    """Move the open step's deadline `hours` later (from the deadline, or from now when it
    has passed). On a paused game the time the step will have when it resumes grows
    instead. A negative `hours` moves it earlier only with `shorten` (never before now)."""
    game = find_game(session, name)
    if game.status == "finished":
        raise ServiceError(f"game {game.name} is over")
    if hours == 0:
        raise ServiceError("extend by how long? e.g. --by 24h")
    if hours < 0 and not shorten:
        raise ServiceError(f"--by {hours:g}h would shorten the deadline; add --shorten to "
                           "move it earlier")
    if game.status == "paused":
        settings = json.loads(game.settings_json or "{}")
        # After an automatic hold nothing is kept: the deadline had passed.
        left = max(0.0, settings.get("paused_time_left", 0.0) + hours * 3600)
        settings["paused_time_left"] = left
        game.settings_json = canonical_json(settings)
        session.add(game)
        audit(session, game, "extend", now=now, hours=hours, paused_time_left=left)
        return Extension(None, None, left / 3600)
    before = game.deadline
    base = game.deadline if game.deadline and game.deadline > now else now
    game.deadline = max(base + timedelta(hours=hours), now)
    _sync_step_deadline(session, game)
    mark_due(game, now)
    session.add(game)
    audit(session, game, "extend", now=now, hours=hours, deadline=game.deadline.isoformat())
    return Extension(before, game.deadline)


def set_settings(session: Session, name: str, values: dict[str, Any], *,
                 now: datetime) -> dict[str, Any]:
    """Change game settings (validated, audited). A new mail retention applies to the mail
    already kept too."""
    game = find_game(session, name)
    seats = [row.seat for row in session.exec(select(Seat).where(Seat.game_id == game.id))]
    wrong = game_settings.problems(values, seats)
    if wrong:
        raise ServiceError(wrong[0])
    current = json.loads(game.settings_json or "{}")
    current.update(values)
    game.settings_json = canonical_json(current)
    session.add(game)
    if "mail_retention_days" in values:
        retention.restamp(session, game)
    audit(session, game, "setting", now=now, **values)
    return values


def _sync_step_deadline(session: Session, game: Game) -> None:
    step = live_step(session, game)
    step.deadline = game.deadline
    session.add(step)


def replace_seat(session: Session, name: str, seat: str, email: str, *, now: datetime) -> str:
    """Give a seat to a new player; the old player's row stays in the history. Returns the
    new password (shown once)."""
    game = find_game(session, name)
    old = seat_row(session, game, seat)
    if old is None:
        raise ServiceError(f'game {game.name} has no seat "{seat}"')
    email = clean_address(email, "the new player's address")
    old.active = False
    old.left_at = now
    session.add(old)
    password = new_password()
    # A new row: a new password and a new holder secret, so the old player's password and
    # reply addresses die with the old row.
    session.add(Seat(game_id=stored_id(game), seat=old.seat, email=email,
                     password_hash=hash_password(password), holder_secret=new_secret(session),
                     joined_at=now))
    audit(session, game, "replace-seat", now=now, seat=old.seat, old=old.email, new=email)
    return password


def rotate_token(session: Session, name: str, seat: str, *, now: datetime) -> Seat:
    """Give the seat's holder a new token secret: every reply address mailed so far dies
    (a player's mailbox was read by someone else, say). Returns the seat row."""
    game = find_game(session, name)
    row = seat_row(session, game, seat)
    if row is None:
        raise ServiceError(f'game {game.name} has no seat "{seat}"')
    row.holder_secret = new_secret(session)
    session.add(row)
    audit(session, game, "rotate-token", now=now, seat=row.seat)
    return row


def announce(session: Session, name: str, text: str, *, now: datetime) -> None:
    game = find_game(session, name)
    if not text.strip():
        raise ServiceError("an announcement needs a text")
    audit(session, game, "announce", now=now, text=text)


def audit_log(session: Session, name: str) -> list[Audit]:
    game = find_game(session, name)
    return list(session.exec(select(Audit).where(Audit.game_id == game.id).order_by(col(Audit.id))))


@dataclass
class Rollback:
    game: str
    to_step: int
    reprocessed: bool
    # seat -> one line per top-level part of its view that changed (after re-processing)
    changes: dict[str, list[Msg]] = field(default_factory=dict)


def rollback(session: Session, name: str, to_step: int, *, now: datetime,
             reprocess: bool = False) -> Rollback:
    """Reopen step `to_step`; optionally re-process it at once and tell each seat what
    changed for it compared with the history that was rolled back.

    Without `reprocess` the step is open for orders until a new deadline (the game's step
    length from now): the orders on file are kept but marked WAIT, so the step is not
    processed early with them; a seat that sends a new file replaces its own."""
    game = find_game(session, name)
    if not 1 <= to_step <= game.step:
        raise ServiceError(f"roll back to a step between 1 and {game.step}")
    if to_step == game.step and live_step(session, game).closed_at is None:
        raise ServiceError(f"step {to_step} is open already; nothing to roll back")
    target = live_step(session, game, to_step)
    old_next = live_step(session, game, to_step + 1) if to_step < game.step else None
    kept_orders = orders_on_file(session, target)
    for step in live_steps(session, game):
        if step.number >= to_step:
            step.live = False
            session.add(step)
    session.flush()
    game.generation += 1
    game.step = to_step
    game.status = "open"
    game.finished_at = None
    mark_due(game, now)
    reopened = Step(game_id=stored_id(game), number=to_step, generation=game.generation, live=True,
                    state_digest=target.state_digest, phase=target.phase, round=target.round,
                    commitment=target.commitment, seed=target.seed, opened_at=now,
                    deadline=game.deadline)
    steptexts.link(reopened, target)  # the same texts: a few bytes against the target's
    reopened.state_json, reopened.awaiting_json = target.state_json, target.awaiting_json
    if not reprocess:
        game.deadline = reopened.deadline = next_deadline(game, now)
    session.add(reopened)
    session.flush()
    for seat, sub in kept_orders.items():
        session.add(Submission(step_id=stored_id(reopened), seat=seat, body=sub.body,
                               echo=sub.echo, source=sub.source,
                               sender=sub.sender, message_id=sub.message_id,
                               received_at=sub.received_at, wait=not reprocess))
    session.add(game)
    audit(session, game, "rollback", now=now, to_step=to_step, generation=game.generation)
    session.flush()
    result = Rollback(game.name, to_step, reprocess)
    if reprocess:
        process_turn(session, game.name, now=now, force=True)
        if old_next is not None:
            result.changes = _view_changes(session, game, old_next)
    return result


def _view_changes(session: Session, game: Game, old: Step) -> dict[str, list[Msg]]:
    ruleset = ruleset_of(game)
    new = live_step(session, game, old.number)
    old_state = ruleset.load(json.loads(old.state_json))
    new_state = ruleset.load(json.loads(new.state_json))
    changes: dict[str, list[Msg]] = {}
    seats = json.loads(game.config_json)["seats"]
    for seat in seats:
        a, b = ruleset.view(old_state, seat), ruleset.view(new_state, seat)
        lines = [_("{key} changed", key=key) for key in sorted(set(a) | set(b))
                 if canonical_json(a.get(key)) != canonical_json(b.get(key))]
        changes[seat] = lines or [_("nothing you can see changed")]
    return changes
