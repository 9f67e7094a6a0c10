"""Steps, reports and the archive against raw floors measured in the same run (not tests).

    python bench/bench_core.py [--games 1000] [--steps 5000] [--repeat 3]

(a) a step with its reports queued, for each of N Helios games (2 players, real reports:
    text, HTML, board picture), one transaction a game; floor: sqlite3 itself reading the
    same state row, JSON round trip, inserting the next row, commit.
(b) a step with its reports at step 5,000 of one game against step 10 of another, measured
    alternately at the same time; floor: the raw step.
(c) a report (context, text and HTML) of step 10 and of step 1,000 in a 5,000-step history,
    alternately; the size of the mails queued for them; floor: sqlite3 reading the two step
    rows the report needs (with the rows their states are stored against) and parsing the
    states.
(h) the archive export of finished games of 10, 100 and 1,000 steps: time per step (linear
    means flat); floor: writing the same files from memory.
The long game is `Tally` (bench/common.py): two seats, a public die a step.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import tempfile
import time
import zlib
from datetime import timedelta
from pathlib import Path

from common import T0, clone_games, floor_table, fresh, median, raw_steps, timed
from sqlmodel import select

from pbem.archive.export import export_game
from pbem.config import Settings
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step
from pbem.service.turns import process_turn
from pbem.store.db import read_scope, session_scope
from pbem.store.models import Outbox
from pbem.store.steptexts import KEYFRAME


def step_with_reports(engine, settings: Settings, name: str, now) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        process_turn(s, name, now=now, force=True)
        mailflow.queue_reports(s, settings, find_game(s, name), now=now)


def bench_many(tmp: Path, games: int, repeat: int) -> None:
    path = tmp / "many.sqlite"
    engine = fresh(path)
    settings = Settings(maildir=str(tmp / "many-mail"))
    with session_scope(engine) as s:
        create_game(s, ruleset_id="helios", name="src", seed="many", now=T0,
                    seats={"north": "n@x.org", "east": "e@x.org"})
        state = live_step(s, find_game(s, "src")).state_json
    rounds = [clone_games(engine, "src", games, prefix=f"r{r}-") for r in range(repeat)]
    floor_table(path, [state] * games)
    real, floor = [], []
    for r, names in enumerate(rounds):  # alternately, so load drift hits both alike
        floor.append(raw_steps(path, games, 1 + r))
        real.append(timed(lambda names=names: [step_with_reports(engine, settings, n, T0)
                                               for n in names]))
    engine.dispose()
    mr, mf = median(real), median(floor)
    print(f"(a) a step with its reports, {games} Helios games: {mr:.2f} s "
          f"({mr / games * 1000:.1f} ms a game); raw floor {mf:.2f} s "
          f"({mf / games * 1000:.2f} ms); ratio {mr / mf:.0f}  [runs: "
          + ", ".join(f"{x:.2f}/{y:.2f}" for x, y in zip(real, floor, strict=True)) + "]")


def bench_long(tmp: Path, steps: int) -> None:
    path = tmp / "long.sqlite"
    engine = fresh(path)
    settings = Settings(maildir=str(tmp / "long-mail"))
    with session_scope(engine) as s:
        create_game(s, ruleset_id="bench-tally", name="long", seats={"a": "a@x", "b": "b@x"},
                    seed="long", options={"limit": steps + 100}, now=T0)
        mailflow.queue_reports(s, settings, find_game(s, "long"), now=T0)
    now = T0
    t0 = time.perf_counter()
    for _ in range(steps):
        now += timedelta(minutes=1)
        step_with_reports(engine, settings, "long", now)
    played = time.perf_counter() - t0
    with session_scope(engine) as s:
        create_game(s, ruleset_id="bench-tally", name="short", seats={"a": "a@x", "b": "b@x"},
                    seed="short", options={"limit": 1000}, now=T0)
    for _ in range(9):
        now += timedelta(minutes=1)
        step_with_reports(engine, settings, "short", now)
    with session_scope(engine) as s:
        state = live_step(s, find_game(s, "short")).state_json
    floor_table(path, [state] * 40)
    late, early, floor = [], [], []
    for k in range(21):  # step 5,000+k of one game, step 10+k of the other, a raw step
        now += timedelta(minutes=1)
        late.append(timed(lambda now=now: step_with_reports(engine, settings, "long", now)))
        early.append(timed(lambda now=now: step_with_reports(engine, settings, "short", now)))
        floor.append(raw_steps(path, 1, 1 + k))
    ml, me, mf = median(late), median(early), median(floor)
    print(f"(b) a step with its reports at step {steps}: {ml * 1000:.2f} ms; at step 10: "
          f"{me * 1000:.2f} ms; ratio {ml / me:.2f}; raw floor {mf * 1000:.2f} ms "
          f"(step 10 is {me / mf:.0f}x the floor); playing {steps} steps took {played:.0f} s")

    bench_reports(engine, path, steps)
    engine.dispose()


def bench_reports(engine, path: Path, steps: int) -> None:  # type: ignore[no-untyped-def]
    """(c), in CPU seconds of this process (a report's work is all here: SQLite included)."""
    def report(step: int) -> None:
        with read_scope(engine) as s:
            ctx = report_context(s, "long", seat="a", step=step)
        render_report(ctx, fmt="text")
        render_report(ctx, fmt="html")

    con = sqlite3.connect(path)

    def raw_report(step: int) -> None:
        # the two states, each inflated against the states it is stored against (its chain)
        rows = con.execute("SELECT s.id, s.base_id, s.number, s.state_json FROM step s "
                           "JOIN game g ON g.id = s.game_id WHERE g.name = 'long' AND "
                           "s.live AND s.number BETWEEN ? AND ? ORDER BY s.number",
                           (step - 1 - KEYFRAME, step)).fetchall()
        texts: dict[int, bytes] = {}
        for row_id, base, number, state in rows:
            if base is not None and base not in texts:
                continue  # before the chain's whole step
            zdict = texts.get(base) if base is not None else None
            unpacker = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
            texts[row_id] = unpacker.decompress(state) + unpacker.flush()
            if number >= step - 1:
                json.loads(texts[row_id])

    far = min(1000, steps // 2)
    at10, at1000, floor = [], [], []
    for k in range(41):  # A B B A ..., so neither always runs first
        pair = [(at10, 10), (at1000, far)]
        for times, step in pair if k % 2 else pair[::-1]:
            times.append(cpu_timed(lambda step=step: report(step)))
        floor.append(cpu_timed(lambda: raw_report(far)))
    con.close()
    with session_scope(engine) as s:
        rows = list(s.exec(select(Outbox).where(Outbox.kind == "report", Outbox.seat == "a")))
    size = {int(r.subject.split(" step ")[1].split(":")[0].split()[0]): len(r.raw) for r in rows}
    m10, m1000, mf = median(at10), median(at1000), median(floor)
    print(f"(c) a report (context, text, HTML) of step {far:,}: {m1000 * 1000:.2f} ms; of "
          f"step 10: {m10 * 1000:.2f} ms; ratio {m1000 / m10:.2f}; raw floor "
          f"{mf * 1000:.3f} ms. Report mail: step 10 {size[10]:,} B, step {far:,} "
          f"{size[far]:,} B, step {steps:,} {size[steps]:,} B")


def history_only(tmp: Path, steps: int) -> None:
    """(c) alone: a history of `steps` steps played without mail (reports do not read the
    outbox), then the reports of step 10 and of step 1,000."""
    path = tmp / "history.sqlite"
    engine = fresh(path)
    settings = Settings(maildir=str(tmp / "history-mail"))
    with session_scope(engine) as s:
        create_game(s, ruleset_id="bench-tally", name="long", seats={"a": "a@x", "b": "b@x"},
                    seed="long", options={"limit": steps + 100}, now=T0)
    now = T0
    for n in range(steps):
        now += timedelta(minutes=1)
        if n + 2 in (10, min(1000, steps // 2), steps):  # processing step n+1 opens n+2
            step_with_reports(engine, settings, "long", now)  # the mails whose size is shown
        else:
            with session_scope(engine) as s:
                process_turn(s, "long", now=now, force=True)
    bench_reports(engine, path, steps)
    engine.dispose()


def cpu_timed(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def bench_export(tmp: Path, lengths: list[int], repeat: int) -> None:
    path = tmp / "export.sqlite"
    engine = fresh(path)
    for n in lengths:
        with session_scope(engine) as s:
            create_game(s, ruleset_id="bench-tally", name=f"e{n}", seats={"a": "a@x", "b": "b@x"},
                        seed=f"e{n}", options={"limit": n}, now=T0)
        for _ in range(n):
            with session_scope(engine) as s:
                process_turn(s, f"e{n}", now=T0, force=True)
    times: dict[int, list[float]] = {n: [] for n in lengths}
    floors: dict[int, list[float]] = {n: [] for n in lengths}
    for _ in range(repeat):
        for n in lengths:
            out = tmp / f"site-{n}"
            shutil.rmtree(out, ignore_errors=True)
            with session_scope(engine) as s:
                times[n].append(timed(lambda s=s, n=n, out=out: export_game(s, f"e{n}", out)))
            files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
            copy = tmp / f"copy-{n}"
            shutil.rmtree(copy, ignore_errors=True)
            for folder in {copy / p.parent for p in files}:
                folder.mkdir(parents=True, exist_ok=True)
            floors[n].append(timed(lambda files=files, copy=copy: [
                (copy / p).write_bytes(b) for p, b in files.items()]))
    engine.dispose()
    parts = []
    for n in lengths:
        t, f = median(times[n]), median(floors[n])
        parts.append(f"{n} steps {t:.2f} s ({t / n * 1000:.1f} ms a step; writing the files "
                     f"{f:.3f} s, ratio {t / f:.0f})")
    per = [median(times[n]) / n for n in lengths]
    print("(h) archive export of a finished game: " + "; ".join(parts)
          + f". Time a step, longest / shortest game: {per[-1] / per[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["a", "bc", "c", "h"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.only in (None, "a"):
            bench_many(tmp, args.games, args.repeat)
        if args.only in (None, "bc"):
            bench_long(tmp, args.steps)
        if args.only == "c":
            history_only(tmp, args.steps)
        if args.only in (None, "h"):
            bench_export(tmp, [10, 100, 1000], args.repeat)


if __name__ == "__main__":
    main()
