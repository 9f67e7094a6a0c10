"""Cost flat in the number of games and bounded storage: the tick finds what is due through
indexes and writes nothing when idle; the outbox drains in one call; sent mail keeps its
headers and hash for good and its body only for the retention."""

from __future__ import annotations

import email
import hashlib
import json
from datetime import timedelta
from email.policy import default
from pathlib import Path

from clock import T0
from playing import play_to_the_end
from sqlalchemy import event
from sqlmodel import select

from pbem.config import Settings
from pbem.core.envelope import render_envelope
from pbem.service import gm, mailflow, retention
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import submit_orders
from pbem.service.tick import process_due, tick
from pbem.store.db import session_scope
from pbem.store.models import Game, Outbox, Submission
from pbem.store.quick import idle_sqlite


def settings_for(tmp_path: Path, **kw) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(db="unused", maildir=str(tmp_path / "out"), **kw)


def new_games(engine, count: int, *, first: int = 0, hours: float | None = 48) -> dict:  # type: ignore[no-untyped-def]
    passwords = {}
    with session_scope(engine) as s:
        for i in range(first, first + count):
            passwords[f"g{i}"] = create_game(
                s, ruleset_id="highcard", name=f"g{i}", seed=str(i), deadline_hours=hours,
                now=T0, seats={"north": f"n{i}@x.org", "south": f"s{i}@x.org"}).passwords
    return passwords


def statements(engine, fn):  # type: ignore[no-untyped-def]
    seen: list[str] = []

    def log(_conn, _cursor, statement, *_a) -> None:  # type: ignore[no-untyped-def]
        seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", log)
    try:
        result = fn()
    finally:
        event.remove(engine, "before_cursor_execute", log)
    return seen, result


def test_an_idle_tick_reads_a_few_rows_whatever_the_number_of_games(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = settings_for(tmp_path)
    new_games(engine, 3)
    tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)  # the first look
    later = T0 + timedelta(hours=1)
    few, lines = statements(engine, lambda: tick(engine, spool=tmp_path / "spool", now=later,
                                                 settings=settings))
    assert lines == []
    new_games(engine, 30, first=3)
    tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)
    many, _ = statements(engine, lambda: tick(engine, spool=tmp_path / "spool", now=later,
                                              settings=settings))
    assert many == few  # the same queries for 3 games or 33
    assert not any(s.startswith(("BEGIN IMMEDIATE", "INSERT", "UPDATE", "DELETE")) for s in many)
    assert idle_sqlite(str(engine.url), now=later) is True


def test_the_quick_look_sees_work_and_an_old_schema(engine, db_url, tmp_path) -> None:  # type: ignore[no-untyped-def]
    new_games(engine, 1)
    assert idle_sqlite(db_url, now=T0) is False  # a new game is looked at once
    tick(engine, spool=tmp_path / "spool", now=T0, settings=settings_for(tmp_path))
    assert idle_sqlite(db_url, now=T0 + timedelta(hours=1)) is True
    assert idle_sqlite(db_url, now=T0 + timedelta(hours=49)) is False  # past the deadline
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0001'")
    assert idle_sqlite(db_url, now=T0 + timedelta(hours=1)) is False  # an upgrade to run
    assert idle_sqlite("postgresql://x/y", now=T0) is None
    assert idle_sqlite(f"sqlite:///{tmp_path}/none.sqlite", now=T0) is None


def test_due_times_follow_orders_reminders_and_deadlines(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = settings_for(tmp_path, reminder_hours=24)
    pw = new_games(engine, 1)["g0"]
    tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)
    deadline = T0 + timedelta(hours=48)
    with session_scope(engine) as s:
        assert find_game(s, "g0").due_at == deadline - timedelta(hours=24)  # the reminder
        hands = json.loads(live_step(s, find_game(s, "g0")).state_json)["hands"]
        submit_orders(s, render_envelope(game="g0", seat="north", password=pw["north"],
                                         turn=None, body=f"PLAY {hands['north'][0]}\n"), now=T0)
        assert find_game(s, "g0").due_at == T0  # looked at by the next tick
    assert tick(engine, spool=tmp_path / "spool", now=T0, settings=settings) == []
    reminder_time = deadline - timedelta(hours=23)
    assert process_due(engine, settings=settings, now=reminder_time) == ["g0: reminder to south"]
    with session_scope(engine) as s:
        assert find_game(s, "g0").due_at == deadline
    assert process_due(engine, settings=settings, now=reminder_time) == []  # not due again
    lines = process_due(engine, settings=settings, now=deadline)
    assert lines == ["g0: south missed step 1; deadline extended by 24h"]
    with session_scope(engine) as s:
        g = find_game(s, "g0")
        assert g.due_at == g.deadline == deadline + timedelta(hours=24)


