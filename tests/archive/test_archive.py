"""The static archive: public while the game runs, everything after; checked in Chromium."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from browser import need_chromium
from clock import T0

from pbem.archive.export import export_game
from pbem.service.games import create_game, find_game
from pbem.service.turns import process_turn
from pbem.store.db import session_scope


def make_game(engine, finish: bool) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="g1",
                    seats={"north": "n@x.org", "south": "s@x.org"}, seed="a", now=T0)
    for _i in range(100 if finish else 2):
        with session_scope(engine) as s:
            if find_game(s, "g1").status == "finished":
                break
            process_turn(s, "g1", now=T0, force=True)


def test_running_game_archive_shows_no_hands(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    make_game(engine, finish=False)
    with session_scope(engine) as s:
        files = export_game(s, "g1", tmp_path)
    names = {f.name for f in files}
    assert "index.html" in names and "step-0001.html" in names
    assert not any("north" in n for n in names)
    page = (tmp_path / "step-0002.html").read_text()
    assert '"hand"' not in page and "You draw" not in page


def test_running_archive_publishes_orders_but_not_standing_orders(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pbem.core.envelope import render_envelope
    from pbem.service.games import live_step
    from pbem.service.orders import submit_orders

    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id="highcard", name="g1", seed="a", now=T0,
                         seats={"north": "n@x.org", "south": "s@x.org"}).passwords
    with session_scope(engine) as s:
        hands = json.loads(live_step(s, find_game(s, "g1")).state_json)["hands"]
        for seat in ("north", "south"):
            submit_orders(s, render_envelope(game="g1", seat=seat, password=pw[seat], turn=1,
                          body=f"PREFER LOW\nPLAY {hands[seat][0]}\n"), now=T0)
        process_turn(s, "g1", now=T0)
    with session_scope(engine) as s:  # step 2: north alone, no hidden draws
        card = json.loads(live_step(s, find_game(s, "g1")).state_json)["hands"]["north"][0]
        submit_orders(s, render_envelope(game="g1", seat="north", password=pw["north"], turn=2,
                      body=f"PREFER HIGH\nPLAY {card}\n"), now=T0)
        process_turn(s, "g1", now=T0)
    with session_scope(engine) as s:
        export_game(s, "g1", tmp_path)
    page1 = (tmp_path / "step-0001.html").read_text()
    assert "id='orders'" not in page1  # step 1 dealt hidden cards: its seed is secret
    page2 = (tmp_path / "step-0002.html").read_text()
    assert "id='orders'" in page2 and f"PLAY {card}" in page2 and "PREFER" not in page2
    with session_scope(engine) as s:
        from sqlmodel import select

        from pbem.store.models import Step
        applied = s.exec(select(Step).where(Step.number == 2)).one().applied_json
        assert "PREFER HIGH" in applied  # it was applied, just not published


def test_finished_game_archive_has_every_view_and_seed(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    make_game(engine, finish=True)
    with session_scope(engine) as s:
        export_game(s, "g1", tmp_path)
        g = find_game(s, "g1")
        last = g.step
    assert (tmp_path / "step-0001-north.html").exists()
    assert "You draw" in (tmp_path / "step-0002.html").read_text()
    index = (tmp_path / "index.html").read_text()
    assert "Winner(s)" in index and "(commitment)" not in index
    assert (tmp_path / f"step-{last:04d}.html").exists()


@pytest.mark.browser
def test_archive_renders_in_headless_chromium(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    browser = need_chromium()
    make_game(engine, finish=True)
    with session_scope(engine) as s:
        export_game(s, "g1", tmp_path / "site")
    profile = tmp_path / "profile"
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", "--dump-dom",
           (tmp_path / "site" / "index.html").as_uri()]
    dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    assert "<table id=\"steps\">" in dom and "Winner(s)" in dom
    dom2 = subprocess.run(cmd[:-1] + [(tmp_path / "site" / "step-0002-north.html").as_uri()],
                          capture_output=True, text=True, timeout=120).stdout
    assert "Report for seat <b>north</b>" in dom2
    assert json.dumps("hand")[1:-1] in dom2
