"""Mail in and out: received mail is stored raw, then applied; replies, reports, welcome
mails, reminders and notices are queued in the outbox and sent with retries.

Receiving: the raw bytes are committed in their own transaction before anything is parsed,
keyed by Message-ID, so a duplicate is recognised and never applied twice, and a crash
while applying leaves the message stored and `new` (the next `pbem tick` applies it).
Bounces and auto-replies are stored and never answered (no mail loops).

Sending: each outbox row is claimed (queued -> sending) in its own transaction before the
relay is called, so two processes never send the same row; a relay failure puts it back to
`queued` with a later `next_attempt_at`. Without a relay, mail goes to a local maildir.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlmodel import Session, func, select

from pbem.config import Settings
from pbem.core.envelope import parse_envelope
from pbem.mail.backoff import next_attempt
from pbem.mail.inbound import InboundMail, read_message, should_reply
from pbem.mail.outbound import (
    Attachment,
    Thread,
    compose,
    make_message_id,
    reply_subject,
    thread_root_id,
)
from pbem.mail.tokens import TokenTooLong, check_token, make_token, peek_token, reply_address
from pbem.mail.transport import MaildirSink, PermanentMailError, TransientMailError, send_smtp
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service import retention
from pbem.service.game_settings import wants_view_json
from pbem.service.games import (
    ServiceError,
    audit,
    find_game,
    live_step,
    ruleset_of,
    seat_row,
    seats_of,
    settings_of,
)
from pbem.service.orders import Receipt, submit_orders
from pbem.store.models import Game, InboundMessage, Outbox, Seat, Submission

SessionFactory = Callable[[], AbstractContextManager[Session]]
REDACTED = b"(a welcome mail with a password: removed from the outbox once sent)\r\n"


def domain_of(settings: Settings) -> str:
    return settings.address.rpartition("@")[2] or "pbem.localhost"


# --- the outbox ---------------------------------------------------------------------------

def queue(session: Session, settings: Settings, *, kind: str, to: str, subject: str,
          text: str, now: datetime, game: Game | None = None, seat: str | None = None,
          html: str | None = None, attachments: tuple[Attachment, ...] = (),
          reply_to: str | None = None, in_reply_to: str | None = None,
          key: tuple[object, ...] | None = None) -> Outbox | None:
    """Queue one mail. With a `key`, its Message-ID is derived from it and a mail with the
    same key is never queued twice (returns None then)."""
    message_id = make_message_id(domain_of(settings), *(key or (kind, to, now.isoformat(),
                                                                 subject)))
    if session.exec(select(Outbox).where(Outbox.message_id == message_id)).first() is not None:
        return None
    thread = Thread(thread_root_id(game.name, seat, domain_of(settings))) if game and seat else None
    msg = compose(sender=settings.address, to=to, subject=subject, text=text, html=html,
                  attachments=attachments, reply_to=reply_to or settings.address,
                  message_id_domain=domain_of(settings), thread=thread,
                  list_id=f"{game.name}.{domain_of(settings)}" if game else None,
                  in_reply_to=in_reply_to, message_id=message_id, date=now)
    row = Outbox(game_id=game.id if game else None, kind=kind, seat=seat, recipient=to,
                 subject=subject, message_id=message_id, raw=msg.as_bytes(), created_at=now,
                 next_attempt_at=now)
    retention.stamp(row, game)
    session.add(row)
    session.flush()
    return row


@dataclass
class SendReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0


def send_outbox(sessions: SessionFactory, settings: Settings, *, now: datetime,
                batch: int = 200) -> SendReport:
    """Send everything that is due: batches of `batch` rows in id order until none is left,
    so one call drains the queue however long it is (each row is tried once a call)."""
    report = SendReport()
    stale = now - timedelta(minutes=10)
    last = 0
    while True:
        with sessions() as s:
            ids = list(s.exec(select(Outbox.id).where(
                ((Outbox.status == "queued") & (Outbox.next_attempt_at <= now))
                | ((Outbox.status == "sending") & (Outbox.next_attempt_at <= stale)))
                .where(Outbox.id > last).order_by(Outbox.id).limit(batch)))
        if not ids:
            return report
        last = ids[-1]
        _send_batch(sessions, settings, ids, report, now=now)


def _send_batch(sessions: SessionFactory, settings: Settings, ids: list[int],
                report: SendReport, *, now: datetime) -> None:
    for row_id in ids:
        with sessions() as s:  # claim the row: only one sender gets it
            row = s.get(Outbox, row_id)
            if row is None or row.status not in ("queued", "sending"):
                continue
            row.status = "sending"
            row.next_attempt_at = now
            row.attempts += 1
            s.add(row)
            raw, attempts = row.raw, row.attempts
        try:
            if settings.smtp:
                send_smtp(settings.smtp, raw)
            else:
                Path(settings.maildir).parent.mkdir(parents=True, exist_ok=True)
                MaildirSink(settings.maildir).deliver(raw)
            status, error, when = "sent", None, None
        except TransientMailError as e:
            status, error, when = "queued", str(e), next_attempt(attempts, now)
        except (PermanentMailError, ValueError) as e:
            status, error, when = "failed", str(e), None
        with sessions() as s:
            row = s.get(Outbox, row_id)
            assert row is not None
            row.status = status
            row.last_error = error
            if status == "sent":
                row.sent_at = now
                report.sent += 1
                if row.kind == "welcome":
                    # It carried a password: once delivered, keep no copy (only its hash).
                    row.raw = REDACTED
            elif status == "queued":
                row.next_attempt_at = when
                report.retried += 1
            else:
                report.failed += 1
            s.add(row)


# --- reports, welcome mails, notices --------------------------------------------------------

def _reply_to(settings: Settings, game: Game, seat: str, step: int) -> str:
    # The token names the game by its id: short enough for a plus-address (64 characters).
    token = make_token(bytes.fromhex(game.token_secret), str(game.id), seat, step)
    try:
        return reply_address(settings.address, token)
    except (TokenTooLong, ValueError):
        return settings.address


def queue_reports(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    """Queue the report that opens the game's current step for every active seat.

    The mail is the text and the HTML (with the board picture in it, compacted) and, for
    the seats that opted in (`view_json`), the whole view as JSON: its size does not grow
    with the game's history."""
    count = 0
    game_settings = settings_of(game)
    for seat in seats_of(session, game):
        ctx = report_context(session, game.name, seat=seat.seat)
        text = render_report(ctx, fmt="text", override=settings.templates)
        html = render_report(ctx, fmt="html", override=settings.templates)
        atts = []
        if wants_view_json(game_settings, seat.seat):
            atts.append(Attachment(json.dumps(ctx["view"], indent=1, sort_keys=True,
                                              ensure_ascii=False).encode(), "application/json",
                                   f"{game.name}-step{ctx['step']}-{seat.seat}.json"))
        over = " (final)" if ctx["result"] else ""
        row = queue(session, settings, kind="report", to=seat.email, game=game, seat=seat.seat,
                    subject=f"[{game.name}] step {ctx['step']}{over}: {ctx['phase'] or 'report'}",
                    text=text, html=html, attachments=tuple(atts), now=now,
                    reply_to=_reply_to(settings, game, seat.seat, ctx["step"]),
                    key=("report", game.name, game.generation, ctx["step"], seat.seat, seat.id))
        count += row is not None
    return count


