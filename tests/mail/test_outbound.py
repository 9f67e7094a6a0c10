"""compose: structure, threading, determinism, header injection; backoff timing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default

import pytest

from pbem.mail.backoff import next_attempt
from pbem.mail.inbound import read_message
from pbem.mail.outbound import (
    Attachment,
    Thread,
    compose,
    make_message_id,
    thread_root_id,
)

WHEN = datetime(2026, 3, 1, 12, tzinfo=UTC)


def build(**over):
    kw = dict(sender="PBEM <orders@pbem.test>", to="bela@example.org", subject="Step 4",
              text="Report.\n", message_id_domain="pbem.test", message_id="<r4@pbem.test>",
              date=WHEN)
    kw.update(over)
    return compose(**kw)


def test_text_only_is_a_single_part():
    msg = build()
    assert not msg.is_multipart()
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["In-Reply-To"] is None and msg["References"] is None


def test_deterministic_bytes_with_boundaries():
    kw = dict(html="<p>Report</p>", attachments=[(b"{}", "application/json", "view.json")],
              thread=Thread("<root@pbem.test>"))
    assert build(**kw).as_bytes() == build(**kw).as_bytes()
    assert build(**kw).as_bytes() != build(message_id="<other@pbem.test>", **kw).as_bytes()


def test_structure_with_inline_picture_and_json():
    msg = build(html='<p><img src="cid:board@pbem.test"></p>', attachments=[
        Attachment(b"\x89PNG...", "image/png", "board.png", inline=True,
                   content_id="board@pbem.test"),
        Attachment(b'{"seat": "hungary"}', "application/json", "view.json")])
    parsed = message_from_bytes(msg.as_bytes(), policy=default)
    types = [p.get_content_type() for p in parsed.walk()]
    assert types == ["multipart/mixed", "multipart/alternative", "text/plain",
                     "multipart/related", "text/html", "image/png", "application/json"]
    picture = next(p for p in parsed.walk() if p.get_content_type() == "image/png")
    assert picture["Content-ID"] == "<board@pbem.test>"


def test_threading_headers():
    root = thread_root_id("gomor-1848", "hungary", "pbem.test")
    assert root == "<thread.gomor-1848.hungary@pbem.test>"
    welcome = build(message_id=root, thread=Thread(root))
    assert welcome["In-Reply-To"] is None  # the root itself
    report = build(thread=Thread(root), list_id="gomor-1848.pbem.test")
    assert report["In-Reply-To"] == root and report["References"] == root
    assert report["List-Id"] == "<gomor-1848.pbem.test>"
    confirmation = build(thread=Thread(root), in_reply_to="<player-mail@example.org>")
    assert confirmation["In-Reply-To"] == "<player-mail@example.org>"
    assert confirmation["References"] == f"{root} <player-mail@example.org>"


def test_header_injection_is_defused():
    msg = build(subject="Step 4\r\nBcc: victim@example.org",
                to="Eve\r\n <eve@example.org>", reply_to="PBEM\r\nX-Evil: 1 <o@pbem.test>",
                extra_headers={"X-Pbem-Game": "g\nBcc: victim@example.org"})
    raw = msg.as_bytes()
    parsed = message_from_bytes(raw, policy=default)
    assert parsed["Bcc"] is None
    assert "\n" not in parsed["Subject"]
    assert b"\nBcc:" not in raw and parsed["X-Evil"] is None
    with pytest.raises(ValueError):  # a smuggled second address is refused, not sent
        build(to="Eve\r\nBcc: victim@example.org <eve@example.org>")


def test_one_address_per_to_item():
    with pytest.raises(ValueError):
        build(to="a@example.org, b@example.org")
    with pytest.raises(ValueError):
        build(to="not an address")
    assert build(to=["a@example.org", "B <b@example.org>"])["To"] == (
        "a@example.org, B <b@example.org>")


def test_our_mail_reads_back_as_not_answerable():
    m = read_message(build(html="<p>x</p>").as_bytes())
    assert m.kind == "autoreply" and m.message_id == "<r4@pbem.test>"


def test_make_message_id_is_stable_and_safe():
    a = make_message_id("pbem.test", "report", "Gömör 1848", "hungary", 4)
    assert a == make_message_id("pbem.test", "report", "Gömör 1848", "hungary", 4)
    assert a.startswith("<report.") and a.endswith("@pbem.test>") and " " not in a
    assert a != make_message_id("pbem.test", "report", "Gömör 1848", "hungary", 5)


def test_backoff_doubles_and_caps():
    now = WHEN
    assert next_attempt(0, now) == now
    assert next_attempt(1, now) == now + timedelta(minutes=1)
    assert next_attempt(2, now) == now + timedelta(minutes=2)
    assert next_attempt(5, now) == now + timedelta(minutes=16)
    assert next_attempt(50, now) == now + timedelta(hours=6)
    assert next_attempt(10**6, now) == now + timedelta(hours=6)
    gaps = [next_attempt(n, now) - now for n in range(1, 20)]
    assert gaps == sorted(gaps)


def test_reply_subject():
    from pbem.mail.outbound import reply_subject
    assert reply_subject("orders") == "Re: orders"
    assert reply_subject("Re: RE: AW: Vá: Gömör 1848, step 4") == "Re: Gömör 1848, step 4"
    assert reply_subject("Re[2]: x") == "Re: x"
    assert reply_subject("") == "Re: your mail"
    assert reply_subject("a\r\nBcc: x@y") == "Re: a Bcc: x@y"
    assert reply_subject("Reinforcements") == "Re: Reinforcements"
