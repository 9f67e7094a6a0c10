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
from pbem.service.mailflow import queue, send_outbox
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


class Hanging:
    """A relay that takes the mail and never answers the end of DATA."""

    def __init__(self) -> None:
        self.entered = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import asyncio

        self.entered.set()
        await asyncio.sleep(60)
        return "451 too late"


def test_a_killed_senders_claim_is_taken_again_after_a_minute(db_url: str, engine,
                                                              tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    with session_scope(engine) as s:
        queue(s, Settings(address="orders@pbem.test"), kind="notice", to="a@example.org",
              subject="s", text="t\n", now=T0, key=("one",))
    hanging = Hanging()
    port = free_port()
    relay = Controller(hanging, hostname="127.0.0.1", port=port)
    relay.start()
    env = {**os.environ, "PBEM_SMTP": f"smtp://127.0.0.1:{port}"}
    env.pop("PBEM_DB", None)
    sender = subprocess.Popen([sys.executable, "-m", "pbem.cli.app", "--db", db_url, "mail", "send"],
                              cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        assert hanging.entered.wait(60), "the sender never reached the relay"
        sender.kill()  # killed mid-send: its claim stays behind
        sender.wait()
        killed_at = datetime.now(UTC)
    finally:
        relay.stop()
    out = Settings(maildir=str(tmp_path / "out"))
    sessions = lambda: session_scope(engine)  # noqa: E731
    assert send_outbox(sessions, out, now=killed_at + timedelta(seconds=20)).sent == 0
    assert send_outbox(sessions, out, now=killed_at + timedelta(seconds=75)).sent == 1
    with session_scope(engine) as s:
        row = s.exec(select(Outbox)).one()
        assert row.status == "sent" and row.attempts == 2


def test_a_claim_is_won_once(engine) -> None:  # type: ignore[no-untyped-def]
    from pbem.service.claims import claim

    with session_scope(engine) as s:
        row = queue(s, Settings(address="orders@pbem.test"), kind="notice", to="a@example.org",
                    subject="s", text="t\n", now=T0, key=("one",))
        assert row is not None
        row_id = row.id
    with session_scope(engine) as s:
        assert claim(s, Outbox, row_id, now=T0, lease=timedelta(seconds=60)) is not None
    with session_scope(engine) as s:  # a second sender, while the first is sending
        assert claim(s, Outbox, row_id, now=T0 + timedelta(seconds=30),
                     lease=timedelta(seconds=60)) is None
    with session_scope(engine) as s:  # the lease ran out: the row may be taken again
        assert claim(s, Outbox, row_id, now=T0 + timedelta(seconds=61),
                     lease=timedelta(seconds=60)) is not None
