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


def _alembic(engine, action: str, revision: str) -> None:  # type: ignore[no-untyped-def]
    from pbem.store.db import run_alembic

    run_alembic(engine, action, revision)


def check_history_survives_the_scale_migration(engine) -> None:  # type: ignore[no-untyped-def]
    """Down to 0001 (plain text) and up again (compressed): every state, event, roll, order
    text and mail reads back the same. Shared with the PostgreSQL tests."""
    import json
    import zlib
    from datetime import timedelta

    from clock import T0
    from sqlmodel import select

    from pbem.config import Settings
    from pbem.service import mailflow
    from pbem.service.games import create_game, find_game, live_step
    from pbem.service.orders import submit_orders
    from pbem.service.turns import process_turn
    from pbem.store.db import schema_is_current, session_scope
    from pbem.store.models import Game, InboundMessage, Outbox, Step, Submission

    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="highcard", name="mig", seed="mig", now=T0,
                          seats={"north": "n@x.org", "south": "s@x.org"})
        mailflow.queue_reports(s, Settings(), new.game, now=T0)
        s.add(InboundMessage(message_id="<in@x.org>", received_at=T0, source="pipe",
                             raw=b"From: n@x.org\r\nSubject: orders\r\n\r\nGAME mig\r\n"))
    with session_scope(engine) as s:
        hand = json.loads(live_step(s, find_game(s, "mig")).state_json)["hands"]["north"]
        receipt = submit_orders(s, f"GAME mig\nSEAT north\nPLAY {hand[0]}\nPLAY 99\n", now=T0,
                                token=("mig", "north", 1))
        assert receipt.accepted
    with session_scope(engine) as s:
        process_turn(s, "mig", now=T0 + timedelta(hours=1), force=True)
        mailflow.queue_reports(s, Settings(), find_game(s, "mig"), now=T0)

    def snapshot() -> list[object]:
        with session_scope(engine) as s:
            steps = [(st.state_json, st.awaiting_json, st.applied_json, st.events_json,
                      st.rolls_json, st.file_hashes_json)
                     for st in s.exec(select(Step).order_by(Step.id))]
            mails = [(m.raw, m.digest, m.headers) for m in s.exec(select(Outbox).order_by(Outbox.id))]
            inbound = [m.raw for m in s.exec(select(InboundMessage))]
            orders = [(o.body, o.echo, o.file_hash) for o in s.exec(select(Submission))]
            due = [g.due_at for g in s.exec(select(Game))]
        return [steps, mails, inbound, orders, due]

    before = snapshot()
    assert before[1] and all(len(d) == 64 and h.startswith("From:") for _, d, h in before[1])
    with engine.connect() as conn:  # compressed on disk
        stored = conn.exec_driver_sql("SELECT state_json FROM step WHERE number = 1").scalar()
        assert zlib.decompress(bytes(stored)).decode() == before[0][1][0]
        # step 2 is stored against step 1: the downgrade stores it whole again
        chained = conn.exec_driver_sql("SELECT base_id, state_json FROM step "
                                       "WHERE number = 2").one()
        assert chained[0] is not None
        try:
            zlib.decompress(bytes(chained[1]))
            raise AssertionError("step 2 was stored whole")
        except zlib.error:
            pass
    _alembic(engine, "downgrade", "0001")
    assert not schema_is_current(engine)
    with engine.connect() as conn:  # plain text again
        assert conn.exec_driver_sql("SELECT state_json FROM step WHERE number = 1").scalar() \
            == before[0][1][0]
    _alembic(engine, "upgrade", "head")
    assert schema_is_current(engine)
    after = snapshot()
    assert before[3] and after[:4] == before[:4]
    assert after[4] == [T0]  # the open game is looked at by the first tick


def test_history_survives_the_scale_migration_on_sqlite(engine) -> None:  # type: ignore[no-untyped-def]
    check_history_survives_the_scale_migration(engine)


def test_read_scope_takes_no_write_lock(db_url, engine) -> None:  # type: ignore[no-untyped-def]
    """An idle tick reads while another process holds the write lock, without waiting."""
    import sqlite3
    import threading

    from sqlmodel import select

    from pbem.store.db import read_scope
    from pbem.store.models import Game

    writer = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    done: list[int] = []

    def read() -> None:
        with read_scope(engine) as s:
            done.append(len(list(s.exec(select(Game)))))

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout=10)
    writer.rollback()
    writer.close()
    assert done == [0], "the read-only transaction waited for the write lock"


def test_migrate_is_one_query_when_the_schema_is_current(engine) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import event

    from pbem.store.db import migrate

    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    migrate(engine)
    assert seen == ["BEGIN", "SELECT version_num FROM alembic_version"]  # read-only: no lock
