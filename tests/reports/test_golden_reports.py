"""Golden replay of the test game through the public services: every seat's text report
of every step is compared with reviewed files. Regenerate with PBEM_REGEN_GOLDEN=1 and
read the diff before committing it."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from clock import T0

from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service.games import create_game, find_game
from pbem.service.turns import process_turn
from pbem.store.db import session_scope

GOLDEN = Path(__file__).parent / "golden" / "highcard.txt"


def transcript(engine) -> str:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="golden", variant="long",
                    seats={"north": "n@x.org", "south": "s@x.org"}, seed="golden",
                    deadline_hours=48, now=T0)
    parts = []
    now = T0
    while True:
        with session_scope(engine) as s:
            game = find_game(s, "golden")
            for seat in ("north", "south", None):
                parts.append(f"######## step {game.step}, {seat or 'public'}\n")
                parts.append(render_report(report_context(s, "golden", seat=seat), fmt="text"))
            if game.status == "finished":
                break
            now += timedelta(hours=1)
            process_turn(s, "golden", now=now, force=True)
    return "".join(parts)


def test_golden_reports(engine) -> None:  # type: ignore[no-untyped-def]
    got = transcript(engine)
    if os.environ.get("PBEM_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(got)
    assert got == GOLDEN.read_text(), "reports changed; review and regenerate with PBEM_REGEN_GOLDEN=1"
    assert got.count("######## step") >= 30
