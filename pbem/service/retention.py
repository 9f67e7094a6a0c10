"""How long mail keeps its body.

Every outgoing mail keeps for good what was sent to whom, and the SHA-256 of its bytes:
recipient, subject and Message-ID in columns of their own, and the record headers the
columns lack (`RECORD`: sender, date, thread) as text. Not kept: the reply address (a
token), the MIME structure. Its body (stored compressed) is kept for the game's
`mail_retention_days` setting, counted from when it was queued, or by default until the
archive of the finished game is exported: the archive is then the record. A mail without a
game (a refusal to a stranger) keeps its body for `UNGAMED_DAYS`. Mail not yet sent keeps
its body whatever its age.

A received mail of a game keeps its body until the game's archive is exported; then only
its record headers stay (less the Message-ID and sender its columns hold), beside its size
and SHA-256 (the order file it carried is kept as the submission, and the archive). The
answer each order file got on arrival (the submission's echo, the text of the echo mail)
goes then too: the archive has what became of every line.

Not here: composing or sending mail (`service.mailflow`), the compression itself
(`store.types`).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from sqlalchemy import func, or_, update
from sqlmodel import Session, col, select

from pbem.store.models import Game, InboundMessage, Outbox, Step, Submission

UNGAMED_DAYS = 30
DONE = ("sent", "failed", "digested")  # a body may go once the mail has left (or never will)
RECEIVED_KEPT = ("new", "quarantined")  # not dealt with yet, or left for the GM to look at


# The headers a sent mail keeps beside its columns (recipient, subject, Message-ID).
RECORD = ("from", "date", "in-reply-to")
# The headers a received mail keeps once its body goes.
RECEIVED = ("from", "to", "subject", "date", "message-id", "in-reply-to")


def header_block(raw: bytes, keep: tuple[str, ...] = RECORD) -> str:
    """The header fields of a mail named in `keep`, as text, folded lines and all (undecoded
    RFC 2047 words stay encoded)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    out: list[str] = []
    keeping = False
    for line in head.decode("ascii", errors="replace").splitlines():
        if line[:1] in (" ", "\t"):
            if keeping:
                out.append(line)
            continue
        keeping = line.split(":", 1)[0].strip().lower() in keep
        if keeping:
            out.append(line)
    return "\n".join(out)


def received_record(raw: bytes, *, message_id: str | None, sender: str | None) -> str:
    """The record headers a received mail keeps, less a Message-ID or From whose whole value
    its column holds already (a From with a display name stays)."""
    columns = {"message-id": message_id, "from": sender}
    kept: list[str] = []
    for field in _fields(header_block(raw, RECEIVED)):
        name, _, value = field.partition(":")
        if columns.get(name.strip().lower()) != value.strip() or "\n" in field:
            kept.append(field)
    return "\n".join(kept)


def _fields(block: str) -> list[str]:
    """Header lines with their folded continuations."""
    out: list[str] = []
    for line in block.split("\n") if block else []:
        if line[:1] in (" ", "\t") and out:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def retention_days(game: Game | None) -> float | None:
    if game is None:
        return UNGAMED_DAYS
    days = json.loads(game.settings_json or "{}").get("mail_retention_days")
    return None if days is None else float(days)


def stamp(row: Outbox, game: Game | None) -> None:
    """Fill what a queued mail keeps for good (digest, headers) and when its body goes."""
    row.digest = hashlib.sha256(row.raw).hexdigest()
    row.headers = header_block(row.raw)
    days = retention_days(game)
    row.keep_until = None if days is None else row.created_at + timedelta(days=days)


def restamp(session: Session, game: Game) -> None:
    """The game's retention changed: the mail it still keeps follows the new one."""
    days = retention_days(game)
    for row in session.exec(select(Outbox).where(Outbox.game_id == game.id,
                                                 func.length(Outbox.raw) > 0)):
        row.keep_until = None if days is None else row.created_at + timedelta(days=days)
        session.add(row)


def expire(session: Session, *, now: datetime) -> int:
    """Drop the bodies whose retention has run out (one indexed UPDATE)."""
    result = session.execute(
        update(Outbox).where(col(Outbox.keep_until) <= now, col(Outbox.status).in_(DONE))
        .values(raw=b"", keep_until=None).execution_options(synchronize_session=False))
    # An UPDATE gives a CursorResult (with rowcount); Session.execute is typed as Result.
    return result.rowcount or 0  # type: ignore[attr-defined]


def archive_exported(session: Session, game: Game) -> int:
    """The finished game's archive is written: the bodies of its received mail go, the
    echoes of its order files and, with the default retention, the bodies of its sent mail.
    Returns how many sent bodies went."""
    if game.status != "finished":
        return 0
    steps = select(Step.id).where(Step.game_id == game.id)
    carried = select(Submission.message_id).where(col(Submission.step_id).in_(steps))
    for row in session.exec(select(InboundMessage).where(
            or_(col(InboundMessage.game_id) == game.id,
                col(InboundMessage.message_id).in_(carried)),
            col(InboundMessage.status).notin_(RECEIVED_KEPT))):
        head = received_record(row.raw, message_id=row.message_id,
                               sender=row.sender).encode("ascii", errors="replace")
        if len(head) < len(row.raw):
            row.raw = head
            session.add(row)
    session.execute(update(Submission).where(col(Submission.step_id).in_(steps))
                    .values(echo="").execution_options(synchronize_session=False))
    if retention_days(game) is not None:
        return 0
    result = session.execute(
        update(Outbox).where(col(Outbox.game_id) == game.id, col(Outbox.status).in_(DONE),
                             col(Outbox.keep_until).is_(None),
                             func.length(Outbox.raw) > 0)
        .values(raw=b"").execution_options(synchronize_session=False))
    # An UPDATE gives a CursorResult (with rowcount); Session.execute is typed as Result.
    return result.rowcount or 0  # type: ignore[attr-defined]
