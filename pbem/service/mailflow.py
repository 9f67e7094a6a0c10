"""Mail in: received mail is stored raw, then applied; answers, reports, welcome mails and
notices are queued in the outbox (`pbem.service.outbox`).

Receiving: the raw bytes are committed in their own transaction before anything is parsed,
keyed by Message-ID, so a duplicate is recognised and never applied twice; another mail
that reuses a stored Message-ID (a different content digest) is kept apart and applied
too. An oversize mail keeps its header, size and digest only. Applying runs per stored
mail in its own transaction: whatever goes wrong there is caught, counted and retried by
the next tick, and after `limits.MAX_APPLY_ATTEMPTS` failures the mail is quarantined
(the GM is told), so one hostile mail can never stop the host.
Bounces and auto-replies are stored and never answered (no mail loops); whom the host
answers at all, and how often, is `pbem.service.limits`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import BinaryIO

from sqlmodel import Session, col, func, select

from pbem.config import Settings
from pbem.core.engine import canonical_json
from pbem.core.envelope import Envelope
from pbem.core.i18n import Msg, Translator, _, render
from pbem.locale import translator
from pbem.mail.inbound import (
    InboundMail,
    content_digest,
    header_block,
    read_message,
    should_reply,
    strip_passwords,
)
from pbem.mail.outbound import Attachment, reply_subject
from pbem.mail.tokens import check_token, peek_token, plus_detail
from pbem.reports.context import PASSWORD_PLACEHOLDER, report_context
from pbem.service import delivery, digests, limits, playerdocs, players
from pbem.service.games import (
    ServiceError,
    audit,
    find_game,
    live_step,
    ruleset_of,
    seat_row,
    seats_of,
)
from pbem.service.language import language_of_address, translator_of
from pbem.service.orders import Receipt, SpoolItem, read_envelope, submit_orders
from pbem.service.outbox import (  # noqa: F401 - the outbox's API, also reached from here
    REDACTED,
    SendReport,
    SessionFactory,
    domain_of,
    notify_gm,
    queue,
    send_outbox,
)
from pbem.service.vault import holder_secret_of
from pbem.store.models import Game, InboundMessage, Outbox, Seat, Submission

# --- reports and welcome mails --------------------------------------------------------------


def queue_reports(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    """Queue the report that opens the game's current step for every active seat, by each
    holder's settings and in each holder's language (`pbem.service.delivery`)."""
    return delivery.queue_reports(session, settings, game, now=now)


def queue_welcome(session: Session, settings: Settings, game: Game, passwords: dict[str, str],
                  *, now: datetime) -> None:
    ruleset = ruleset_of(game)
    for seat in seats_of(session, game):
        if seat.seat not in passwords:
            continue
        ctx = report_context(session, game.name, seat=seat.seat)
        t = translator_of(game, seat.seat)
        docs_text, docs = playerdocs.for_welcome(ruleset.id, settings.docs_url, t)
        skeleton = (ctx["skeleton"] or "").replace(PASSWORD_PLACEHOLDER, passwords[seat.seat])
        text = render(_("Welcome to {game}, a game of {title}.\n\n"
                        "You play seat {seat}. Your password is: {password}\n"
                        "Keep it: it is shown only in this mail. You can also answer any report "
                        "without it: its Reply-To address carries a signed token for that step.\n\n"
                        "Send order files to {address}.\n\n", game=game.name, title=ruleset.title,
                        seat=seat.seat, password=passwords[seat.seat], address=settings.address),
                      t) \
            + (f"{docs_text}\n" if docs_text else "") \
            + (render(_("What is asked now: {prompt}\n\nYour order skeleton:\n",
                        prompt=ctx["prompt"]["text"]), t) + skeleton
               if ctx["prompt"] else
               render(_("Nothing is asked of you yet; your first report follows."), t) + "\n")
        queue(session, settings, kind="welcome", to=seat.email, game=game, seat=seat.seat,
              subject=render(_("[{game}] welcome: you play {seat}", game=game.name,
                               seat=seat.seat), t), text=text, now=now,
              attachments=docs,
              key=("welcome", game.name, seat.seat, seat.id))


def queue_new_reply_address(session: Session, settings: Settings, game: Game, seat: Seat, *,
                            now: datetime) -> None:
    """After the GM rotated a holder's token secret: a mail whose Reply-To works again."""
    t = translator_of(game, seat.seat)
    queue(session, settings, kind="notice", to=seat.email, game=game, seat=seat.seat,
          subject=render(_("[{game}] your reply addresses were renewed", game=game.name), t),
          text=render(_("The GM renewed the reply addresses of your seat {seat} in {game}: "
                        "answering an older report no longer works. To send orders for step "
                        "{n} without the password, answer this mail.", seat=seat.seat,
                        game=game.name, n=game.step), t) + "\n",
          now=now,
          key=("renewed", game.name, seat.id, seat.holder_secret[-16:]))


