"""read_message and should_reply on small, readable cases (the corpus covers the zoo)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from pbem.core.envelope import parse_envelope
from pbem.mail.htmltext import html_to_text
from pbem.mail.inbound import read_message, should_reply
from pbem.mail.mimetext import decode_text
from pbem.mail.replytext import clean_reply_text

ORDERS = "GAME gomor-1848\nSEAT hungary\nPASSWORD hunter2\nmove Kassa Gömör\nEND\n"


def mail(headers: str, body: str | bytes) -> bytes:
    if isinstance(body, str):
        body = body.encode("utf-8")
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body


def test_plain_orders_and_headers():
    raw = mail("From: =?utf-8?q?B=C3=A9la?= <Bela@Example.ORG>\nTo: PBEM <orders@pbem.test>\n"
               "Cc: other@example.org\nSubject: =?utf-8?q?G=C3=B6m=C3=B6r?=\n"
               "Message-ID: <m1@example.org>\nIn-Reply-To: <r4@pbem.test>\n"
               "References: <root@pbem.test>\n <r4@pbem.test>\n"
               "Date: Sun, 01 Mar 2026 12:00:00 +0100\n", ORDERS)
    m = read_message(raw)
    assert m.kind == "orders" and m.reason == ""
    assert m.sender == "Bela@example.org"
    assert m.to == ("orders@pbem.test", "other@example.org")
    assert m.subject == "Gömör"
    assert m.message_id == "<m1@example.org>" and not m.message_id_synthesised
    assert m.in_reply_to == "<r4@pbem.test>"
    assert m.references == ("<root@pbem.test>", "<r4@pbem.test>")
    assert m.date == datetime(2026, 3, 1, 11, tzinfo=UTC)
    env = parse_envelope(m.order_texts[0])
    assert (env.game, env.seat, env.password) == ("gomor-1848", "hungary", "hunter2")
    assert "move Kassa Gömör" in env.body
    assert should_reply(m)
    assert m.size == len(raw) and len(m.sha256) == 64


def test_html_only_is_converted():
    raw = mail("From: a@example.org\nContent-Type: text/html; charset=utf-8\n",
               "<div>GAME g</div><div>SEAT s</div><div>hold&nbsp;Pest</div>")
    env = parse_envelope(read_message(raw).order_texts[0])
    assert (env.game, env.seat) == ("g", "s")
    assert "hold Pest" in env.body


def test_text_preferred_over_html_and_attachments_follow():
    raw = mail('From: a@example.org\nContent-Type: multipart/mixed; boundary="m"\n',
               '--m\nContent-Type: multipart/alternative; boundary="a"\n\n'
               '--a\nContent-Type: text/plain\n\nGAME plain\n--a\n'
               'Content-Type: text/html\n\n<p>GAME html</p>\n--a--\n'
               '--m\nContent-Type: text/plain; name="o.txt"\n'
               'Content-Disposition: attachment; filename="o.txt"\n\nGAME attached\n--m--\n')
    texts = read_message(raw).order_texts
    assert [parse_envelope(t).game for t in texts] == ["plain", "attached"]


def test_oversize_refused_with_reason_but_headers_read():
    raw = mail("From: a@example.org\nMessage-ID: <big@example.org>\nSubject: big\n",
               "x" * 3000)
    m = read_message(raw, max_bytes=1000)
    assert m.kind == "oversize" and "limit" in m.reason
    assert m.message_id == "<big@example.org>" and m.sender == "a@example.org"
    assert m.order_texts == ()
    assert should_reply(m)


def test_oversize_bounce_is_still_a_bounce():
    raw = mail("From: MAILER-DAEMON@mx.example.org\nSubject: Undelivered Mail Returned to "
               "Sender\nX-Failed-Recipients: gone@example.org\n", "x" * 3000)
    m = read_message(raw, max_bytes=1000)
    assert m.kind == "bounce" and m.bounced_recipient == "gone@example.org"
    assert not should_reply(m)


def test_should_reply_never_to_ourselves_or_daemons():
    ours = read_message(mail("From: PBEM <orders+abc@pbem.test>\n", ORDERS))
    assert ours.kind == "orders"
    assert not should_reply(ours, own_addresses=["PBEM <orders@pbem.test>"])
    assert should_reply(ours)
    daemon = read_message(mail("From: postmaster@example.org\n", ORDERS))
    assert not should_reply(daemon)
    nobody = read_message(mail("Subject: no sender\n", ORDERS))
    assert nobody.kind == "malformed" and not should_reply(nobody)


def test_decode_text_prefers_utf8_then_declared_then_cp1252():
    assert decode_text("Gömör".encode(), "iso-8859-1") == "Gömör"
    assert decode_text("Kőszeg".encode("iso-8859-2"), "iso-8859-2") == "Kőszeg"
    assert decode_text("Kőszeg".encode("cp1250"), "windows-1250") == "Kőszeg"
    assert decode_text("Gömör".encode("latin-1"), None) == "Gömör"
    assert decode_text(b"\x81\x8d", "no-such-charset") == "\x81\x8d"


def test_html_to_text_quotes_blockquotes_and_skips_scripts():
    text = html_to_text("<p>GAME g</p><blockquote><p>GAME old</p></blockquote>"
                        "<script>GAME evil</script><pre>a  b\nc</pre>")
    assert text.split("\n") == ["GAME g", "> GAME old", "a  b", "c", ""]


def test_clean_reply_text_keeps_line_numbers():
    text = "GAME g\nSEAT s\nhold\n\nOn Mon, Bob wrote:\n> GAME g\n-- \nsig\nGAME x\n"
    cleaned = clean_reply_text(text)
    assert cleaned.split("\n") == ["GAME g", "SEAT s", "hold", "", "", "> GAME g"]
    assert clean_reply_text("a\n-----Original Message-----\nGAME x") == "a"


def test_format_flowed_joined():
    raw = mail("From: a@example.org\nContent-Type: text/plain; format=flowed\n",
               "GAME g\nSEAT s\nsay one \ntwo\n-- \nsig\n")
    env = parse_envelope(read_message(raw).order_texts[0])
    assert "say one two" in env.body


def test_bounce_details_from_dsn():
    raw = mail('From: MAILER-DAEMON@mx.example.org\nContent-Type: multipart/report; '
               'report-type=delivery-status; boundary="b"\n',
               "--b\nContent-Type: text/plain\n\nfailed\n--b\n"
               "Content-Type: message/delivery-status\n\nReporting-MTA: dns; mx\n\n"
               "Final-Recipient: rfc822; gone@example.org\nAction: failed\nStatus: 5.1.1\n"
               "--b\nContent-Type: text/rfc822-headers\n\nMessage-ID: <report-1@pbem.test>\n"
               "--b--\n")
    m = read_message(raw)
    assert (m.kind, m.bounce_of, m.bounced_recipient) == (
        "bounce", "<report-1@pbem.test>", "gone@example.org")


def test_delay_dsn_is_not_a_bounce():
    raw = mail('From: MAILER-DAEMON@mx.example.org\nContent-Type: multipart/report; '
               'report-type=delivery-status; boundary="b"\n',
               "--b\nContent-Type: message/delivery-status\n\n\nFinal-Recipient: rfc822; "
               "x@example.org\nAction: delayed\nStatus: 4.4.1\n--b--\n")
    assert read_message(raw).kind == "autoreply"


def test_non_bytes_input_is_accepted():
    assert read_message(bytearray(b"From: a@example.org\r\n\r\nGAME g\r\n")).kind == "orders"
    assert read_message(memoryview(b"")).kind == "malformed"


def test_orders_with_ordinary_subjects_are_not_auto_replies():
    for subject in ("Away from the front: my orders", "Re: Vacation plans for Pest",
                    "absence of supply", "I am out of patience", "Automatically moving"):
        raw = mail(f"From: a@example.org\nSubject: {subject}\n", ORDERS)
        assert read_message(raw).kind == "orders", subject


@pytest.mark.parametrize("name,raw", [
    ("many encoded words", b"From: a@example.org\r\nSubject: " + b"=?utf-8?q?a?= " * 100_000
     + b"\r\n\r\nGAME g"),
    ("many addresses", b"From: a@example.org\r\nTo: " + b"a@b.c, " * 200_000 + b"\r\n\r\n"),
    ("many parts", b'From: a@example.org\r\nContent-Type: multipart/mixed; boundary="b"\r\n'
     b"\r\n" + b"--b\r\n\r\nx\r\n" * 50_000),
    ("deep nesting", b'From: a@example.org\r\nContent-Type: multipart/mixed; boundary="b0"'
     b"\r\n\r\n" + b"".join(b'--b%d\r\nContent-Type: multipart/mixed; boundary="b%d"\r\n\r\n'
                            % (i, i + 1) for i in range(3000))),
    ("one long body line", b"From: a@example.org\r\n\r\nGAME g\r\n" + b"x" * 1_900_000),
])
def test_pathological_mail_is_read_quickly(name, raw):
    start = time.perf_counter()
    m = read_message(raw)
    assert m.kind in ("orders", "empty", "malformed")
    assert time.perf_counter() - start < 15, name  # was 54 s for encoded words, once


def test_raw_8bit_headers_are_decoded():
    raw = "Subject: Gömör\r\nFrom: Béla <bela@example.org>\r\n\r\nGAME g\r\n"
    assert read_message(raw.encode("utf-8")).subject == "Gömör"
    assert read_message(raw.encode("iso-8859-2")).subject == "Gömör"
    assert read_message(raw.encode("iso-8859-2")).sender == "bela@example.org"


def test_bounce_of_from_gmail_report_or_in_reply_to():
    dsn = ('From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>\n'
           'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n')
    body = ("--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; google\n"
            "X-Original-Message-ID: <r9@pbem.test>\n\nFinal-Recipient: rfc822; x@gmail.com\n"
            "Action: failed\n--b--\n")
    assert read_message(mail(dsn, body)).bounce_of == "<r9@pbem.test>"
    plain = ("From: MAILER-DAEMON@mx.example.org\nSubject: Undelivered Mail Returned to "
             "Sender\nIn-Reply-To: <r10@pbem.test>\n")
    m = read_message(mail(plain, "could not be delivered\n"))
    assert (m.kind, m.bounce_of) == ("bounce", "<r10@pbem.test>")
