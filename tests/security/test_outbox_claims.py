"""Finding (high): two senders sent most of the outbox twice (the claim accepted rows
already being sent). Now a claim is one conditional UPDATE: N sender processes over one
queue deliver every message exactly once, on SQLite and on PostgreSQL; a killed sender's
claim is a 60-second lease, not a 10-minute wait."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from clock import T0
from pg import pg_url  # noqa: F401 - the fixture
from sqlmodel import select

from pbem.config import Settings
from pbem.mail.listener import free_port
from pbem.service.claims import claim
from pbem.service.outbox import queue, send_outbox
from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Outbox

MESSAGES = 1000
SENDERS = 4


class CountingSink:
    """A real SMTP relay on loopback that counts each Message-ID it is handed."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.original_content or envelope.content,
                                       policy=default)
        with self.lock:
            self.ids.append(str(msg["Message-ID"]))
        return "250 OK"


def fill(url: str, n: int) -> set[str]:
    engine = connect(url)
    migrate(engine)
    settings = Settings(address="orders@pbem.test")
    with session_scope(engine) as s:
        ids = {queue(s, settings, kind="notice", to=f"p{i % 50}@example.org",
                     subject=f"mail {i}", text=f"mail number {i}\n", now=T0,
                     key=("load", i)).message_id for i in range(n)}  # type: ignore[union-attr]
    engine.dispose()
    return ids


def run_senders(url: str, sink: CountingSink, tmp_path: Path) -> float:
    env = {**os.environ, "PBEM_SMTP": f"smtp://127.0.0.1:{sink.port}",
           "PBEM_ADDRESS": "orders@pbem.test"}
    env.pop("PBEM_DB", None)
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "pbem.cli.app", "--db", url, "mail", "send"],
                              cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(SENDERS)]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
    return time.perf_counter() - start


def check_exactly_once(url: str, sink: CountingSink, queued: set[str]) -> None:
    assert len(sink.ids) == len(set(sink.ids)), \
        f"{len(sink.ids) - len(set(sink.ids))} duplicates"
    assert set(sink.ids) == queued, f"{len(queued - set(sink.ids))} lost"
    engine = connect(url)
    with session_scope(engine) as s:
        assert {r.status for r in s.exec(select(Outbox))} == {"sent"}
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_four_sender_processes_deliver_each_message_exactly_once(backend: str, tmp_path: Path,
                                                                 request) -> None:  # type: ignore[no-untyped-def]
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'pbem.sqlite'}"
    else:
        base = request.getfixturevalue("pg_url")
        import psycopg

        db = "claims"
        with psycopg.connect(base.replace("postgresql+psycopg", "postgresql"),
                             autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {db}")
            conn.execute(f"CREATE DATABASE {db}")
        url = base.rsplit("/", 1)[0] + f"/{db}"
    queued = fill(url, MESSAGES)
    sink = CountingSink()
    sink.controller.start()
    try:
        took = run_senders(url, sink, tmp_path)
    finally:
        sink.controller.stop()
    check_exactly_once(url, sink, queued)
    print(f"{backend}: {MESSAGES} messages by {SENDERS} processes in {took:.1f}s")


def test_a_claim_is_won_once_and_a_dead_senders_lease_runs_out_in_a_minute(engine) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(address="orders@pbem.test")
    with session_scope(engine) as s:
        row = queue(s, settings, kind="notice", to="a@example.org", subject="s", text="t\n",
                    now=T0, key=("one",))
        assert row is not None
        row_id = row.id
    with session_scope(engine) as s:
        assert claim(s, Outbox, row_id, now=T0, lease=timedelta(seconds=60)) is not None
    with session_scope(engine) as s:  # a second sender, while the first is sending
        assert claim(s, Outbox, row_id, now=T0 + timedelta(seconds=30),
                     lease=timedelta(seconds=60)) is None
    # The first sender was killed mid-send: a sender a minute later takes the row again.
    sent = send_outbox(lambda: session_scope(engine), Settings(maildir=str(Path(
        engine.url.database).parent / "out")), now=T0 + timedelta(seconds=61))
    assert sent.sent == 1
    with session_scope(engine) as s:
        row = s.get(Outbox, row_id)
        assert row is not None and row.status == "sent" and row.attempts == 2
