"""Services against a real SQLite file: games, order files, processing, GM tools."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from clock import T0
from playing import play_to_the_end
from sqlmodel import select

from pbem.archive.verify import verify_game
from pbem.core.envelope import render_envelope
from pbem.service import gm
from pbem.service.games import ServiceError, create_game, find_game, live_step
from pbem.service.orders import check_orders, orders_on_file, submit_orders
from pbem.service.summary import summary
from pbem.service.turns import preview_turn, process_turn, ready
from pbem.store.db import session_scope
from pbem.store.models import Audit, Seat, Step


def new_game(session, name="g1", seats=("north", "south"), **kw):  # type: ignore[no-untyped-def]
    return create_game(session, ruleset_id="highcard", name=name,
                       seats={s: f"{s}@example.org" for s in seats}, seed="fixed",
                       deadline_hours=48, now=T0, **kw)


def hand(session, game="g1", seat="north") -> list[int]:  # type: ignore[no-untyped-def]
    g = find_game(session, game)
    return json.loads(live_step(session, g).state_json)["hands"][seat]


def order(game: str, seat: str, pw: str | None, body: str, turn: int | None = None) -> str:
    return render_envelope(game=game, seat=seat, password=pw, turn=turn, body=body)


def test_create_stores_only_password_hashes_and_opens_step_one(session) -> None:  # type: ignore[no-untyped-def]
    new = new_game(session)
    rows = list(session.exec(select(Seat)))
    assert {r.seat for r in rows} == {"north", "south"}
    for r in rows:
        assert new.passwords[r.seat] not in r.password_hash
        assert r.password_hash.startswith("scrypt$")
    data = summary(session, new.game)
    assert data["step"] == 1 and data["awaited"] == ["north", "south"]
    assert data["deadline"] == (T0 + timedelta(hours=48)).isoformat()
    with pytest.raises(ServiceError, match="exists already"):
        new_game(session)
    with pytest.raises(ServiceError, match="unknown seat 'west'"):
        new_game(session, name="g2", seats=("north", "west"))
    with pytest.raises(ServiceError, match="did you mean"):
        find_game(session, "g")


def test_same_seed_same_game(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        new_game(s, "a")
        new_game(s, "b")
        assert live_step(s, find_game(s, "a")).state_json == live_step(s, find_game(s, "b")).state_json


def test_submit_echo_latest_wins_stale_turn_and_wrong_password(session) -> None:  # type: ignore[no-untyped-def]
    pw = new_game(session).passwords
    h = hand(session)
    r = submit_orders(session, order("g1", "north", pw["north"], f"PLAY {h[0]}\nPLAY 99\n"), now=T0)
    assert r.accepted and "1 line(s) are refused" in r.reason
    assert any("OK" in line for line in r.lines) and any("you hold no 99" in line for line in r.lines)
    assert pw["north"] not in r.text()
    r2 = submit_orders(session, order("g1", "north", pw["north"], f"PLAY {h[1]}\n"), now=T0)
    assert r2.accepted
    step = live_step(session, find_game(session, "g1"))
    assert orders_on_file(session, step)["north"].body.strip() == f"PLAY {h[1]}"
    stale = submit_orders(session, order("g1", "north", pw["north"], "PLAY 1\n", turn=7), now=T0)
    assert not stale.accepted and "TURN 7 is not the open step" in stale.reason
    bad = submit_orders(session, order("g1", "north", "nope", "PLAY 1\n"), now=T0)
    assert not bad.accepted and bad.notify == "north@example.org"
    assert "nope" not in bad.text()
    unknown = submit_orders(session, order("g9", "north", "x", ""), now=T0)
    assert not unknown.accepted and 'no game named "g9"' in unknown.reason
    seat = submit_orders(session, order("g1", "west", "x", ""), now=T0)
    assert 'no seat "west"' in seat.reason


def test_status_clear_and_wait(session) -> None:  # type: ignore[no-untyped-def]
    pw = new_game(session).passwords
    h = hand(session)
    submit_orders(session, order("g1", "north", pw["north"], f"PLAY {h[0]}\n"), now=T0)
    status = submit_orders(session, order("g1", "north", pw["north"], "STATUS\n"), now=T0)
    assert status.accepted and any(f"PLAY {h[0]}" in x for x in status.lines)
    wait = submit_orders(session, order("g1", "north", pw["north"], "WAIT\n"), now=T0)
    assert "WAIT noted" in wait.reason
    game = find_game(session, "g1")
    h2 = hand(session, seat="south")
    submit_orders(session, order("g1", "south", pw["south"], f"PLAY {h2[0]}\n"), now=T0)
    assert ready(session, game, now=T0) is None  # all in, but north said WAIT
    assert ready(session, game, now=T0 + timedelta(hours=49)) == "deadline"
    cleared = submit_orders(session, order("g1", "north", pw["north"], "CLEAR\n"), now=T0)
    assert cleared.reason == "orders withdrawn"
    assert "north" not in orders_on_file(session, live_step(session, game))


def test_process_requires_orders_or_force_and_step_is_not_processed_twice(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        pw = new_game(s).passwords
        submit_orders(s, order("g1", "north", pw["north"], f"PLAY {hand(s)[0]}\n"), now=T0)
    with session_scope(engine) as s, pytest.raises(ServiceError, match="awaits orders from south"):
        process_turn(s, "g1", now=T0)
    with session_scope(engine) as s:
        preview = preview_turn(s, "g1")
        assert preview.defaulted == ["south"]
    with session_scope(engine) as s:
        assert live_step(s, find_game(s, "g1")).closed_at is None  # preview stored nothing
        done = process_turn(s, "g1", now=T0, force=True)
        assert done.step == 1 and done.next_step == 2
        assert done.outcome.state_json == preview.state_json  # preview was exact
    with session_scope(engine) as s:
        steps = list(s.exec(select(Step).where(Step.number == 1)))
        assert len(steps) == 1 and steps[0].closed_at is not None
        assert find_game(s, "g1").step == 2


def test_whole_game_verifies_and_reveals_seeds_at_the_end(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        new_game(s)
    with session_scope(engine) as s:
        g = find_game(s, "g1")
        assert not any(st.seed_revealed for st in s.exec(select(Step)))  # hands are hidden
    play_to_the_end(engine, "g1")
    with session_scope(engine) as s:
        g = find_game(s, "g1")
        assert g.status == "finished"
        assert all(st.seed_revealed for st in s.exec(select(Step)))
        assert verify_game(s, "g1").ok
        assert summary(s, g)["result"]["winners"]


def test_verify_names_the_first_difference(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        new_game(s)
    play_to_the_end(engine, "g1")
    with session_scope(engine) as s:
        step = next(st for st in s.exec(select(Step).order_by(Step.number))
                    if st.number > 1 and json.loads(st.rolls_json or "[]"))
        n = step.number
        rolls = json.loads(step.rolls_json)
        rolls[0]["value"] = (rolls[0]["value"] + 1) % 3
        step.rolls_json = json.dumps(rolls)
        s.add(step)
    with session_scope(engine) as s:
        v = verify_game(s, "g1")
        assert not v.ok and v.problem.startswith(f"step {n}: roll 1") and v.steps_checked == n


def test_pause_resume_extend_replace_announce_are_audited(session) -> None:  # type: ignore[no-untyped-def]
    pw = new_game(session).passwords
    gm.pause(session, "g1", now=T0 + timedelta(hours=10), reason="holiday")
    r = submit_orders(session, order("g1", "north", pw["north"], "PLAY 1\n"), now=T0)
    assert not r.accepted and "paused" in r.reason
    g = gm.resume(session, "g1", now=T0 + timedelta(hours=100))
    assert g.deadline == T0 + timedelta(hours=138)  # the 38 hours left are kept
    ext = gm.extend(session, "g1", hours=24, now=T0 + timedelta(hours=100))
    assert ext.after == T0 + timedelta(hours=162)
    new_pw = gm.replace_seat(session, "g1", "south", "new@example.org", now=T0)
    old = submit_orders(session, order("g1", "south", pw["south"], "STATUS\n"), now=T0)
    assert not old.accepted
    assert submit_orders(session, order("g1", "south", new_pw, "STATUS\n"), now=T0).accepted
    history = list(session.exec(select(Seat).where(Seat.seat == "south")))
    assert [(h.email, h.active) for h in history] == [("south@example.org", False),
                                                       ("new@example.org", True)]
    gm.announce(session, "g1", "Deadlines move to Sundays", now=T0)
    actions = [a.action for a in session.exec(select(Audit).order_by(Audit.id))]
    for action in ("create", "pause", "resume", "extend", "replace-seat", "announce"):
        assert action in actions


def test_rollback_reopens_keeps_history_and_reprocesses_identically(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        new_game(s)
    now = T0
    for _ in range(3):
        with session_scope(engine) as s:
            now += timedelta(hours=1)
            process_turn(s, "g1", now=now, force=True)
    with session_scope(engine) as s:
        before = live_step(s, find_game(s, "g1"), 3).state_json
        rb = gm.rollback(s, "g1", 2, now=now, reprocess=True)
        assert rb.changes and all(v == ["nothing you can see changed"] for v in rb.changes.values())
    with session_scope(engine) as s:
        g = find_game(s, "g1")
        assert g.step == 3 and g.generation == 1
        assert live_step(s, g, 3).state_json == before
        assert len(list(s.exec(select(Step).where(Step.live == False)))) == 3  # noqa: E712
        assert verify_game(s, "g1").ok


def test_check_orders_stores_nothing(session) -> None:  # type: ignore[no-untyped-def]
    pw = new_game(session).passwords
    r = check_orders(session, order("g1", "north", pw["north"], "PLAY 99\nDANCE\n"), now=T0)
    # Judged as submitting would judge it: no usable line, so it would not go on file.
    assert not r.accepted and "ERROR" in r.lines[0] and "expected PLAY" in r.lines[1]
    assert not orders_on_file(session, live_step(session, find_game(session, "g1")))


def test_a_seat_not_awaited_may_send_standing_orders_when_the_ruleset_accepts_them(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        pw = new_game(s).passwords
        for seat in ("north", "south"):
            submit_orders(s, order("g1", seat, pw[seat], f"PLAY {hand(s, seat=seat)[0]}\n"), now=T0)
        process_turn(s, "g1", now=T0)
    with session_scope(engine) as s:  # step 2 awaits north only
        r = submit_orders(s, order("g1", "south", pw["south"], "PREFER LOW\nPLAY 99\n"), now=T0)
        assert r.accepted and "not awaited in step 2" in r.reason
        game = find_game(s, "g1")
        assert ready(s, game, now=T0) is None  # south's file does not stand in for north's
        done = process_turn(s, "g1", now=T0, force=True)
        assert "south" in done.outcome.applied and done.outcome.defaulted == ["north"]
        assert done.outcome.state["prefer"]["south"] is False
        assert "south" not in done.outcome.state["played"]  # standing orders only
    with session_scope(engine) as s:
        assert verify_game(s, "g1").ok
