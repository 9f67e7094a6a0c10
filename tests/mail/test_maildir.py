"""MaildirSink for outgoing mail and fetch_maildir for incoming, on a real directory.

Finding: an outgoing maildir that already existed as an empty folder (a GM's `mkdir`, a
temporary folder) failed every send with FileNotFoundError; the error escaped the outbox
pass, which stopped at the first row and left it claimed for a minute, so no mail went out
(the several-hosts benchmark ended with every mail unsent)."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.mail.outbound import compose
from pbem.mail.transport import MaildirSink, TransientMailError, fetch_maildir
from pbem.service.mailflow import queue, send_outbox
from pbem.store.db import session_scope
from pbem.store.models import Outbox


def _msg(n: int):
    return compose(sender="orders@pbem.test", to=f"p{n}@example.org", subject=f"step {n}",
                   text="Report.\n", message_id_domain="pbem.test",
                   message_id=f"<m{n}@pbem.test>")


def test_sink_then_fetch_each_once(tmp_path):
    sink = MaildirSink(tmp_path / "out")
    keys = [sink.deliver(_msg(n)) for n in range(3)]
    assert len(set(keys)) == 3
    assert len(os.listdir(tmp_path / "out" / "new")) == 3
    got: list[bytes] = []
    assert fetch_maildir(tmp_path / "out", got.append) == 3
    assert sorted(b"<m0@pbem.test>" in g or b"<m1@pbem.test>" in g or b"<m2@pbem.test>" in g
                  for g in got) == [True] * 3
    assert os.listdir(tmp_path / "out" / "new") == []
    assert all(name.endswith(":2,S") for name in os.listdir(tmp_path / "out" / "cur"))
    assert fetch_maildir(tmp_path / "out", got.append) == 0


def test_crash_leaves_message_in_new(tmp_path):
    sink = MaildirSink(tmp_path / "in")
    sink.deliver(_msg(1).as_bytes())

    def crash(raw: bytes) -> None:
        raise RuntimeError("database is locked")

    with pytest.raises(RuntimeError):
        fetch_maildir(tmp_path / "in", crash)
    assert len(os.listdir(tmp_path / "in" / "new")) == 1
    got: list[bytes] = []
    assert fetch_maildir(tmp_path / "in", got.append) == 1


def test_unseen_in_cur_is_fetched_seen_is_not(tmp_path):
    root = tmp_path / "box"
    MaildirSink(root)
    (root / "cur" / "1.a.host:2,").write_bytes(b"From: a@example.org\r\n\r\nGAME g\r\n")
    (root / "cur" / "2.b.host:2,RS").write_bytes(b"From: b@example.org\r\n\r\nGAME g\r\n")
    got: list[bytes] = []
    assert fetch_maildir(root, got.append) == 1
    assert sorted(os.listdir(root / "cur")) == ["1.a.host:2,S", "2.b.host:2,RS"]


def test_sink_into_an_existing_empty_folder(tmp_path):
    # A GM's `mkdir mail/outbox` (or a temporary folder): it has no tmp/, new/, cur/ yet,
    # and mailbox.Maildir made them only for a folder it created itself.
    root = tmp_path / "out"
    root.mkdir()
    MaildirSink(root).deliver(_msg(1))
    assert len(os.listdir(root / "new")) == 1


def test_a_folder_that_cannot_be_made_is_a_transient_error(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(TransientMailError, match="maildir .*file/out"):
        MaildirSink(tmp_path / "file" / "out").deliver(_msg(1))


def test_outbox_into_a_bad_maildir_keeps_every_mail_and_says_why(engine, tmp_path):
    """Every row is tried, kept as queued with the reason, and sent once the folder is
    right; none is left claimed ('sending') until its lease runs out."""
    (tmp_path / "file").write_text("not a folder")
    settings = Settings(address="orders@pbem.test", maildir=str(tmp_path / "file" / "out"))
    with session_scope(engine) as s:
        for i in range(3):
            queue(s, settings, kind="notice", to=f"p{i}@example.org", subject=f"mail {i}",
                  text="text\n", now=T0, key=("bad-maildir", i))
    report = send_outbox(lambda: session_scope(engine), settings, now=T0)
    assert (report.sent, report.retried) == (0, 3)
    with session_scope(engine) as s:
        rows = list(s.exec(select(Outbox)))
        assert [r.status for r in rows] == ["queued"] * 3
        assert all("maildir" in (r.last_error or "") for r in rows)
    good = tmp_path / "out"
    good.mkdir()
    settings = Settings(address="orders@pbem.test", maildir=str(good))
    report = send_outbox(lambda: session_scope(engine), settings, now=T0 + timedelta(minutes=2))
    assert report.sent == 3 and len(os.listdir(good / "new")) == 3
