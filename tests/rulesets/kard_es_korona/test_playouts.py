"""Random playouts: every game ends with a result, invariants hold after every step, the
same seed gives the same game, and views leak nothing hidden (re-dealing what a seat cannot
see leaves its view byte-identical)."""

from __future__ import annotations

import json
import random

import pytest

from pbem.core.engine import StepOutcome, canonical_json
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.rules.setup import DEFAULT_SEATS
from pbem.rulesets.kard_es_korona.state import total

from .helpers import RULESET

CONFIGS = [(n, v) for v in ("basic", "advanced") for n in range(2, 7)]
EXTRA = [
    (("tiszahat", "delvidek", "pannonia"), "basic", {}),
    (("felvidek", "tiszahat", "delvidek", "szlavonia"), "basic", {"decisions": "ask"}),
    (("tiszahat", "erdely", "szlavonia", "pannonia"), "advanced", {"decisions": "ask"}),
    (("erdely", "pannonia"), "basic", {"fealty": False, "escape_roll": True}),
    (("felvidek", "erdely", "szlavonia"), "advanced", {"decisions": "ask", "fealty": True}),
    (DEFAULT_SEATS[4], "basic", {"movement": "traditional"}),
    (DEFAULT_SEATS[6], "advanced", {"movement": "traditional", "decisions": "ask"}),
    (DEFAULT_SEATS[5], "basic", {"cavalry_cap": False, "lord_freeze": True, "years": 10}),
    (DEFAULT_SEATS[3], "advanced", {"movement": "strict", "decisions": "ask"}),
    (("felvidek", "pannonia"), "advanced", {"neutral_placement": "players",
                                            "control_model": "persistent"}),
]


class Checker:
    """Invariants after every step: the position's problems and warnings (castle limits,
    lords with their units, card conservation, money), owners in the game, pending battles
    only while a question is open, and no unit from nowhere."""

    def __init__(self) -> None:
        self.prev_units: int | None = None

    def __call__(self, out: StepOutcome) -> None:
        st = out.state
        assert RULESET.position_problems(st) == []
        assert RULESET.position_warnings(st) == []
        gm = game_map(st["version"])
        units = 0
        for c, s in st["board"].items():
            assert c in gm.counties and c not in st["out_of_play"], c
            owner = s["owner"]
            if owner in st["players"]:
                assert st["players"][owner]["status"] != "out", (c, owner)
            units += total(s["units"])
        for b in st["battles"]:
            assert st["pause"] is not None or st["phase"] == "over", \
                "battles pending outside phase IV"
            units += total(b["army"])
        # conservation: units appear only by recruitment, cards or set-up
        gained = sum(e.data.get("count", 0) for e in out.events if e.kind == "recruit")
        gained += sum(e.text.count("gains 1 infantry") for e in out.events if e.kind == "card")
        if self.prev_units is not None and st["phase"] != "deploy" and not any(
                e.kind == "deploy" for e in out.events):
            assert units <= self.prev_units + gained, (units, self.prev_units, gained)
        self.prev_units = units
        if out.result is not None:
            assert set(out.result.winners) <= set(st["seats"])
            assert all(v >= 0 for v in out.result.scores.values())
            assert not out.awaiting


def run(seats, variant, seed, options=None):
    return play(RULESET, GameConfig(seats=seats, variant=variant, options=options or {}), seed,
                check=Checker())


@pytest.mark.parametrize("n,variant", CONFIGS)
def test_random_playouts(n, variant):
    games = 19 if variant == "basic" else 17
    for seed in range(games):
        r = run(DEFAULT_SEATS[n], variant, seed)
        assert r.result is not None


@pytest.mark.parametrize("seats,variant,options", EXTRA)
def test_random_playouts_other_setups_and_options(seats, variant, options):
    for seed in range(4):
        r = run(seats, variant, 100 + seed, options)
        assert r.result is not None


@pytest.mark.nightly
@pytest.mark.parametrize("n,variant", CONFIGS)
def test_random_playouts_nightly(n, variant):
    for seed in range(1000, 1200):
        assert run(DEFAULT_SEATS[n], variant, seed).result is not None


def test_determinism():
    a = run(DEFAULT_SEATS[4], "basic", 7)
    b = run(DEFAULT_SEATS[4], "basic", 7)
    c = run(DEFAULT_SEATS[4], "basic", 8)
    assert a.final_digest == b.final_digest
    assert a.final_digest != c.final_digest


def _states(seats, variant, seed, options=None):
    r = play(RULESET, GameConfig(seats=seats, variant=variant, options=options or {}), seed,
             keep=True)
    return [o.state for o in r.outcomes]


@pytest.mark.parametrize("seats,variant,options", [
    (DEFAULT_SEATS[3], "basic", {}), (DEFAULT_SEATS[6], "advanced", {}),
    (DEFAULT_SEATS[4], "basic", {"decisions": "ask"}),
    (DEFAULT_SEATS[3], "basic", {"movement": "strict"})])
def test_no_leaks(seats, variant, options):
    rng = random.Random(5)
    changed = 0
    for state in _states(seats, variant, 3, options):
        for seat in [*state["seats"], None]:
            other = RULESET.redeal_hidden(state, seat, rng)
            assert canonical_json(RULESET.view(other, seat)) == \
                canonical_json(RULESET.view(state, seat))
            if canonical_json(other) != canonical_json(state):
                changed += 1
            assert RULESET.board_text(RULESET.view(other, seat)) == \
                RULESET.board_text(RULESET.view(state, seat))
    assert changed > 0


def test_views_hide_treasuries_during_elections():
    for state in _states(DEFAULT_SEATS[3], "basic", 11):
        if state["phase"] != "bid":
            continue
        me = state["seats"][0]
        v = RULESET.view(state, me)
        assert v["players"][me]["treasury"] == state["players"][me]["treasury"]
        assert all(v["players"][s]["treasury"] is None for s in state["seats"] if s != me)
        assert "standing" not in json.dumps(RULESET.view(state, None))
        return
    pytest.skip("no election reached")


def test_json_round_trip_of_every_state():
    for state in _states(DEFAULT_SEATS[5], "advanced", 2):
        assert canonical_json(RULESET.load(json.loads(canonical_json(RULESET.dump(state))))) \
            == canonical_json(state)


@pytest.mark.parametrize("seats,variant,options", [
    (DEFAULT_SEATS[3], "basic", {"decisions": "ask", "neutral_placement": "players"}),
    (DEFAULT_SEATS[6], "advanced", {"movement": "strict", "decisions": "ask"})])
def test_bot_orders_always_parse(seats, variant, options):
    rng = random.Random(9)
    for state in _states(seats, variant, 6, options):
        for seat in RULESET.awaiting(state):
            text = "\n".join(RULESET.legal_orders(state, seat, rng))
            parsed = RULESET.parse(state, seat, text)
            assert parsed.ok, parsed.echo()