def test_a_game_whose_orders_are_all_in_is_processed_by_the_next_tick(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pw = new_games(engine, 2)
    settings = settings_for(tmp_path)
    tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)
    with session_scope(engine) as s:
        hands = json.loads(live_step(s, find_game(s, "g1")).state_json)["hands"]
        for seat in ("north", "south"):
            submit_orders(s, render_envelope(game="g1", seat=seat, password=pw["g1"][seat],
                                             turn=None, body=f"PLAY {hands[seat][0]}\n"),
                          now=T0)
    lines = tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)
    assert "g1: step 1 processed (all orders in)" in lines
    assert not any(line.startswith("g0") for line in lines)


def test_a_deadline_is_kept_even_if_nothing_marked_the_game_due(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    new_games(engine, 1, hours=1)
    with session_scope(engine) as s:
        g = find_game(s, "g0")
        g.due_at = None  # as if a writer had forgotten to mark it
        g.settings_json = json.dumps({"hold": False, "extensions": 0})
        s.add(g)
    lines = tick(engine, spool=tmp_path / "spool", now=T0 + timedelta(hours=2),
                 settings=settings_for(tmp_path))
    assert "g0: step 1 processed (deadline)" in lines


def test_gm_actions_mark_the_game_due(engine) -> None:  # type: ignore[no-untyped-def]
    new_games(engine, 1)
    later = T0 + timedelta(hours=5)
    for action in (lambda s: gm.extend(s, "g0", hours=1, now=later),
                   lambda s: gm.pause(s, "g0", now=later) and gm.resume(s, "g0", now=later)):
        with session_scope(engine) as s:
            g = find_game(s, "g0")
            g.due_at = None
            s.add(g)
        with session_scope(engine) as s:
            action(s)
            assert find_game(s, "g0").due_at == later


def test_the_outbox_drains_in_one_call(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = settings_for(tmp_path)
    with session_scope(engine) as s:
        for i in range(7):
            mailflow.queue(s, settings, kind="notice", to=f"p{i}@x.org", subject="hello",
                           text="hi\n", now=T0)
    report = mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0, limit=3)
    assert report.sent == 7
    assert mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0).sent == 0
    assert len(list((tmp_path / "out" / "new").iterdir())) == 7


