"""The same services on PostgreSQL (the multi-host path), on a private throwaway cluster
(tests/support/pg.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from clock import T0
from pg import pg_url  # noqa: F401 - the fixture


def test_a_whole_game_on_postgresql(pg_url: str) -> None:  # noqa: F811
    from pbem.archive.verify import verify_game
    from pbem.service.games import create_game, find_game
    from pbem.service.gm import rollback
    from pbem.service.turns import process_turn
    from pbem.store.db import connect, migrate, session_scope

    engine = connect(pg_url)
    migrate(engine)
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="pg1", seats={"north": "n@x.org",
                    "south": "s@x.org"}, seed="pg", now=T0)
    now = T0
    while True:
        with session_scope(engine) as s:
            if find_game(s, "pg1").status == "finished":
                break
            now += timedelta(hours=1)
            process_turn(s, "pg1", now=now, force=True)
    with session_scope(engine) as s:
        assert verify_game(s, "pg1").ok
        rollback(s, "pg1", 2, now=now, reprocess=True)
    with session_scope(engine) as s:
        assert verify_game(s, "pg1").ok
    engine.dispose()


def test_the_scale_migration_round_trips_on_postgresql(pg_url: str) -> None:  # noqa: F811
    import sys

    from sqlalchemy import create_engine

    from pbem.store.db import connect, migrate

    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql("CREATE DATABASE migration_check")
    admin.dispose()
    engine = connect(pg_url.rsplit("/", 1)[0] + "/migration_check")
    migrate(engine)
    sys.path.insert(0, str(Path(__file__).parent))
    from test_migrations import check_history_survives_the_scale_migration

    check_history_survives_the_scale_migration(engine)
    engine.dispose()
