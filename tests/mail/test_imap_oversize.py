"""Finding (medium): IMAP fetched a mail whole before checking its size. Now the poll asks
for RFC822.SIZE first and fetches only the header of an oversize mail, which is stored as
header, size and digest, refused with a reason, and marked seen like any other."""

from __future__ import annotations

import pytest
from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.service.polling import poll
from pbem.store.models import InboundMessage

pytestmark = pytest.mark.dovecot


def test_an_oversize_mail_is_never_fetched_whole(dovecot, engine) -> None:  # type: ignore[no-untyped-def]
    with dovecot.client() as client:
        client.create_folder("oversize")
        big = (b"From: ann@example.org\r\nTo: orders@pbem.test\r\nSubject: big\r\n"
               b"Message-ID: <imap-big@example.org>\r\n\r\n" + (b"y" * 998 + b"\r\n") * 3000)
        client.append("oversize", big)
        client.append("oversize", b"From: bob@example.org\r\nTo: orders@pbem.test\r\n"
                                  b"Subject: small\r\nMessage-ID: <imap-small@example.org>\r\n"
                                  b"\r\nhello\r\n")
    settings = Settings(db="unused", imap=dovecot.url("oversize"), address="orders@pbem.test",
                        max_mail_bytes=100_000)
    lines = poll(engine, settings=settings, now=T0)
    assert len(lines) == 2
    from pbem.store.db import session_scope

    with session_scope(engine) as s:
        rows = {r.message_id: r for r in s.exec(select(InboundMessage))}
    big_row = rows["<imap-big@example.org>"]
    assert big_row.size > 3_000_000 and len(big_row.raw) < 2_000
    assert big_row.status == "refused" and "MB; the limit is 0.1 MB" in (big_row.reason or "")
    assert rows["<imap-small@example.org>"].size < 1000
    with dovecot.client() as client:
        client.select_folder("oversize")
        assert client.search(["UNSEEN"]) == []