def queue_welcome(session: Session, settings: Settings, game: Game, passwords: dict[str, str],
                  *, now: datetime) -> None:
    ruleset = ruleset_of(game)
    for seat in seats_of(session, game):
        if seat.seat not in passwords:
            continue
        ctx = report_context(session, game.name, seat=seat.seat)
        skeleton = (ctx["skeleton"] or "").replace("<your password>", passwords[seat.seat])
        text = (f"Welcome to {game.name}, a game of {ruleset.title}.\n\n"
                f"You play seat {seat.seat}. Your password is: {passwords[seat.seat]}\n"
                "Keep it: it is shown only in this mail. You can also answer any report "
                "without it: its Reply-To address carries a signed token.\n\n"
                f"Send order files to {settings.address}; the rules of the order language "
                f"are in docs/rulesets/{ruleset.id}.md and docs/player-guide.md.\n\n"
                + (f"What is asked now: {ctx['prompt']['text']}\n\nYour order skeleton:\n{skeleton}"
                   if ctx["prompt"] else "Nothing is asked of you yet; your first report follows.\n"))
        queue(session, settings, kind="welcome", to=seat.email, game=game, seat=seat.seat,
              subject=f"[{game.name}] welcome: you play {seat.seat}", text=text, now=now,
              reply_to=_reply_to(settings, game, seat.seat, game.step),
              key=("welcome", game.name, seat.seat, seat.id))


