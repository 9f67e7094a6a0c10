"""The outbox: every outgoing mail is queued here, then sent with retries; nothing is sent
twice and nothing is lost when the relay is down.

Sending: each row is claimed with one conditional UPDATE (`pbem.service.claims.claim`) in
its own transaction before the relay is called, so of several senders (processes, hosts)
exactly one sends it. A claim is a 60-second lease: a sender killed mid-send leaves the
row to be taken again a minute later. A transient relay failure puts the row back to
`queued` with a later `next_attempt_at`; a permanent one (5xx) marks it `failed`, and the
GM gets one notice per run listing every such mail (`pbem mail retry` queues them again).

The Message-ID of a game's mail carries a MAC keyed by the game's secret, so nobody who
did not receive the mail can name it (a forged bounce naming a guessed report is not ours).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.mail.backoff import next_attempt
from pbem.mail.outbound import Attachment, Thread, compose, make_message_id, thread_root_id
from pbem.mail.player_settings import release_time
from pbem.mail.transport import MaildirSink, PermanentMailError, TransientMailError, send_smtp
from pbem.service import players, retention
from pbem.service.claims import claim, release
from pbem.service.vault import token_secret_of
from pbem.store.models import Game, Outbox

SessionFactory = Callable[[], AbstractContextManager[Session]]
REDACTED = b"(a welcome mail with a password: removed from the outbox once sent)\r\n"
LEASE = timedelta(seconds=60)  # longer than the relay timeout (30 s)


def domain_of(settings: Settings) -> str:
    return settings.address.rpartition("@")[2] or "pbem.localhost"


def _signed_key(session: Session, game: Game, key: tuple[object, ...]) -> tuple[object, ...]:
    mac = hmac.new(token_secret_of(session, game), repr(("message-id", *key)).encode(),
                   hashlib.sha256).hexdigest()[:16]
    return (*key, mac)


# What reaches a player in their quiet hours: answers to their own mail, reminders, their
# welcome. A report is urgent when it asks them for orders (the caller says so).
URGENT = ("echo", "reminder", "welcome", "refusal")


def queue(session: Session, settings: Settings, *, kind: str, to: str, subject: str,
          text: str, now: datetime, game: Game | None = None, seat: str | None = None,
          html: str | None = None, attachments: tuple[Attachment, ...] = (),
          reply_to: str | None = None, in_reply_to: str | None = None,
          key: tuple[object, ...] | None = None, urgent: bool | None = None,
          hold_until: datetime | None = None) -> Outbox | None:
    """Queue one mail. With a `key`, its Message-ID is derived from it and a mail with the
    same key is never queued twice (returns None then).

    A mail to a seat's holder at their registered address follows their settings: it
    carries a reply address for the game's open step (unless `reply_to` is given), has
    the parts they chose (text, HTML or both), and waits for the end of their quiet
    hours unless it is `urgent` (by default: the kinds in URGENT). `hold_until` keeps it
    for their digest (status held, due then; `pbem.service.delivery`)."""
    parts = key or (kind, to, now.isoformat(), subject)
    if game is not None:
        parts = _signed_key(session, game, parts)
    message_id = make_message_id(domain_of(settings), *parts)
    if session.exec(select(Outbox).where(Outbox.message_id == message_id)).first() is not None:
        return None
    status, send_at = "queued", now
    holder = players.holder_at(session, game, seat, to) if game and seat else None
    if game is not None and holder is not None:
        prefs = players.settings_of_seat(holder)
        reply_to = reply_to or players.reply_to(session, settings, game, holder, game.step)
        if prefs.format == "text":
            html = None
        elif prefs.format == "html" and html is not None:
            text = None  # type: ignore[assignment]
        send_at = release_time(now, players.zone_for(game, holder), prefs.quiet,
                               urgent=kind in URGENT if urgent is None else urgent)
        if hold_until is not None:
            status, send_at = "held", hold_until
    thread = Thread(thread_root_id(game.name, seat, domain_of(settings))) if game and seat else None
    msg = compose(sender=settings.address, to=to, subject=subject, text=text, html=html,
                  attachments=attachments, reply_to=reply_to or settings.address,
                  message_id_domain=domain_of(settings), thread=thread,
                  list_id=f"{game.name}.{domain_of(settings)}" if game else None,
                  in_reply_to=in_reply_to, message_id=message_id, date=now)
    row = Outbox(game_id=game.id if game else None, kind=kind, seat=seat, recipient=to,
                 subject=subject, message_id=message_id, raw=msg.as_bytes(), created_at=now,
                 next_attempt_at=send_at, status=status)
    retention.stamp(row, game)
    session.add(row)
    session.flush()
    return row


def notify_gm(session: Session, settings: Settings, game: Game | None, subject: str, text: str,
              *, now: datetime, key: tuple[object, ...]) -> None:
    queue(session, settings, kind="notice", to=settings.gm, game=game, subject=subject,
          text=text, now=now, key=("gm", *key))


@dataclass
class SendReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    failed_ids: list[int] = field(default_factory=list)


def _deliver(settings: Settings, raw: bytes) -> None:
    if settings.smtp:
        send_smtp(settings.smtp, raw)
    else:
        MaildirSink(settings.maildir).deliver(raw)


def send_outbox(sessions: SessionFactory, settings: Settings, *, now: datetime,
                limit: int = 500) -> SendReport:
    """Send every due row, `limit` ids at a time, until a batch yields nothing to claim."""
    report = SendReport()
    started = time.monotonic()
    after = 0
    while True:
        with sessions() as s:
            ids = list(s.exec(select(Outbox.id).where(
                col(Outbox.id) > after,
                col(Outbox.status).in_(("queued", "sending")),
                col(Outbox.next_attempt_at) <= now).order_by(col(Outbox.id)).limit(limit)))
        for row_id in ids:
            assert row_id is not None
            _send_one(sessions, settings, row_id, now=now, started=started, report=report)
        if len(ids) < limit:
            break
        after = ids[-1]  # type: ignore[assignment]
    if report.failed_ids:
        with sessions() as s:
            _notify_failed(s, settings, report.failed_ids, now=now)
    return report


def _send_one(sessions: SessionFactory, settings: Settings, row_id: int, *, now: datetime,
              started: float, report: SendReport) -> None:
    # The lease runs from the moment of the claim, however long this run has taken.
    at = now + timedelta(seconds=time.monotonic() - started)
    with sessions() as s:
        lease_end = claim(s, Outbox, row_id, now=at, lease=LEASE)
        if lease_end is None:
            return  # another sender has it, or it is not due any more
        row = s.get(Outbox, row_id)
        assert row is not None
        raw, attempts, kind = row.raw, row.attempts, row.kind
    try:
        _deliver(settings, raw)
        values: dict[str, Any] = {"status": "sent", "last_error": None, "sent_at": now,
                                     "next_attempt_at": None}  # no lease, no next attempt
        if kind == "welcome":
            values["raw"] = REDACTED  # it carried a password: once delivered, no copy
        report.sent += 1
    except TransientMailError as e:
        values = {"status": "queued", "last_error": str(e)[:500],
                  "next_attempt_at": next_attempt(attempts, now)}
        report.retried += 1
    except (PermanentMailError, ValueError) as e:
        values = {"status": "failed", "last_error": str(e)[:500]}
        report.failed += 1
        report.failed_ids.append(row_id)
    with sessions() as s:
        release(s, Outbox, row_id, lease_end=lease_end, **values)


def _notify_failed(session: Session, settings: Settings, ids: list[int], *,
                   now: datetime) -> None:
    """One notice to the GM for every mail the relay refused for good in this run."""
    rows = [r for r in (session.get(Outbox, i) for i in ids) if r is not None
            and not (r.kind == "notice" and r.recipient == settings.gm)]  # no notice loops
    if not rows:
        return
    lines = [f"  #{r.id} {r.kind} to {r.recipient}: {r.subject[:60]} -- {r.last_error}"
             for r in rows]
    notify_gm(session, settings, None, f"pbem: the relay refused {len(rows)} mail(s)",
              "The relay refused these mails for good (a 5xx answer); they were not sent:\n"
              + "\n".join(lines) + "\n\nFix the address or the relay, then queue them again "
              "with `pbem mail retry --id N` or `pbem mail retry --all-failed`.\n",
              now=now, key=("failed", *[r.id for r in rows]))


def retry_failed(session: Session, *, now: datetime, ids: list[int] | None = None) -> int:
    """Queue failed mail again (the given ids, or every failed row); returns how many."""
    q = select(Outbox).where(Outbox.status == "failed")
    if ids is not None:
        q = q.where(col(Outbox.id).in_(ids))
    count = 0
    for row in session.exec(q):
        row.status = "queued"
        row.next_attempt_at = now
        session.add(row)
        count += 1
    return count
