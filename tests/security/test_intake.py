"""Findings (medium): oversize mail was refused but stored whole (a 50 MB pipe added 100 MB
to the database and 320 MB of memory); the SMTP listener took mail for any recipient and
logged every RCPT TO, tokens included; `pbem mail receive` exited 1 or 2 when it could not
store, so an MTA bounced the player's orders instead of retrying."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import time
from pathlib import Path

from attack import mail

from pbem.mail.listener import free_port

PBEM = [sys.executable, "-m", "pbem.cli.app"]


def cli(args: list[str], *, cwd: Path, stdin: bytes = b"", env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[bytes]:
    full = {**os.environ, **(env or {})}
    full.pop("PBEM_DB", None)
    return subprocess.run([*PBEM, *args], cwd=cwd, input=stdin, capture_output=True,
                          env=full, timeout=120)


def test_a_huge_piped_mail_keeps_its_header_only_and_memory_stays_small(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db' / 'pbem.sqlite'}"
    assert cli(["--db", url, "init"], cwd=tmp_path).returncode == 0
    size_before = sum(p.stat().st_size for p in (tmp_path / "db").iterdir())
    body = b"x" * 76 + b"\r\n"
    raw = (b"From: ann@example.org\r\nTo: orders@pbem.test\r\nSubject: big\r\n"
           b"Message-ID: <big@example.org>\r\n\r\n" + body * (30_000_000 // len(body)))
    # VmHWM, not ru_maxrss: the latter keeps the high-water mark of the forking pytest.
    probe = ("import sys\nfrom pbem.cli.app import main\n"
             f"sys.argv = ['pbem', '--db', {url!r}, 'mail', 'receive']\n"
             "try:\n    main()\nfinally:\n"
             "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
             "    print('maxrss', hwm[0].split()[1], file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, input=raw,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert b"refused - the message is 30.0 MB" in done.stdout
    maxrss_mb = int(done.stderr.decode().split("maxrss")[1].split()[0]) / 1024
    assert maxrss_mb < 150, f"{maxrss_mb:.0f} MB"
    size_after = sum(p.stat().st_size for p in (tmp_path / "db").iterdir())
    assert size_after - size_before < 1_000_000


def test_mail_receive_exits_75_when_it_cannot_store_and_0_once_stored(tmp_path: Path) -> None:
    (tmp_path / "not-a-folder").write_text("a file where the database folder should be")
    bad = f"sqlite:///{tmp_path / 'not-a-folder' / 'pbem.sqlite'}"
    raw = mail("ann@example.org", "GAME g1\nSEAT north\n").as_bytes()
    r = cli(["--db", bad, "mail", "receive"], cwd=tmp_path, stdin=raw)
    assert r.returncode == 75, r.stderr
    assert r.stderr.decode().count("\n") == 1
    r = cli(["--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", "mail", "receive"],
            cwd=tmp_path, stdin=raw)
    assert r.returncode == 75, r.stderr
    (tmp_path / "broken.toml").write_text("this is not toml = = =")
    r = cli(["--config", str(tmp_path / "broken.toml"), "mail", "receive"], cwd=tmp_path,
            stdin=raw)
    assert r.returncode == 75, r.stderr
    good = f"sqlite:///{tmp_path / 'ok' / 'pbem.sqlite'}"
    for junk in (b"", b"\x00\xff garbage", raw,
                 mail("x@y.org", "PLAY 1", to="orders+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@pbem.test"
                      ).as_bytes()):
        r = cli(["--db", good, "mail", "receive"], cwd=tmp_path, stdin=junk)
        assert r.returncode == 0, (junk[:40], r.stderr)


def test_the_listener_refuses_unknown_recipients_and_logs_no_token(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PBEM_LISTEN": f"127.0.0.1:{port}", "PBEM_ADDRESS": "orders@pbem.test",
           "PBEM_DB": f"sqlite:///{tmp_path / 'pbem.sqlite'}", "PBEM_POLL_SECONDS": "3600"}
    server = subprocess.Popen([*PBEM, "serve"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                client = smtplib.SMTP("127.0.0.1", port, timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("pbem serve did not listen")
        with client:
            client.ehlo()
            client.mail("ann@example.org")
            assert client.rcpt("victim@elsewhere.example")[0] == 550
            assert client.rcpt("other@pbem.test")[0] == 550
            assert client.rcpt("orders+secrettokenabcdefgh@pbem.test")[0] == 250
            assert client.rcpt("Orders@PBEM.test")[0] == 250
            client.data(b"Subject: hi\r\nFrom: ann@example.org\r\n\r\nhello\r\n")
        time.sleep(0.5)
    finally:
        server.terminate()
        out = server.communicate(timeout=30)[0].decode()
    assert "SMTP listener on" in out
    assert "secrettokenabcdefgh" not in out
