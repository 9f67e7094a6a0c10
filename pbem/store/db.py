"""Opening the database: SQLite by default (WAL mode), any SQLAlchemy URL otherwise.

The schema is created and upgraded only by Alembic migrations (`db/migrations`), because
campaigns outlive releases.
"""

from __future__ import annotations

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
    cur.close()


def _sqlite_begin(conn) -> None:  # type: ignore[no-untyped-def]
    # Take the write lock at BEGIN so two processes never interleave a step's work.
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def connect(url: str = DEFAULT_URL) -> Engine:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
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
