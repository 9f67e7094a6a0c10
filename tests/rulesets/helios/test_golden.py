"""Golden replays: three whole games (2, 3 and 4 players: 11 game rounds in all) played
by the random bot with fixed seeds through the public API. The per-step transcript (phase
label, the events each seat sees, a digest of each seat's view, the public board text)
must match the reviewed files in golden/ (board text every step for 2 players, at phase
changes for 3 and 4). Regenerate with PBEM_REGEN_GOLDEN=1 and review.
Also renders the text and HTML reports from views."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.reports.render import render_report
from pbem.rulesets.helios import RULESET
from tests.support.outcome_report import outcome_context

from .helpers import SEATS, canon

GOLDEN = Path(__file__).parent / "golden"


def transcript(n: int, seed: int) -> str:
    pl = play(RULESET, GameConfig(SEATS[n], "standard"), seed, keep=True)
    out: list[str] = [f"# Helios golden replay: {n} players, selfplay seed {seed}, "
                      f"{pl.steps} steps, {pl.rounds} rounds"]
    for i, o in enumerate(pl.outcomes):
        out.append(f"\n=== step {i}: {RULESET.phase_label(o.state)} ===")
        for seat, text in sorted(o.applied.items()):
            out.append(f"orders {seat}: " + " | ".join(t for t in text.splitlines() if t))
        for seat in (*SEATS[n], None):
            seen = [e.text for e in o.events if e.visible(seat)]
            v = RULESET.view(o.state, seat)
            digest = hashlib.sha256(canon(v).encode()).hexdigest()[:16]
            out.append(f"-- {seat or 'public'}: view {digest}")
            out.extend(f"   {line}" for line in seen)
        out.append(f"awaiting: {', '.join(sorted(o.awaiting)) or '-'}")
        # the board every step for 2 players; at phase changes for 3 and 4 (file size)
        if n == 2 or i == 0 or o.state["phase"] != pl.outcomes[i - 1].state["phase"]:
            out.append(RULESET.board_text(RULESET.view(o.state, None)))
    if pl.result:
        # the English result as reviewed (its stored message, `reason_msg`, is not text)
        result = {k: v for k, v in pl.result.to_json().items() if k != "reason_msg"}
        out.append(f"\nRESULT {result}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("n,seed", [(2, 11), (3, 12), (4, 13)])
def test_golden_replay(n, seed):
    path = GOLDEN / f"helios_{n}p.txt"
    text = transcript(n, seed)
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1" or not path.exists():
        if not os.environ.get("PBEM_REGEN_GOLDEN") == "1":
            pytest.fail(f"{path.name} is missing; run with PBEM_REGEN_GOLDEN=1 and review it")
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def context(out, seat):
    return outcome_context(RULESET, out, seat)


def test_reports_render_from_views():
    pl = play(RULESET, GameConfig(SEATS[2], "standard"), 11, keep=True)
    for out in (pl.outcomes[3], pl.outcomes[-1]):
        for seat in (*SEATS[2], None):
            txt = render_report(context(out, seat), fmt="text")
            html = render_report(context(out, seat), fmt="html")
            assert "HELIOS" in txt and "<svg" in html
            if seat:
                assert f"Your position ({seat})" in txt
    full = render_report(context(pl.outcomes[-1], "north"), fmt="text")
    assert "Final scoring" in full
    # only our block is pinned: the shared layout around it belongs to the mail package
    final = full.split("== The game as you see it ==", 1)[1].split("== The game is over ==")[0]
    path = GOLDEN / "helios_report_north_final.txt"
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1":
        path.write_text(final, encoding="utf-8")
    assert final == path.read_text(encoding="utf-8")


def test_report_tells_a_seat_off_turn_it_may_send_its_turns_now():
    pl = play(RULESET, GameConfig(SEATS[2], "standard"), 11, keep=True)
    out = next(o for o in pl.outcomes if o.state["phase"] == "actions" and not o.state["pause"])
    cur = next(iter(out.awaiting))
    idle = next(s for s in SEATS[2] if s != cur)
    for fmt in ("text", "html"):
        assert "send your coming turns now" in render_report(context(out, idle), fmt=fmt)
        assert "send your coming turns now" not in render_report(context(out, cur), fmt=fmt)
