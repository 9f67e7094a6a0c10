"""One host of several on one database, for the multi-host test and benchmark: ticks with
the real clock until the database has stayed idle for `idle` seconds, then prints what it
did as JSON (one line per tick line)."""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from pbem.config import Settings
from pbem.service.tick import tick
from pbem.store.db import connect


def main(url: str, maildir: str, idle: float) -> None:
    engine = connect(url)
    settings = Settings(db=url, maildir=maildir)
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
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))
