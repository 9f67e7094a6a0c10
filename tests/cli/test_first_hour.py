"""What a new GM meets in the first hour, each once found untrue: seat ids in `rulesets`,
`orders check` judging the header as the spool does, `gm resume` after a hold, a lone
"+36h", WAIT in `game show`, the welcome mail's docs, config paths relative to the config
file, a warning when the order address changed under running games."""

from __future__ import annotations

import email
import json
import re
from datetime import datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from clock import T0
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.config import Settings, load_settings
from pbem.service import mailflow
from pbem.service.games import create_game
from pbem.store.db import session_scope

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # the maildir and spool defaults are relative to it


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    out = result.stdout + result.stderr
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{out}\n{result.exception!r}"
    return out


def new_game(db: str, name: str = "g1") -> dict[str, str]:
    out = run("--db", db, "game", "new", "highcard", name, "--seat", "north=n@example.org",
              "--seat", "south=s@example.org", "--seed", "x", "--deadline", "48h")
    return dict(re.findall(r"^\s+(\w+)\s+\S+\s+password: (\S+)$", out, re.M))


def card(db: str, seat: str) -> int:
    return json.loads(run("--db", db, "report", "g1", "--seat", seat, "--json"))["view"]["hand"][0]


def test_rulesets_lists_the_seat_ids_for_every_player_count() -> None:
    out = run("rulesets")
    assert re.search(r"^\s+2 players: seats north south$", out, re.M)
    assert re.search(r"^\s+3 players: seats north south east$", out, re.M)  # highcard
    assert re.search(r"^\s+6 players: seats felvidek tiszahat erdely delvidek szlavonia pannonia$",
                     out, re.M)