# --- receiving ------------------------------------------------------------------------------

@dataclass
class Received:
    message_id: str
    status: str  # applied | refused | ignored | throttled | duplicate | retry | quarantined
    reason: str = ""


def receive(sessions: SessionFactory, raw: bytes, *, source: str, settings: Settings,
            now: datetime, size: int | None = None) -> Received:
    """Store one received mail, then apply it.

    Raises only when the mail could not be stored (the caller's MTA should try again
    later); once stored, nothing about the mail makes it raise. `size`: the size the mail
    really has when `raw` is only its header (IMAP does not fetch an oversize mail).
    """
    size = len(raw) if size is None else size
    digest = content_digest(raw)
    mail = read_message(raw, max_bytes=settings.max_mail_bytes)
    stored = raw
    if size > settings.max_mail_bytes:  # keep the header, the size and the digest only
        stored = header_block(raw, limit=64_000)
        if mail.kind not in ("bounce", "autoreply", "oversize"):
            mail = replace(mail, kind="oversize", reason=_oversize(size, settings))
    with sessions() as s:
        old = s.exec(select(InboundMessage.sha256).where(
            InboundMessage.message_id == mail.message_id)).first()
        if old is not None:
            if old in ("", digest):
                return Received(mail.message_id, "duplicate", "already received")
            # Another mail under a stored Message-ID: keep it apart, under its digest.
            mail = replace(mail, message_id=f"<{digest}@reused-id.pbem.invalid>")
            if s.exec(select(InboundMessage.id).where(
                    InboundMessage.message_id == mail.message_id)).first() is not None:
                return Received(mail.message_id, "duplicate", "already received")
        row = InboundMessage(message_id=mail.message_id, received_at=now, source=source,
                             raw=stored, sender=mail.sender, kind=mail.kind, size=size,
                             sha256=digest)
        s.add(row)
        s.flush()
        row_id = row.id
    assert row_id is not None
    return apply_row(sessions, row_id, settings=settings, now=now,
                     mail=mail if stored is raw else None)


def read_limited(stream: BinaryIO, max_bytes: int, *, chunk: int = 1 << 20) -> tuple[bytes, int]:
    """Read a mail from a stream without holding more than `max_bytes` (+ a chunk) of it:
    ``(raw, size)``, where raw is the whole mail or, past the limit, only its start (the
    header is all `receive` keeps of an oversize mail)."""
    head = stream.read(max_bytes + 1)
    size = len(head)
    while True:
        more = stream.read(chunk)
        if not more:
            return head, size
        size += len(more)


def _stored_mail(row: InboundMessage, settings: Settings) -> InboundMail:
    mail = replace(read_message(row.raw, max_bytes=settings.max_mail_bytes),
                   message_id=row.message_id)
    if row.size > settings.max_mail_bytes and mail.kind not in ("bounce", "autoreply"):
        mail = replace(mail, kind="oversize", order_texts=(), reason=_oversize(row.size, settings))
    return mail


def _oversize(size: int, settings: Settings) -> Msg:
    mb, limit = f"{size / 1e6:.1f}", f"{settings.max_mail_bytes / 1e6:.1f}"
    return _("the message is {size} MB; the limit is {limit} MB: send the order file as "
             "plain text", size=mb, limit=limit)


