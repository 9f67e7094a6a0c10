"""send_smtp against a real aiosmtpd relay, the relay-outage test, and the SmtpListener."""

from __future__ import annotations

import smtplib
import threading
from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default

import pytest

from pbem.mail.inbound import read_message
from pbem.mail.listener import free_port
from pbem.mail.outbound import Attachment, Thread, compose
from pbem.mail.transport import (
    PermanentMailError,
    SmtpListener,
    TransientMailError,
    send_smtp,
)


def _report(n: int = 1, to: str = "Béla <bela@example.org>"):
    return compose(
        sender="PBEM <orders@pbem.test>", to=to, subject=f"Gömör 1848, step {n}",
        text=f"Your report, step {n}.\nGAME gomor\n", html=f"<p>Your report, step {n}.</p>",
        attachments=[Attachment(b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                                "image/svg+xml", "board.svg"),
                     (b'{"step": %d}' % n, "application/json", "view.json")],
        reply_to="orders+abcdefghijklmnop@pbem.test", message_id_domain="pbem.test",
        thread=Thread("<root@pbem.test>"), list_id="gomor.pbem.test",
        message_id=f"<report-{n}@pbem.test>", date=datetime(2026, 3, 1, 12, tzinfo=UTC))


def test_compose_send_receive_intact(smtp_sink):
    msg = _report()
    send_smtp(smtp_sink.url, msg)
    assert len(smtp_sink.received) == 1
    got = smtp_sink.received[0]
    assert got.mail_from == "orders@pbem.test"
    assert got.rcpt_tos == ["bela@example.org"]
    parsed = message_from_bytes(got.data, policy=default)
    assert parsed["Subject"] == "Gömör 1848, step 1"
    assert parsed["Message-ID"] == "<report-1@pbem.test>"
    assert parsed["In-Reply-To"] == "<root@pbem.test>"
    assert parsed["References"] == "<root@pbem.test>"
    assert parsed["List-Id"] == "<gomor.pbem.test>"
    assert parsed["Auto-Submitted"] == "auto-generated"
    assert parsed["Reply-To"] == "orders+abcdefghijklmnop@pbem.test"
    plain = parsed.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert plain == "Your report, step 1.\nGAME gomor\n"
    assert "step 1" in parsed.get_body(("html",)).get_content()
    names = {p.get_filename(): p.get_content() for p in parsed.iter_attachments()}
    assert names["view.json"] == b'{"step": 1}'
    assert b"svg" in names["board.svg"] or "svg" in str(names["board.svg"])
    # what we send, we can read back: our own report is not an order mail to answer
    mail = read_message(got.data)
    assert mail.message_id == "<report-1@pbem.test>"
    assert mail.kind == "autoreply"


def test_send_bytes(smtp_sink):
    send_smtp(smtp_sink.url, _report(2).as_bytes())
    assert smtp_sink.received[0].rcpt_tos == ["bela@example.org"]


def test_relay_outage_then_recovery(smtp_sink):
    """The relay is down while mail is queued: transient errors; back up: each sent once."""
    queue = [_report(n, to=f"p{n}@example.org") for n in range(5)]
    smtp_sink.stop()
    pending = []
    for msg in queue:
        with pytest.raises(TransientMailError):
            send_smtp(smtp_sink.url, msg, timeout=5)
        pending.append(msg)
    smtp_sink.start()
    while pending:
        send_smtp(smtp_sink.url, pending.pop(0))
    ids = [message_from_bytes(r.data)["Message-ID"] for r in smtp_sink.received]
    assert sorted(ids) == sorted(f"<report-{n}@pbem.test>" for n in range(5))


def test_4xx_is_transient_5xx_is_permanent(smtp_sink):
    smtp_sink.handler.refuse_with = "451 4.3.0 greylisted, try later"
    with pytest.raises(TransientMailError) as err:
        send_smtp(smtp_sink.url, _report())
    assert err.value.code == 451
    smtp_sink.handler.refuse_with = "550 5.1.1 no such user"
    with pytest.raises(PermanentMailError) as err:
        send_smtp(smtp_sink.url, _report())
    assert err.value.code == 550
    assert smtp_sink.received == []


def test_bad_url():
    with pytest.raises(ValueError):
        send_smtp("http://example.org", _report())