def notify_gm(session: Session, settings: Settings, game: Game | None, subject: str, text: str,
              *, now: datetime, key: tuple[object, ...]) -> None:
    queue(session, settings, kind="notice", to=settings.gm, game=game, subject=subject,
          text=text, now=now, key=("gm", *key))


# --- receiving ------------------------------------------------------------------------------

@dataclass
class Received:
    message_id: str
    status: str  # applied | refused | ignored | duplicate
    reason: str = ""


def receive(sessions: SessionFactory, raw: bytes, *, source: str, settings: Settings,
            now: datetime) -> Received:
    """Store one received mail, then apply it. Never raises on bad mail."""
    try:
        mail = read_message(raw, max_bytes=settings.max_mail_bytes)
    except Exception as e:  # noqa: BLE001 - read_message promises not to; store it anyway
        import hashlib

        mail = InboundMail(message_id=f"<{hashlib.sha256(raw).hexdigest()}@unreadable>",
                           kind="malformed", reason=f"unreadable mail: {type(e).__name__}")
    with sessions() as s:
        if s.exec(select(InboundMessage).where(InboundMessage.message_id == mail.message_id)).first():
            return Received(mail.message_id, "duplicate", "already received")
        s.add(InboundMessage(message_id=mail.message_id, received_at=now, source=source,
                             raw=raw, sender=mail.sender, kind=mail.kind))
    return apply_stored(sessions, mail, settings=settings, now=now)


def apply_stored(sessions: SessionFactory, mail: InboundMail, *, settings: Settings,
                 now: datetime) -> Received:
    with sessions() as s:
        row = s.exec(select(InboundMessage).where(InboundMessage.message_id == mail.message_id)).one()
        if row.status != "new":
            return Received(mail.message_id, "duplicate", "already applied")
        status, reason = _apply(s, mail, settings=settings, now=now)
        row.status, row.reason = status, reason
        s.add(row)
    return Received(mail.message_id, status, reason)


def _answer(s: Session, settings: Settings, mail: InboundMail, text: str, *, now: datetime,
            game: Game | None = None, seat: str | None = None) -> None:
    if not should_reply(mail, own_addresses=(settings.address,)):
        return
    assert mail.sender is not None
    queue(s, settings, kind="echo", to=mail.reply_to or mail.sender, game=game, seat=seat,
          subject=reply_subject(mail.subject), text=text, now=now, in_reply_to=mail.message_id,
          key=("echo", mail.message_id))