def apply_row(sessions: SessionFactory, row_id: int, *, settings: Settings,
              now: datetime, mail: InboundMail | None = None) -> Received:
    """Apply one stored mail in its own transaction. Never raises for what the mail holds:
    a failure is counted and left for the next tick, and quarantined after a few.
    `mail`: the stored raw already read (saves reading it again)."""
    message_id = "?"
    try:
        with sessions() as s:
            row = s.get(InboundMessage, row_id)
            if row is None or row.status != "new":
                return Received(row.message_id if row else "?", "duplicate", "already applied")
            message_id = row.message_id
            mail = replace(mail, message_id=message_id) if mail else _stored_mail(row, settings)
            status, reason = _apply(s, mail, settings=settings, now=now)
            row.status, row.reason = status, reason[:500]
            stripped = strip_passwords(row.raw, mail) if mail.kind == "orders" else None
            if stripped is not None:
                row.raw = stripped  # a password is never kept once the mail is applied
            s.add(row)
        return Received(message_id, status, reason)
    except Exception as e:  # noqa: BLE001 - one mail must not stop the host
        return _failed(sessions, row_id, f"{type(e).__name__}: {e}", settings=settings, now=now)


def _failed(sessions: SessionFactory, row_id: int, error: str, *, settings: Settings,
            now: datetime) -> Received:
    error = error.splitlines()[0][:300] if error else "error"
    with sessions() as s:
        row = s.get(InboundMessage, row_id)
        assert row is not None
        row.attempts += 1
        row.reason = f"internal error: {error}"
        if row.attempts < limits.MAX_APPLY_ATTEMPTS:
            s.add(row)
            return Received(row.message_id, "retry", row.reason)
        row.status = "quarantined"
        s.add(row)
        notify_gm(s, settings, None, "pbem: a received mail was quarantined",
                  f"Stored mail #{row.id} {row.message_id} from {row.sender or '(no sender)'} "
                  f"failed {row.attempts} times and is set aside (status quarantined):\n"
                  f"  {error}\nNothing else is held up. Please report it as a bug.\n",
                  now=now, key=("quarantine", row.id))
        mail = replace(read_message(header_block(row.raw)), message_id=row.message_id)
        _answer(s, settings, mail, _("Your mail could not be processed (an internal error). "
                                     "The GM has been told; please send it again later."),
                now=now)
        return Received(row.message_id, "quarantined", row.reason)


def _answer(s: Session, settings: Settings, mail: InboundMail,
            text: str | Msg | Receipt, *, now: datetime,
            game: Game | None = None, seat: str | None = None,
            attachments: tuple[Attachment, ...] = ()) -> None:
    """Answer the sender: a registered player or the GM at the From address (never at a
    Reply-To); anyone else at most one short refusal a day that repeats nothing of theirs.
    The answer is in the seat's language (`language_of`), or the sender's when no game is
    known; a `Msg` text gets a final newline."""
    if not should_reply(mail, own_addresses=(settings.address,)):
        return
    to = limits.bare(mail.sender)
    if not limits.is_known(s, settings, to):
        # Not a player: no language is known, and nothing of theirs is repeated.
        queue(s, settings, kind="refusal", to=to, subject=str(_("pbem: your mail was not read")),
              text=str(_("This is the play-by-email host at {address}. Your mail was not "
                         "read: {to} is not the address of a player here. If you play, send "
                         "your orders from the address your GM registered, or answer one of "
                         "your reports.", address=settings.address, to=to)) + "\n",
              now=now, key=("refusal", to, now.date().isoformat()))
        return
    t = (translator_of(game, seat) if game is not None
         else translator(language_of_address(s, to)))
    _answer_known(s, settings, to, mail, _localised(text, t), now=now, game=game, seat=seat,
                  attachments=attachments)


def _localised(text: str | Msg | Receipt, t: Translator | None) -> str:
    """An answer's text in the reader's language: a receipt's whole text, or a message
    (with its final newline); a plain string is already the text."""
    if isinstance(text, Receipt):
        return text.text(t)
    if isinstance(text, Msg):
        return render(text, t) + "\n"
    return text


def _answer_known(s: Session, settings: Settings, to: str, mail: InboundMail, text: str, *,
                  now: datetime, game: Game | None, seat: str | None,
                  key: tuple[object, ...] | None = None,
                  attachments: tuple[Attachment, ...] = ()) -> None:
    if limits.answers_exhausted(s, to, now):
        # An auto-responder or a loop: fall silent to it and tell the GM once a day.
        notify_gm(s, settings, None, f"pbem: stopped answering {to}",
                  f"{to} was answered {limits.ANSWERS_PER_HOUR} times within an hour; the host "
                  "does not answer it for now (a mail loop or an auto-responder?).\n",
                  now=now, key=("loop", to, now.date().isoformat()))
        return
    queue(s, settings, kind="echo", to=to, game=game, seat=seat,
          subject=reply_subject(mail.subject), text=text, now=now, in_reply_to=mail.message_id,
          attachments=attachments, key=key or ("echo", mail.message_id))


