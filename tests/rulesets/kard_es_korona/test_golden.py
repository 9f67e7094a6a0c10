"""Golden replay: a whole advanced game (12 years) played by the random bot with a fixed seed
through the public API; per step the phase label, the events each seat sees, a digest of
each seat's view and the public board text are compared with the reviewed file in
golden/. Regenerate with PBEM_REGEN_GOLDEN=1 (then review the diff). Also renders both
report templates for every seat at a few steps."""

from __future__ import annotations

import hashlib
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.core.engine import canonical_json
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.reports.render import render_report
from pbem.rulesets.kard_es_korona import RULESET

GOLDEN = Path(__file__).parent / "golden"
SEATS = ("felvidek", "erdely", "szlavonia")
SEED = 1


def transcript() -> tuple[str, list]:
    r = play(RULESET, GameConfig(SEATS, "advanced"), SEED, keep=True)
    out = [f"# Kard es Korona golden replay: advanced, seats {' '.join(SEATS)}, seed {SEED}",
           f"# result: {english(r.result.to_json()) if r.result else None}",
           f"# steps: {r.steps}, game rounds: {r.rounds}", ""]
    for i, o in enumerate(r.outcomes):
        st = o.state
        out.append(f"## step {i}, now: {RULESET.phase_label(st)}")
        for seat, text in sorted(o.applied.items()):
            out.append(f"orders {seat}: " + " | ".join(text.strip().splitlines()))
        for e in o.events:
            who = "all" if e.to is None else ",".join(e.to)
            out.append(f"[{who}] {e.text}")
        for seat in [*SEATS, None]:
            v = canonical_json(RULESET.view(st, seat))
            out.append(f"view {seat or 'public'}: {hashlib.sha256(v.encode()).hexdigest()[:16]}")
        out.append(RULESET.board_text(RULESET.view(st, None)).rstrip())
        out.append("")
    return "\n".join(out) + "\n", r.outcomes


def english(result: dict) -> dict:
    """The result as the golden file has it: its English text (the reason's message, kept
    beside it for other languages, is no part of the English transcript)."""
    return {k: v for k, v in result.items() if k != "reason_msg"}


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {path} is missing; run with PBEM_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_golden_replay():
    text, outcomes = transcript()
    assert RULESET.round_number(outcomes[-1].state) >= 10
    check_golden("replay-advanced-3p.txt", text)


def _context(outcome, seat, step):
    view = RULESET.view(outcome.state, seat)
    prompt = outcome.awaiting.get(seat) if seat else None
    return {
        "game": {"name": "golden", "ruleset": RULESET.id, "title": RULESET.title,
                 "variant": "advanced", "status": "running"},
        "seat": seat, "step": step, "phase": RULESET.phase_label(outcome.state), "round": 1,
        "happened": {"number": step - 1, "phase": "", "events": [
            e.text for e in outcome.events if e.visible(seat) and e.kind != OUTCOME],
            "outcomes": [dict(e.data) for e in outcome.events
                         if e.visible(seat) and e.kind == OUTCOME],
            "rolls": [r.to_json() for r in outcome.rolls if r.visible(seat)],
            "defaulted": [], "file_hashes": {}, "orders_digest": "", "seed": None,
            "commitment": ""},
        "view": view, "board_text": RULESET.board_text(view),
        "board_svg": RULESET.board_svg(view), "awaited": sorted(outcome.awaiting),
        "prompt": prompt.to_json() if prompt else None,
        "skeleton": "\n".join(prompt.skeleton) if prompt else None, "deadline": None,
        "commitment": "c0ffee", "master_seed": None,
        "result": outcome.result.to_json() if outcome.result else None,
    }


def test_templates_render_for_every_seat():
    _, outcomes = transcript()
    picks = [1, 2, len(outcomes) // 2, len(outcomes) - 1]
    for i in picks:
        for seat in [*SEATS, None]:
            ctx = _context(outcomes[i], seat, i)
            txt = render_report(ctx, fmt="text")
            html = render_report(ctx, fmt="html")
            assert "<svg" in html and "Felvidék:" in txt
            if seat:
                assert "Your treasury" in txt
    check_golden("report-step2-erdely.txt", render_report(_context(outcomes[2], "erdely", 2)))


@pytest.mark.parametrize("seat", [*SEATS, None])
def test_svg_is_well_formed(seat):
    _, outcomes = transcript()
    svg = RULESET.board_svg(RULESET.view(outcomes[-1].state, seat))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
