"""`pbem serve` as a real process (SMTP listener + APScheduler jobs in the database) and
`pbem demo` through the real mail path."""

from __future__ import annotations

import email
import json
import os
import signal
import smtplib
import subprocess
import time
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from pbem_process import pbem
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.mail.listener import free_port


def test_serve_takes_mail_processes_the_step_and_mails_reports(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PBEM_DB": f"sqlite:///{tmp_path / 'db.sqlite'}",
           "PBEM_LISTEN": f"127.0.0.1:{port}", "PBEM_POLL_SECONDS": "1",
           "PBEM_MAILDIR": str(tmp_path / "out"), "PBEM_ADDRESS": "orders@pbem.test"}
    new = pbem(["game", "new", "highcard", "g1", "--seat", "north=ann@example.org",
                "--seat", "south=bob@example.org", "--seed", "srv",
                "--setting", "view_json=true"], env, tmp_path)  # the bots read the JSON view
    out, _ = new.communicate(timeout=60)
    assert new.returncode == 0, out
    passwords = dict(line.split()[0::2][:1] + [line.split()[-1]] for line in out.splitlines()
                     if "password:" in line)
    server = pbem(["serve"], env, tmp_path)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # wait for the listener
            try:
                smtplib.SMTP("127.0.0.1", port, timeout=2).quit()
                break
            except OSError:
                time.sleep(0.2)
        reports = {}
        while time.monotonic() < deadline and len(reports) < 2:
            for p in (tmp_path / "out" / "new").glob("*") if (tmp_path / "out" / "new").exists() else []:
                m = email.message_from_bytes(p.read_bytes(), policy=default)
                if m["Subject"].startswith("[g1] step 1"):
                    reports[m["To"]] = m
            time.sleep(0.3)
        assert set(reports) == {"ann@example.org", "bob@example.org"}
        with smtplib.SMTP("127.0.0.1", port) as c:
            for _seat, addr in (("north", "ann@example.org"), ("south", "bob@example.org")):
                view = json.loads(next(a for a in reports[addr].iter_attachments()
                                       if a.get_filename().endswith(".json")).get_content())
                msg = EmailMessage()
                msg["From"] = addr
                msg["To"] = reports[addr]["Reply-To"]
                msg["Subject"] = "Re: report"
                msg.set_content(f"PLAY {view['hand'][0]}\n")
                c.send_message(msg)
        got_step2 = set()
        while time.monotonic() < deadline + 30 and len(got_step2) < 2:
            for p in (tmp_path / "out" / "new").glob("*"):
                m = email.message_from_bytes(p.read_bytes(), policy=default)
                if m["Subject"].startswith("[g1] step 2"):
                    got_step2.add(m["To"])
            time.sleep(0.3)
        assert got_step2 == {"ann@example.org", "bob@example.org"}
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    assert passwords  # the passwords were printed once


def test_demo_plays_a_whole_game_by_mail(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["--db", f"sqlite:///{tmp_path / 'd.sqlite'}", "demo",
                                      "--ruleset", "highcard", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "game finished" in result.stdout and "all steps recomputed identically" in result.stdout
    assert (tmp_path / "demo" / "archive" / "index.html").exists()
