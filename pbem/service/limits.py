"""Abuse controls: whom the host may answer, and how often anything may happen.

- Answers go only to the From address of a registered player (an active seat of any
  game) or the GM; anyone else gets at most one short refusal a day that repeats nothing
  they wrote. Reply-To is never used for an answer (no reflection to third parties).
- Per sender: at most SENDER_PER_HOUR mails an hour are applied; the rest are stored,
  not applied and not answered ("throttled"), and the GM is told once a day.
- Per recipient: at most ANSWERS_PER_HOUR answers an hour to one address; past that the
  host falls silent to it (an auto-responder loop) and the GM is told once a day.
- Per seat: after WRONG_PASSWORDS_PER_DAY wrong passwords in 24 hours, passwords for that
  seat are refused unchecked (its reply addresses still work); the holder gets one
  digest of the attempts per step (`pbem.service.digests`).

Plain queries over the tables; no mail is composed here.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlmodel import Session, col, func, select

from pbem.config import Settings
from pbem.store.models import Audit, Game, InboundMessage, Outbox, Seat

SENDER_PER_HOUR = 30
ANSWERS_PER_HOUR = 20
WRONG_PASSWORDS_PER_DAY = 10
MAX_APPLY_ATTEMPTS = 3  # a stored mail that fails this often is quarantined
ANSWER_KINDS = ("echo", "refusal")


def bare(address: str | None) -> str:
    return (address or "").strip().lower()


def is_known(session: Session, settings: Settings, address: str | None) -> bool:
    """The GM or the registered address of an active seat in any game."""
    addr = bare(address)
    if not addr:
        return False
    if addr == bare(settings.gm):
        return True
    return session.exec(select(Seat.id).where(func.lower(Seat.email) == addr,
                                              Seat.active == True)).first() is not None  # noqa: E712


def sender_flooding(session: Session, sender: str | None, now: datetime) -> bool:
    if not sender:
        return False
    n = session.exec(select(func.count()).select_from(InboundMessage).where(
        InboundMessage.sender == sender,
        InboundMessage.received_at > now - timedelta(hours=1))).one()
    return n > SENDER_PER_HOUR


def answers_exhausted(session: Session, to: str, now: datetime) -> bool:
    n = session.exec(select(func.count()).select_from(Outbox).where(
        Outbox.recipient == to, col(Outbox.kind).in_(ANSWER_KINDS),
        Outbox.created_at > now - timedelta(hours=1))).one()
    return n >= ANSWERS_PER_HOUR


def wrong_passwords(session: Session, game: Game, seat: str, since: datetime) -> list[Audit]:
    rows = session.exec(select(Audit).where(Audit.game_id == game.id,
                                            Audit.action == "wrong-password",
                                            Audit.at > since).order_by(col(Audit.id)))
    return [r for r in rows if json.loads(r.detail or "{}").get("seat") == seat]


def password_locked(session: Session, game: Game, seat: str, now: datetime) -> bool:
    return len(wrong_passwords(session, game, seat, now - timedelta(hours=24))) \
        >= WRONG_PASSWORDS_PER_DAY