DAMAGED = _("this reply address is damaged (characters were lost or changed on the way), so "
            "it does not say which game and seat you play: answer your latest report again, "
            "keeping its reply address whole, or write GAME, SEAT and PASSWORD lines")


@dataclass
class _Token:
    auth: tuple[str, str, int] | None = None  # (game, seat, step): genuine and current
    problem: str = ""  # why a token was not taken, one line


def _check_reply_token(s: Session, token: str) -> _Token:
    claim = peek_token(token)  # every number in it is range-checked: safe to look up
    void = _Token(problem=_("this reply address is not valid (damaged, or renewed by the GM): "
                            "answer your latest report, or write GAME, SEAT and PASSWORD lines"))
    if claim is None:
        return void
    holder = s.get(Seat, claim.holder)
    game = s.get(Game, holder.game_id) if holder is not None else None
    if holder is None or game is None:
        return void
    if check_token(holder_secret_of(s, holder), token, game_id=game.id or 0,
                   seat=holder.seat) is None:
        return void
    if not holder.active:
        return _Token(problem=_("this reply address belonged to the previous player of "
                                "{seat} in {game}; it is no longer valid", seat=holder.seat,
                                game=game.name))
    if claim.generation != game.generation:
        return _Token(problem=_("this reply address was for step {n} before the GM rolled "
                                "{game} back; reply to the latest report", n=claim.step,
                                game=game.name))
    if claim.step != game.step:
        return _Token(problem=_("this reply address was for step {n}; step {open} is open: "
                                "reply to the latest report", n=claim.step, open=game.step))
    return _Token(auth=(game.name, holder.seat, claim.step))


def _apply(s: Session, mail: InboundMail, *, settings: Settings, now: datetime) -> tuple[str, str]:
    if mail.kind == "bounce":
        return "ignored", _record_bounce(s, mail, now=now)
    if mail.kind == "autoreply":
        return "ignored", "auto-reply"
    if limits.sender_flooding(s, mail.sender, now):
        notify_gm(s, settings, None, f"pbem: too much mail from {mail.sender}",
                  f"{mail.sender} sent more than {limits.SENDER_PER_HOUR} mails within an hour; "
                  "the rest are stored and not applied (status throttled).\n",
                  now=now, key=("flood", mail.sender, now.date().isoformat()))
        return "throttled", f"more than {limits.SENDER_PER_HOUR} mails an hour from this sender"
    if mail.kind in ("oversize", "empty", "malformed"):
        reason = mail.reason or _("the mail is {kind}", kind=mail.kind)
        _answer(s, settings, mail, _("Your mail was not read: {reason}", reason=reason), now=now)
        return "refused", reason
    token = _check_reply_token(s, mail.token) if mail.token else _Token()
    texts = [t for t in mail.order_texts if not read_envelope(t).problems] or list(mail.order_texts)
    if not texts:
        _answer(s, settings, mail, _("No order file found in your mail."), now=now)
        return "refused", "no order file"
    text = texts[0]
    env = read_envelope(text)
    damaged = mail.token is None and plus_detail(mail.to, settings.address) is not None
    if not (env.game or env.seat) and (mail.token or damaged):
        # A reply to a report: the token names game and seat, every line is the orders.
        problem = token.problem if mail.token else DAMAGED
        if token.auth is None:
            _answer(s, settings, mail, _("REFUSED: {reason}", reason=problem), now=now)
            return "refused", problem
        env = read_envelope(text, headerless=True)
        env.game, env.seat = token.auth[0], token.auth[1]
    elif mail.token and token.auth is None and not _real_password(env):
        # A reply through an old or void address that carries the old report back (mail
        # programs that quote without '>'): its header is the report's skeleton, so the
        # player is told about the address, not about a password or TURN they never wrote.
        _answer(s, settings, mail, _("REFUSED: {reason}", reason=token.problem), now=now)
        return "refused", token.problem
    capped = _over_cap(s, env.game, mail.sender, settings)
    if capped:
        _answer(s, settings, mail, capped, now=now)
        return "refused", capped
    try:
        receipt = submit_orders(s, text, now=now, source="mail", sender=mail.sender,
                                message_id=mail.message_id, token=token.auth)
    except ServiceError as e:  # pragma: no cover - submit_orders returns refusals as values
        receipt = Receipt(False, e.message)
    game = s.exec(select(Game).where(Game.name == receipt.game)).first() if receipt.game else None
    holder = seat_row(s, game, receipt.seat) if game is not None and receipt.seat else None
    if receipt.away_changed and game is not None and holder is not None:
        _tell_gm_away(s, settings, game, holder, receipt.away, now=now)
    if receipt.authenticated and holder is not None:
        _confirm(s, settings, mail, receipt, game, holder, by_token=token.auth is not None,
                 now=now)
    elif receipt.notify:
        # A wrong password: the seat's holder is told (the first time in a step at once,
        # later ones in the next digest); the sender only if it is the holder.
        digests.queue_password_digests(s, settings, now=now, only=(game, receipt.seat))
        if limits.bare(mail.sender) == limits.bare(receipt.notify):
            _answer(s, settings, mail, receipt, now=now, game=game, seat=receipt.seat)
    else:
        # Not shown to speak for the seat: the sender alone hears why (a wrong password is
        # also told to the seat's holder, in the per-step digest).
        _answer(s, settings, mail, receipt, now=now, game=game, seat=receipt.seat)
    return ("applied" if receipt.accepted else "refused"), receipt.reason


