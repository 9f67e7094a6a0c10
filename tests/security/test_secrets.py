"""Finding (medium): secrets at rest. The database was world-readable and held the token
secret, the master seed (it predicts every roll) and raw mails with PASSWORD lines in
clear; a redacted password survived in the WAL file. Now a new database is 0600 in a 0700
folder with secure_delete, a mail's PASSWORD values are stripped once it is applied (and
the WAL emptied by the tick), and with a secret key outside the database the seeds and
token secrets are sealed."""

from __future__ import annotations

import base64
import hashlib
import os
import stat
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from attack import mail, order_text
from sqlmodel import select

from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Game, InboundMessage, Seat, Step

PBEM = [sys.executable, "-m", "pbem.cli.app"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_database_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        engine = connect(f"sqlite:///{tmp_path / 'fresh' / 'pbem.sqlite'}")
        migrate(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 1
        engine.dispose()
    finally:
        os.umask(old)
    folder = tmp_path / "fresh"
    assert mode(folder) == 0o700
    for f in folder.iterdir():
        assert mode(f) & 0o077 == 0, f"{f.name} is {oct(mode(f))}"
    assert mode(folder / "pbem.sqlite") == 0o600


def test_an_old_world_readable_database_loses_its_world_bits(tmp_path: Path) -> None:
    path = tmp_path / "pbem.sqlite"
    path.touch()
    path.chmod(0o644)
    connect(f"sqlite:///{path}").dispose()
    assert mode(path) == 0o640


def _db_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("pbem.sqlite"))


def test_a_password_is_not_kept_once_the_mail_is_applied(host, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pw = host.passwords["north"]
    card = host.hand("north")[0]
    plain = mail("ann@example.org", order_text(host, "north", f"PLAY {card}\n"),
                 message_id="<plain@example.org>")
    encoded = EmailMessage()
    for h in ("From", "To", "Subject"):
        encoded[h] = plain[h]
    encoded["Message-ID"] = "<b64@example.org>"
    encoded.set_content(order_text(host, "north", f"PLAY {card}\n"), cte="base64")
    assert pw.encode() not in encoded.as_bytes()  # hidden by base64, still found
    for m in (plain, encoded):
        assert host.receive(m).status == "applied"
    with host.sessions() as s:
        for row in s.exec(select(InboundMessage)):
            assert pw.encode() not in row.raw
            assert base64.b64encode(f"PASSWORD {pw}".encode())[:12] not in row.raw
    host.tick()  # sends the welcome mails (their copies are dropped) and empties the WAL
    assert pw.encode() not in _db_bytes(tmp_path)


def test_with_a_secret_key_the_database_holds_no_seed_or_token_secret(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_SECRET_KEY": "kept-in-the-gms-vault", "PBEM_MAILDIR": "out"}
    env.pop("PBEM_DB", None)
    url = f"sqlite:///{tmp_path / 'pbem.sqlite'}"

    def run(*args: str, with_key: bool = True) -> subprocess.CompletedProcess[str]:
        e = env if with_key else {k: v for k, v in env.items() if k != "PBEM_SECRET_KEY"}
        return subprocess.run([*PBEM, "--db", url, *args], cwd=tmp_path, env=e, text=True,
                              capture_output=True, timeout=120)

    made = run("game", "new", "battlelore", "sealed", "--seat", "north=ann@example.org",
               "--seat", "south=bob@example.org", "--seed", "known")
    assert made.returncode == 0, made.stderr
    master = hashlib.sha256(b"pbem-master:known").digest()
    engine = connect(url)
    with session_scope(engine) as s:
        game = s.exec(select(Game)).one()
        assert game.master_seed.startswith("sealed1:") and game.token_secret.startswith("sealed1:")
        assert all(r.holder_secret.startswith("sealed1:") for r in s.exec(select(Seat)))
        open_step = s.exec(select(Step).where(Step.number == 1)).one()
        assert open_step.seed.startswith("sealed1:")
    engine.dispose()
    assert master.hex().encode() not in _db_bytes(tmp_path)
    refused = run("turn", "process", "sealed", "--force", with_key=False)
    assert refused.returncode == 1
    assert refused.stderr.strip().startswith("error: this database's secrets are sealed")
    wrong = subprocess.run([*PBEM, "--db", url, "turn", "process", "sealed", "--force"],
                           cwd=tmp_path, env={**env, "PBEM_SECRET_KEY": "a guess"}, text=True,
                           capture_output=True, timeout=120)
    assert wrong.returncode == 1 and "does not open" in wrong.stderr
    assert run("turn", "process", "sealed", "--force").returncode == 0
    verified = run("archive", "verify", "sealed")
    assert verified.returncode == 0, verified.stderr
