"""Random playouts: every game ends with a result, invariants hold after every step,
the JSON round trip is exact, same seed -> same game, and views leak nothing."""

from __future__ import annotations

import json
import random

import pytest

from pbem.core.engine import StepOutcome, process, set_up
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.helios import RULESET, board, bot, data
from pbem.rulesets.helios.board import unkey
from pbem.rulesets.helios.rules import scoring, supply

from .helpers import canon

SEATS = {n: RULESET.seat_ids(n, "standard") for n in (2, 3, 4)}


def check_invariants(out: StepOutcome) -> None:
    s = out.state
    # component counts, tile contents, seats (position.py) hold after every step
    assert RULESET.position_problems(s) == []
    assert RULESET.position_warnings(s) == []
    est = next((q for q in RULESET.questions(s) if q.kind == "estate"), None)
    for seat, p in s["players"].items():
        for area, tiles in p["under"].items():
            # a turn paused for Estate Manager tiles may still hold its 4th tile
            assert len(tiles) < 4 or (est and est.seat == seat)
            assert all(c in (area, "grey") for _, c in tiles)
        check_board(s, p)
    if est:  # land tiles: 36 in all, the two drawn ones awaiting placement
        on_boards = sum(1 for p in s["players"].values() for t in p["tiles"].values()
                        if t["kind"] == "land")
        shown = sum(1 for t in data.LANDS if s["display"][t]) + (1 if s["display"]["extra"] else 0)
        assert on_boards + shown + sum(s["type_piles"].values()) + len(s["extra_pile"]) \
            + s["removed_lands"] + len(est.data["tiles"]) == 36
    for ch in s["characters"].values():
        assert ch["owner"] in (None, *s["seats"]) and (ch["owner"] or not ch["active"])
    if s["options"]["enforce_component_limits"] == "yes":
        for colour in data.COLOURS:
            assert supply.cubes_in_play(s, colour) <= supply.CUBES_PER_COLOUR
        assert sum(p["mana"] for p in s["players"].values()) <= supply.MANA
        assert supply.houses_left(s) >= 0
    assert 1 <= s["round"] <= s["rounds"] == data.player_count(len(s["seats"]))["rounds"]
    if out.result is not None:
        for seat in s["seats"]:
            assert out.result.scores[seat] == scoring.final_scores(s, seat)["total"]
    else:
        assert out.awaiting
    assert json.loads(out.state_json) == s


def check_board(s, p) -> None:
    """One seat's board: connected tiles from the centre, a Sun that touches them and is
    never enclosed, sane counters."""
    tiles = frozenset(unkey(k) for k in p["tiles"])
    sun = tuple(p["sun"])
    if s["phase"] != "setup":
        seen = {(0, 0)}
        todo = [(0, 0)]
        while todo:
            c = todo.pop()
            for nb in board.neighbours(c):
                if nb in tiles and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        assert seen == set(tiles)
        assert sun not in tiles and board.reaches_ring(sun, tiles)
        assert board.add(sun, p["sun_anchor"]) in tiles
    assert p["mana"] >= 0 and p["vp"] >= 0 and p["sun_value"] >= 2
    assert p["laps"] >= max(0, p["sun_angle"] // board.FULL)
    assert len(set(p["buildings"])) == len(p["buildings"])


def games(n: int, seeds: range, options: dict | None = None, check=check_invariants):
    for seed in seeds:
        pl = play(RULESET, GameConfig(SEATS[n], "standard", options or {}), seed, check=check)
        assert pl.result is not None and pl.result.winners
        assert pl.rounds == data.player_count(n)["rounds"]
        yield pl


@pytest.mark.parametrize("n,count,options", [
    (2, 60, None), (3, 45, None), (4, 40, None), (4, 15, {"decisions": "ask"}),
    (3, 10, {"public_scores": "yes", "setup_bonus_must_differ": "yes"}),
    (4, 10, {"enforce_component_limits": "yes"}),
    (3, 10, {"phase2": "turns"}), (2, 10, {"conditional_orders": "no"}),
])
def test_random_playouts(n, count, options):
    results = list(games(n, range(count), options))
    assert len(results) == count


@pytest.mark.nightly
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_nightly(n, request):
    if "nightly" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("nightly: run with -m nightly")
    assert len(list(games(n, range(1000, 1400)))) == 400


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinism(n):
    a = play(RULESET, GameConfig(SEATS[n], "standard"), 77)
    b = play(RULESET, GameConfig(SEATS[n], "standard"), 77)
    c = play(RULESET, GameConfig(SEATS[n], "standard"), 78)
    assert a.final_digest == b.final_digest and a.steps == b.steps
    assert a.final_digest != c.final_digest


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (4, {"decisions": "ask"})])
def test_views_leak_nothing(n, options):
    rng = random.Random(n)
    changed = 0
    checked = 0
    for seed in range(3):
        pl = play(RULESET, GameConfig(SEATS[n], "standard", options), 500 + seed, keep=True)
        for out in pl.outcomes[::3]:
            for seat in (*SEATS[n], None):
                redealt = RULESET.redeal_hidden(out.state, seat, rng)
                assert canon(RULESET.view(redealt, seat)) == canon(RULESET.view(out.state, seat))
                checked += 1
                if canon(RULESET.dump(redealt)) != canon(RULESET.dump(out.state)):
                    changed += 1
                    # what was re-dealt is really hidden from this seat: others' bags
                    for other in SEATS[n]:
                        if other != seat:
                            assert "vp" not in RULESET.view(out.state, seat)["players"][other] \
                                or out.state["phase"] == "over"
            if out.result is not None:
                assert "vp" in RULESET.view(out.state, None)["players"][SEATS[n][0]]
    assert checked and changed > checked // 2


