"""Random playouts with the random bot: every game ends with a result, invariants hold
after every step, JSON round trip, determinism, and the leak test (re-dealing what a
seat cannot see changes nothing in its view)."""

from __future__ import annotations

import json
import random

import pytest

from pbem.core.engine import StepOutcome
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play

from .helpers import RS, canon, conservation, phase

SEATS = ("orange", "white")
CONFIGS = [
    {},
    {"decisions": "ask"},
    {"start_tiebreak": "previous_cycle", "win_regions": "all"},
    {"decisions": "ask", "simultaneous_win": "draw", "sea_destination_coastal": "yes"},
]


def _check(out: StepOutcome) -> None:
    state = out.state
    conservation(state)
    assert json.loads(out.state_json) == RS.dump(state)
    if phase(state) == "over":
        assert out.result is not None and not out.awaiting
        totals = state["result"]["scores"]
        assert max(totals.values()) >= 12
    else:
        assert out.awaiting
        assert state["hourglass"] > 0 or phase(state) != "turn"
    for seat in SEATS:
        json.dumps(RS.view(state, seat))


@pytest.mark.parametrize("cfg", range(len(CONFIGS)))
def test_random_playouts(cfg: int) -> None:
    config = GameConfig(SEATS, "standard", CONFIGS[cfg])
    steps = rounds = 0
    for seed in range(50):
        p = play(RS, config, 1000 * cfg + seed, check=_check)
        assert p.result is not None and p.result.winners
        steps += p.steps
        rounds += p.rounds
    assert steps / rounds < 12  # steps per cycle stay reasonable


@pytest.mark.nightly
@pytest.mark.parametrize("cfg", range(len(CONFIGS)))
def test_random_playouts_nightly(cfg: int) -> None:
    config = GameConfig(SEATS, "standard", CONFIGS[cfg])
    for seed in range(500):
        p = play(RS, config, 50_000 + 1000 * cfg + seed, check=_check)
        assert p.result is not None


def test_determinism() -> None:
    for cfg in (0, 1):
        config = GameConfig(SEATS, "standard", CONFIGS[cfg])
        a = play(RS, config, 7)
        b = play(RS, config, 7)
        assert a.final_digest == b.final_digest and a.steps == b.steps
        c = play(RS, config, 8)
        assert c.final_digest != a.final_digest


def test_leak_redeal_hidden() -> None:
    rng = random.Random(5)
    changed = 0
    for seed in range(6):
        config = GameConfig(SEATS, "standard", CONFIGS[seed % 2])
        p = play(RS, config, 300 + seed, keep=True)
        for out in p.outcomes[::3]:
            state = out.state
            for seat in (*SEATS, None):
                other = RS.redeal_hidden(state, seat, rng)
                assert canon(RS.view(other, seat)) == canon(RS.view(state, seat))
                if seat is not None:
                    assert RS.board_text(RS.view(other, seat)) == RS.board_text(
                        RS.view(state, seat))
                changed += canon(RS.dump(other)) != canon(RS.dump(state))
    assert changed > 0


def test_standing_orders_are_hidden_from_the_opponent() -> None:
    config = GameConfig(SEATS, "standard", {})
    p = play(RS, config, 11, keep=True)
    state = p.outcomes[0].state
    state["standing"]["white"]["serpent"] = ["SERPENT EVERY seize"]
    assert "SERPENT EVERY seize" not in json.dumps(RS.view(state, "orange"))
    assert "SERPENT EVERY seize" not in json.dumps(RS.view(state, None))
    assert "SERPENT EVERY seize" in json.dumps(RS.view(state, "white"))


def test_prompts_skeletons_and_nmr_defaults_parse() -> None:
    """In every step of a few games: each awaited seat's skeleton and its NMR default
    orders parse cleanly, and resolving the NMR defaults works (engine, force)."""
    from pbem.core.engine import process

    phases = set()
    for seed in range(4):
        config = GameConfig(SEATS, "standard", CONFIGS[1])
        p = play(RS, config, 600 + seed, keep=True)
        for out in p.outcomes[:-1]:
            phases.add(phase(out.state))
            for seat, prompt in out.awaiting.items():
                assert RS.parse(out.state, seat, "\n".join(prompt.skeleton)).ok
                nmr = RS.default_orders(out.state, seat)
                assert nmr.ok and nmr.orders, (phase(out.state), nmr.echo())
            nxt = process(RS, out.state_json, {}, seed=b"nmr")
            _check(nxt)
    assert {"turn", "bid"} <= phases


def test_a_game_of_nmr_only_ends() -> None:
    """Nobody ever sends orders: every action is a RECRUIT, both players score every
    cycle, both reach 12 together with a full tie, and the tie safeguard ends it."""
    from pbem.core.engine import process, set_up

    out = set_up(RS, GameConfig(SEATS, "standard", {}), b"master")
    steps = 0
    while out.awaiting:
        steps += 1
        assert steps < 2000
        out = process(RS, out.state_json, {}, seed=steps.to_bytes(4, "big"))
        _check(out)
    assert out.result is not None and set(out.result.winners) == set(SEATS)
    assert "engine safeguard" in out.result.reason
    assert out.state["cycle"] == 12 + 4