def _confirm(s: Session, settings: Settings, mail: InboundMail, receipt: Receipt, game: Game | None,
             holder: Seat, *, by_token: bool, now: datetime) -> None:
    """The echo of a file that spoke for the seat goes to the seat's registered address,
    and to the sender as well when that is another registered address."""
    sender = limits.bare(mail.sender)
    t = translator_of(game, holder.seat)
    text = receipt.text(t)
    # The exact text that is hashed, as a file: the player can hash it and find it in the
    # next report (docs/dice.md).
    hashed = ((Attachment(receipt.hashed.encode("utf-8"), "text/plain", receipt.hashed_name()),)
              if receipt.hashed is not None else ())
    if sender != limits.bare(holder.email):
        text = render(_("This order file for your seat came from {sender}, by answering a "
                        "report (its reply address). If that was not you, tell the GM.",
                        sender=mail.sender or _("an unknown sender")) if by_token else
                      _("This order file for your seat came from {sender}, with the password. "
                        "If that was not you, tell the GM.",
                        sender=mail.sender or _("an unknown sender")), t) + "\n\n" + text
    _answer_known(s, settings, limits.bare(holder.email), mail, text, now=now, game=game,
                  seat=holder.seat, key=("echo", mail.message_id, "holder"), attachments=hashed)
    if sender and sender != limits.bare(holder.email) and limits.is_known(s, settings, sender):
        _answer_known(s, settings, sender, mail, receipt.text(t), now=now, game=game,
                      seat=holder.seat, attachments=hashed)


def _real_password(env: Envelope) -> bool:
    """Did the file come with a password of its own (not the skeleton's placeholder)?"""
    return bool(env.password) and env.password != PASSWORD_PLACEHOLDER


def _tell_gm_away(s: Session, settings: Settings, game: Game, holder: Seat,
                  away: tuple[str, str] | None, *, now: datetime) -> None:
    """A player said they will be away (or took it back): the GM hears of it, with what
    covers their steps meanwhile."""
    if away is None:
        text = f"{holder.seat} ({holder.email}) in {game.name} is no longer away.\n"
    else:
        zone = players.zone_for(game, holder)
        cover = ("the deadline of a step that awaits them is moved to after their return "
                 "(setting away_policy=extend)" if players.away_extends(game) else
                 "their standing orders and the NMR ladder cover their steps (extensions, "
                 "then default orders); `pbem gm setting " + game.name + " away_policy=extend` "
                 "moves their deadlines instead")
        text = (f"{holder.seat} ({holder.email}) in {game.name} will be away from {away[0]} to "
                f"{away[1]} (inclusive, {zone}). Meanwhile {cover}.\n")
    notify_gm(s, settings, game, f"[{game.name}] {holder.seat} away"
              + ("" if away else ": cancelled"), text, now=now,
              key=("away", game.name, holder.id, repr(away), now.isoformat()))


