"""(g) Latency: from the last order's SMTP transaction to the next reports at a local relay.

    python bench/bench_latency.py [--steps 12] [--ruleset helios]

A real `pbem serve` process (its SMTP listener, the tick every 600 s, so only the wake
explains a quick answer) relays through an aiosmtpd sink on loopback that notes when each
mail arrives. Bots answer their last report (its Reply-To token) with random legal orders.
For each step: the time from just before the SMTP transaction of the step's last order to
the arrival of every seat's next report, and for each order the time to its echo.
Floor: one report-sized mail sent straight to the sink with smtplib.
"""

from __future__ import annotations

import argparse
import email
import json
import os
import random
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from common import median
from pbem_process import wait_for_smtp  # tests/support

from pbem.config import Settings
from pbem.mail.listener import free_port
from pbem.rulesets import get
from pbem.service import mailflow
from pbem.service.games import awaiting_of, create_game, find_game, live_step
from pbem.store.db import connect, migrate, session_scope


class Sink:
    """An SMTP relay on loopback that keeps each mail with the time it arrived."""

    def __init__(self) -> None:
        self.mails: list[tuple[float, EmailMessage]] = []
        self.lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        arrived = time.perf_counter()
        msg = email.message_from_bytes(envelope.original_content or envelope.content,
                                       policy=default)
        with self.lock:
            self.mails.append((arrived, msg))  # type: ignore[arg-type]
        return "250 OK"

    def wait(self, test, timeout: float = 60) -> float:  # type: ignore[no-untyped-def]
        """When the first mail passing `test` arrived (the last of those wanted: all)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                found = test(self.mails)
            if found is not None:
                return found
            time.sleep(0.002)
        raise TimeoutError("the mail did not arrive")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--ruleset", default="helios")
    args = ap.parse_args()
    ruleset = get(args.ruleset)
    seats = ruleset.seat_ids(ruleset.min_players, ruleset.default_variant())
    sink = Sink()
    sink.controller.start()
    tmp = Path(tempfile.mkdtemp(prefix="pbem-latency-"))
    db = f"sqlite:///{tmp / 'db.sqlite'}"
    engine = connect(db)
    migrate(engine)
    settings = Settings(db=db, smtp=f"smtp://127.0.0.1:{sink.port}", address="orders@pbem.test")
    with session_scope(engine) as s:
        game = create_game(s, ruleset_id=ruleset.id, name="fast", seed="fast", deadline_hours=72,
                           now=datetime.now(UTC),
                           seats={seat: f"{seat}@players.example" for seat in seats}).game
        mailflow.queue_reports(s, settings, game, now=datetime.now(UTC))
    port = free_port()
    env = {**os.environ, "PBEM_DB": db, "PBEM_LISTEN": f"127.0.0.1:{port}",
           "PBEM_POLL_SECONDS": "600", "PBEM_SMTP": settings.smtp or "",
           "PBEM_ADDRESS": settings.address}
    server = subprocess.Popen([sys.executable, "-m", "pbem.cli.app", "serve"], env=env, cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rng = random.Random(1)
    latencies, echoes = [], []
    try:
        wait_for_smtp(port)
        sink.wait(lambda ms: True if sum(1 for _, m in ms if "step 1" in m["Subject"])
                  == len(seats) else None)
        for _ in range(args.steps):
            with session_scope(engine) as s:
                g = find_game(s, "fast")
                if g.status == "finished":
                    break
                step = live_step(s, g)
                state = ruleset.load(json.loads(step.state_json))
                awaited = sorted(awaiting_of(step))
            with sink.lock:
                reply = {m["To"]: m["Reply-To"] for _, m in sink.mails
                         if m["Subject"].startswith(f"[fast] step {step.number}")}
            with smtplib.SMTP("127.0.0.1", port) as client:
                for i, seat in enumerate(awaited):
                    msg = EmailMessage()
                    msg["From"] = f"{seat}@players.example"
                    msg["To"] = reply[f"{seat}@players.example"]
                    msg["Subject"] = f"Re: step {step.number} {seat}"
                    msg.set_content("".join(f"{x}\n" for x in ruleset.legal_orders(state, seat, rng)))
                    sent = time.perf_counter()
                    client.send_message(msg)
                    subject = f"Re: step {step.number} {seat}"  # reply_subject: one Re:
                    echoes.append(sink.wait(lambda ms, subject=subject: next(
                        (t for t, m in ms if m["Subject"] == subject), None)) - sent)
                    if i == len(awaited) - 1:
                        prefix = f"[fast] step {step.number + 1}"
                        arrived = sink.wait(lambda ms, prefix=prefix: (
                            max(t for t, m in ms if m["Subject"].startswith(prefix))
                            if sum(m["Subject"].startswith(prefix) for _, m in ms) == len(seats)
                            else None))
                        latencies.append(arrived - sent)
        with sink.lock:
            size = max(len(m.as_bytes()) for _, m in sink.mails if "step" in m["Subject"])
        floor = []
        blob = EmailMessage()
        blob["From"], blob["To"], blob["Subject"] = "a@x.example", "b@x.example", "floor"
        blob.set_content("x" * size)
        for _ in range(len(latencies)):
            with smtplib.SMTP("127.0.0.1", sink.port) as client:
                t0 = time.perf_counter()
                client.send_message(blob)
                floor.append(time.perf_counter() - t0)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        sink.controller.stop()
        engine.dispose()
    ml, mf = median(latencies), median(floor)
    print(f"(g) latency, {args.ruleset} with {len(seats)} players, {len(latencies)} steps: "
          f"last order to every next report {ml:.3f} s median, {max(latencies):.3f} s worst; "
          f"order to its echo {median(echoes):.3f} s median, {max(echoes):.3f} s worst; "
          f"floor (one {size:,}-byte mail straight to the relay) {mf * 1000:.1f} ms; "
          f"ratio {ml / mf:.0f}")


if __name__ == "__main__":
    main()
