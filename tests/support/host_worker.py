"""One host of several on one database, for the multi-host test and benchmark: ticks with
the real clock until the database has stayed idle for `idle` seconds, then prints what it
did as JSON (one line per tick line).

    host_worker.py URL MAILDIR IDLE [--gate]

With `--gate` (the benchmark) it first does what a long-running `pbem serve` does once (the
imports, the connection, one tick with nothing due), prints `ready` and waits for a line on
stdin: the hosts then start their work together, and the timing leaves out process start."""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem.config import Settings
from pbem.service.tick import tick
from pbem.store.db import connect


def main(url: str, maildir: str, idle: float, gate: bool = False) -> None:
    engine = connect(url)
    settings = Settings(db=url, maildir=maildir)
    if gate:
        long_ago = datetime.now(UTC) - timedelta(days=3650)  # nothing is due then
        tick(engine, spool=Path("/nonexistent"), now=long_ago, settings=settings)
        print("ready", flush=True)
        sys.stdin.readline()
    done: list[str] = []
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < idle:
        lines = tick(engine, spool=Path("/nonexistent"), now=datetime.now(UTC), settings=settings)
        if lines:
            done += lines
            quiet_since = time.monotonic()
        else:
            time.sleep(0.05)
    engine.dispose()
    print(json.dumps(done))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]), gate="--gate" in sys.argv[4:])
