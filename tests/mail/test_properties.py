"""Hypothesis: read_message never raises and always says something sensible."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.inbound import KINDS, read_message, should_reply

HEADERS = [b"From: ", b"To: ", b"Subject: ", b"Content-Type: ", b"Message-ID: ",
           b"Content-Transfer-Encoding: ", b"MIME-Version: 1.0", b"Auto-Submitted: ",
           b"Return-Path: ", b"Content-Disposition: attachment; filename=", b"\r\n", b"\n",
           b"--b\r\n", b"multipart/mixed; boundary=b", b"text/html", b"base64", b"=?utf-8?q?",
           b"?=", b"<", b">", b"@", b"GAME x\n", b"SEAT y\n", b"\x00", b"\xff", b"\xc3"]
mailish = st.lists(st.one_of(st.sampled_from(HEADERS), st.binary(max_size=20)),
                   max_size=40).map(b"".join)


def _check(raw: bytes) -> None:
    mail = read_message(raw, max_bytes=5_000)
    assert mail.kind in KINDS
    assert mail.message_id.startswith("<")
    assert "\n" not in mail.subject and "\r" not in mail.subject
    should_reply(mail, own_addresses=["orders@pbem.test"])
    if mail.kind != "orders":
        assert mail.order_texts == ()


@given(st.binary(max_size=3000))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_arbitrary_bytes(raw: bytes) -> None:
    _check(raw)


@given(mailish)
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mail_shaped_bytes(raw: bytes) -> None:
    _check(raw)


@given(st.text(max_size=500))
@settings(deadline=None)
def test_any_text_body(body: str) -> None:
    raw = ("From: a@example.org\r\nSubject: x\r\nContent-Type: text/plain; charset=utf-8"
           "\r\n\r\n" + body).encode("utf-8", "surrogatepass")
    mail = read_message(raw)
    assert mail.kind in ("orders", "empty")


def test_same_bytes_same_synthesised_id() -> None:
    raw = b"From: a@example.org\r\n\r\nGAME g\r\n"
    first, second = read_message(raw), read_message(raw)
    assert first.message_id == second.message_id and first.message_id_synthesised
    assert read_message(raw + b" ").message_id != first.message_id


def test_synthesised_id_survives_redelivery() -> None:
    raw = b"From: a@example.org\r\nSubject: x\r\n\r\nGAME g\r\n"
    hop = (b"Return-Path: <a@example.org>\r\nDelivered-To: orders@pbem.test\r\n"
           b"Received: from mx by pbem.test;\r\n Sun, 1 Mar 2026 12:00:00 +0100\r\n")
    assert read_message(hop + raw).message_id == read_message(raw).message_id
    odd = read_message(b"From: a@example.org\r\nMessage-ID: <no-at-sign>\r\n\r\nx\r\n")
    assert odd.message_id == "<no-at-sign>" and not odd.message_id_synthesised


header_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=120)


@given(subject=header_text, name=header_text, extra=header_text, body=st.text(max_size=300))
@settings(deadline=None, max_examples=200)
def test_compose_never_lets_a_header_escape(subject: str, name: str, extra: str,
                                            body: str) -> None:
    from email import message_from_bytes
    from email.policy import default

    from pbem.mail.outbound import compose
    to = f'"{name.replace(chr(34), "").replace(chr(92), "")}" <p@example.org>'
    msg = compose(sender="orders@pbem.test", to=to, subject=subject, text=body,
                  message_id_domain="pbem.test", message_id="<x@pbem.test>",
                  extra_headers={"X-Pbem-Note": extra})
    parsed = message_from_bytes(msg.as_bytes(), policy=default)
    assert sorted(set(parsed.keys())) == sorted({
        "From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted",
        "X-Auto-Response-Suppress", "X-Pbem-Note", "MIME-Version", "Content-Type",
        "Content-Transfer-Encoding"})
    assert parsed["To"].addresses[0].addr_spec == "p@example.org"


@given(st.text(max_size=400))
@settings(deadline=None)
def test_html_to_text_never_raises(html: str) -> None:
    from pbem.mail.htmltext import html_to_text
    assert isinstance(html_to_text(html), str)


@given(st.lists(st.sampled_from(["GAME g", "SEAT s", "hold", "", "-- ", "> q", "On x wrote:",
                                 "From: a", "Sent: b", "____________________", "x"]),
                max_size=30))
@settings(deadline=None)
def test_clean_reply_text_keeps_line_numbers(lines: list[str]) -> None:
    from pbem.mail.replytext import clean_reply_text
    kept = clean_reply_text("\n".join(lines)).split("\n")
    assert len(kept) <= max(len(lines), 1)
    for before, after in zip(lines, kept, strict=False):
        assert after in (before, "")
