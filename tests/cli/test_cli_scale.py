"""The command line at scale: `pbem --help` and an idle `pbem tick` import neither SQLAlchemy
nor the games; a mail from an MTA pipe that completes a step is processed, and its reports
sent, in the same run; every seed is listed on request; game settings change mid-game."""

from __future__ import annotations

import email
import hashlib
import hmac
import json
import os
import subprocess
import sys
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from cli_run import run

SUPPORT = Path(__file__).resolve().parents[1] / "support"
PROBE = ("import sys; sys.argv = ['pbem', *sys.argv[1:]]\n"
         "from pbem.cli.app import main\n"
         "try:\n    main()\nexcept SystemExit:\n    pass\n"
         "heavy = {'sqlalchemy', 'sqlmodel', 'alembic', 'jinja2', 'rich', 'pbem.rulesets',"
         " 'pbem.store.db', 'pbem.store.models', 'pbem.service.games'}\n"
         "print('HEAVY', sorted(heavy & set(sys.modules)))\n")


def probe(args: list[str], env: dict[str, str], cwd: Path) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], env={**os.environ, **env},
                         cwd=cwd, capture_output=True, text=True, timeout=120)
    return out.stdout + out.stderr


def new_game(db: str, *extra: str) -> dict[str, str]:
    out = run(db, "game", "new", "highcard", "g1", "--seat", "north=n@example.org",
              "--seat", "south=s@example.org", "--seed", "cli-scale", *extra)
    return {line.split()[0]: line.split()[-1] for line in out.splitlines() if "password:" in line}


def test_help_and_an_idle_tick_import_nothing_heavy(db_url: str, tmp_path: Path) -> None:
    assert "HEAVY []" in probe(["--help"], {}, tmp_path)
    new_game(db_url)
    env = {"PBEM_DB": db_url, "PBEM_MAILDIR": str(tmp_path / "out")}
    busy = probe(["tick"], env, tmp_path)  # the new game's first look, its welcome mail
    assert "'sqlalchemy'" in busy, busy
    assert "HEAVY []" in probe(["tick"], env, tmp_path)  # idle now: one query, sqlite3 only
    (tmp_path / "orders" / "inbox").mkdir(parents=True)
    (tmp_path / "orders" / "inbox" / "x.txt").write_text("GAME g1\n")
    assert "x.txt: refused" in probe(["tick"], env, tmp_path)  # a spooled file is work


def test_a_piped_mail_that_completes_a_step_is_processed_in_the_same_run(db_url: str,
                                                                         tmp_path: Path) -> None:
    pw = new_game(db_url)
    maildir = tmp_path / "out"
    os.environ["PBEM_MAILDIR"] = str(maildir)
    try:
        hands = json.loads(run(db_url, "report", "g1", "--seat", "north", "--json"))
        outs = []
        for seat in ("north", "south"):
            view = json.loads(run(db_url, "report", "g1", "--seat", seat, "--json"))["view"]
            msg = EmailMessage()
            msg["From"] = f"{seat[0]}@example.org"
            msg["To"] = "orders@pbem.localhost"
            msg["Subject"] = "orders"
            msg["Message-ID"] = f"<{seat}@example.org>"
            msg.set_content(f"GAME g1\nSEAT {seat}\nPASSWORD {pw[seat]}\nPLAY {view['hand'][0]}\n")
            path = tmp_path / f"{seat}.eml"
            path.write_bytes(msg.as_bytes())
            outs.append(run(db_url, "mail", "receive", str(path)))
    finally:
        del os.environ["PBEM_MAILDIR"]
    assert hands["step"] == 1
    assert "step 1 processed" not in outs[0] and "g1: step 1 processed (all orders in)" in outs[1]
    mails = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in (maildir / "new").iterdir()]
    subjects = [m["Subject"] for m in mails]
    assert subjects.count("Re: orders") == 2  # both echoes went out at once
    assert sorted(m["To"] for m in mails if m["Subject"].startswith("[g1] step 2")) == \
        ["n@example.org", "s@example.org"]


def test_every_seed_on_request_and_the_master_seed_at_the_end(db_url: str) -> None:
    new_game(db_url, "--variant", "standard")
    for _ in range(40):
        if "the game is over" in run(db_url, "turn", "process", "g1", "--force"):
            break
    rows = json.loads(run(db_url, "report", "g1", "--seeds", "--json"))
    assert [r["step"] for r in rows] == list(range(len(rows)))
    final = json.loads(run(db_url, "report", "g1", "--json"))
    master = bytes.fromhex(final["master_seed"])
    for row in rows:  # every seed derives from the master seed and matches its commitment
        seed = hmac.new(master, f"pbem-step:{row['step']}".encode(), hashlib.sha256).digest()
        assert row["seed"] == seed.hex()
        assert row["commitment"] == hashlib.sha256(seed).hexdigest()
    text = run(db_url, "report", "g1", "--seeds")
    assert text.count("seed ") == len(rows) and "secret" not in text
    early = json.loads(run(db_url, "report", "g1", "--step", "2", "--json"))
    assert early["master_seed"] is None


def test_settings_are_checked_and_change_mid_game(db_url: str) -> None:
    assert "mail_retention_days is a number" in run(
        db_url, "game", "new", "highcard", "g0", "--seat", "north=n@x.org", "--seat",
        "south=s@x.org", "--setting", "mail_retention_days=soon", code=1)
    new_game(db_url)
    assert "no seat west" in run(db_url, "gm", "setting", "g1", "view_json=west", code=1)
    out = run(db_url, "gm", "setting", "g1", "view_json=north", "mail_retention_days=30")
    assert 'view_json = "north"' in out and "mail_retention_days = 30" in out
    assert "mail_retention_days = null" in run(db_url, "gm", "setting", "g1",
                                                 "mail_retention_days=none")
    assert "setting" in run(db_url, "gm", "log", "g1")
