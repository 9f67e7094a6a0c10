"""Opening the database: SQLite by default (WAL mode), any SQLAlchemy URL otherwise.

The schema is created and upgraded only by Alembic migrations (`db/migrations`), because
campaigns outlive releases. `migrate` costs one query when the schema is current: the head
revision is read from the migration files (`store.quick`), and Alembic is imported only to
upgrade.

Commands that only read open the database with `connect_read_only`: as it is, never
created or migrated, and on SQLite a file this user may not write is opened read-only.

Transactions: `session_scope` writes (SQLite takes the write lock at BEGIN IMMEDIATE, so two
processes never interleave a step's work); `read_scope` only reads (a deferred BEGIN, no
lock held against writers), for the checks the tick makes before it knows of any work.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session, create_engine

from pbem.store.quick import DEFAULT_URL, head_revisions, migrations_dir

__all__ = ["DEFAULT_URL", "ReadOnlyDatabase", "connect", "connect_read_only", "head_revisions",
           "migrate", "migrations_dir", "read_scope", "run_alembic", "schema_is_current",
           "session_scope"]


def _sqlite_pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA secure_delete=ON")  # freed pages (a redacted password) are zeroed
    cur.close()


READ_ONLY = {"pbem_read_only": True}  # execution option of `read_scope` connections


def _sqlite_begin(conn: Connection) -> None:
    # Take the write lock at BEGIN so two processes never interleave a step's work; a
    # read-only transaction takes none.
    if conn.get_execution_options().get("pbem_read_only"):
        conn.exec_driver_sql("BEGIN")
    else:
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


class ReadOnlyDatabase(Exception):
    """The database cannot be opened for reading as it is (older schema, no such file)."""


def connect_read_only(url: str) -> Engine:
    """An SQLite file this user may not write (a copy on read-only media, another user's
    file), for a command that only reads: opened with `mode=ro`, or, when SQLite cannot
    open its WAL index either (no -shm file it may read), with `immutable=1`, which reads
    the file as it stands. The schema must be current: nothing is migrated."""
    import sqlite3

    from sqlalchemy import exc

    path = Path(url.removeprefix("sqlite:///").split("?", 1)[0]).resolve()
    if not url.startswith("sqlite:///") or not path.is_file():
        raise ReadOnlyDatabase(f"no database file at {path}")
    problem = "cannot read it"
    for query in ("mode=ro", "mode=ro&immutable=1"):
        engine = create_engine("sqlite://", creator=lambda q=query: sqlite3.connect(
            f"file:{path}?{q}", uri=True, check_same_thread=False, isolation_level=None))
        event.listen(engine, "begin", lambda c: c.exec_driver_sql("BEGIN"))
        try:
            with engine.connect() as conn:
                stamped = {row[0] for row in conn.exec_driver_sql(
                    "SELECT version_num FROM alembic_version")}
        except exc.DBAPIError as e:
            problem = str(e.orig).splitlines()[0]
            engine.dispose()
            continue
        if stamped != head_revisions():
            raise ReadOnlyDatabase("its schema is older than this pbem and it is read-only: "
                                   "a command that writes (pbem init) upgrades it")
        return engine
    raise ReadOnlyDatabase(problem)


def schema_is_current(engine: Engine) -> bool:
    """One query: is the database at the head of the migration chain?"""
    from sqlalchemy import exc

    try:
        with engine.execution_options(**READ_ONLY).connect() as conn:
            stamped = {row[0] for row in conn.exec_driver_sql(
                "SELECT version_num FROM alembic_version")}
    except exc.DBAPIError:  # no alembic_version table: a new database
        return False
    return stamped == head_revisions()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Create or upgrade the schema to `revision` (one query when it is current)."""
    if revision == "head" and schema_is_current(engine):
        return
    run_alembic(engine, "upgrade", revision)


def run_alembic(engine: Engine, action: str, revision: str) -> None:
    """`alembic upgrade|downgrade revision` in one transaction. On SQLite, a migration that
    rebuilds a table (batch mode) runs with foreign keys off, since dropping the old table
    would fail on the rows that refer to it; the keys are checked before the commit."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        raw = conn.connection.driver_connection
        if raw is None:
            raise RuntimeError("the database connection was closed before the migration")
        if sqlite:
            raw.execute("PRAGMA foreign_keys=OFF")  # outside the transaction, or it is ignored
        try:
            with conn.begin():
                cfg.attributes["connection"] = conn
                getattr(command, action)(cfg, revision)
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:3]}")
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys=ON")


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


@contextmanager
def read_scope(engine: Engine) -> Iterator[Session]:
    """One read-only transaction (no write lock on SQLite); anything written is discarded."""
    with Session(engine.execution_options(**READ_ONLY), expire_on_commit=False) as session:
        try:
            yield session
        finally:
            session.rollback()
