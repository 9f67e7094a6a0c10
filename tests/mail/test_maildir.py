"""MaildirSink for outgoing mail and fetch_maildir for incoming, on a real directory."""

from __future__ import annotations

import os

import pytest

from pbem.mail.outbound import compose
from pbem.mail.transport import MaildirSink, fetch_maildir


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
