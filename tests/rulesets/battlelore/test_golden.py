"""Golden replay: a whole Agincourt game by the random bot with a fixed seed, through the
public API, compared step by step with the reviewed transcript in golden/.
Regenerate with PBEM_REGEN_GOLDEN=1 and review the diff."""

from __future__ import annotations

import hashlib
import os
import pathlib

import pytest

from pbem.core.engine import canonical_json
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.reports.render import render_report
from pbem.rulesets.battlelore import RULESET
from pbem.rulesets.battlelore.data import SEATS

GOLDEN = pathlib.Path(__file__).parent / "golden"


def transcript(variant: str, seed: int, options: dict | None = None) -> tuple[str, int]:
    p = play(RULESET, GameConfig(SEATS, variant, options or {}), seed, keep=True)
    out = []
    for i, o in enumerate(p.outcomes):
        st = o.state
        out.append(f"=== step {i}: {RULESET.phase_label(st)}")
        for seat, text in sorted(o.applied.items()):
            out.append(f"--- orders {seat}:")
            out += ["    " + x for x in text.splitlines()]
        for r in o.rolls:
            if r.visible_to is None:
                out.append(f"  roll: {r.purpose} = {r.value}")
        for seat in (*SEATS, None):
            evs = [e.text for e in o.events if e.visible(seat)]
            v = canonical_json(RULESET.view(st, seat))
            out.append(f"--- {seat or 'public'}: view {hashlib.sha256(v.encode()).hexdigest()[:16]}")
            out += ["  " + e for e in evs]
        out.append(RULESET.board_text(RULESET.view(st, None)))
    # the English text as reviewed: the reason's message record (for other languages) aside
    result = {k: v for k, v in p.result.to_json().items() if k != "reason_msg"} \
        if p.result else None
    out.append(f"RESULT {result}")
    return "\n".join(out) + "\n", p.rounds


def check(name: str, variant: str, seed: int, options: dict | None = None) -> None:
    text, rounds = transcript(variant, seed, options)
    assert rounds >= 10
    path = GOLDEN / name
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1" or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_agincourt() -> None:
    check("agincourt_seed0.txt", "agincourt", 0)


@pytest.mark.parametrize("variant,seed,step", [("agincourt", 3, 5), ("spiders_lair", 11, 1),
                                               ("spiders_lair", 11, 12)])
def test_templates_render_for_each_seat(variant: str, seed: int, step: int) -> None:
    p = play(RULESET, GameConfig(SEATS, variant, {"decisions": "ask"}), seed, keep=True)
    st = p.outcomes[step].state
    for seat in SEATS:
        v = RULESET.view(st, seat)
        prompt = RULESET.awaiting(st).get(seat)
        ctx = {"game": {"name": "g1", "ruleset": "battlelore", "title": "BattleLore",
                        "variant": variant, "status": "running"},
               "seat": seat, "step": 5, "phase": RULESET.phase_label(st), "round": 3,
               "happened": None, "view": v, "board_text": RULESET.board_text(v),
               "board_svg": RULESET.board_svg(v), "awaited": sorted(RULESET.awaiting(st)),
               "prompt": prompt.to_json() if prompt else None,
               "skeleton": "\n".join(prompt.skeleton) if prompt else None, "deadline": None,
               "commitment": "abc", "master_seed": None, "result": None}
        for fmt in ("text", "html"):
            text = render_report(ctx, fmt=fmt)
            assert "Victory Banners" in text
            assert v["hand"][0]["id"] in text
            if fmt == "text":
                assert all(f"  {u['id']} {u['owner']} " in text for u in v["units"])
            other = "south" if seat == "north" else "north"
            hidden = set(st["hands"][other]) - set(st["hands"][seat])
            assert not any(f"<b>{c}</b>" in text or f" {c} (" in text for c in hidden)
    assert RULESET.board_svg(RULESET.view(st, None)).startswith("<svg")


def test_golden_spiders_lair_ask() -> None:
    """War Council, keep and place steps, Lore cards, the spider and question steps."""
    check("spiders_lair_seed11_ask.txt", "spiders_lair", 11, {"decisions": "ask"})
