"""Reports: built from a seat's view and the events and rolls it may see; overridable."""

from __future__ import annotations

import json
import random
from pathlib import Path

from clock import T0
from fixture_game import RULESET as G

from pbem.core.engine import canonical_json
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.service.games import create_game, find_game, live_step
from pbem.service.turns import process_turn
from pbem.store.db import session_scope


def setup_game(engine, steps: int = 3) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="g1", seats={"north": "n@x.org",
                    "south": "s@x.org", "east": "e@x.org"}, seed="r", now=T0)
    for _ in range(steps):
        with session_scope(engine) as s:
            process_turn(s, "g1", now=T0, force=True)


def test_report_shows_own_hand_events_dice_skeleton_and_commitment(engine) -> None:  # type: ignore[no-untyped-def]
    setup_game(engine)
    with session_scope(engine) as s:
        step = live_step(s, find_game(s, "g1"))
        ctx = report_context(s, "g1", seat="north")
        hand = json.loads(step.state_json)["hands"]["north"]
    text = render_report(ctx, fmt="text")
    assert f"Dice commitment for step {ctx['step']}: {step.commitment}" in text
    assert ctx["view"]["hand"] == hand
    assert '"hand": [' in text and all(f"    {c}" in text for c in hand)
    html = render_report(ctx, fmt="html")
    assert "<section id=\"state\">" in html and step.commitment in html


def test_events_and_rolls_for_other_seats_are_not_shown(engine) -> None:  # type: ignore[no-untyped-def]
    setup_game(engine, steps=1)
    with session_scope(engine) as s:
        ctx = report_context(s, "g1", seat="north", step=2)
    assert any(e.startswith("You draw") for e in ctx["happened"]["events"])
    assert sum(e.startswith("You draw") for e in ctx["happened"]["events"]) == 1
    assert all("south" not in r["purpose"] and "east" not in r["purpose"]
               for r in ctx["happened"]["rolls"])


def test_leak_redealing_others_hidden_cards_leaves_the_report_byte_identical(engine) -> None:  # type: ignore[no-untyped-def]
    setup_game(engine, steps=2)
    rng = random.Random(5)
    for seat in ("north", "south", "east"):
        with session_scope(engine) as s:
            before = render_report(report_context(s, "g1", seat=seat), fmt="html")
            step = live_step(s, find_game(s, "g1"))
            original = step.state_json
            other = G.redeal_hidden(G.load(json.loads(original)), seat, rng)
            assert other != json.loads(original)
            step.state_json = canonical_json(G.dump(other))
            s.add(step)
            s.flush()
            after = render_report(report_context(s, "g1", seat=seat), fmt="html")
            s.rollback()
        assert before == after


def test_override_folder_extends_the_shipped_layout(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    setup_game(engine, steps=1)
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / "report.txt.j2").write_text(
        '{% extends "shipped/mail/report.txt.j2" %}{% block state %}OUR CLUB BOARD\n'
        '{{ super() }}{% endblock %}')
    with session_scope(engine) as s:
        ctx = report_context(s, "g1", seat="north")
    text = render_report(ctx, fmt="text", override=str(tmp_path))
    assert "OUR CLUB BOARD" in text and "What is asked now" in text
