"""Random playouts: every game ends, invariants hold after every step, JSON round trip,
determinism, and the leak test (re-dealing hidden cards changes no view of that seat)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pbem.core.dice import HmacDice
from pbem.core.engine import StepOutcome, canonical_json
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.battlelore.board import ALL_HEXES, hex_name
from pbem.rulesets.battlelore.data import SEATS, data

from .helpers import R

RULESET = R
VARIANTS = [v.id for v in R.variants]


def invariants(out: StepOutcome) -> None:
    """After every step: a legal position (position.problems), its invariants hold
    (position.warnings: piece and card conservation, banners, full hands between turns,
    Lore tokens), every pre-filled skeleton parses, an awaited seat or a result."""
    s = out.state
    assert R.position_problems(s) == []
    assert R.position_warnings(s) == []
    for seat, prompt in out.awaiting.items():  # every pre-filled skeleton is a valid script
        parsed = R.parse(s, seat, "\n".join(prompt.skeleton))
        assert parsed.ok, parsed.echo()
    if out.result is None:
        assert out.awaiting
    else:
        w = out.result.winners[0]
        assert s["banners"][w] >= s["victory"][w]
    assert json.loads(out.state_json) == s


def _games(variant: str, seeds: range, **options: Any) -> list[Any]:
    cfg = GameConfig(SEATS, variant, options)
    return [play(RULESET, cfg, seed, check=invariants) for seed in seeds]


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_end_with_a_result(variant: str) -> None:
    n = 200 // len(VARIANTS) + 1
    for p in _games(variant, range(n)):
        assert p.result is not None and p.result.winners


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_in_ask_mode(variant: str) -> None:
    for p in _games(variant, range(100, 112), decisions="ask"):
        assert p.result is not None


def test_determinism() -> None:
    cfg = GameConfig(SEATS, VARIANTS[0])
    a = play(RULESET, cfg, 7)
    b = play(RULESET, cfg, 7)
    assert a.final_digest == b.final_digest
    c = play(RULESET, cfg, 8)
    assert c.final_digest != a.final_digest


@pytest.mark.parametrize("variant", VARIANTS)
def test_leak_redeal_changes_no_view(variant: str) -> None:
    rng = random.Random(5)
    changed = 0
    for seed in range(2):
        p = play(RULESET, GameConfig(SEATS, variant, {"decisions": "ask"}), seed, keep=True)
        for out in p.outcomes[::4]:
            for seat in SEATS:
                r = RULESET.redeal_hidden(out.state, seat, rng)
                assert canonical_json(RULESET.view(r, seat)) == canonical_json(
                    RULESET.view(out.state, seat))
                other = "south" if seat == "north" else "north"
                if r["hands"][other] != out.state["hands"][other]:
                    changed += 1
            for ev in out.events:  # private events go to one seat, never to the public
                assert ev.to is None or len(ev.to) == 1
    assert changed > 0


@pytest.mark.nightly
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_playouts_nightly(variant: str, request: pytest.FixtureRequest) -> None:
    if "nightly" not in (request.config.getoption("-m") or ""):
        pytest.skip("nightly only (-m nightly)")
    for p in _games(variant, range(1000, 1300)):
        assert p.result is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_bot_orders_parse_cleanly(variant: str) -> None:
    """legal_orders writes lines the parser accepts in every step of a game."""
    rng = random.Random(3)
    p = play(RULESET, GameConfig(SEATS, variant, {"decisions": "ask"}), 21, keep=True)
    for out in p.outcomes:
        for seat in out.awaiting:
            lines = RULESET.legal_orders(out.state, seat, rng)
            parsed = RULESET.parse(out.state, seat, "\n".join(lines))
            assert parsed.ok, parsed.echo()


def test_fuzzed_scripts_resolve_without_errors() -> None:
    """Odd but well-formed scripts (wrong units, far hexes, unplayable cards) never break
    resolution: illegal lines are skipped with an event."""
    rng = random.Random(11)
    lore_ids = sorted(data("lore_cards")["cards"])
    for variant in VARIANTS:
        p = play(RULESET, GameConfig(SEATS, variant), 5, keep=True)
        for out in p.outcomes[::2]:
            st = out.state
            if st["phase"] != "turn":
                continue
            seat = st["active"]
            mine = sorted(u for u, x in st["units"].items() if x["owner"] == seat) or ["N1"]
            foes = sorted(u for u, x in st["units"].items() if x["owner"] != seat) or ["S1"]
            lines = [f"PLAY {rng.choice(st['hands'][seat])}"]
            for _ in range(rng.randint(1, 8)):
                u, f = rng.choice(mine), rng.choice(foes)
                h = hex_name(rng.choice(ALL_HEXES))
                lines.append(rng.choice([
                    f"ORDER {u}", f"MOVE {u} {h}", f"RUSH {u} {h} AT {f}",
                    f"BATTLE {u} {f} OR ANY PURSUE {h} BONUS {f}", f"BATTLE {u} ANY HOLD",
                    f"DRILL {u}", f"FREE {u}", f"PASSAGE {u} {h}", "REPLENISH CARDS",
                    f"LORE {rng.choice(lore_ids)} ON {rng.choice([u, f])} TO {h}",
                    f"REACT {rng.choice(lore_ids)} ON ANY", "IGNORE NONE", "BATTLEBACK 9",
                    f"MOVE {u} {h} VIA {hex_name(rng.choice(ALL_HEXES))}",
                    f"BATTLE {u} ANY PURSUE {h} OR {hex_name(rng.choice(ALL_HEXES))} STAY",
                    f"RETREAT {h} {hex_name(rng.choice(ALL_HEXES))}", "IGNORE 1", "REACT NONE"]))
            parsed = RULESET.parse(st, seat, "\n".join(lines))
            state = RULESET.load(RULESET.dump(st))
            new, events = RULESET.resolve(state, {seat: parsed}, HmacDice(b"f" * 32, "x"))
            assert new["phase"] in ("turn", "over") and events
