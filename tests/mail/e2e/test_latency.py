"""Low latency in `pbem serve`: the mail that completes a step wakes the tick, so the echo
and the next reports reach the relay at once, not at the next poll (here 10 minutes away).
The benchmark (bench/bench_latency.py) measures the time; this test only proves the wake."""

from __future__ import annotations

import email
import json
import os
import signal
import smtplib
import subprocess
import time
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from clock import T0
from pbem_process import pbem, wait_for_smtp

from pbem.mail.listener import free_port
from pbem.service.games import create_game, find_game, live_step
from pbem.store.db import session_scope


def subjects(sink) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    out = []
    for r in list(sink.received):
        m = email.message_from_bytes(r.data, policy=default)
        out.append((m["To"], m["Subject"]))
    return out


def wait_until(test, timeout: float) -> float:  # type: ignore[no-untyped-def]
    start = time.monotonic()
    while not test():
        if time.monotonic() - start > timeout:
            raise AssertionError("timed out")
        time.sleep(0.05)
    return time.monotonic() - start


def test_the_last_order_brings_the_reports_at_once(engine, db_url: str, smtp_sink,
                                                   tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id="highcard", name="fast", seed="fast", now=T0,
                         seats={"north": "n@example.org", "south": "s@example.org"}).passwords
        hands = json.loads(live_step(s, find_game(s, "fast")).state_json)["hands"]
    port = free_port()
    env = {**os.environ, "PBEM_DB": db_url, "PBEM_LISTEN": f"127.0.0.1:{port}",
           "PBEM_POLL_SECONDS": "600", "PBEM_SMTP": smtp_sink.url,
           "PBEM_ADDRESS": "orders@pbem.test"}
    server = pbem(["serve"], env, tmp_path)
    try:
        wait_for_smtp(port)
        with smtplib.SMTP("127.0.0.1", port) as c:
            for seat in ("north", "south"):
                msg = EmailMessage()
                msg["From"] = f"{seat[0]}@example.org"
                msg["To"] = "orders@pbem.test"
                msg["Subject"] = f"orders {seat}"
                msg.set_content(f"GAME fast\nSEAT {seat}\nPASSWORD {pw[seat]}\n"
                                f"PLAY {hands[seat][0]}\n")
                c.send_message(msg)
                # the echo comes at once, long before the next poll
                wait_until(lambda s=seat: (f"{s[0]}@example.org", f"Re: orders {s}")
                           in subjects(smtp_sink), 30)
        wait_until(lambda: sum(1 for _, subject in subjects(smtp_sink)
                               if subject.startswith("[fast] step 2")) == 2, 30)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
