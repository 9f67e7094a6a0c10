"""Mail end to end through real servers: the built-in SMTP listener (aiosmtpd) takes
orders, an aiosmtpd relay receives what pbem sends, Dovecot serves IMAP. No mocks."""

from __future__ import annotations

import email
import json
import smtplib
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default

from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.mail.listener import SmtpListener
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import orders_on_file
from pbem.service.polling import poll
from pbem.service.tick import tick
from pbem.store.db import session_scope
from pbem.store.models import InboundMessage, Outbox, Seat, Submission


def setup(engine, sink, tmp_path, **settings_kw):  # type: ignore[no-untyped-def]
    settings = Settings(db="unused", address="orders@pbem.test", smtp=sink.url if sink else None,
                        maildir=str(tmp_path / "out"), gm="gm@pbem.test", **settings_kw)
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="highcard", name="g1",
                          seats={"north": "ann@example.org", "south": "bob@example.org"},
                          seed="mail", deadline_hours=48, now=T0)
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=T0)
        mailflow.queue_reports(s, settings, new.game, now=T0)
    return settings, new.passwords


def hand(engine, seat):  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        return json.loads(live_step(s, find_game(s, "g1")).state_json)["hands"][seat]


def order_mail(sender: str, body: str, *, to: str = "orders@pbem.test",
               message_id: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "my orders"
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg


def received(sink) -> list[EmailMessage]:  # type: ignore[no-untyped-def]
    return [email.message_from_bytes(r.data, policy=default) for r in sink.received]


def test_orders_through_the_listener_get_an_echo_through_the_relay(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, pw = setup(engine, smtp_sink, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    card = hand(engine, "north")[0]
    body = f"Hi!\nGAME g1\nSEAT north\nPASSWORD {pw['north']}\nPLAY {card}\nEND\n-- \nAnn"
    with SmtpListener("127.0.0.1", 0, lambda raw: mailflow.receive(
            sessions, raw, source="smtp", settings=settings, now=T0)) as listener:
        with smtplib.SMTP(listener.host, listener.port) as c:
            c.send_message(order_mail("Ann <ann@example.org>", body, message_id="<o1@example.org>"))
            c.send_message(order_mail("Ann <ann@example.org>", body, message_id="<o1@example.org>"))
    with session_scope(engine) as s:
        rows = list(s.exec(select(InboundMessage)))
        assert len(rows) == 1 and rows[0].status == "applied"  # the duplicate was not stored twice
        assert len(list(s.exec(select(Submission)))) == 1
    mailflow.send_outbox(sessions, settings, now=T0)
    mails = received(smtp_sink)
    kinds = {}
    for m in mails:
        kinds.setdefault(m["To"], []).append(m["Subject"])
        assert m["Auto-Submitted"] == "auto-generated"
        assert pw["north"] not in m.as_string() or "welcome" in m["Subject"]
    echo = next(m for m in mails if m["Subject"] == "Re: my orders")
    assert echo["To"] == "ann@example.org" and echo["In-Reply-To"] == "<o1@example.org>"
    assert f"PLAY {card}  -> OK" in echo.get_body(("plain",)).get_content()
    report = next(m for m in mails if m["Subject"].startswith("[g1] step 1") and m["To"] == "bob@example.org")
    assert report["Reply-To"].startswith("orders+") and report["List-Id"] == "<g1.pbem.test>"
    assert report.get_body(("html",)) is not None
    names = [p.get_filename() for p in report.iter_attachments()]
    assert names == []  # the view as JSON is opt-in (the view_json setting)


def test_wrong_password_tells_the_registered_player_not_the_sender(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, _ = setup(engine, smtp_sink, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    raw = order_mail("mallory@evil.example", "GAME g1\nSEAT north\nPASSWORD guess\nPLAY 1\n").as_bytes()
    r = mailflow.receive(sessions, raw, source="pipe", settings=settings, now=T0)
    assert r.status == "refused"
    mailflow.send_outbox(sessions, settings, now=T0)
    to = [m["To"] for m in received(smtp_sink)]
    assert "mallory@evil.example" not in to
    notice = [m for m in received(smtp_sink) if "wrong password" in m["Subject"]]
    assert len(notice) == 1 and notice[0]["To"] == "ann@example.org"
    assert "guess" not in notice[0].as_string()


def test_a_reply_to_a_report_needs_no_password(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, _ = setup(engine, smtp_sink, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    mailflow.send_outbox(sessions, settings, now=T0)
    report = next(m for m in received(smtp_sink)
                  if m["To"] == "bob@example.org" and m["Subject"].startswith("[g1] step 1"))
    card = hand(engine, "south")[0]
    reply = order_mail("bob@example.org", f"PLAY {card}\n\n> the old report\n> PLAY 1\n",
                       to=report["Reply-To"])
    r = mailflow.receive(sessions, reply.as_bytes(), source="smtp", settings=settings, now=T0)
    assert r.status == "applied", r.reason
    with session_scope(engine) as s:
        on_file = orders_on_file(s, live_step(s, find_game(s, "g1")))
        assert on_file["south"].body.strip().endswith(f"PLAY {card}")
    forged = order_mail("bob@example.org", "PLAY 1\n",
                        to=report["Reply-To"].replace("orders+", "orders+a"))
    assert mailflow.receive(sessions, forged.as_bytes(), source="smtp", settings=settings,
                            now=T0).status == "refused"


def test_autoreplies_and_bounces_are_stored_never_answered_and_bounces_counted(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, _ = setup(engine, smtp_sink, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    with session_scope(engine) as s:
        report_id = s.exec(select(Outbox.message_id).where(Outbox.kind == "report",
                                                           Outbox.seat == "south")).first()
    vacation = order_mail("bob@example.org", "I am away until Monday.")
    vacation["Auto-Submitted"] = "auto-replied"
    del vacation["Subject"]
    vacation["Subject"] = "Out of office"
    bounce = EmailMessage()
    bounce["From"] = "MAILER-DAEMON@mx.example.org"
    bounce["To"] = "orders@pbem.test"
    bounce["Subject"] = "Undelivered Mail Returned to Sender"
    bounce.set_content("This is the mail system. I'm sorry to have to inform you that your "
                       "message could not be delivered.\n<bob@example.org>: mailbox full\n")
    original = EmailMessage()
    original["Message-ID"] = report_id
    original["To"] = "bob@example.org"
    original.set_content("report")
    bounce.add_attachment(original)
    for m in (vacation, bounce):
        r = mailflow.receive(sessions, m.as_bytes(), source="smtp", settings=settings, now=T0)
        assert r.status == "ignored"
    tick(engine, spool=tmp_path / "none", now=T0, settings=settings)  # bounces: one GM notice a tick
    assert not [m for m in received(smtp_sink) if m["To"] in ("bob@example.org",)
                and m["Subject"].startswith("Re:")]
    assert not [m for m in received(smtp_sink) if "MAILER-DAEMON" in (m["To"] or "")]
    with session_scope(engine) as s:
        assert len(list(s.exec(select(InboundMessage)))) == 2
        bob = s.exec(select(Seat).where(Seat.seat == "south")).one()
        assert bob.bounces == 1
    assert any("bounced" in m["Subject"] and m["To"] == "gm@pbem.test" for m in received(smtp_sink))


def test_relay_outage_every_mail_arrives_exactly_once(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, _ = setup(engine, smtp_sink, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    with session_scope(engine) as s:
        queued = len(list(s.exec(select(Outbox))))
    smtp_sink.stop()
    r = mailflow.send_outbox(sessions, settings, now=T0)
    assert r.sent == 0 and r.retried == queued
    assert mailflow.send_outbox(sessions, settings, now=T0).retried == 0  # backing off
    smtp_sink.start()
    later = T0 + timedelta(hours=1)
    r = mailflow.send_outbox(sessions, settings, now=later)
    assert r.sent == queued
    assert mailflow.send_outbox(sessions, settings, now=later + timedelta(hours=9)).sent == 0
    ids = [m["Message-ID"] for m in received(smtp_sink)]
    assert len(ids) == queued == len(set(ids))


def test_imap_polling_against_dovecot(engine, dovecot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, pw = setup(engine, None, tmp_path, imap=dovecot.url())
    card = hand(engine, "north")[0]
    client = dovecot.client()
    client.append("INBOX", order_mail("ann@example.org",
                                      f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nPLAY {card}\n",
                                      message_id="<imap-1@example.org>").as_bytes())
    client.logout()
    lines = poll(engine, settings=settings, now=T0)
    assert any("<imap-1@example.org>: applied" in line for line in lines), lines
    assert not any("imap-1" in line for line in poll(engine, settings=settings, now=T0))
    with session_scope(engine) as s:
        assert "north" in orders_on_file(s, live_step(s, find_game(s, "g1")))


def test_tick_processes_early_and_mails_reports_to_the_maildir(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, pw = setup(engine, None, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    for seat, addr in (("north", "ann@example.org"), ("south", "bob@example.org")):
        card = hand(engine, seat)[0]
        raw = order_mail(addr, f"GAME g1\nSEAT {seat}\nPASSWORD {pw[seat]}\nPLAY {card}\n").as_bytes()
        mailflow.receive(sessions, raw, source="pipe", settings=settings, now=T0)
    lines = tick(engine, spool=tmp_path / "spool", now=T0, settings=settings)
    assert "g1: step 1 processed (all orders in)" in lines
    subjects = [email.message_from_bytes(p.read_bytes(), policy=default)["Subject"]
                for p in (tmp_path / "out" / "new").iterdir()]
    assert sum(s.startswith("[g1] step 2") for s in subjects) == 2


def test_deadline_ladder_extension_then_defaults_and_holding(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, pw = setup(engine, None, tmp_path)
    sessions = lambda: session_scope(engine)  # noqa: E731
    # Nobody sends anything: most seats missed -> held, GM told.
    late = T0 + timedelta(hours=49)
    assert "g1: step 1 held (most seats missed the deadline)" in tick(
        engine, spool=tmp_path, now=late, settings=settings)
    with session_scope(engine) as s:
        assert find_game(s, "g1").status == "paused"
    from pbem.service import gm
    with session_scope(engine) as s:
        gm.resume(s, "g1", now=late)
    card = hand(engine, "north")[0]
    mailflow.receive(sessions, order_mail("ann@example.org", f"GAME g1\nSEAT north\nPASSWORD "
                                          f"{pw['north']}\nPLAY {card}\n").as_bytes(),
                     source="pipe", settings=settings, now=late)
    later = late + timedelta(hours=2)
    out = tick(engine, spool=tmp_path, now=later, settings=settings)
    assert "g1: south missed step 1; deadline extended by 24h" in out
    out = tick(engine, spool=tmp_path, now=later + timedelta(hours=25), settings=settings)
    assert "g1: step 1 processed (deadline)" in out
    with session_scope(engine) as s:
        step1 = live_step(s, find_game(s, "g1"), 1)
        assert json.loads(step1.defaulted_json) == ["south"]


def test_a_sent_welcome_mail_leaves_no_password_in_the_database(engine, smtp_sink, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings, pw = setup(engine, smtp_sink, tmp_path)
    with session_scope(engine) as s:
        welcome = list(s.exec(select(Outbox).where(Outbox.kind == "welcome")))
        assert any(pw["north"].encode() in w.raw for w in welcome)  # queued: still needed
    mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
    assert any(pw["north"] in m.get_body(("plain",)).get_content() for m in received(smtp_sink)
               if m["To"] == "ann@example.org" and "welcome" in m["Subject"])
    with session_scope(engine) as s:
        for row in s.exec(select(Outbox)):
            assert pw["north"].encode() not in row.raw and pw["south"].encode() not in row.raw
