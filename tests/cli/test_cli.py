"""The command line: every command has --help; bad input exits non-zero with one line;
a GM runs a game by hand from order files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import run, runner
from typer.main import get_command

from pbem.cli.app import app


def all_commands() -> list[list[str]]:
    root = get_command(app)
    found: list[list[str]] = []

    def walk(cmd, path):  # type: ignore[no-untyped-def]
        found.append(path)
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, [*path, name])

    walk(root, [])
    return found


@pytest.mark.parametrize("path", all_commands(), ids=lambda p: " ".join(p) or "pbem")
def test_every_command_has_help(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0 and "Usage" in result.stdout


def test_docs_cover_every_command() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "gm-guide.md").read_text()
    for path in all_commands():
        if path:
            assert f"pbem {' '.join(path)}" in guide, f"docs/gm-guide.md lacks `pbem {' '.join(path)}`"


def test_a_game_run_by_hand_from_files(db_url: str, tmp_path: Path) -> None:
    out = run(db_url, "game", "new", "highcard", "g1", "--seat", "north=n@example.org",
              "--seat", "south=s@example.org", "--seed", "x", "--deadline", "72h")
    pw = dict(re.findall(r"^\s+(\w+)\s+\S+\s+password: (\S+)$", out, re.M))
    assert set(pw) == {"north", "south"}
    rs = json.loads(run(db_url, "rulesets", "--json"))
    assert any(r["id"] == "highcard" and r["seats"]["2"] == ["north", "south"] for r in rs)
    show = json.loads(run(db_url, "game", "show", "g1", "--json"))
    assert show["awaited"] == ["north", "south"] and show["status"] == "open"
    assert {"ruleset", "seats", "step", "awaited", "deadline", "status"} <= set(show)
    ctx = json.loads(run(db_url, "report", "g1", "--seat", "north", "--json"))
    card = ctx["view"]["hand"][0]
    f = tmp_path / "n.txt"
    f.write_text(f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nTURN 1\nPLAY {card}\nEND\n")
    assert "OK" in run(db_url, "orders", "check", str(f))
    assert "orders accepted" in run(db_url, "orders", "submit", str(f))
    assert "awaits orders from south" in run(db_url, "turn", "process", "g1", code=1)
    assert "step 1 of g1 processed" in run(db_url, "turn", "process", "g1", "--force")
    text = run(db_url, "report", "g1", "--seat", "south", "--step", "2")
    assert "What happened (step 1" in text and "Dice commitment for step 2" in text
    html = run(db_url, "report", "g1", "--seat", "south", "--format", "html")
    assert html.startswith("<!DOCTYPE html>")
    assert "recomputed identically" in run(db_url, "archive", "verify", "g1")
    assert "index.html" in run(db_url, "archive", "export", "g1", str(tmp_path / "site"))
    assert (tmp_path / "site" / "step-0001.html").exists()
    assert "create" in run(db_url, "gm", "log", "g1")


@pytest.mark.parametrize("args,message", [
    (["game", "show", "nosuch"], 'no game named "nosuch"'),
    (["game", "new", "nogame", "g", "--seat", "a=b@c"], "unknown ruleset 'nogame'"),
    (["game", "new", "highcard", "g", "--seat", "north"], "must look like KEY=VALUE"),
    (["game", "new", "highcard", "g", "--seat", "north=x@y", "--deadline", "soon"], "is not a deadline"),
    (["orders", "submit", "/nonexistent/file"], "no such file"),
    (["report", "nosuch", "--seat", "x"], 'no game named "nosuch"'),
    (["selfplay", "nogame"], "unknown ruleset"),
    (["report", "x", "--format", "pdf"], "--format is text or html"),
])
def test_bad_input_exits_non_zero_with_one_line(db_url: str, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["--db", db_url, *args])
    assert result.exit_code != 0
    err = result.stderr.strip()
    assert err.startswith("error: ") and message in err and "\n" not in err, err


def test_selfplay_is_reproducible(db_url: str) -> None:
    a = run(db_url, "selfplay", "highcard", "--games", "5", "--seed", "3")
    b = run(db_url, "selfplay", "highcard", "--games", "5", "--seed", "3")
    strip = lambda s: [x for x in s.splitlines() if x.startswith("game ")]  # noqa: E731
    assert strip(a) == strip(b) and len(strip(a)) == 5
    assert "games/s" in a


def test_spool_moves_files_and_writes_echoes(db_url: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    run(db_url, "init")
    out = run(db_url, "game", "new", "highcard", "g1", "--seat", "north=n@example.org",
              "--seat", "south=s@example.org")
    pw = dict(re.findall(r"^\s+(\w+)\s+\S+\s+password: (\S+)$", out, re.M))
    inbox = tmp_path / "orders" / "inbox"
    (inbox / "good.txt").write_text(f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nSTATUS\n")
    (inbox / "bad.txt").write_text("GAME g1\nSEAT north\nPASSWORD wrong\n")
    out = run(db_url, "tick")
    assert "good.txt: accepted" in out and "bad.txt: refused" in out
    assert (tmp_path / "orders" / "processed" / "good.txt").exists()
    echo = (tmp_path / "orders" / "rejected" / "bad.txt.echo.txt").read_text()
    assert "REFUSED: wrong password" in echo and "wrong" not in echo.split("REFUSED")[0]