def test_orders_check_refuses_what_the_spool_refuses(db_url: str, tmp_path: Path) -> None:
    pw = new_game(db_url)
    files = {
        "wrong password": f"GAME g1\nSEAT north\nPASSWORD nope\nPLAY {card(db_url, 'north')}\n",
        "missing PASSWORD": f"GAME g1\nSEAT north\nPLAY {card(db_url, 'north')}\n",
        "TURN 7 is not the open step": (f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nTURN 7\n"
                                        f"PLAY {card(db_url, 'north')}\n"),
    }
    for reason, text in files.items():
        f = tmp_path / "o.txt"
        f.write_text(text)
        out = run("--db", db_url, "orders", "check", str(f), code=1)
        assert "REFUSED: " + reason in out and "all lines OK" not in out, out
        assert "has been told" not in out  # checking tells no one
    f.write_text(f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nTURN 1\nPLAY {card(db_url, 'north')}\n")
    assert "all lines OK" in run("--db", db_url, "orders", "check", str(f))
    run("--db", db_url, "gm", "pause", "g1")
    assert "REFUSED: the game is paused" in run("--db", db_url, "orders", "check", str(f), code=1)


def test_resume_after_a_hold_gives_the_time_asked_for(db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)
    clock[0] = T0 + timedelta(hours=49)
    assert "g1: step 1 held" in run("--db", db_url, "tick")
    assert "(24h from now)" in run("--db", db_url, "gm", "resume", "g1", "--by", "24h")
    show = json.loads(run("--db", db_url, "game", "show", "g1", "--json"))
    assert show["deadline"] == (T0 + timedelta(hours=73)).isoformat()


def test_resume_after_a_hold_without_by_gives_the_stated_hour(db_url: str, clock: list[datetime]) -> None:
    new_game(db_url)
    clock[0] = T0 + timedelta(hours=49)
    run("--db", db_url, "tick")
    assert "(1h from now)" in run("--db", db_url, "gm", "resume", "g1")
    help_text = " ".join(run("gm", "resume", "--help").split())
    assert "after an automatic hold 1h" in help_text


def test_a_lone_minimum_is_explained_and_not_offered_alone(db_url: str) -> None:
    result = runner.invoke(app, ["--db", db_url, "game", "new", "highcard", "g1", "--seat",
                                 "north=n@example.org", "--seat", "south=s@example.org",
                                 "--deadline", "+36h"])
    assert result.exit_code == 1
    assert '"20:00 Europe/Budapest +36h"' in result.stderr and "36h" in result.stderr
    help_text = " ".join(run("game", "new", "--help").split())
    assert '"+36h" for' not in help_text and "+36h" in help_text


def test_game_show_shows_wait(db_url: str, tmp_path: Path) -> None:
    pw = new_game(db_url)
    f = tmp_path / "n.txt"
    f.write_text(f"GAME g1\nSEAT north\nPASSWORD {pw['north']}\nWAIT\nPLAY {card(db_url, 'north')}\n")
    run("--db", db_url, "orders", "submit", str(f))
    out = run("--db", db_url, "game", "show", "g1")
    assert re.search(r"^\s+north\s+n@example.org\s+orders in, WAIT", out, re.M), out
    assert json.loads(run("--db", db_url, "game", "show", "g1", "--json"))["wait"] == ["north"]


def test_the_welcome_mail_carries_the_player_guide_and_the_games_page(engine, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    for docs_url in (None, "https://club.example.org/pbem/docs/"):
        settings = Settings(maildir=str(tmp_path / "out"), docs_url=docs_url)
        with session_scope(engine) as s:
            new = create_game(s, ruleset_id="helios", name="linked" if docs_url else "attached",
                              seats={"north": "n@example.org", "east": "e@example.org"}, now=T0)
            mailflow.queue_welcome(s, settings, new.game, new.passwords, now=T0)
        mailflow.send_outbox(lambda: session_scope(engine), settings, now=T0)
    mails = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in (tmp_path / "out" / "new").iterdir()]
    attached = next(m for m in mails if m["Subject"].startswith("[attached]"))
    files = {a.get_filename(): a.get_payload(decode=True) for a in attached.iter_attachments()}
    assert files["player-guide.md"] == (root / "docs" / "player-guide.md").read_bytes()
    assert files["helios.md"] == (root / "docs" / "rulesets" / "helios.md").read_bytes()
    text = attached.get_body(("plain",)).get_content()
    assert "docs/rulesets" not in text  # no path in the GM's checkout
    linked = next(m for m in mails if m["Subject"].startswith("[linked]"))
    text = linked.get_body(("plain",)).get_content()
    assert "https://club.example.org/pbem/docs/player-guide.md" in text
    assert "https://club.example.org/pbem/docs/rulesets/helios.md" in text
    assert not list(linked.iter_attachments())


def test_config_paths_are_relative_to_the_config_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "srv"
    home.mkdir()
    (home / "pbem.toml").write_text('maildir = "mail/out"\ntemplates = "club"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    s = load_settings(home / "pbem.toml", environ={})
    assert s.db == f"sqlite:///{home}/db/pbem.sqlite"  # the default, too
    assert (s.maildir, s.spool, s.templates) == (f"{home}/mail/out", f"{home}/orders", f"{home}/club")
    (home / "pbem.toml").write_text('db = "sqlite:////var/lib/pbem.sqlite"\ninbox = "/var/mail/o"\n')
    s = load_settings(home / "pbem.toml", environ={"PBEM_MAILDIR": "here"})
    assert (s.db, s.inbox, s.maildir) == ("sqlite:////var/lib/pbem.sqlite", "/var/mail/o", "here")
    assert load_settings(environ={}).db == "sqlite:///db/pbem.sqlite"  # no file: the current folder


def test_changing_the_address_under_running_games_warns(db_url: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    new_game(db_url)
    assert "warning" not in run("--db", db_url, "game", "list")
    monkeypatch.setenv("PBEM_ADDRESS", "orders@club.example.org")
    out = run("--db", db_url, "game", "list")
    assert ("warning: game g1: its reports went out from orders@pbem.localhost, but `address` "
            "is now orders@club.example.org") in out
