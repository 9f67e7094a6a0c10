"""The GM's tools do what they say: a rollback reopens the step until its deadline and mails
its report again, an extension on a paused game is kept by the resume and never shortens
unasked, and the players are told of every pause, resume, extension and replacement."""

from __future__ import annotations

import email
import json
import os
import pty
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from clock import T0
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.store.db import connect, session_scope
from pbem.store.models import Outbox

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # the maildir and spool defaults are relative to it


def run(db: str, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--db", db, *args])
    out = result.stdout + result.stderr
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{out}\n{result.exception!r}"
    return out


def new_game(db: str) -> dict[str, str]:
    out = run(db, "game", "new", "highcard", "g1", "--seat", "north=n@example.org",
              "--seat", "south=s@example.org", "--seed", "x", "--deadline", "48h")
    return dict(re.findall(r"^\s+(\w+)\s+\S+\s+password: (\S+)$", out, re.M))


def show(db: str) -> dict:  # type: ignore[type-arg]
    return json.loads(run(db, "game", "show", "g1", "--json"))


def send(db: str, tmp_path: Path, seat: str, password: str) -> None:
    card = json.loads(run(db, "report", "g1", "--seat", seat, "--json"))["view"]["hand"][0]
    f = tmp_path / f"{seat}.txt"
    f.write_text(f"GAME g1\nSEAT {seat}\nPASSWORD {password}\nPLAY {card}\n")
    run(db, "orders", "submit", str(f))


def mails(db: str, kind: str) -> list[tuple[str, str]]:
    """(recipient, subject) of every queued mail of `kind`, in order."""
    engine = connect(db)
    with session_scope(engine) as s:
        rows = [(r.recipient, r.subject) for r in s.exec(
            select(Outbox).where(Outbox.kind == kind).order_by(Outbox.id))]
    engine.dispose()
    return rows


def test_rollback_without_reprocess_reopens_the_step_until_its_deadline(
        db_url: str, tmp_path: Path, clock: list[datetime]) -> None:
    pw = new_game(db_url)
    for seat in ("north", "south"):
        send(db_url, tmp_path, seat, pw[seat])
    clock[0] = T0 + timedelta(hours=1)
    assert "g1: step 1 processed (all orders in)" in run(db_url, "tick")
    assert show(db_url)["step"] == 2
    reports_of_step_1 = [m for m in mails(db_url, "report") if "step 1" in m[1]]
    assert len(reports_of_step_1) == 2

    clock[0] = T0 + timedelta(hours=2)
    out = run(db_url, "gm", "rollback", "g1", "--to", "1")
    # the kept orders do not close the step at the next tick: it is open until its deadline
    clock[0] = T0 + timedelta(hours=3)
    run(db_url, "tick")
    g = show(db_url)
    assert g["step"] == 1 and g["status"] == "open", g
    assert g["deadline"] == (T0 + timedelta(hours=50)).isoformat()
    assert sorted(g["wait"]) == ["north", "south"]
    # its report is mailed again, to every seat, and they are told why
    again = [m for m in mails(db_url, "report") if "step 1" in m[1]]
    assert len(again) == 4 and {m[0] for m in again[2:]} == {"n@example.org", "s@example.org"}
    notices = [m for m in mails(db_url, "notice") if "rolled the game back" in m[1]]
    assert {m[0] for m in notices} == {"n@example.org", "s@example.org"}
    # a seat that sends a new file replaces its kept one; the other's still waits
    send(db_url, tmp_path, "north", pw["north"])
    run(db_url, "tick")
    assert show(db_url)["step"] == 1
    clock[0] = T0 + timedelta(hours=51)
    assert "g1: step 1 processed (deadline)" in run(db_url, "tick")
    assert show(db_url)["step"] == 2
    assert "open for orders until" in out and "mailed again" in out


def test_extend_on_a_paused_game_is_kept_by_the_resume(db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)  # deadline T0 + 48h
    clock[0] = T0 + timedelta(hours=10)
    run(db_url, "gm", "pause", "g1")  # 38 hours left
    assert "when resumed, the step gets 62h" in run(db_url, "gm", "extend", "g1", "--by", "24h")
    clock[0] = T0 + timedelta(hours=100)
    run(db_url, "gm", "resume", "g1")
    assert show(db_url)["deadline"] == (T0 + timedelta(hours=162)).isoformat()


def test_extend_never_shortens_unless_asked(db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)
    out = run(db_url, "gm", "extend", "g1", "--by", "-12h", code=1)
    assert "--shorten" in out
    assert show(db_url)["deadline"] == (T0 + timedelta(hours=48)).isoformat()
    run(db_url, "gm", "extend", "g1", "--by", "-12h", "--shorten")
    assert show(db_url)["deadline"] == (T0 + timedelta(hours=36)).isoformat()
    run(db_url, "gm", "extend", "g1", "--by", "24h")
    assert show(db_url)["deadline"] == (T0 + timedelta(hours=60)).isoformat()


def test_the_players_are_told_of_pause_resume_extension_and_replacement(
        db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)
    both = {"n@example.org", "s@example.org"}
    steps = [(("gm", "pause", "g1", "--reason", "holiday"), "paused", both),
             (("gm", "resume", "g1"), "resumed", both),
             (("gm", "extend", "g1", "--by", "24h"), "deadline of step 1 moved", both),
             (("gm", "pause", "g1"), "paused", both),  # a second pause is a second mail
             (("gm", "extend", "g1", "--by", "2d"), "deadline of step 1 moved", both),
             (("gm", "resume", "g1"), "resumed", both),
             (("gm", "replace-seat", "g1", "south", "new@example.org"), "south",
              {"n@example.org", "s@example.org"})]
    for args, subject, told in steps:
        before = len(mails(db_url, "notice"))
        clock[0] += timedelta(minutes=5)
        run(db_url, *args)
        new = mails(db_url, "notice")[before:]
        assert {m[0] for m in new} == told and all(subject in m[1] for m in new), (args, new)
    assert [m[0] for m in mails(db_url, "welcome")][-1] == "new@example.org"


def test_the_gms_notices_reach_each_player_in_their_language(
        db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)
    run(db_url, "gm", "seat-settings", "g1", "north", "language=hu")
    run(db_url, "gm", "pause", "g1", "--reason", "holiday")
    clock[0] += timedelta(minutes=5)
    run(db_url, "gm", "resume", "g1")
    engine = connect(db_url)
    with session_scope(engine) as s:
        got = {(r.recipient, r.subject): email.message_from_bytes(r.raw, policy=default)
               .get_body(("plain",)).get_content()  # type: ignore[union-attr]
               for r in s.exec(select(Outbox).where(Outbox.kind == "notice"))}
    engine.dispose()
    assert set(got) == {("n@example.org", "[g1] a játékmester szüneteltette a játékot"),
                        ("s@example.org", "[g1] the GM paused the game"),
                        ("n@example.org", "[g1] a játékmester folytatta a játékot"),
                        ("s@example.org", "[g1] the GM resumed the game")}, set(got)
    north = " ".join(v for (to, _s), v in got.items() if to == "n@example.org")
    assert "A játékmester szüneteltette a(z) g1 játékot: holiday." in north
    assert "The GM" not in north and "no orders are accepted" not in north


def test_the_gms_notices_show_the_deadline_in_each_players_zone(
        db_url: str, clock: list[datetime]) -> None:
    """A resume, an extension: the deadline as each holder reads it (his zone, UTC, time
    left), not a bare UTC timestamp."""
    new_game(db_url)
    run(db_url, "gm", "seat-settings", "g1", "north", "zone=Europe/Budapest")
    run(db_url, "gm", "extend", "g1", "--by", "24h")
    engine = connect(db_url)
    with session_scope(engine) as s:
        got = {r.recipient: email.message_from_bytes(r.raw, policy=default)
               .get_body(("plain",)).get_content()  # type: ignore[union-attr]
               for r in s.exec(select(Outbox).where(Outbox.kind == "notice"))}
    engine.dispose()
    deadline = T0 + timedelta(hours=72)
    local = (deadline + timedelta(hours=1)).strftime("%H:%M")  # CET in winter
    assert f"{local} CET (Europe/Budapest) = {deadline:%H:%M} UTC, in 3 days" in got["n@example.org"], got
    assert f"{deadline:%H:%M} UTC, in 3 days" in got["s@example.org"]
    assert "+00:00" not in got["n@example.org"] + got["s@example.org"]


def _as_another_user() -> list[str]:
    """The command prefix that runs as a user who may not write the database: root writes
    any file, so root runs it as nobody."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    probe = [setpriv or "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if setpriv is None or subprocess.run([*probe, sys.executable, "-c", "import pbem.cli.app"],
                                         capture_output=True).returncode != 0:
        pytest.skip("cannot run this Python as another user here")
    return probe


def test_read_only_commands_work_on_a_database_this_user_may_not_write(
        db_url: str, clock: list[datetime]) -> None:
    prefix = _as_another_user()
    run(db_url, "game", "new", "macht-und-ohnmacht", "g1", "--seat", "orange=o@example.org",
        "--seat", "white=w@example.org", "--seed", "x")
    folder = Path(tempfile.mkdtemp(prefix="pbem-ro-"))
    try:
        copy = sqlite3.connect(folder / "pbem.sqlite")  # a GM's backup copy, say
        with sqlite3.connect(db_url.removeprefix("sqlite:///")) as source:
            source.backup(copy)
        copy.close()
        db = f"sqlite:///{folder / 'pbem.sqlite'}"
        (folder / "pbem.sqlite").chmod(0o444)
        folder.chmod(0o555)
        order = folder / "o.txt"  # there is none: its one-line refusal is read-only too

        def pbem(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*prefix, sys.executable, "-m", "pbem.cli.app", "--db", db,
                                   *args], capture_output=True, text=True, cwd=folder,
                                  timeout=120)

        for args in (("game", "list"), ("game", "show", "g1"), ("game", "show", "g1", "--json"),
                     ("report", "g1", "--seat", "orange"), ("gm", "log", "g1"),
                     ("archive", "verify", "g1"), ("mail", "outbox", "g1")):
            done = pbem(*args)
            assert done.returncode == 0 and "error" not in done.stderr, (args, done.stderr)
        assert re.search(r"^g1: macht-und-ohnmacht .*step 1", pbem("game", "show", "g1").stdout, re.M)
        assert pbem("orders", "check", str(order)).returncode == 1  # no such file: one line
        refused = pbem("gm", "pause", "g1")  # a command that writes says why it cannot
        assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
        assert "readonly database" in refused.stderr or "read-only" in refused.stderr
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_a_refusal_for_an_unknown_game_names_no_step(db_url: str, tmp_path: Path) -> None:
    f = tmp_path / "o.txt"
    f.write_text("GAME nosuch\nSEAT north\nPASSWORD x\nPLAY 1\n")
    out = run(db_url, "orders", "check", str(f), code=1)
    assert out.startswith('Game nosuch, seat north: REFUSED: no game named "nosuch"'), out
    assert "None" not in out


def _in_a_terminal(args: list[str], cwd: Path) -> str:
    """Run a command with stdout and stderr on one pseudo-terminal, as a GM sees it."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, cwd=cwd)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the command has ended
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.wait(timeout=120) == 0, out
    return out.decode("utf-8", "replace")


def test_progress_and_results_are_on_lines_of_their_own(db_url: str, tmp_path: Path) -> None:
    run(db_url, "game", "new", "macht-und-ohnmacht", "g1", "--seat", "orange=o@example.org",
        "--seat", "white=w@example.org", "--seed", "x")
    for _ in range(3):
        run(db_url, "turn", "process", "g1", "--force")
    pbem = [sys.executable, "-m", "pbem.cli.app", "--db", db_url]
    checks = ((["archive", "verify", "g1"], r"g1: all \d+ processed steps recomputed identically"),
              (["archive", "export", "g1", str(tmp_path / "site")], r"\d+ pages written to "))
    for args, result in checks:
        for out in (_in_a_terminal([*pbem, *args], tmp_path),
                    subprocess.run([*pbem, *args], capture_output=False, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, cwd=tmp_path).stdout):
            lines = [line.strip("\r") for line in out.split("\n")]
            assert any(re.match(result, line) for line in lines), (args, out)


def test_a_refused_game_new_ends_its_one_line_with_a_newline(db_url: str) -> None:
    new_game(db_url)
    for extra in (["--variant", "nosuch"], ["--setting", "early=maybe"],
                  ["--deadline", "25:00 Europe/Budapest"]):
        result = runner.invoke(app, ["--db", db_url, "game", "new", "highcard", "g2", "--seat",
                                     "north=n@example.org", "--seat", "south=s@example.org",
                                     *extra])
        assert result.exit_code == 1
        assert result.stderr.startswith("error: ") and result.stderr.endswith("\n")
        assert result.stderr.count("\n") == 1, result.stderr
    again = runner.invoke(app, ["--db", db_url, "game", "new", "highcard", "g1", "--seat",
                                "north=n@example.org", "--seat", "south=s@example.org"])
    assert again.stderr == 'error: a game named "g1" exists already\n'


def test_the_players_hear_of_a_hold_and_of_an_automatic_extension(
        db_url: str, tmp_path: Path, clock: list[datetime]) -> None:
    pw = new_game(db_url)  # deadline T0 + 48h
    clock[0] = T0 + timedelta(hours=49)
    assert "held" in run(db_url, "tick")
    held = [m for m in mails(db_url, "notice") if "step 1 is held" in m[1]]
    assert {m[0] for m in held} == {"n@example.org", "s@example.org"}
    run(db_url, "gm", "resume", "g1", "--by", "24h")
    send(db_url, tmp_path, "north", pw["north"])
    clock[0] = T0 + timedelta(hours=74)
    assert "south missed step 1; deadline extended" in run(db_url, "tick")
    moved = [m for m in mails(db_url, "notice") if "deadline of step 1 moved" in m[1]]
    assert [m[0] for m in moved][-1:] == ["n@example.org"]  # south has its own reminder
    assert any(m[0] == "s@example.org" and "no orders from you" in m[1]
               for m in mails(db_url, "notice"))
