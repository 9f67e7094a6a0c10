"""Two processors on one database never process the same step twice."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.core.envelope import render_envelope
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import submit_orders
from pbem.service.tick import tick
from pbem.store.db import connect, session_scope
from pbem.store.models import Audit, Step


def test_concurrent_ticks_process_a_step_once(db_url: str, engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id="highcard", name="g", seed="two", now=T0,
                         seats={"north": "n@x.org", "south": "s@x.org"}).passwords
    with session_scope(engine) as s:
        hands = json.loads(live_step(s, find_game(s, "g")).state_json)["hands"]
        for seat in ("north", "south"):
            submit_orders(s, render_envelope(game="g", seat=seat, password=pw[seat], turn=1,
                                             body=f"PLAY {hands[seat][0]}\n"), now=T0)
    settings = Settings(db=db_url, maildir=str(tmp_path / "out"))
    barrier = threading.Barrier(4)
    outputs: list[list[str]] = []

    def run() -> None:
        eng = connect(db_url)  # each "server" has its own engine and connections
        barrier.wait()
        outputs.append(tick(eng, spool=tmp_path / "none", now=T0, settings=settings))
        eng.dispose()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    processed = [line for out in outputs for line in out if "processed" in line and "step" in line]
    assert processed == ["g: step 1 processed (all orders in)"]
    with session_scope(engine) as s:
        assert find_game(s, "g").step == 2
        assert len(list(s.exec(select(Step).where(Step.number == 1)))) == 1
        assert [a.action for a in s.exec(select(Audit))].count("process") == 1
