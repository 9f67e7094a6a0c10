"""A step's texts are stored against its base step's (`pbem.store.steptexts`): every text
reads back as written, a chain is at most KEYFRAME steps long, a cold read costs the same
at step 40 as at step 2, an altered base makes its successors unreadable rather than wrong,
and a rollback's re-opened step costs a few bytes."""

from __future__ import annotations

import json
import zlib
from datetime import timedelta

import pytest
from clock import T0
from sqlalchemy import event
from sqlmodel import select

from pbem.core.engine import digest
from pbem.service import gm
from pbem.service.games import create_game, find_game, live_step, live_steps
from pbem.service.turns import process_turn
from pbem.store import steptexts
from pbem.store.db import session_scope
from pbem.store.models import Step

STEPS = 40


@pytest.fixture
def long_game(engine):  # type: ignore[no-untyped-def]
    """A Macht & Ohnmacht game of STEPS processed steps (NMR defaults), and what the
    engine handed the store at each step (read back in the same session)."""
    with session_scope(engine) as s:
        create_game(s, ruleset_id="macht-und-ohnmacht", name="long", seed="long", now=T0,
                    seats={"orange": "o@x.org", "white": "w@x.org"})
    written = {}
    now = T0
    for _ in range(STEPS):
        now += timedelta(hours=1)
        with session_scope(engine) as s:
            if find_game(s, "long").status == "finished":
                break
            done = process_turn(s, "long", now=now, force=True)
            written[done.step] = (done.outcome.state_json, done.outcome.events)
    return engine, written


def _cold(engine):  # type: ignore[no-untyped-def]
    steptexts._inflated = steptexts._Inflated()  # nothing inflated yet
    return session_scope(engine)


def test_every_text_reads_back_as_the_engine_wrote_it(long_game) -> None:  # type: ignore[no-untyped-def]
    engine, written = long_game
    assert len(written) >= 2 * steptexts.KEYFRAME
    with _cold(engine) as s:
        steps = {st.number: st for st in live_steps(s, find_game(s, "long"))}
        for number, st in steps.items():
            assert st.state_digest == "" or digest(st.state_json) == st.state_digest
            if number in written:
                assert [e["kind"] for e in json.loads(st.events_json)] == \
                    [e.kind for e in written[number][1]]
                assert steps[number + 1].state_json == written[number][0]
        chained = [st for st in steps.values() if st.base_id is not None]
        assert len(chained) > len(steps) // 2
        assert max(st.chain for st in steps.values()) == steptexts.KEYFRAME - 1
        for st in chained:  # not readable without its base
            with pytest.raises(zlib.error):
                zlib.decompress(st.state_z)


def test_a_cold_read_costs_the_same_late_in_the_game(long_game) -> None:  # type: ignore[no-untyped-def]
    engine, _ = long_game
    counts = {}
    queries: list[str] = []

    def listen(*args: object) -> None:
        queries.append(str(args[2]))

    for number in (2, 15, STEPS - 1):
        with _cold(engine) as s:
            step = live_step(s, find_game(s, "long"), number)
            queries.clear()
            event.listen(engine, "before_cursor_execute", listen)
            try:
                assert step.state_json and step.events_json
            finally:
                event.remove(engine, "before_cursor_execute", listen)
            counts[number] = len(queries)
    assert max(counts.values()) <= 1, counts  # the chain comes in one query (or none)


def test_a_walk_in_order_reads_no_more_rows(long_game) -> None:  # type: ignore[no-untyped-def]
    """An archive loads the steps once; their texts then cost no query."""
    engine, _ = long_game
    queries: list[str] = []

    def listen(*args: object) -> None:
        queries.append(str(args[2]))

    with _cold(engine) as s:
        steps = live_steps(s, find_game(s, "long"))
        event.listen(engine, "before_cursor_execute", listen)
        try:
            assert all(st.state_json and st.awaiting_json for st in steps)
        finally:
            event.remove(engine, "before_cursor_execute", listen)
    assert queries == []


def test_an_altered_base_makes_its_successor_unreadable_not_wrong(long_game) -> None:  # type: ignore[no-untyped-def]
    engine, _ = long_game
    with session_scope(engine) as s:
        step = live_step(s, find_game(s, "long"), 3)
        assert step.base_id is not None
        base = s.get(Step, step.base_id)
        assert base is not None
        base.state_json = base.state_json.replace('"', "'", 1)  # a forged base
        s.add(base)
    with _cold(engine) as s, pytest.raises(zlib.error):
        _ = live_step(s, find_game(s, "long"), 3).state_json


def test_a_reopened_step_is_stored_against_its_target(long_game) -> None:  # type: ignore[no-untyped-def]
    engine, _ = long_game
    with session_scope(engine) as s:
        target = live_step(s, find_game(s, "long"), 20)
        texts = (target.state_json, target.awaiting_json)
    with session_scope(engine) as s:
        gm.rollback(s, "long", 20, now=T0 + timedelta(days=30))
    with _cold(engine) as s:
        reopened = live_step(s, find_game(s, "long"), 20)
        assert (reopened.state_json, reopened.awaiting_json) == texts
        assert reopened.base_id is not None and len(reopened.state_z) < 100
        assert list(s.exec(select(Step).where(Step.live == False)))  # noqa: E712 - kept
