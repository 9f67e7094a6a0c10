"""`pbem demo`: every hosted ruleset and variant plays a whole game by mail, in a folder
of its own, next to a GM's real game that must not change by a single byte."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from shell import clean_env, sh, snapshot, sqlite_rows
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.mail.listener import SmtpListener
from pbem.store.db import connect, session_scope
from pbem.store.models import Step


def test_demo_plays_every_ruleset_and_variant_and_leaves_a_real_game_alone(tmp_path: Path) -> None:
    gm = tmp_path / "gm"
    gm.mkdir()
    relayed: list[bytes] = []
    with SmtpListener("127.0.0.1", 0, relayed.append) as relay:
        # The GM's folder: a relay, an order address, a real game with a deadline in an hour
        # and its welcome mails still queued.
        (gm / "pbem.toml").write_text(f'smtp = "smtp://127.0.0.1:{relay.port}"\n'
                                      'address = "orders@club.example.org"\n')
        env = clean_env(tmp_path, PBEM_GM="gm@club.example.org")
        for command in ("pbem init",
                        "pbem game new helios real --seat north=ann@example.org "
                        "--seat east=bob@example.org --deadline 1h"):
            done = sh(command, cwd=gm, env=env)
            assert done.returncode == 0, done.stdout + done.stderr
        before, rows = snapshot(gm), sqlite_rows(gm / "db" / "pbem.sqlite")
        hosted = json.loads(sh("pbem rulesets --json", cwd=gm, env=env).stdout)
        t0 = time.perf_counter()
        done = sh("pbem demo --ruleset all", cwd=gm, env=env, timeout=1200)
        seconds = time.perf_counter() - t0
        assert done.returncode == 0, done.stdout + done.stderr
        assert relayed == []  # nothing went through the GM's relay
    assert snapshot(gm) == before
    assert sqlite_rows(gm / "db" / "pbem.sqlite") == rows
    lines = done.stdout.splitlines()
    assert re.match(r"demo in /\S+: its own database, configuration and maildir; your games, "
                    r"pbem.toml and mail relay are not touched$", lines[0]), lines[0]
    assert str(tmp_path / ".tmp") in lines[0]  # a temporary folder, not the GM's
    finished = {m[1] for line in lines
                for m in [re.match(r"(demo-\S+): \d+ steps played by mail .* game finished; .*"
                                   r"verify: all steps recomputed identically$", line)] if m}
    assert finished == {f"demo-{r['id']}-{v['id']}".replace("_", "-")
                        for r in hosted for v in r["variants"]}
    print(f"\n{done.stdout}demo --ruleset all: {seconds:.1f}s")


def test_bots_answer_mid_turn_ask_steps(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "battlelore", "--option",
                                      "decisions=ask", "--out", str(out)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert re.search(r"demo-battlelore-agincourt: \d+ steps .* game finished", result.stdout)
    # The mid-turn questions ("Turn 4 (south), north decides") were answered by mail by the
    # seat asked, in that very step: nobody got default orders.
    engine = connect(f"sqlite:///{out / 'battlelore-agincourt' / 'demo.sqlite'}")
    with session_scope(engine) as session:
        asks = [(st.awaiting_json, st.applied_json, st.defaulted_json)
                for st in session.exec(select(Step).where(Step.phase.contains("decides")))]  # type: ignore[union-attr]
    engine.dispose()
    assert len(asks) >= 2
    for awaiting, applied, defaulted in asks:
        assert set(json.loads(applied)) == set(json.loads(awaiting)) and json.loads(defaulted) == []


def test_demo_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    result = CliRunner().invoke(app, ["demo", "--ruleset", "highcard", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "not empty and was not made by pbem demo" in result.stderr
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_demo_works_next_to_a_broken_config_and_ignores_the_gms_settings(tmp_path: Path,
                                                                       monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pbem.toml").write_text("this is = not [toml\n")
    monkeypatch.setenv("PBEM_DB", f"sqlite:///{tmp_path / 'gm.sqlite'}")
    monkeypatch.setenv("PBEM_SMTP", "smtp://127.0.0.1:9")  # nothing listens there
    result = CliRunner().invoke(app, ["demo", "--ruleset", "highcard", "--out",
                                      str(tmp_path / "d")])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "game finished" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "pbem.toml"]
