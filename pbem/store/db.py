"""Opening the database: SQLite by default (WAL mode), any SQLAlchemy URL otherwise.

The schema is created and upgraded only by Alembic migrations (`db/migrations`), because
campaigns outlive releases.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

DEFAULT_URL = "sqlite:///db/pbem.sqlite"


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA secure_delete=ON")  # freed pages (a redacted password) are zeroed
    cur.close()


def _sqlite_begin(conn) -> None:  # type: ignore[no-untyped-def]
    # Take the write lock at BEGIN so two processes never interleave a step's work.
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _private_file(path: Path) -> None:
    """The database holds secrets and raw mail: a new one is 0600 in a new 0700 folder
    (SQLite gives its -wal and -shm files the same mode); an old one loses its world bits."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if p.exists() and p.stat().st_mode & 0o007 and p.stat().st_uid == os.getuid():
                p.chmod(p.stat().st_mode & 0o770)
    except OSError:
        pass  # read-only folder etc.: SQLite says so itself, in one line


def connect(url: str = DEFAULT_URL) -> Engine:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        _private_file(Path(url.removeprefix("sqlite:///").split("?", 1)[0]))
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        # pysqlite's own transaction handling is off so that BEGIN IMMEDIATE is ours.
        event.listen(engine, "connect",
                     lambda c, _r: setattr(c, "isolation_level", None))
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def migrations_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "db" / "migrations", here / "_migrations"):
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError("the Alembic migrations (db/migrations) are missing")


def migrate(engine: Engine, revision: str = "head") -> None:
    """Create or upgrade the schema to `revision`."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: commits whole or rolls back whole."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
