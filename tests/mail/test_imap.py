"""fetch_imap against a real Dovecot on loopback (see conftest.py)."""

from __future__ import annotations

import itertools

import pytest

from pbem.mail.transport import PermanentMailError, TransientMailError, fetch_imap

pytestmark = pytest.mark.dovecot
_folders = itertools.count()


def _mail(n: int) -> bytes:
    return (f"From: p{n}@example.org\r\nTo: orders@pbem.test\r\nSubject: orders {n}\r\n"
            f"Message-ID: <imap-{n}@example.org>\r\n\r\nGAME g\r\nSEAT s{n}\r\nEND\r\n"
            ).encode()


@pytest.fixture
def folder(dovecot) -> str:
    name = f"test{next(_folders)}"
    with dovecot.client() as client:
        client.create_folder(name)
    return name


def _append(dovecot, folder: str, mails: list[bytes]) -> None:
    with dovecot.client() as client:
        for raw in mails:
            client.append(folder, raw)


def test_each_message_fetched_once(dovecot, folder):
    mails = [_mail(i) for i in range(3)]
    _append(dovecot, folder, mails)
    got: list[bytes] = []
    assert fetch_imap(dovecot.url(), on_message=got.append, folder=folder) == 3
    assert [g.replace(b"\r\n", b"\n") for g in got] == [m.replace(b"\r\n", b"\n")
                                                        for m in mails]
    assert fetch_imap(dovecot.url(), on_message=got.append, folder=folder) == 0
    with dovecot.client() as client:
        client.select_folder(folder)
        assert client.search(["UNSEEN"]) == []
        assert len(client.search(["ALL"])) == 3


def test_folder_from_url_path(dovecot, folder):
    _append(dovecot, folder, [_mail(10)])
    got: list[bytes] = []
    assert fetch_imap(dovecot.url(folder), on_message=got.append) == 1
    assert b"<imap-10@example.org>" in got[0]


def test_crash_in_on_message_leaves_message_unseen(dovecot, folder):
    _append(dovecot, folder, [_mail(20), _mail(21)])
    calls: list[bytes] = []

    def crash(raw: bytes) -> None:
        calls.append(raw)
        raise RuntimeError("database is locked")

    with pytest.raises(RuntimeError):
        fetch_imap(dovecot.url(), on_message=crash, folder=folder)
    assert len(calls) == 1
    with dovecot.client() as client:
        client.select_folder(folder)
        assert len(client.search(["UNSEEN"])) == 2
    got: list[bytes] = []
    assert fetch_imap(dovecot.url(), on_message=got.append, folder=folder) == 2
    assert b"<imap-20@example.org>" in got[0] and b"<imap-21@example.org>" in got[1]


def test_move_to_processed_folder(dovecot, folder):
    _append(dovecot, folder, [_mail(30), _mail(31)])
    done = f"{folder}-processed"
    got: list[bytes] = []
    assert fetch_imap(dovecot.url(), on_message=got.append, folder=folder, move_to=done) == 2
    with dovecot.client() as client:
        client.select_folder(folder)
        assert client.search(["ALL"]) == []
        client.select_folder(done)
        assert len(client.search(["SEEN"])) == 2


def test_wrong_password_is_permanent(dovecot):
    url = f"imap://orders:wrong@{dovecot.host}:{dovecot.port}"
    with pytest.raises(PermanentMailError):
        fetch_imap(url, on_message=lambda raw: None)


def test_server_down_is_transient():
    from pbem.mail.listener import free_port
    with pytest.raises(TransientMailError):
        fetch_imap(f"imap://a:b@127.0.0.1:{free_port()}", on_message=lambda raw: None)


def test_imaps_and_starttls(dovecot, folder):
    if dovecot.tls_port is None:
        pytest.skip("no openssl binary: Dovecot runs without TLS")
    from urllib.parse import quote
    cred = f"orders:{quote('s3cret pass', safe='')}"
    _append(dovecot, folder, [_mail(40), _mail(41)])
    got: list[bytes] = []
    with pytest.raises(TransientMailError):  # self-signed: refused unless insecure=1
        fetch_imap(f"imaps://{cred}@127.0.0.1:{dovecot.tls_port}", on_message=got.append,
                   folder=folder, timeout=10)
    assert fetch_imap(f"imaps://{cred}@127.0.0.1:{dovecot.tls_port}?insecure=1",
                      on_message=got.append, folder=folder, timeout=10) == 2
    _append(dovecot, folder, [_mail(42)])
    assert fetch_imap(f"imap://{cred}@127.0.0.1:{dovecot.port}?starttls=1&insecure=1",
                      on_message=got.append, folder=folder, timeout=10) == 1
    assert len(got) == 3
