"""Claiming one row of a work queue for one worker among many processes (SQLite or
PostgreSQL): one conditional UPDATE whose row count says who won.

    UPDATE outbox SET status='sending', next_attempt_at=<lease end>, attempts=attempts+1
     WHERE id=? AND status IN ('queued', 'sending') AND next_attempt_at <= <now>

A free row is due when its time has come; a taken row is free again when its lease has
run out (its worker died). Both databases apply the statement atomically: SQLite holds the
write lock for the whole transaction (BEGIN IMMEDIATE), PostgreSQL re-checks the WHERE on
the newest row version after a concurrent update commits, so exactly one caller sees
row count 1. Call it in its own short transaction, then do the slow work outside it.

Used by the outbox; any table with `id`, a status and a due/lease time column fits.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, update
from sqlmodel import Session


def claim(session: Session, model: Any, row_id: int, *, now: datetime, lease: timedelta,
          free: tuple[str, ...] = ("queued",), taken: str = "sending",
          due: str = "next_attempt_at", count: str | None = "attempts") -> datetime | None:
    """Take row `row_id` of `model` for `lease`; returns the lease's end if this caller got
    it, None if another worker holds it or it is not due (or not there)."""
    table = model.__table__
    col = table.c
    until = now + lease
    values: dict[str, Any] = {"status": taken, due: until}
    if count:
        values[count] = col[count] + 1
    due_now = or_(col[due].is_(None), col[due] <= now)
    stmt = (update(table)
            .where(and_(col.id == row_id, col.status.in_((*free, taken)), due_now))
            .values(**values))
    result = session.connection().execute(stmt)
    return until if result.rowcount == 1 else None


def release(session: Session, model: Any, row_id: int, *, lease_end: datetime,
            taken: str = "sending", due: str = "next_attempt_at", **values: Any) -> bool:
    """Finish a claimed row with `values` (a new status, ...) if the claim is still this
    worker's (same lease end); False if its lease ran out and another worker took it."""
    table = model.__table__
    col = table.c
    stmt = (update(table)
            .where(and_(col.id == row_id, col.status == taken, col[due] == lease_end))
            .values(**values))
    return session.connection().execute(stmt).rowcount == 1
