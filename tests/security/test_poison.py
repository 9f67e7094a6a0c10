"""Finding (critical): one unauthenticated mail stopped the whole host for good. Now every
stored mail, spooled file and game fails on its own, and the tick always reaches step
processing and the outbox."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import brittle_game  # noqa: F401 - registers the "brittle" test game
from attack import mail, order_text
from clock import T0
from sqlmodel import select

from pbem.service.games import create_game, find_game, live_step
from pbem.store.models import InboundMessage, Outbox


def old_style_token(game_id: str, seat: str = "north", step: int = 1) -> str:
    """The pre-hardening token shape: MAC (5 bytes) + "game\\0seat\\0step" in clear."""
    payload = b"\0" * 5 + f"{game_id}\0{seat}\0{step}".encode()
    return base64.b32encode(payload).decode().rstrip("=").lower()


def play_step_one(host) -> None:  # type: ignore[no-untyped-def]
    for seat, sender in (("north", "ann@example.org"), ("south", "bob@example.org")):
        card = host.hand(seat)[0]
        r = host.receive(mail(sender, order_text(host, seat, f"PLAY {card}\n")))
        assert r.status == "applied", r.reason


def test_a_token_with_a_huge_or_odd_game_id_is_refused_and_the_host_goes_on(host) -> None:  # type: ignore[no-untyped-def]
    for game_id in (str(2**70), "1²", "٣", "-1", "0" * 40):
        token = old_style_token(game_id)
        r = host.receive(mail("mallory@evil.example", "PLAY 1\n", to=f"orders+{token}@pbem.test"))
        assert r.status in ("refused", "ignored"), r
    play_step_one(host)
    lines = host.tick()
    assert "g1: step 1 processed (all orders in)" in lines
    assert any(line.startswith("outbox: ") and " 0 sent" not in line for line in lines)
    assert host.game().step == 2


def test_a_mail_that_breaks_the_service_is_quarantined_and_the_host_goes_on(make_host, engine) -> None:  # type: ignore[no-untyped-def]
    host = make_host()
    from pbem.store.db import session_scope

    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id="brittle", name="b1", seed="b",
                         seats={"north": "ann@example.org", "south": "bob@example.org"},
                         now=T0).passwords
    boom = mail("ann@example.org", f"GAME b1\nSEAT north\nPASSWORD {pw['north']}\nBOOM\n")
    r = host.receive(boom)
    assert r.status == "retry"  # stored, not applied, no exception
    play_step_one(host)
    assert "g1: step 1 processed (all orders in)" in host.tick(T0)
    host.tick(T0 + timedelta(minutes=1))
    with host.sessions() as s:
        row = s.exec(select(InboundMessage).where(
            InboundMessage.message_id == r.message_id)).one()
        assert row.status == "quarantined" and row.attempts == 3
        assert "the parser broke" in (row.reason or "")
    gm = [o for o in host.outbox(recipient="gm@pbem.test") if "quarantined" in o.subject]
    assert len(gm) == 1
    assert [o for o in host.outbox(recipient="ann@example.org", kind="echo")
            if b"could not be processed" in o.raw]
    host.tick(T0 + timedelta(minutes=2))  # a quarantined mail is not tried again
    with host.sessions() as s:
        assert s.exec(select(InboundMessage).where(
            InboundMessage.message_id == r.message_id)).one().attempts == 3


def test_a_game_whose_step_breaks_does_not_hold_up_the_others(make_host, engine) -> None:  # type: ignore[no-untyped-def]
    host = make_host()
    from pbem.store.db import session_scope

    with session_scope(engine) as s:
        create_game(s, ruleset_id="brittle", name="b1", seed="b", deadline_hours=1,
                    seats={"north": "ann@example.org", "south": "bob@example.org"}, now=T0,
                    settings={"hold": False, "extensions": 0})
        game = find_game(s, "b1")
        step = live_step(s, game)
        state = json.loads(step.state_json)
        state["crash"] = True
        from pbem.core.engine import canonical_json, digest

        step.state_json = canonical_json(state)
        step.state_digest = digest(step.state_json)
        s.add(step)
    play_step_one(host)
    lines = host.tick(T0 + timedelta(hours=2))
    assert "g1: step 1 processed (all orders in)" in lines
    assert any(line.startswith("b1: internal error: RuntimeError") for line in lines)
    assert any(line.startswith("outbox: ") for line in lines)
    assert [o for o in host.outbox(recipient="gm@pbem.test") if "could not be processed" in o.subject]


def test_stored_mail_from_before_a_crash_is_applied_by_the_next_tick(host) -> None:  # type: ignore[no-untyped-def]
    card = host.hand("north")[0]
    raw = mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n"),
               message_id="<stored@example.org>").as_bytes()
    with host.sessions() as s:  # stored raw, never applied (the process died in between)
        s.add(InboundMessage(message_id="<stored@example.org>", received_at=T0, source="pipe",
                             raw=raw, sender="ann@example.org", kind="orders"))
    assert "mail <stored@example.org>: applied orders accepted" in host.tick()
    assert [o for o in host.outbox(recipient="ann@example.org", kind="echo")]
    assert not [o for o in host.outbox() if o.status == "queued"]
    assert Outbox  # the outbox was sent in the same tick
