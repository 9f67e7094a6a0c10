"""The pure step engine, exercised with the test game: sealed and sequential steps,
defaults, JSON round trips, determinism, leaks."""

from __future__ import annotations

import json
import random

import pytest
from fixture_game import RULESET as G

from pbem.core.dice import ScriptedDice, step_seed
from pbem.core.engine import MissingOrders, StepOutcome, canonical_json, process, set_up
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play

CFG = GameConfig(("north", "south"), "standard")


def test_setup_is_deterministic_and_hidden_draws_keep_the_seed_secret() -> None:
    a = set_up(G, CFG, b"m")
    b = set_up(G, CFG, b"m")
    assert a.state_json == b.state_json
    assert set(a.awaiting) == {"north", "south"}  # round 1 is sealed: both at once
    assert not a.seed_public  # the deal is hidden
    assert set_up(G, CFG, b"other").state_json != a.state_json


def test_sealed_then_sequential_steps_and_tie_break_with_scripted_dice() -> None:
    out = set_up(G, CFG, b"m")
    state = json.loads(out.state_json)
    state["hands"] = {"north": [5, 9, 12], "south": [1, 9, 11]}
    state["pile"] = [2, 3, 4, 6, 7, 8, 10]
    sj = canonical_json(state)
    # Both play 9: tie; dice 3 v 3 (tie again), then 2 v 5: south wins 9. Draws: pick 0, 0.
    dice = ScriptedDice([3, 3, 2, 5, 0, 0])
    res = process(G, sj, {"north": "PLAY 9\n", "south": "PLAY 9\n"}, seed=b"s", dice=dice)
    assert res.state.get("scores") == {"north": 0, "south": 9}
    assert [r.purpose for r in res.rolls][:4] == [
        "tie-break north, round 1, try 1", "tie-break south, round 1, try 1",
        "tie-break north, round 1, try 2", "tie-break south, round 1, try 2"]
    assert res.state["hands"] == {"north": [2, 5, 12], "south": [1, 3, 11]}
    assert list(res.awaiting) == ["north"]  # round 2 is played in turn, north first
    draw_events = [e for e in res.events if e.kind == "draw"]
    assert {e.to for e in draw_events} == {("north",), ("south",)}


def test_missing_orders_raise_unless_forced_and_defaults_are_recorded() -> None:
    out = set_up(G, CFG, b"m")
    with pytest.raises(MissingOrders):
        process(G, out.state_json, {"north": "PLAY 1\n"}, seed=b"s", force=False)
    hand = json.loads(out.state_json)["hands"]["north"]
    res = process(G, out.state_json, {"north": f"PLAY {hand[0]}\n"}, seed=b"s")
    assert res.defaulted == ["south"]
    assert res.applied["south"].startswith("PLAY ")
    assert set(res.file_hashes) == {"north", "south"}


def test_orders_change_the_dice() -> None:
    """The step's numbers depend on the locked orders (the digest is in the HMAC)."""
    out = set_up(G, CFG, b"m")
    hands = json.loads(out.state_json)["hands"]
    seed = step_seed(b"m", 1)
    a = process(G, out.state_json, {"north": f"PLAY {hands['north'][0]}\n",
                                    "south": f"PLAY {hands['south'][0]}\n"}, seed=seed)
    b = process(G, out.state_json, {"north": f"PLAY {hands['north'][0]}\n# a comment\n",
                                    "south": f"PLAY {hands['south'][0]}\n"}, seed=seed)
    assert a.orders_digest != b.orders_digest


def _invariants(out: StepOutcome) -> None:
    s = out.state
    cards = list(s["pile"]) + [c for h in s["hands"].values() for c in h]
    cards += list(s["played"].values())
    assert len(cards) == len(set(cards)) and set(cards) <= set(range(1, 13))
    assert sum(s["scores"].values()) <= sum(range(1, 13))
    assert json.loads(out.state_json) == G.dump(G.load(json.loads(out.state_json)))


@pytest.mark.parametrize("players,variant", [(2, "standard"), (3, "standard"), (2, "long")])
def test_random_playouts_end_with_results_and_are_deterministic(players: int, variant: str) -> None:
    cfg = GameConfig(G.seat_ids(players, variant), variant)
    for seed in range(70):
        p = play(G, cfg, seed, check=_invariants)
        assert p.result is not None and p.result.winners
        if seed % 10 == 0:
            assert play(G, cfg, seed).final_digest == p.final_digest


def test_leak_redealing_hidden_parts_changes_no_other_view() -> None:
    cfg = GameConfig(("north", "south", "east"), "standard")
    rng = random.Random(1)
    changed = 0
    for seed in range(20):
        for out in play(G, cfg, seed, keep=True).outcomes:
            for seat in cfg.seats:
                other = G.redeal_hidden(out.state, seat, rng)
                assert canonical_json(G.view(other, seat)) == canonical_json(G.view(out.state, seat))
                changed += other != out.state
    assert changed > 0  # the re-deal really moved hidden cards


def test_setup_may_report_events() -> None:
    from pbem.core.engine import SetupResult
    from pbem.core.events import Event

    class WithEvents(type(G)):  # type: ignore[misc]
        def setup(self, config, dice):  # type: ignore[no-untyped-def]
            state = super().setup(config, dice)
            return SetupResult(state, (Event("start", "north starts"),))

    out = set_up(WithEvents(), CFG, b"m")
    assert [e.text for e in out.events] == ["north starts"]
    assert out.state_json == set_up(G, CFG, b"m").state_json


def test_the_round_trip_check_catches_a_state_that_does_not_reload() -> None:
    """Live steps skip the check (verify=False); tests, selfplay and `archive verify` run it."""

    class Lossy(type(G)):  # type: ignore[misc]
        def load(self, data):  # type: ignore[no-untyped-def]
            state = super().load(data)
            state["pile"] = state["pile"][:-1]  # loses a card on every reload
            return state

    lossy = Lossy()
    set_up(lossy, CFG, b"m", verify=False)  # live: not checked
    with pytest.raises(AssertionError, match="round-trip"):
        set_up(lossy, CFG, b"m")
