"""(f) An idle tick with 100, 1,000 and 10,000 games, and how fast `pbem` starts.

    python bench/bench_tick.py [--games 100 1000 10000] [--repeat 5]

Idle: every game open, none due (no orders in, deadlines and reminders days away), no
mail, no spooled file. Measured:
- `pbem tick` as cron runs it: a new process, wall and CPU time; floor: a Python process
  that opens the database with sqlite3 and runs one query;
- the tick inside `pbem serve` (`service.tick.tick`); floor: one indexed SELECT through
  sqlite3 in the same process;
- `pbem --help`; floor: `python -c pass`.
Medians of the repeats, old and floor alternating.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import clone_games, fresh, median, timed

from pbem.config import Settings
from pbem.service.games import create_game
from pbem.service.tick import tick
from pbem.store.db import session_scope
from pbem.store.quick import sqlite_time

# `pbem tick` reads the clock: the games are set up now, their deadlines 72 hours away.
START = datetime.now(UTC)
NOW = START + timedelta(minutes=10)


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, cwd="/", check=True, capture_output=True, timeout=600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_start(repeat: int) -> None:
    pbem = str(Path(sys.executable).parent / "pbem")
    help_, floor = [], []
    for _ in range(repeat):
        help_.append(run([pbem, "--help"], dict(os.environ))[1])
        floor.append(run([sys.executable, "-c", "pass"], dict(os.environ))[1])
    h, f = median(help_), median(floor)
    print(f"    pbem --help: {h:.3f} s CPU; python -c pass: {f:.3f} s; ratio {h / f:.1f}")


def bench_games(tmp: Path, counts: list[int], repeat: int) -> None:
    path = tmp / "idle.sqlite"
    engine = fresh(path)
    settings = Settings(db=f"sqlite:///{path}", maildir=str(tmp / "mail"),
                        spool=str(tmp / "spool"))
    with session_scope(engine) as s:
        create_game(s, ruleset_id="helios", name="src", seed="idle", deadline_hours=72,
                    now=START, seats={"north": "n@x.org", "east": "e@x.org"})
    tick(engine, spool=tmp / "spool", now=START, settings=settings)  # its first look
    pbem = str(Path(sys.executable).parent / "pbem")
    env = {**os.environ, "PBEM_DB": settings.db, "PBEM_MAILDIR": settings.maildir,
           "PBEM_SPOOL": settings.spool}
    have = 1
    when = sqlite_time(NOW)
    probe = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
             "c.execute(\"SELECT 1 FROM game WHERE status = 'open' AND due_at <= ? LIMIT 1\", "
             "(sys.argv[2],)).fetchall()")
    for count in counts:
        clone_games(engine, "src", count - have, prefix=f"n{have}-")
        have = count
        cli, cli_floor, inproc, inproc_floor = [], [], [], []
        con = sqlite3.connect(path)
        for _ in range(repeat):
            cli.append(run([pbem, "tick"], env))
            cli_floor.append(run([sys.executable, "-c", probe, str(path), when], env))
            inproc.append(timed(lambda: tick(engine, spool=tmp / "spool", now=NOW,
                                             settings=settings)))
            inproc_floor.append(timed(lambda con=con: con.execute(
                "SELECT 1 FROM game WHERE status = 'open' AND due_at <= ? LIMIT 1",
                (when,)).fetchall()))
        con.close()
        assert tick(engine, spool=tmp / "spool", now=NOW, settings=settings) == []  # idle
        cw, cc = median([w for w, _ in cli]), median([c for _, c in cli])
        fw, fc = median([w for w, _ in cli_floor]), median([c for _, c in cli_floor])
        i, f = median(inproc), median(inproc_floor)
        print(f"(f) idle tick, {count:,} games: pbem tick {cw:.3f} s wall, {cc:.3f} s CPU "
              f"(floor: python + sqlite3 + one query {fw:.3f} s, {fc:.3f} s CPU; ratio "
              f"{cc / fc:.1f}); in serve {i * 1000:.2f} ms (floor: one indexed query "
              f"{f * 1000:.3f} ms; ratio {i / f:.0f})")
    engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, nargs="+", default=[100, 1000, 10_000])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        bench_games(Path(d), args.games, args.repeat)
    bench_start(args.repeat)


if __name__ == "__main__":
    main()