def _over_cap(s: Session, game_name: str | None, sender: str | None,
              settings: Settings) -> str | Msg:
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
        return _("refused: you sent {n} order files for step {step} already; the cap is {cap}",
                 n=n, step=step.number, cap=settings.submission_cap)
    return ""


def _record_bounce(s: Session, mail: InboundMail, *, now: datetime) -> str:
    """Count a bounce only if it names a mail we sent: outbox Message-IDs carry a MAC, so
    nobody who did not receive that mail can name it. The GM hears of bounces in one
    notice per tick (`pbem.service.digests`); a bounced seat may get one extra extension
    for the step (`pbem.service.tick`)."""
    original = None
    if mail.bounce_of:
        original = s.exec(select(Outbox).where(Outbox.message_id == mail.bounce_of)).first()
    if original is None or original.game_id is None or original.seat is None:
        return "bounce (not of a mail we sent to a seat)"
    game = s.get(Game, original.game_id)
    assert game is not None
    row = seat_row(s, game, original.seat)
    if row is None or limits.bare(row.email) != limits.bare(original.recipient):
        return "bounce (of a mail to a former seat holder)"
    row.bounces += 1
    s.add(row)
    gs = json.loads(game.settings_json or "{}")
    gs.setdefault("bounced", {})[row.seat] = [game.generation, game.step]
    game.settings_json = canonical_json(gs)
    s.add(game)
    audit(s, game, "bounce", now=now, actor="mail", seat=row.seat, recipient=original.recipient,
          kind=original.kind, step=game.step)
    return "bounce"


def stored_new(sessions: SessionFactory) -> list[int]:
    """Ids of stored messages never applied (a crash, or a failure to retry)."""
    with sessions() as s:
        # select() types a column of `int | None` as a union of two selects, which exec()
        # does not take; a stored row's id is never None.
        return list(s.exec(select(InboundMessage.id).where(  # type: ignore[arg-type]
            InboundMessage.status == "new").order_by(col(InboundMessage.id))))


def apply_stored(sessions: SessionFactory, mail: InboundMail | int, *, settings: Settings,
                 now: datetime) -> Received:
    """Apply a stored mail by row id (or by the InboundMail read from it)."""
    if isinstance(mail, int):
        return apply_row(sessions, mail, settings=settings, now=now)
    with sessions() as s:
        row_id = s.exec(select(InboundMessage.id).where(
            InboundMessage.message_id == mail.message_id)).one()
    assert row_id is not None  # a stored row's id
    return apply_row(sessions, row_id, settings=settings, now=now)


def bounced_seats(session: Session, name: str) -> list[Seat]:
    game = find_game(session, name)
    return [s for s in seats_of(session, game) if s.bounces]


# --- the spool's answers ----------------------------------------------------------------------

def notify_spool(session: Session, settings: Settings, items: list[SpoolItem], *,
                 now: datetime) -> None:
    """A refused spool file for a known seat is told to that seat's registered address, as
    a refused mail is told to its sender (a wrong password goes into the per-step digest);
    a file that broke the service is told to the GM."""
    for item in items:
        r = item.receipt
        if item.error:
            notify_gm(session, settings, None, "pbem: a spool file was quarantined",
                      f"{item.path} could not be processed: {item.error}\n", now=now,
                      key=("spool-quarantine", item.path.name, now.isoformat()))
            continue
        if r.accepted or not r.game or not r.seat or r.notify:
            continue
        game = session.exec(select(Game).where(Game.name == r.game)).first()
        holder = seat_row(session, game, r.seat) if game is not None else None
        if game is None or holder is None:
            continue
        t = translator_of(game, holder.seat)
        queue(session, settings, kind="notice", to=holder.email, game=game, seat=holder.seat,
              subject=render(_("[{game}] an order file for {seat} was refused", game=game.name,
                               seat=holder.seat), t),
              text=render(_("An order file for your seat, handed in through the GM's order "
                            "spool, was refused:"), t) + "\n" + r.text(t),
              now=now, key=("spool-refused", game.name, item.path.name, now.isoformat()))
