"""One pass of what is due: mail and spooled files in, due steps processed (with the NMR
ladder), reminders queued, the outbox sent.

`pbem tick` runs it once (for cron); `pbem serve` runs it on a timer.

The NMR ladder at a deadline, per game settings (`pbem game new --setting`):
1. If most awaited seats (more than half, at least two) have sent nothing, the step is
   held (the game is paused once for that step) and the GM is told: lost mail is likelier
   than mass absence.
2. A seat that missed and has extensions left (`extensions`, default 1 per seat per game,
   plus one per bounced mail to it) gets the deadline moved by `extension_hours` (default
   24) and a notice.
3. Otherwise the step is processed with default orders for the missing seats. A seat that
   misses `civil_disorder_after` (default 3) steps in a row is in civil disorder: it keeps
   getting default orders and the GM is asked to replace it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import or_
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.core.engine import canonical_json
from pbem.core.i18n import _, render
from pbem.mail.player_settings import away_window, is_away
from pbem.mail.when import local_time
from pbem.service import players, retention
from pbem.service.game_settings import DEFAULTS
from pbem.service.games import ServiceError, audit, awaiting_of, live_step, seats_of
from pbem.service.language import translator_of
from pbem.service.orders import orders_on_file, process_spool
from pbem.service.turns import process_turn, ready
from pbem.store.db import READ_ONLY, read_scope, session_scope
from pbem.store.models import Game, Step
from pbem.store.quick import due_work

T = TypeVar("T")


def game_setting(game: Game, key: str) -> object:
    return json.loads(game.settings_json or "{}").get(key, DEFAULTS[key])


def tick(engine: Engine, *, spool: Path, now: datetime, settings: Settings | None = None) -> list[str]:
    """Stored mail, the spool, due games, digests, expired mail bodies, the outbox: each
    only when the first (read-only) look says it has work, so an idle tick writes nothing.
    Each part (and each stored mail, spooled file and game) fails on its own, with a line
    saying so, and the pass goes on to the steps and the outbox."""
    from pbem.service import delivery, digests, mailflow

    settings = settings or Settings()
    sessions: Callable[[], AbstractContextManager[Session]] = lambda: session_scope(engine)  # noqa: E731
    with engine.execution_options(**READ_ONLY).connect() as conn:
        work = due_work(conn, now=now)
    lines: list[str] = []

    def guarded(what: str, part: Callable[[], object]) -> None:  # a part's result is dropped
        try:
            part()
        except Exception as e:  # noqa: BLE001 - report it and go on with the next part
            lines.append(f"{what}: internal error: {type(e).__name__}: {e}".splitlines()[0])

    def mail() -> None:
        for row_id in mailflow.stored_new(sessions):  # stored before a crash, never applied
            r = mailflow.apply_row(sessions, row_id, settings=settings, now=now)
            lines.append(f"mail {r.message_id}: {r.status} {r.reason}".rstrip())

    def spooled() -> None:
        if not (spool / "inbox").is_dir() or not any(_spooled(spool)):
            return
        items = process_spool(sessions, spool, now=now)
        for item in items:
            lines.append(f"{item.path.name}: " + ("accepted" if item.receipt.accepted
                                                  else "refused: " + item.receipt.reason))
        with session_scope(engine) as s:
            mailflow.notify_spool(s, settings, items, now=now)

    if "mail" in work:
        guarded("mail", mail)
    guarded("spool", spooled)
    guarded("games", lambda: lines.extend(process_due(engine, settings=settings, now=now)))
    if work or lines:
        guarded("digests", lambda: _in_session(engine, lambda s: (
            digests.queue_password_digests(s, settings, now=now),
            digests.queue_bounce_digest(s, settings, now=now))))
    if "digest" in work:  # players' digests that are due (pbem.service.delivery)
        guarded("digest", lambda: lines.extend(_in_session(
            engine, lambda s: delivery.flush_due(s, settings, now=now))))
    if "expire" in work:
        guarded("expire", lambda: _in_session(engine, lambda s: retention.expire(s, now=now)))
    if "outbox" in work or lines:  # anything done above may have queued mail
        guarded("outbox", lambda: lines.extend(_send(engine, settings=settings, now=now)))
    if work or lines:
        guarded("wal", lambda: checkpoint(engine))
    return lines


def _in_session(engine: Engine, work: Callable[[Session], T]) -> T:
    with session_scope(engine) as s:
        return work(s)


def after_mail(engine: Engine, *, settings: Settings, now: datetime) -> list[str]:
    """Right after mail or spooled files were applied (`pbem mail receive` run by an MTA,
    `pbem orders spool`, `pbem mail poll`): process the steps they completed and send what
    is queued (the echo, the reports) in the same run, not at the next tick."""
    return process_due(engine, settings=settings, now=now) + _send(engine, settings=settings,
                                                                    now=now)


def _send(engine: Engine, *, settings: Settings, now: datetime) -> list[str]:
    from pbem.service import mailflow

    sent = mailflow.send_outbox(lambda: session_scope(engine), settings, now=now)
    if sent.sent or sent.retried or sent.failed:
        return [f"outbox: {sent.sent} sent, {sent.retried} to retry, {sent.failed} failed"]
    return []


def _spooled(spool: Path) -> Iterator[Path]:
    return (p for p in (spool / "inbox").iterdir() if p.is_file() and not p.name.startswith("."))


def process_due(engine: Engine, *, settings: Settings, now: datetime) -> list[str]:
    """Every game that is due now (one indexed query, read-only), each looked at in its own
    transaction: its step processed if complete or past its deadline (NMR ladder), else its
    reminders; then when it is due next. The mail path calls this too, so a step whose last
    orders just came in is processed at once (`pbem mail receive`, `pbem orders spool`).
    One broken game never holds up the others: its error is a line and a GM notice."""
    with read_scope(engine) as s:
        names = list(s.exec(select(Game.name).where(
            Game.status == "open", or_(col(Game.due_at) <= now, col(Game.deadline) <= now))
            .order_by(col(Game.id))))
    lines: list[str] = []
    for name in names:
        try:
            with session_scope(engine) as s:
                lines += _look(s, name, settings=settings, now=now)
        except Exception as e:  # noqa: BLE001 - one broken game must not hold up the others
            line = f"{name}: internal error: {type(e).__name__}: {e}".splitlines()[0]
            lines.append(line)
            _report_broken(engine, name, line, settings=settings, now=now)
    return lines


def _report_broken(engine: Engine, name: str, line: str, *, settings: Settings,
                   now: datetime) -> None:
    from pbem.service import mailflow

    with session_scope(engine) as s:
        game = s.exec(select(Game).where(Game.name == name)).one()
        mailflow.notify_gm(s, settings, game, f"[{name}] step {game.step} could not be "
                           "processed", f"{line}\nThe other games go on. Please report it as "
                           "a bug.\n", now=now, key=("step-error", name, game.generation,
                                                     game.step))
        # Look again at the next deadline or reminder, not at every tick.
        game.due_at = next_look(s, game, settings=settings, now=now, broken=True)
        s.add(game)


def _look(s: Session, name: str, *, settings: Settings, now: datetime) -> list[str]:
    q = select(Game).where(Game.name == name)
    if s.get_bind().dialect.name != "sqlite":
        # Several hosts on one database: a game another host is working on is skipped, not
        # waited for, so the hosts share the due games (SQLite takes its lock at BEGIN).
        q = q.with_for_update(skip_locked=True)
    game = s.exec(q).first()
    if game is None or game.status != "open":  # another host has it, or it changed
        return []
    line = _due(s, name, settings=settings, now=now)
    lines = [line] if line else []
    if line is None:
        lines += _remind(s, settings, game, now=now)
    game.due_at = next_look(s, game, settings=settings, now=now)
    s.add(game)
    return lines


def next_look(s: Session, game: Game, *, settings: Settings, now: datetime,
              broken: bool = False) -> datetime | None:
    """When the tick must look at the game next: now if its step is ready to process, else
    when its reminders are due, else its deadline (None: nothing will fall due by itself).
    A game whose processing failed (`broken`) is looked at again at its next time, not now."""
    if game.status != "open":
        return None
    if not broken and ready(s, game, now=now) is not None:
        return now
    if game.deadline is None:
        return None
    remind = game.deadline - timedelta(hours=settings.reminder_hours)
    return remind if now < remind else game.deadline


def checkpoint(engine: Engine) -> None:
    """SQLite: move the write-ahead log into the database and empty it, so what was
    overwritten (a password stripped from a stored mail) does not linger in the -wal file."""
    if engine.dialect.name == "sqlite":
        raw = engine.raw_connection()  # outside any transaction: a checkpoint needs that
        try:
            raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
        finally:
            raw.close()


def _due(s: Session, name: str, *, settings: Settings, now: datetime) -> str | None:
    from pbem.service import gm_notices, mailflow

    game = s.exec(select(Game).where(Game.name == name)).one()
    why = ready(s, game, now=now)
    if why is None:
        return None
    step = live_step(s, game)
    gs = json.loads(game.settings_json or "{}")
    if why == "deadline":
        awaited = sorted(awaiting_of(step))
        missing = [seat for seat in awaited if seat not in orders_on_file(s, step)]
        if (missing and game_setting(game, "hold") and len(awaited) >= 2
                and len(missing) * 2 > len(awaited) and gs.get("held_step") != step.number):
            gs["held_step"] = step.number
            gs["paused_time_left"] = 0.0  # on resume the seats get the minimum (gm.MIN_RESUME_HOURS)
            game.settings_json = canonical_json(gs)
            game.status = "paused"
            s.add(game)
            audit(s, game, "hold", now=now, actor="tick", step=step.number, missing=missing)
            mailflow.notify_gm(s, settings, game, f"[{game.name}] step {step.number} held",
                               f"Most seats sent no orders by the deadline ({', '.join(missing)}). "
                               "Lost mail is likelier than mass absence, so the step is held "
                               f"and the game paused. Check the mail, then `pbem gm resume "
                               f"{game.name} --by 24h` (without --by the seats get 1 hour).\n",
                               now=now, key=("hold", game.name, game.generation, step.number))
            gm_notices.held(s, settings, game, now=now)
            return f"{name}: step {step.number} held (most seats missed the deadline)"
        moved = _away_extension(s, settings, game, step, missing, gs, now=now)
        if moved:
            return moved
        used = gs.setdefault("extensions_used", {})
        disorder = set(gs.get("civil_disorder", []))
        bounced = gs.get("bounced", {})
        graced = gs.setdefault("bounce_grace", {})
        here = [game.generation, step.number]
        for seat in missing:
            # A seat whose mail bounced in this step may never have seen its report: it
            # gets one more extension, once per step, however many bounces came.
            grace = bounced.get(seat) == here and graced.get(seat) != here
            if seat in disorder or (not grace and used.get(seat, 0) >= int(
                    game_setting(game, "extensions"))):  # type: ignore[call-overload]
                continue
            if grace:
                graced[seat] = here
            else:
                used[seat] = used.get(seat, 0) + 1
            hours = float(game_setting(game, "extension_hours"))  # type: ignore[arg-type]
            game.deadline = now + timedelta(hours=hours)
            step.deadline = game.deadline
            game.settings_json = canonical_json(gs)
            s.add(game)
            s.add(step)
            audit(s, game, "extension", now=now, actor="tick", seat=seat, hours=hours)
            for row in seats_of(s, game):
                if row.seat == seat:
                    t = translator_of(game, seat)
                    until = players.deadline_text(game, row, game.deadline, now)
                    hrs = f"{hours:g}"
                    mailflow.queue(s, settings, kind="notice", to=row.email, game=game, seat=seat,
                                   urgent=True,  # a reminder, whatever the hour
                                   subject=render(_("[{game}] no orders from you: deadline "
                                                    "extended", game=game.name), t),
                                   text=render(_("We have no orders from {seat} for step {n}. "
                                                 "The deadline is extended by {hours} hours to "
                                                 "{deadline}; after that your default orders "
                                                 "apply.", seat=seat, n=step.number,
                                                 hours=hrs, deadline=until), t) + "\n",
                                   now=now, key=("ext", game.name, game.generation, step.number,
                                                 seat, used.get(seat, 0), bool(grace)))
            gm_notices.extended_for(s, settings, game, seat, now=now)
            return f"{name}: {seat} missed step {step.number}; deadline extended by {hours:g}h"
    try:
        done = process_turn(s, name, now=now, force=(why == "deadline"), actor="tick")
    except ServiceError as e:
        return f"{name}: {e}"
    _track_misses(s, game, done.outcome.defaulted, list(done.outcome.applied), settings, now)
    mailflow.queue_reports(s, settings, game, now=now)
    return (f"{name}: step {done.step} processed ({why})" + ("; game over" if done.finished else ""))


def _away_extension(s: Session, settings: Settings, game: Game, step: Step, missing: list[str],
                    gs: dict[str, Any], *, now: datetime) -> str | None:
    """With `away_policy=extend`: a missing seat whose holder is away moves the deadline to
    `extension_hours` after their return, once per step (else the NMR ladder goes on)."""
    from pbem.service import mailflow

    if not players.away_extends(game):
        return None
    done = gs.setdefault("away_extended", {})
    here = [game.generation, step.number]
    for row in seats_of(s, game):
        prefs = players.settings_of_seat(row)
        zone = players.zone_for(game, row)
        if row.seat not in missing or done.get(row.seat) == here or prefs.away is None \
                or not is_away(now, zone, prefs.away):
            continue
        done[row.seat] = here
        hours = float(game_setting(game, "extension_hours"))  # type: ignore[arg-type]
        game.deadline = away_window(zone, prefs.away)[1] + timedelta(hours=hours)
        step.deadline = game.deadline
        game.settings_json = canonical_json(gs)
        s.add(game)
        s.add(step)
        audit(s, game, "away-extension", now=now, actor="tick", seat=row.seat,
              deadline=game.deadline.isoformat())
        for other in seats_of(s, game):
            t = translator_of(game, other.seat)
            mailflow.queue(s, settings, kind="notice", to=other.email, game=game,
                           seat=other.seat,
                           subject=render(_("[{game}] step {n}: deadline moved",
                                            game=game.name, n=step.number), t),
                           text=render(_("{seat} is away until {until}, so the deadline of "
                                         "step {n} moved to {deadline}.", seat=row.seat,
                                         until=prefs.away[1], n=step.number,
                                         deadline=players.deadline_text(game, other,
                                                                        game.deadline, now)),
                                       t) + "\n",
                           now=now, key=("away-ext", game.name, game.generation, step.number,
                                         row.seat, other.id))
        mailflow.notify_gm(s, settings, game, f"[{game.name}] step {step.number}: deadline "
                           f"moved ({row.seat} away)",
                           f"{row.seat} is away until {prefs.away[1]} and sent no orders for step "
                           f"{step.number}; by away_policy=extend the deadline is now "
                           f"{game.deadline.isoformat(timespec='minutes')}.\n", now=now,
                           key=("away-ext", game.name, game.generation, step.number, row.seat))
        return f"{game.name}: {row.seat} is away; deadline of step {step.number} moved"
    return None


def _track_misses(s: Session, game: Game, defaulted: list[str], applied: list[str],
                  settings: Settings, now: datetime) -> None:
    from pbem.service import mailflow

    gs = json.loads(game.settings_json or "{}")
    misses = gs.setdefault("misses", {})
    disorder = set(gs.get("civil_disorder", []))
    for seat in applied:
        misses[seat] = misses.get(seat, 0) + 1 if seat in defaulted else 0
        if seat not in defaulted:
            disorder.discard(seat)
        elif (misses[seat] >= int(game_setting(game, "civil_disorder_after"))  # type: ignore[call-overload]
              and seat not in disorder):
            disorder.add(seat)
            audit(s, game, "civil-disorder", now=now, actor="tick", seat=seat)
            mailflow.notify_gm(s, settings, game, f"[{game.name}] {seat} is in civil disorder",
                               f"{seat} sent no orders for {misses[seat]} steps in a row and now "
                               "plays by default orders. Please find a replacement: "
                               f"`pbem gm replace-seat {game.name} {seat} NEW@ADDRESS`.\n",
                               now=now, key=("disorder", game.name, seat, misses[seat]))
    gs["civil_disorder"] = sorted(disorder)
    game.settings_json = canonical_json(gs)
    s.add(game)


def _remind(s: Session, settings: Settings, game: Game, *, now: datetime) -> list[str]:
    """Reminders to the seats with no orders on file, once the deadline is near (one per
    seat and step: the outbox key)."""
    from pbem.service import mailflow

    window = timedelta(hours=settings.reminder_hours)
    if game.deadline is None or not (game.deadline - window <= now < game.deadline):
        return []
    lines = []
    step = live_step(s, game)
    on_file = orders_on_file(s, step)
    for row in seats_of(s, game):
        if row.seat in awaiting_of(step) and row.seat not in on_file:
            t = translator_of(game, row.seat)
            due = local_time(game.deadline, players.zone_for(game, row))
            deadline = players.deadline_text(game, row, game.deadline, now)
            q = mailflow.queue(s, settings, kind="reminder", to=row.email, game=game,
                               seat=row.seat,
                               subject=render(_("[{game}] reminder: orders due {deadline}",
                                                game=game.name, deadline=due), t),
                               text=render(_("We have no orders from {seat} for step {n} of "
                                             "{game}. The deadline is {deadline}.\n"
                                             "Answer this mail with your orders: its reply "
                                             "address needs no password.",
                                             seat=row.seat, n=step.number, game=game.name,
                                             deadline=deadline), t) + "\n",
                               now=now, key=("remind", game.name, game.generation,
                                             step.number, row.seat))
            if q is not None:
                lines.append(f"{game.name}: reminder to {row.seat}")
    return lines
