"""One host of several on one database, for the multi-host test and benchmark: ticks with
the real clock until the database has stayed idle for `idle` seconds, then prints what it
did as JSON (one line per tick line).

    host_worker.py URL MAILDIR IDLE [--gate]

With `--gate` (the benchmark) it first does what a long-running `pbem serve` has done once
(the imports, the rulesets loaded, the connection, one tick with nothing due), prints
`ready` and waits for a line on stdin: the hosts then start their work together, and the
timing leaves out process start.
It then prints `{"lines": [...], "cpu": S}`: S the CPU seconds from the go to the end of
its last tick that did something (the idle second that ends it left out)."""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem.config import Settings
from pbem.rulesets import all_rulesets
from pbem.service.tick import tick
from pbem.store.db import connect


def main(url: str, maildir: str, idle: float, gate: bool = False) -> None:
    engine = connect(url)
    settings = Settings(db=url, maildir=maildir)
    if gate:
        long_ago = datetime.now(UTC) - timedelta(days=3650)  # nothing is due then
        tick(engine, spool=Path("/nonexistent"), now=long_ago, settings=settings)
        all_rulesets()
        print("ready", flush=True)
        sys.stdin.readline()
    cpu = time.process_time()
    busy = 0.0
    done: list[str] = []
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < idle:
        lines = tick(engine, spool=Path("/nonexistent"), now=datetime.now(UTC), settings=settings)
        if lines:
            done += lines
            quiet_since = time.monotonic()
            busy = time.process_time() - cpu
        else:
            time.sleep(0.05)
    engine.dispose()
    print(json.dumps({"lines": done, "cpu": busy} if gate else done))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]), gate="--gate" in sys.argv[4:])
