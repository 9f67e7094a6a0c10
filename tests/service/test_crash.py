"""Crash test: kill the processor at random points while it works; after restarts no order
is lost or applied twice and the game is identical to one that never crashed."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlmodel import select

from pbem.archive.verify import verify_game
from pbem.store.db import connect, session_scope
from pbem.store.models import Step, Submission

WORKER = Path(__file__).resolve().parents[1] / "support" / "crash_worker.py"


def run_worker(url: str, slow: float, kill_after: float | None = None) -> bool:
    """Run the worker; kill it with SIGKILL `kill_after` s after it is ready (imports and
    start-up take seconds on a loaded machine). True if it finished."""
    proc = subprocess.Popen([sys.executable, str(WORKER), url, str(slow)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    try:
        proc.wait(timeout=kill_after if kill_after is not None else 300)
        assert proc.returncode == 0
        return True
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return False


def history(url: str) -> list[tuple[int, str, str | None, str | None]]:
    engine = connect(url)
    with session_scope(engine) as s:
        rows = [(st.number, st.state_digest, st.orders_digest, st.events_json)
                for st in s.exec(select(Step).order_by(Step.number))]
        live = [st.number for st in s.exec(select(Step).where(Step.live == True))]  # noqa: E712
        assert len(live) == len(set(live)), "a step was stored twice"
        for st in s.exec(select(Step)):
            subs = list(s.exec(select(Submission).where(Submission.step_id == st.id,
                                                        Submission.status == "accepted")))
            assert len(subs) == len({x.seat for x in subs}), "two live submissions for a seat"
        assert verify_game(s, "crash").ok
    engine.dispose()
    return rows


def test_killed_at_random_points_the_game_ends_identical(tmp_path: Path) -> None:
    reference = f"sqlite:///{tmp_path / 'ref.sqlite'}"
    assert run_worker(reference, 0.0)
    want = history(reference)
    crashed = f"sqlite:///{tmp_path / 'crash.sqlite'}"
    rng = random.Random(11)
    kills = 0
    started = time.monotonic()
    while not run_worker(crashed, 0.1, kill_after=rng.uniform(0.4, 1.5)):
        kills += 1
        assert time.monotonic() - started < 240, "the crashed game made no progress"
    assert kills >= 3, "the worker was never interrupted; make the window wider"
    assert history(crashed) == want