def test_public_scores_option_shows_bags():
    s = play(RULESET, GameConfig(SEATS[2], "standard", {"public_scores": "yes"}), 3, keep=True)
    mid = s.outcomes[len(s.outcomes) // 2].state
    v = RULESET.view(mid, None)
    assert all("vp" in p for p in v["players"].values())


def test_views_are_json_and_render():
    pl = play(RULESET, GameConfig(SEATS[3], "standard"), 9, keep=True)
    for out in pl.outcomes[::7]:
        for seat in (*SEATS[3], None):
            v = RULESET.view(out.state, seat)
            assert json.loads(json.dumps(v)) == v
            text = RULESET.board_text(v)
            svg = RULESET.board_svg(v)
            assert "HELIOS" in text and svg.startswith("<svg") and svg.endswith("</svg>")
            for s in SEATS[3]:
                assert f"== {s}:" in text
        assert RULESET.phase_label(out.state)


def test_mean_steps_per_round_recorded():
    """Measured number (docs/rulesets/helios.md): steps per game round in selfplay."""
    per_round = []
    for n in (2, 3, 4):
        for seed in range(5):
            pl = play(RULESET, GameConfig(SEATS[n], "standard"), seed)
            per_round.append(pl.steps / pl.rounds)
    mean = sum(per_round) / len(per_round)
    assert 2 <= mean <= 20  # at most one step per action turn plus Phase 2


@pytest.mark.parametrize("n,count", [(2, 10), (3, 10), (4, 10)])
def test_random_playouts_with_unasked_turns(n, count):
    """Seats not on turn send their coming turns unasked (accepts_unasked) at random; every
    game still ends, invariants hold after every step, and no step waits on such a seat."""
    for seed in range(count):
        rng = random.Random(seed)
        out = set_up(RULESET, GameConfig(SEATS[n], "standard"), b"u%d" % seed)
        sent = 0
        for step in range(2000):
            if out.result is not None:
                break
            texts = {s: "\n".join(bot.random_orders(out.state, s, rng)) for s in out.awaiting}
            idle = [s for s in SEATS[n] if s not in out.awaiting
                    and RULESET.accepts_unasked(out.state, s)]
            if idle and rng.random() < 0.5:
                s = rng.choice(idle)
                texts[s] = "\n".join(bot.random_orders(out.state, s, rng))
                assert RULESET.parse(out.state, s, texts[s]).ok
                sent += 1
            out = process(RULESET, out.state_json, texts, seed=b"%d-%d" % (seed, step))
            check_invariants(out)
        assert out.result is not None and out.result.winners
        assert sent > 0
