"""Reports and the archive cost the same at step 5 or 500: a report reads its step and the
one before; the export reads the steps once; a report mail stays small in every game."""

from __future__ import annotations

import email
import json
import random
from datetime import timedelta
from email.policy import default
from pathlib import Path

import pytest
from bots import bot_step
from clock import T0
from mail_limits import MAIL_LIMIT
from sqlalchemy import event
from sqlmodel import select

from pbem.archive.export import export_game
from pbem.config import Settings
from pbem.reports.context import report_context
from pbem.rulesets import _discover
from pbem.service import mailflow
from pbem.service.games import create_game, find_game
from pbem.service.turns import process_turn
from pbem.store.db import session_scope
from pbem.store.models import Outbox


def play(engine, steps: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(steps):
        with session_scope(engine) as s:
            process_turn(s, "g1", now=T0, force=True)


def queries(engine, fn) -> list[str]:  # type: ignore[no-untyped-def]
    seen: list[str] = []

    def log(_c, _cur, statement, *_a) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", log)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", log)
    return seen


def test_a_report_reads_two_steps_whatever_the_history(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="g1", variant="long", seed="flat", now=T0,
                    seats={"north": "n@x.org", "south": "s@x.org"})

    def report() -> None:
        with session_scope(engine) as s:
            report_context(s, "g1", seat="north")

    play(engine, 3)
    early = queries(engine, report)
    play(engine, 6)
    late = queries(engine, report)
    assert len(late) == len(early)
    assert sum("FROM step" in q for q in late) == 2  # the open step and the one before


def test_the_export_reads_the_steps_once(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="g1", variant="long", seed="flat", now=T0,
                    seats={"north": "n@x.org", "south": "s@x.org"})

    def export() -> None:
        with session_scope(engine) as s:
            export_game(s, "g1", tmp_path / "site")

    play(engine, 4)
    short = queries(engine, export)
    play(engine, 5)
    long = queries(engine, export)
    assert len(long) == len(short)
    assert sum("FROM step" in q for q in long) == 1


def test_the_view_as_json_is_attached_only_to_the_seats_that_asked(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(maildir=str(tmp_path / "out"))
    with session_scope(engine) as s:
        game = create_game(s, ruleset_id="highcard", name="g1", seed="json", now=T0,
                           seats={"north": "n@x.org", "south": "s@x.org"},
                           settings={"view_json": "north"}).game
        mailflow.queue_reports(s, settings, game, now=T0)
    with session_scope(engine) as s:
        rows = {r.seat: email.message_from_bytes(r.raw, policy=default)
                for r in s.exec(select(Outbox).where(Outbox.kind == "report"))}
    files = {seat: [p.get_filename() for p in m.iter_attachments()] for seat, m in rows.items()}
    assert files == {"north": ["g1-step1-north.json"], "south": []}
    view = json.loads(next(rows["north"].iter_attachments()).get_content())
    assert "hand" in view


@pytest.mark.parametrize("rid", sorted(_discover()))
def test_report_mails_stay_small(rid: str, engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The first steps of each game at the most players (the whole games: bench (d))."""
    ruleset = _discover()[rid]
    seats = ruleset.seat_ids(ruleset.max_players, ruleset.default_variant())
    settings = Settings(maildir=str(tmp_path / "out"))
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=rid, name="g", seed="small", now=T0,
                          seats={seat: f"{seat}@example.org" for seat in seats})
        mailflow.queue_reports(s, settings, new.game, now=T0)
    rng, now = random.Random(3), T0
    for _ in range(10):
        now += timedelta(hours=1)
        if not bot_step(engine, "g", new.passwords, rng, now=now):
            break
        with session_scope(engine) as s:
            mailflow.queue_reports(s, settings, find_game(s, "g"), now=now)
    with session_scope(engine) as s:
        sizes = [len(r.raw) for r in s.exec(select(Outbox).where(Outbox.kind == "report"))]
    assert sizes and max(sizes) < MAIL_LIMIT, (rid, max(sizes))