def test_sent_mail_keeps_headers_and_hash_and_its_body_for_the_retention(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = settings_for(tmp_path)
    with session_scope(engine) as s:
        kept = create_game(s, ruleset_id="highcard", name="days", seed="d", now=T0,
                           seats={"north": "n@x.org", "south": "s@x.org"},
                           settings={"mail_retention_days": 10}).game
        mailflow.queue_reports(s, settings, kept, now=T0)
        late = mailflow.queue(s, settings, kind="notice", to="late@x.org", subject="queued",
                              text="still queued\n", now=T0, game=kept)
        assert late is not None
        late.next_attempt_at = T0 + timedelta(days=30)  # the relay is down for a month
        s.add(late)
    mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
    sent = {path.read_bytes() for path in (tmp_path / "out" / "new").iterdir()}
    with session_scope(engine) as s:
        rows = list(s.exec(select(Outbox).where(Outbox.status == "sent")))
        assert rows and all(r.keep_until == T0 + timedelta(days=10) for r in rows)
        for r in rows:
            assert r.raw in sent and r.digest == hashlib.sha256(r.raw).hexdigest()
            # What was sent to whom stays: the columns, and the record headers they lack;
            # the reply token and the MIME structure do not.
            msg = email.message_from_string(r.headers + "\n\n", policy=default)
            sent_as = email.message_from_bytes(r.raw, policy=default)
            assert msg["From"] == sent_as["From"] and msg["Date"] == sent_as["Date"]
            assert sent_as["Message-ID"] == r.message_id and sent_as["Subject"] == r.subject
            assert sent_as["To"] == r.recipient
            assert "Reply-To" not in msg and "Content-Type" not in msg
    lines = tick(engine, spool=tmp_path / "spool", now=T0 + timedelta(days=11),
                 settings=settings)
    assert lines == []
    with session_scope(engine) as s:
        rows = list(s.exec(select(Outbox)))
        gone = [r for r in rows if r.status == "sent"]
        assert gone and all(r.raw == b"" and r.digest and r.headers for r in gone)
        queued = [r for r in rows if r.status == "queued"]
        assert [q.raw.count(b"still queued") for q in queued] == [1]  # never sent: kept


def test_by_default_bodies_go_when_the_finished_game_is_exported(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pbem.archive.export import export_game

    settings = settings_for(tmp_path)
    with session_scope(engine) as s:
        game = create_game(s, ruleset_id="highcard", name="x", seed="x", now=T0,
                           seats={"north": "n@x.org", "south": "s@x.org"}).game
        mailflow.queue_reports(s, settings, game, now=T0)
    mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
    with session_scope(engine) as s:
        export_game(s, "x", tmp_path / "mid")
        assert retention.archive_exported(s, find_game(s, "x")) == 0  # still running
    play_to_the_end(engine, "x")
    with session_scope(engine) as s:
        export_game(s, "x", tmp_path / "final")
        assert retention.archive_exported(s, find_game(s, "x")) == 2
    with session_scope(engine) as s:
        assert all(r.raw == b"" and r.keep_until is None for r in s.exec(select(Outbox)))
        assert s.exec(select(Game)).one().status == "finished"


def test_a_received_mail_keeps_its_record_headers_once_the_archive_is_exported(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Its body goes with the archive export (the order file is the submission and the
    archive); sender, subject, date, Message-ID, size and SHA-256 stay."""
    from email.message import EmailMessage

    from pbem.archive.export import export_game
    from pbem.store.models import InboundMessage

    settings = settings_for(tmp_path)
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="highcard", name="x", seed="x", now=T0,
                          seats={"north": "n@x.org", "south": "s@x.org"})
        hand = json.loads(live_step(s, new.game).state_json)["hands"]["north"]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "n@x.org", "orders@pbem.test", "my orders"
    msg["Message-ID"] = "<north-1@x.org>"
    msg.set_content(f"GAME x\nSEAT north\nPASSWORD {new.passwords['north']}\nPLAY {hand[0]}\n")
    got = mailflow.receive(lambda: session_scope(engine), msg.as_bytes(), source="pipe",
                           settings=settings, now=T0)
    assert got.status == "applied", got.reason
    play_to_the_end(engine, "x")
    with session_scope(engine) as s:
        before = s.exec(select(InboundMessage)).one()
        size, sha, raw = before.size, before.sha256, before.raw
        echoes = [sub.echo for sub in s.exec(select(Submission))]
    assert b"PLAY" in raw  # kept while the game runs
    assert echoes and all(echoes)
    with session_scope(engine) as s:
        export_game(s, "x", tmp_path / "final")
        retention.archive_exported(s, find_game(s, "x"))
    with session_scope(engine) as s:
        row = s.exec(select(InboundMessage)).one()
        kept = email.message_from_bytes(row.raw + b"\n\n", policy=default)
        assert (row.size, row.sha256) == (size, sha)
        assert kept["Subject"] == "my orders" and kept["To"] == "orders@pbem.test"
        # the sender and Message-ID are columns already; the echo was the echo mail's text
        assert (row.sender, row.message_id) == ("n@x.org", "<north-1@x.org>")
        assert b"north-1@" not in row.raw and b"n@x.org" not in row.raw
        assert b"PLAY" not in row.raw and b"Content-Type" not in row.raw
        assert [sub.echo for sub in s.exec(select(Submission))] == [""] * len(echoes)
        assert all(sub.body for sub in s.exec(select(Submission)))


def test_a_received_record_keeps_what_its_columns_do_not_hold() -> None:
    raw = (b"From: n@x.org\r\nMessage-ID: <a@x.org>\r\nSubject: hi\r\nX-Other: 1\r\n\r\nbody")
    assert retention.received_record(raw, message_id="<a@x.org>", sender="n@x.org") == \
        "Subject: hi"
    assert retention.received_record(raw, message_id="<b@x.org>", sender="m@x.org") == \
        "From: n@x.org\nMessage-ID: <a@x.org>\nSubject: hi"
    named = b"From: Anna <n@x.org>\r\nMessage-ID: <a@x.org>\r\n <b@x.org>\r\n\r\nbody"
    assert retention.received_record(named, message_id="<a@x.org>", sender="n@x.org") == \
        "From: Anna <n@x.org>\nMessage-ID: <a@x.org>\n <b@x.org>"


def test_a_digest_reads_only_its_own_mail_however_long_the_game(engine) -> None:  # type: ignore[no-untyped-def]
    """The held reports of a seat and a recipient's latest report are found through an
    index that leads to them (not by scanning the game's or the recipient's history)."""
    from pbem.service import delivery
    from pbem.store.models import Seat

    with session_scope(engine) as s:
        game = create_game(s, ruleset_id="highcard", name="x", seed="x", now=T0,
                           seats={"north": "n@x.org", "south": "s@x.org"}).game
        row = s.exec(select(Seat).where(Seat.seat == "north")).one()
        captured: list[str] = []

        def capture(conn, cursor, statement, params, context, many) -> None:  # type: ignore[no-untyped-def]
            if "FROM outbox" in statement:
                captured.append(cursor.connection.execute(f"EXPLAIN QUERY PLAN {statement}",
                                                          tuple(params)).fetchall())
        event.listen(engine, "before_cursor_execute", capture)
        try:
            held = delivery._held(s, game, row)
            delivery._digest_due(s, game, row, held, T0)
        finally:
            event.remove(engine, "before_cursor_execute", capture)
    plans = [" ".join(str(step[-1]) for step in plan) for plan in captured]
    assert len(plans) == 2, plans
    assert "ix_outbox_game_id_status (game_id=? AND status=?)" in plans[0], plans[0]
    assert "ix_outbox_recipient_created_at (recipient=?)" in plans[1], plans[1]
    assert "TEMP B-TREE" not in plans[1]  # newest first from the index, no sort
