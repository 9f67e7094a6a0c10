"""How long sent mail keeps its body.

Every outgoing mail keeps its headers and the SHA-256 of its bytes for good (what was sent
to whom, and proof of it). Its body (stored compressed) is kept for the game's
`mail_retention_days` setting, counted from when it was queued, or by default until the
archive of the finished game is exported: the archive is then the record. A mail without a
game (a refusal to a stranger) keeps its body for `UNGAMED_DAYS`. Mail not yet sent keeps
its body whatever its age.

Not here: composing or sending mail (`service.mailflow`), the compression itself
(`store.types`).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import Session, select

from pbem.store.models import Game, Outbox

UNGAMED_DAYS = 30
DONE = ("sent", "failed")  # a body may go once the mail has left (or never will)


def header_block(raw: bytes) -> str:
    """The header lines of a mail, as text (undecoded RFC 2047 words stay encoded)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return head.decode("ascii", errors="replace")


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
        update(Outbox).where(Outbox.keep_until <= now, Outbox.status.in_(DONE))  # type: ignore[union-attr,attr-defined]
        .values(raw=b"", keep_until=None).execution_options(synchronize_session=False))
    return result.rowcount or 0  # type: ignore[attr-defined]


def archive_exported(session: Session, game: Game) -> int:
    """The finished game's archive is written: with the default retention, the bodies of
    its sent mail go."""
    if game.status != "finished" or retention_days(game) is not None:
        return 0
    result = session.execute(
        update(Outbox).where(Outbox.game_id == game.id, Outbox.status.in_(DONE),  # type: ignore[attr-defined]
                             Outbox.keep_until == None,  # noqa: E711
                             func.length(Outbox.raw) > 0)
        .values(raw=b"").execution_options(synchronize_session=False))
    return result.rowcount or 0  # type: ignore[attr-defined]
