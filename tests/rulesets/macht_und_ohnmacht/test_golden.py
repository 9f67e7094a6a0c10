"""Golden replay: a whole game (random bot, fixed seed, decisions=ask so every decision
step appears) of at least 10 cycles through the public API, its per-step transcript
(phase label, events each seat sees, digest of each seat's view, the public board text)
and two rendered reports compared with reviewed files. Regenerate with
PBEM_REGEN_GOLDEN=1 and review the diff."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from pbem.core.engine import StepOutcome
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.reports.render import render_report

from .helpers import RS, canon

GOLDEN = Path(__file__).parent / "golden"
SEATS = ("orange", "white")
SEED = 97  # 12 cycles; bid, effect and serpent steps, a tie, every lightning kind, IF skips


def _game() -> list[StepOutcome]:
    p = play(RS, GameConfig(SEATS, "standard", {"decisions": "ask"}), SEED, keep=True)
    assert p.result is not None and p.rounds >= 10
    return p.outcomes


def transcript(outcomes: list[StepOutcome]) -> str:
    out: list[str] = []
    for i, o in enumerate(outcomes):
        out.append(f"=== step {i}: {RS.phase_label(o.state)}")
        if o.applied:
            for seat, text in sorted(o.applied.items()):
                out.append(f"--- {seat} sent: " + " / ".join(text.strip().splitlines()))
        for seat in (*SEATS, None):
            seen = [e.text for e in o.events if e.visible(seat)]
            digest = hashlib.sha256(canon(RS.view(o.state, seat)).encode()).hexdigest()[:16]
            out.append(f"--- {seat or 'public'} view {digest}")
            out += [f"  {t}" for t in seen if seat is None or not _public(o, t)]
        out.append(RS.board_text(RS.view(o.state, None)))
    if outcomes[-1].result:
        r = outcomes[-1].result
        out.append(f"=== result: {', '.join(r.winners)} {dict(r.scores)} {r.reason}")
    return "\n".join(out) + "\n"


def _public(o: StepOutcome, text: str) -> bool:
    return any(e.text == text and e.to is None for e in o.events)


def report_context(o: StepOutcome, seat: str | None, step: int) -> dict[str, Any]:
    view = RS.view(o.state, seat)
    prompt = o.awaiting.get(seat) if seat else None
    return {
        "game": {"title": RS.title, "name": "golden", "ruleset": RS.id},
        "step": step, "phase": RS.phase_label(o.state), "seat": seat,
        "happened": {"number": step, "phase": "",
                     "events": [e.text for e in o.events if e.visible(seat) and e.kind != OUTCOME],
                     # what became of each line of the seat's own files (as the service does)
                     "outcomes": [dict(e.data) for e in o.events
                                  if e.visible(seat) and e.kind == OUTCOME],
                     "rolls": [r for r in o.rolls if r.visible(seat)], "defaulted": [],
                     "file_hashes": o.file_hashes, "orders_digest": o.orders_digest,
                     "seed": None, "commitment": None},
        "view": view, "board_text": RS.board_text(view), "board_svg": RS.board_svg(view),
        "result": o.result, "prompt": prompt, "awaited": sorted(o.awaiting),
        "deadline": None, "commitment": "c0ffee",
        "skeleton": "\n".join(prompt.skeleton) if prompt else "", "master_seed": None,
    }


def _compare(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with PBEM_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from the golden file"


def test_golden_replay() -> None:
    outcomes = _game()
    _compare("replay.txt", transcript(outcomes))
    mid = 5
    _compare("report_orange_step5.txt",
             render_report(report_context(outcomes[mid], "orange", mid), fmt="text"))
    _compare("report_public_final.txt",
             render_report(report_context(outcomes[-1], None, len(outcomes) - 1), fmt="text"))


def test_html_report_has_the_board_picture() -> None:
    outcomes = _game()
    html = render_report(report_context(outcomes[5], "white", 5), fmt="html")
    assert "<svg" in html and 'id="region-mer"' in html and 'id="players"' in html
    assert html.count("<circle") >= 30  # a region disc and a marker per region