def _apply(s: Session, mail: InboundMail, *, settings: Settings, now: datetime) -> tuple[str, str]:
    if mail.kind == "bounce":
        _record_bounce(s, mail, settings=settings, now=now)
        return "ignored", "bounce"
    if mail.kind == "autoreply":
        return "ignored", "auto-reply"
    if mail.kind in ("oversize", "empty", "malformed"):
        reason = mail.reason or f"the mail is {mail.kind}"
        _answer(s, settings, mail, f"Your mail was not read: {reason}\n", now=now)
        return "refused", reason
    token = None
    if mail.token:
        claimed = peek_token(mail.token)
        game_id = claimed[0] if claimed else ""
        game = s.get(Game, int(game_id)) if game_id.isdigit() else None
        checked = check_token(bytes.fromhex(game.token_secret), mail.token) if game else None
        if game is not None and checked is not None:
            token = (game.name, checked[1], checked[2])
    texts = [t for t in mail.order_texts if not parse_envelope(t).problems] or list(mail.order_texts)
    if not texts:
        _answer(s, settings, mail, "No order file found in your mail.\n", now=now)
        return "refused", "no order file"
    text = texts[0]
    env = parse_envelope(text)
    if env.problems and token is not None:
        # A reply to a report: the token names game and seat; the body is the orders.
        text = f"GAME {token[0]}\nSEAT {token[1]}\n" + text
        env = parse_envelope(text)
    capped = _over_cap(s, env.game, mail.sender, settings)
    if capped:
        _answer(s, settings, mail, capped + "\n", now=now)
        return "refused", capped
    try:
        receipt = submit_orders(s, text, now=now, source="mail", sender=mail.sender,
                                message_id=mail.message_id, token=token)
    except ServiceError as e:  # pragma: no cover - submit_orders returns refusals as values
        receipt = Receipt(False, str(e))
    game = s.exec(select(Game).where(Game.name == receipt.game)).first() if receipt.game else None
    if receipt.notify:
        # Wrong password: tell the seat's registered player, never the sender.
        queue(s, settings, kind="notice", to=receipt.notify, game=game, seat=receipt.seat,
              subject=f"[{receipt.game}] an order file with a wrong password",
              text=(f"Someone ({mail.sender}) sent orders for your seat {receipt.seat} in "
                    f"{receipt.game} with a wrong password. They were refused. If it was you, "
                    "check your password or answer a report (its Reply-To needs none).\n"),
              now=now, key=("badpw", mail.message_id))
        if mail.sender and receipt.notify.lower() != mail.sender.lower():
            return "refused", receipt.reason
    _answer(s, settings, mail, receipt.text(), now=now, game=game, seat=receipt.seat)
    return ("applied" if receipt.accepted else "refused"), receipt.reason


def _over_cap(s: Session, game_name: str | None, sender: str | None, settings: Settings) -> str:
    if not game_name or not sender:
        return ""
    game = s.exec(select(Game).where(Game.name == game_name)).first()
    if game is None:
        return ""
    try:
        step = live_step(s, game)
    except ServiceError:
        return ""
    n = s.exec(select(func.count()).select_from(Submission).where(
        Submission.step_id == step.id, Submission.sender == sender)).one()
    if n >= settings.submission_cap:
        return (f"refused: you sent {n} order files for step {step.number} already; the cap "
                f"is {settings.submission_cap}")
    return ""


def _record_bounce(s: Session, mail: InboundMail, *, settings: Settings, now: datetime) -> None:
    original = None
    if mail.bounce_of:
        original = s.exec(select(Outbox).where(Outbox.message_id == mail.bounce_of)).first()
    if original is None and mail.bounced_recipient:
        # No Message-ID in the bounce: the latest mail to the failed address.
        original = s.exec(select(Outbox).where(Outbox.recipient == mail.bounced_recipient)
                          .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr]
    if original is None or original.game_id is None or original.seat is None:
        return
    game = s.get(Game, original.game_id)
    assert game is not None
    row = seat_row(s, game, original.seat)
    if row is None:
        return
    row.bounces += 1
    s.add(row)
    audit(s, game, "bounce", now=now, actor="mail", seat=row.seat, recipient=original.recipient,
          kind=original.kind)
    notify_gm(s, settings, game, f"[{game.name}] mail to {row.seat} bounced",
              f"A {original.kind} mail to {original.recipient} ({row.seat}) bounced "
              f"({row.bounces} so far).\n", now=now, key=("bounce", mail.message_id))


def stored_new(sessions: SessionFactory) -> Iterator[InboundMail]:
    """Stored messages never applied (a crash between storing and applying)."""
    with sessions() as s:
        raws = [r.raw for r in s.exec(select(InboundMessage).where(InboundMessage.status == "new"))]
    for raw in raws:
        yield read_message(raw)


def bounced_seats(session: Session, name: str) -> list[Seat]:
    game = find_game(session, name)
    return [s for s in seats_of(session, game) if s.bounces]
