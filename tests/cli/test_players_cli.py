"""The GM's side of the players' settings: a time-of-day deadline, each player's zone
(`pbem gm seat-settings`), and the deadline as each player reads it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_run import run
from sqlmodel import select

from pbem.config import Settings
from pbem.service.tick import tick
from pbem.store.db import connect, session_scope
from pbem.store.models import Outbox

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


@pytest.fixture
def clock(clock: list[datetime]) -> list[datetime]:
    """The CLI tests' clock (tests/cli/conftest.py), set to this file's morning."""
    clock[0] = NOW
    return clock


def test_a_time_of_day_deadline_and_each_players_zone(db_url: str, clock: list[datetime],
                                                     tmp_path: Path) -> None:
    out = run(db_url, "game", "new", "highcard", "g1", "--seat", "north=n@x.org",
              "--seat", "south=s@x.org", "--deadline", "20:00 Europe/Budapest +36h")
    assert "g1 created" in out
    # The game's zone is the deadline's: 20:00 in Budapest, at least 36 hours from now.
    public = run(db_url, "report", "g1")
    assert ("Deadline: Fri 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, "
            "in 2 days 9 hours") in public
    out = run(db_url, "gm", "seat-settings", "g1", "north", "zone=America/New_York",
              "quiet=23:00-07:00")
    assert "north: time zone: America/New_York" in out and "quiet hours: 23:00-07:00" in out
    assert "time zone America/New_York; mail: text and HTML" in out
    north = run(db_url, "report", "g1", "--seat", "north")
    assert ("Deadline: Fri 2026-12-04 14:00 EST (America/New_York) = 19:00 UTC, "
            "in 2 days 9 hours") in north
    assert "-- Your settings: time zone America/New_York; mail: text and HTML" in north
    south = run(db_url, "report", "g1", "--seat", "south")
    assert "-- Your settings: time zone Europe/Budapest (the game's)" in south
    # In Hungarian: the deadline and the footer with the settings too.
    south_hu = run(db_url, "report", "g1", "--seat", "south", "--lang", "hu")
    assert "Határidő: P 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, 2 nap 9 óra múlva" \
        in south_hu
    assert "-- A beállításaid: időzóna: Europe/Budapest (a játéké); levél: szöveg és HTML" \
        in south_hu
    assert "To change" not in south_hu and "Módosításukhoz küldj" in south_hu
    assert "error: " in run(db_url, "gm", "seat-settings", "g1", "north",
                            "zone=Mars/Olympus", code=1)
    assert "error: game g1 has no seat" in run(db_url, "gm", "seat-settings", "g1",
                                               "west", code=1)
    # The reminder before the deadline says it in each player's zone.
    engine = connect(db_url)
    tick(engine, spool=tmp_path / "spool",
         now=datetime(2026, 12, 4, 8, 0, tzinfo=UTC),
         settings=Settings(db=db_url, maildir=str(tmp_path / "out")))
    with session_scope(engine) as s:
        subjects = {r.seat: r.subject for r in s.exec(select(Outbox).where(
            Outbox.kind == "reminder"))}
    assert subjects == {
        "north": "[g1] reminder: orders due Fri 2026-12-04 14:00 EST (America/New_York)",
        "south": "[g1] reminder: orders due Fri 2026-12-04 20:00 CET (Europe/Budapest)"}
    engine.dispose()
    assert timedelta(0) < datetime(2026, 12, 4, 19, 0, tzinfo=UTC) - clock[0]


def test_settings_in_an_order_file_by_hand(db_url: str, clock: list[datetime],
                                           tmp_path: Path) -> None:
    out = run(db_url, "game", "new", "highcard", "g1", "--seat", "north=n@x.org",
              "--seat", "south=s@x.org", "--deadline", "48h")
    password = re.search(r"north .* password: (\S+)", out).group(1)  # type: ignore[union-attr]
    f = tmp_path / "north.txt"
    f.write_text(f"GAME g1\nSEAT north\nPASSWORD {password}\nSETTINGS zone Asia/Tokyo\n"
                 "SETTINGS digest maybe\n")
    out = run(db_url, "orders", "check", str(f))
    assert "settings checked (nothing stored)" in out
    assert "line 4: SETTINGS zone Asia/Tokyo  -> OK: time zone: Asia/Tokyo" in out
    assert "line 5: SETTINGS digest maybe  -> REFUSED: digest is on or off" in out
    assert "time zone UTC (the game's)" in run(db_url, "report", "g1", "--seat", "north")
    out = run(db_url, "orders", "submit", str(f))
    assert "settings: 1 line refused (see below)" in out
    assert "Deadline of step 1: Fri 2026-12-04 19:00 JST (Asia/Tokyo) = 10:00 UTC, in 2 days" \
        in out
    assert "time zone Asia/Tokyo; mail" in run(db_url, "report", "g1", "--seat", "north")
