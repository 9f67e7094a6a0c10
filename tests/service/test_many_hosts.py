"""Several hosts on one PostgreSQL (issue: long campaigns at scale): four host processes
tick the same database at once; every due step is processed exactly once, every mail is
sent exactly once, and the hosts share the work. A mail whose host died while sending it
is sent by another host's tick once the dead host's lease has run out."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from email.parser import BytesHeaderParser
from pathlib import Path

from clock import T0
from pg import pg_url  # noqa: F401 - the fixture
from sqlalchemy import create_engine
from sqlmodel import select

from pbem.config import Settings
from pbem.core.envelope import render_envelope
from pbem.rulesets import get as get_ruleset
from pbem.service.claims import claim
from pbem.service.games import create_game, find_game, live_step
from pbem.service.mailflow import queue
from pbem.service.orders import submit_orders
from pbem.service.outbox import LEASE
from pbem.service.tick import tick
from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Audit, Outbox, Step

WORKER = Path(__file__).resolve().parents[1] / "support" / "host_worker.py"
GAMES = 24
HOSTS = 4


def _games_with_orders_in(url: str) -> None:
    engine = connect(url)
    migrate(engine)
    rs = get_ruleset("helios")
    rng = random.Random(3)
    for i in range(GAMES):
        with session_scope(engine) as s:
            pw = create_game(s, ruleset_id="helios", name=f"h{i}", seed=f"h{i}", now=T0,
                             seats={"north": f"n{i}@x.org", "east": f"e{i}@x.org"}).passwords
        with session_scope(engine) as s:
            game = find_game(s, f"h{i}")
            step = live_step(s, game)
            state = rs.load(json.loads(step.state_json))
            for seat in json.loads(step.awaiting_json):
                # CONFIRM: a bot's line the arrival check refuses must not hold the step up
                body = "".join(f"{x}\n" for x in rs.legal_orders(state, seat, rng)) + "CONFIRM\n"
                r = submit_orders(s, render_envelope(game=f"h{i}", seat=seat, password=pw[seat],
                                                     turn=1, body=body), now=T0)
                assert r.accepted, r.reason
    engine.dispose()


def test_four_hosts_process_every_step_once_and_send_every_mail_once(pg_url, tmp_path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    _games_with_orders_in(pg_url)
    maildir = tmp_path / "out"
    maildir.mkdir()  # an existing empty folder, as a GM's `mkdir` makes (it failed every send)
    hosts = [subprocess.Popen([sys.executable, str(WORKER), pg_url, str(maildir), "3"],
                              stdout=subprocess.PIPE, text=True) for _ in range(HOSTS)]
    outputs = [json.loads(h.communicate(timeout=600)[0]) for h in hosts]
    assert all(h.returncode == 0 for h in hosts)
    processed = [line for out in outputs for line in out if "processed" in line]
    assert sorted(processed) == sorted(f"h{i}: step 1 processed (all orders in)"
                                       for i in range(GAMES)), "each step once, by one host"
    assert sum(1 for out in outputs if any("processed" in x for x in out)) >= 2, \
        "the hosts shared the work"
    engine = connect(pg_url)
    with session_scope(engine) as s:
        steps = Counter(st.game_id for st in s.exec(select(Step).where(Step.number == 1)))
        assert len(steps) == GAMES and set(steps.values()) == {1}
        audits = [a.action for a in s.exec(select(Audit))]
        assert audits.count("process") == GAMES
        rows = list(s.exec(select(Outbox)))
        assert rows and all(r.status == "sent" for r in rows)
    engine.dispose()
    sent = [BytesHeaderParser().parsebytes(p.read_bytes())["Message-ID"]
            for p in (maildir / "new").iterdir()]
    assert len(sent) == len(rows) == len(set(sent)), "every mail delivered once"


def test_a_mail_claimed_by_a_host_that_died_is_sent_once_its_lease_runs_out(pg_url, tmp_path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The tick's first look counted a `sending` row as due only ten minutes after its lease
    had run out, so on an otherwise idle system the mail waited eleven minutes, not one."""
    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql("CREATE DATABASE died_mid_send")
    admin.dispose()
    engine = connect(pg_url.rsplit("/", 1)[0] + "/died_mid_send")
    migrate(engine)
    settings = Settings(address="orders@pbem.test", maildir=str(tmp_path / "out"))
    with session_scope(engine) as s:
        row = queue(s, settings, kind="notice", to="p@example.org", subject="report",
                    text="text\n", now=T0, key=("died", 1))
        assert row is not None and row.id is not None
        row_id = row.id
    with session_scope(engine) as s:  # host A claims it, then dies before sending
        assert claim(s, Outbox, row_id, now=T0, lease=LEASE) is not None
    spool = tmp_path / "spool"
    assert tick(engine, spool=spool, now=T0 + LEASE / 2, settings=settings) == [], \
        "not while host A may still be sending it"
    lines = tick(engine, spool=spool, now=T0 + LEASE + timedelta(seconds=1), settings=settings)
    assert lines == ["outbox: 1 sent, 0 to retry, 0 failed"]
    assert len(list((tmp_path / "out" / "new").iterdir())) == 1
    with session_scope(engine) as s:
        assert s.get(Outbox, row_id).status == "sent"  # type: ignore[union-attr]
    engine.dispose()