def test_listener_hands_over_bytes_after_storing():
    stored: list[bytes] = []
    raw = (b"From: bela@example.org\r\nTo: orders+abcdefghijklmnop@pbem.test\r\n"
           b"Subject: orders\r\nMessage-ID: <l1@example.org>\r\n\r\nGAME gomor\r\n"
           b"SEAT hungary\r\nEND\r\n")
    with SmtpListener("127.0.0.1", 0, stored.append, max_bytes=10_000) as listener:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            refused = client.sendmail("bela@example.org",
                                      ["orders+abcdefghijklmnop@pbem.test"], raw)
    assert refused == {}
    assert len(stored) == 1
    assert stored[0].endswith(raw)
    assert stored[0].startswith(b"Return-Path: <bela@example.org>\r\n")
    mail = read_message(stored[0])
    assert mail.kind == "orders" and mail.token == "abcdefghijklmnop"


def test_listener_bounce_envelope_is_visible():
    stored: list[bytes] = []
    raw = b"From: someone@example.org\r\nSubject: hello\r\n\r\nhi\r\n"
    with SmtpListener("127.0.0.1", 0, stored.append) as listener:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            client.sendmail("<>", ["orders@pbem.test"], raw)
    assert read_message(stored[0]).kind == "autoreply"


def test_listener_refuses_oversize():
    stored: list[bytes] = []
    big = b"From: a@example.org\r\nSubject: big\r\n\r\n" + (b"x" * 76 + b"\r\n") * 2000
    with SmtpListener("127.0.0.1", 0, stored.append, max_bytes=50_000) as listener:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPException) as err:
                client.sendmail("a@example.org", ["orders@pbem.test"], big)
    code = getattr(err.value, "smtp_code", None)
    assert code == 552 or "552" in str(err.value)
    assert stored == []


def test_listener_answers_452_when_storing_fails():
    calls: list[bytes] = []
    lock = threading.Lock()

    def flaky(raw: bytes) -> None:
        with lock:
            calls.append(raw)
            if len(calls) == 1:
                raise OSError("disk full")

    raw = b"From: a@example.org\r\nSubject: x\r\n\r\nGAME g\r\n"
    with SmtpListener("127.0.0.1", 0, flaky) as listener:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPDataError) as err:
                client.sendmail("a@example.org", ["orders@pbem.test"], raw)
            assert err.value.smtp_code == 452
            client.rset()
            assert client.sendmail("a@example.org", ["orders@pbem.test"], raw) == {}
    assert len(calls) == 2


def test_listener_port_zero_picks_a_free_port():
    listener = SmtpListener("127.0.0.1", 0, lambda raw: None)
    assert listener.port > 0
    listener.start()
    listener.stop()
    assert free_port() > 0


def test_envelope_from_is_used(smtp_sink):
    send_smtp(smtp_sink.url, _report(), envelope_from="bounces@pbem.test")
    assert smtp_sink.received[0].mail_from == "bounces@pbem.test"


def test_listener_accept_filter():
    stored: list[bytes] = []
    raw = b"From: a@example.org\r\nSubject: x\r\n\r\nGAME g\r\n"
    ours = lambda rcpt: rcpt.split("+")[0].split("@")[0] == "orders"  # noqa: E731
    with SmtpListener("127.0.0.1", 0, stored.append, accept=ours) as listener:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                client.sendmail("a@example.org", ["someone@pbem.test"], raw)
            assert client.sendmail("a@example.org", ["orders+tok@pbem.test"], raw) == {}
    assert len(stored) == 1


def test_bytes_are_sent_as_they_are(smtp_sink):
    raw = _report(3).as_bytes()
    send_smtp(smtp_sink.url, raw)
    got = smtp_sink.received[0]
    assert got.rcpt_tos == ["bela@example.org"] and got.mail_from == "orders@pbem.test"
    assert got.data.replace(b"\r\n", b"\n").rstrip() == raw.replace(b"\r\n", b"\n").rstrip()


def test_bytes_without_recipient_are_refused(smtp_sink):
    with pytest.raises(PermanentMailError):
        send_smtp(smtp_sink.url, b"From: orders@pbem.test\r\nSubject: x\r\n\r\nx\r\n")
