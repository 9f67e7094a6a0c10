"""What a tick needs before it knows whether there is work, with nothing heavier than the
standard library: the schema's head revision (read from the migration files) and one query
for which kinds of work are due.

`pbem tick` from cron runs this first, through `sqlite3` itself on a SQLite database, and
imports SQLAlchemy, the models and the rulesets only when something is due: an idle tick
then costs a few milliseconds, not the half second those imports take. `pbem serve` and the
PostgreSQL path run the same query through SQLAlchemy (`due_work`).
Not here: doing the work (`pbem.service.tick`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_URL = "sqlite:///db/pbem.sqlite"
# One row per kind of work that is due: each branch is one indexed EXISTS. A `sending`
# row's next_attempt_at is the end of its sender's lease (pbem.service.outbox.LEASE): past
# it, the sender died mid-send (a host killed, say) and the row is due again.
DUE_SQL = """
SELECT 'mail' WHERE EXISTS (SELECT 1 FROM inboundmessage WHERE status = 'new')
UNION ALL SELECT 'game' WHERE EXISTS (SELECT 1 FROM game
    WHERE status = 'open' AND due_at <= :now)
UNION ALL SELECT 'game' WHERE EXISTS (SELECT 1 FROM game
    WHERE status = 'open' AND deadline <= :now)
UNION ALL SELECT 'outbox' WHERE EXISTS (SELECT 1 FROM outbox
    WHERE status = 'queued' AND next_attempt_at <= :now)
UNION ALL SELECT 'outbox' WHERE EXISTS (SELECT 1 FROM outbox
    WHERE status = 'sending' AND next_attempt_at <= :now)
UNION ALL SELECT 'expire' WHERE EXISTS (SELECT 1 FROM outbox
    WHERE keep_until <= :now AND status IN ('sent', 'failed'))
"""


def migrations_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "db" / "migrations", here / "_migrations"):
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError("the Alembic migrations (db/migrations) are missing")


_REVISION = re.compile(r"^revision\s*=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\s*=\s*(.+)$", re.M)


@cache
def head_revisions() -> frozenset[str]:
    """The heads of the migration chain, read from the files (no Alembic import): the
    revisions no other revision names as its `down_revision`."""
    revisions, downs = set(), set()
    for path in (migrations_dir() / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found = _REVISION.search(text)
        if found is None:
            continue
        revisions.add(found.group(1))
        down = _DOWN.search(text)
        if down:
            downs.update(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)))
    return frozenset(revisions - downs)


def sqlite_time(when: datetime) -> str:
    """A datetime as SQLAlchemy stores it in SQLite (UTC, no offset), for comparisons."""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def sqlite_path(url: str) -> str | None:
    """The file of a `sqlite:///` URL (None for other databases and in-memory SQLite)."""
    if not url.startswith("sqlite:///") or url.startswith("sqlite:///:memory:"):
        return None
    return url.removeprefix("sqlite:///").split("?", 1)[0]


def idle_sqlite(url: str, *, now: datetime) -> bool | None:
    """On a SQLite file: True when the schema is current and nothing is due, False when
    there is work (or an upgrade to run), None when this quick look cannot tell (another
    database, no file yet). Opens the file read-only; takes no lock against writers."""
    import sqlite3

    path = sqlite_path(url)
    if path is None or not Path(path).is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error:
        return None
    try:
        stamped = {row[0] for row in conn.execute("SELECT version_num FROM alembic_version")}
        if stamped != head_revisions():
            return False
        rows = conn.execute(DUE_SQL, {"now": sqlite_time(now)}).fetchall()
        return not rows
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def due_work(conn: Any, *, now: datetime) -> set[str]:
    """The kinds of work due now ('mail', 'game', 'outbox', 'expire') through a SQLAlchemy
    connection (any database)."""
    from sqlalchemy import bindparam, text
    from sqlmodel.sql.sqltypes import UTCDateTime

    query = text(DUE_SQL).bindparams(bindparam("now", type_=UTCDateTime()))
    return {row[0] for row in conn.execute(query, {"now": now})}
