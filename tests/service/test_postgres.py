"""The same services on PostgreSQL (the multi-host path). Starts a private throwaway
cluster on a free loopback port when the server binaries and psycopg are installed
(`pip install -e '.[postgres]'`, Debian's `postgresql`); skipped otherwise."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from clock import T0

from pbem.mail.listener import free_port


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    pytest.importorskip("psycopg")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL server binaries are not installed")
    root = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    root.chmod(0o755)
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    subprocess.run([*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "pbem"], check=True,
                   capture_output=True)
    subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                    f"-p {port} -k {root} -c listen_addresses=127.0.0.1", "start"], check=True,
                   capture_output=True)
    try:
        yield f"postgresql+psycopg://pbem@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def test_a_whole_game_on_postgresql(pg_url: str) -> None:
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


def test_the_scale_migration_round_trips_on_postgresql(pg_url: str) -> None:
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
