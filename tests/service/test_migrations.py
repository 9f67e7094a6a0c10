"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import pbem.store.models  # noqa: F401


def test_migrated_schema_matches_the_models(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert diff == []


def test_sqlite_runs_in_wal_mode(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
