"""Random playouts with the random bot: every game ends with a result, invariants hold after
every step, the same seed gives the same game, and re-dealing hidden parts changes no
seat's view (the leak test)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from pbem.core.engine import StepOutcome, canonical_json, process, set_up, step_seed
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.cherubion import RULESET


def check(out: StepOutcome) -> None:
    """Invariants after every step: a legal position (positions.problems), piece counts,
    ÉP within bounds and card conservation (position warnings: a paused state is judged by
    the state its step began with), hidden pieces under their markers, and a consistent
    awaiting/result."""
    st = out.state
    assert RULESET.position_problems(st) == []
    assert RULESET.position_warnings(st) == [], "\n".join(e.text for e in out.events)
    for s in st["order"]:
        pl = st["players"][s]
        assert pl["me"] >= 0 and pl["energy"] >= 0, (s, pl["me"], pl["energy"])
    for p in st["pieces"].values():
        if p["loc"] != "gone" and not p["captive"] and not st["pause"]:
            # below 0 means dead and removed at the end of the exchange (an exchange may
            # be paused by a question)
            assert p["ep"] >= 0, p
        if p["hidden"] and p["loc"] != "gone":
            m = st["markers"][p["hidden"]]
            assert m["field"] == p["loc"] and m["piece"] == p["id"]
    for r in st["resources"].values():
        assert r["ep"] > 0
    if out.result is None:
        assert out.awaiting
    else:
        assert not out.awaiting and out.result.winners is not None


CASES = [  # (players, variant, options, games)
    (2, "standard", {}, 70),
    (2, "tournament", {}, 40),
    (2, "multibase", {}, 15),
    (3, "multibase", {}, 5),
    (3, "standard", {}, 15),
    (3, "standard", {"diplomacy": True}, 5),
    (2, "standard", {"decisions": "ask"}, 30),
    (3, "standard", {"decisions": "ask"}, 60),
    (5, "standard", {"decisions": "ask"}, 10),
    (4, "standard", {}, 15),
    (4, "standard", {"decisions": "ask", "ask_blind": True}, 5),
    (5, "standard", {}, 15),
]


def _config(n: int, variant: str, options: dict[str, Any]) -> GameConfig:
    return GameConfig(seats=RULESET.seat_ids(n, variant), variant=variant, options=options)


@pytest.mark.parametrize("n,variant,options,games", CASES)
def test_random_playouts(n: int, variant: str, options: dict[str, Any], games: int) -> None:
    for seed in range(games):
        p = play(RULESET, _config(n, variant, options), seed, check=check)
        assert p.result is not None and p.result.winners
        assert p.rounds >= 1


def test_determinism() -> None:
    a = play(RULESET, _config(3, "standard", {}), 7)
    b = play(RULESET, _config(3, "standard", {}), 7)
    c = play(RULESET, _config(3, "standard", {}), 8)
    assert a.final_digest == b.final_digest and a.steps == b.steps
    assert a.final_digest != c.final_digest


def test_leak_redeal() -> None:
    """For states reached in playouts and every seat: the seat's view of a copy with its
    hidden parts re-dealt equals its view of the real state; and the re-deal does change
    hidden parts."""
    rng = random.Random(5)
    changed = 0
    for seed, n in ((1, 3), (2, 2), (3, 4)):
        p = play(RULESET, _config(n, "standard", {"decisions": "ask"}), seed, keep=True)
        for out in p.outcomes[::3]:
            changed += _redeal_keeps_views(out.state, rng, seed)
    assert changed > 20


def _redeal_keeps_views(st: dict[str, Any], rng: random.Random, seed: int) -> int:
    """Every seat's view (and the public one) is the same after its hidden parts are
    re-dealt; returns how many re-deals changed the state at all."""
    if st["phase"] == "draft":
        return 0
    changed = 0
    for seat in [None, *st["order"]]:
        re = RULESET.redeal_hidden(st, seat, rng)
        assert canonical_json(RULESET.view(re, seat)) == \
            canonical_json(RULESET.view(st, seat)), (seed, seat)
        if canonical_json(RULESET.dump(re)) != canonical_json(RULESET.dump(st)):
            changed += 1
    return changed


def test_views_hide_hands_and_hidden_markers() -> None:
    p = play(RULESET, _config(3, "standard", {}), 11, keep=True)
    seen_hidden = False
    for out in p.outcomes:
        st = out.state
        if st["phase"] != "turn":
            continue
        for seat in st["order"]:
            v = json.loads(canonical_json(RULESET.view(st, seat)))
            for _s, pv in v["players"].items():
                assert isinstance(pv.get("hand", 0), int)
            for m in v["markers"]:
                if m["hidden"] and m["owner"] != seat and m["id"] not in v["you"]["known"]:
                    assert "card" not in m
                    seen_hidden = True
            ids = {q["id"] for q in v["pieces"]}
            for q in st["pieces"].values():
                if q.get("hidden") and q["owner"] != seat:
                    assert q["id"] not in ids
    assert seen_hidden


@pytest.mark.nightly
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_many_playouts_nightly(n: int, request: pytest.FixtureRequest) -> None:
    if "nightly" not in (request.config.getoption("-m") or ""):
        pytest.skip("nightly only (-m nightly)")
    for seed in range(1000, 1100):
        for opts in ({}, {"decisions": "ask"}):
            p = play(RULESET, _config(n, "standard", opts), seed, check=check)
            assert p.result is not None

# Random playouts that also exercise `accepts_unasked` (spec DP16, §5.21.3): at random
# steps, seats that are not awaited send files with standing orders (WHEN, FORGET,
# FREEATTACK, INTRUDER, LOSS, SCRY, CAPTURE), now and then a turn action (refused) or a SURRENDER.
# The random bot (`legal_orders`) is only called for awaited seats, so the injection is done
# here, through `pbem.core.engine.process` exactly as the host does it. Every game ends,
# the invariants and the card count of test_cherubion_playouts hold after every step, the
# same seed gives the same game, and the leak test holds on the states reached.

STANDING = [
    "WHEN CAST ANY ON ALL PLAY Ellenvarazs BY ANY",
    "WHEN CAST ANY ON ANY PLAY Ellenvarazs BY ANY",
    "WHEN DAMAGE ON ANY OVER 4 PLAY Eppenhogy BY ANY",
    "WHEN DAMAGE ON ALL PLAY Gyogyitas BY ANY",
    "WHEN ZERO ON ALL PLAY Gyogyitas BY ANY",
    "WHEN TELEPORT PLAY Hamis Utazas II BY ANY",
    "WHEN AFTER ANY ON ANY PLAY Kotes Oldasa BY ANY",
    "WHEN AFTER ANY ON ALL PLAY Maradandosag Feloldasa BY ANY",
    "WHEN START ON ANY PLAY Kotes Oldasa BY ANY",
    "WHEN START ON ALL PLAY Gyogyitas BY ANY",
    "WHEN BUILD PLAY Epitkezes Megakadalyozasa BY ANY",
    "CAPTURE ANY",
    "CAPTURE NO",
    "FORGET",
    "FREEATTACK YES",
    "FREEATTACK NO",
    "INTRUDER KILL",
    "INTRUDER PRISONER",
]


def unasked_text(st: dict[str, Any], seat: str, rng: random.Random) -> str:
    lines = rng.sample(STANDING, rng.randint(1, 3))
    if rng.random() < 0.3:
        own = sorted(p["id"] for p in st["pieces"].values()
                     if p["owner"] == seat and not p["summoned"] and p["loc"] != "gone")
        if own:
            lines.append("LOSS " + " ".join(rng.sample(own, min(len(own), 3))))
    if rng.random() < 0.3:
        lines.append("SCRY " + rng.choice([s for s in st["order"] if s != seat]))
    if rng.random() < 0.1:
        lines.append("DRAW")  # a turn action: refused for a seat that is not awaited
    if st["round"] > 3 and rng.random() < 0.02:
        lines.append("SURRENDER")
    rng.shuffle(lines)
    return "".join(f"{ln}\n" for ln in lines)


def play_unasked(n: int, options: dict[str, Any], seed: int, *, keep: bool = False,
                 chk=None) -> tuple[StepOutcome, int, list[StepOutcome]]:
    config = _config(n, "standard", options)
    master = hashlib.sha256(f"unasked:{seed}".encode()).digest()
    rng = random.Random(seed)
    out = set_up(RULESET, config, master)
    kept = [out] if keep else []
    steps = sent = 0
    while out.awaiting:
        steps += 1
        assert steps < 20000, seed
        st = out.state
        texts = {s: "".join(f"{ln}\n" for ln in RULESET.legal_orders(st, s, rng))
                 for s in sorted(out.awaiting)}
        for s in st["order"]:
            if s not in texts and rng.random() < 0.25 and RULESET.accepts_unasked(st, s):
                texts[s] = unasked_text(st, s, rng)
                sent += 1
        out = process(RULESET, out.state_json, texts, seed=step_seed(master, steps))
        for s in texts:
            assert s in out.applied  # an unasked file is applied, never dropped
        if chk:
            chk(out)
        if keep:
            kept.append(out)
    return out, sent, kept


@pytest.mark.parametrize("n,options,games", [
    (2, {}, 15), (3, {}, 10), (3, {"decisions": "ask"}, 10),
    (4, {"decisions": "ask", "ask_blind": True}, 3), (5, {}, 5)])
def test_unasked_playouts(n: int, options: dict[str, Any], games: int) -> None:
    total = 0
    for seed in range(games):
        out, sent, _ = play_unasked(n, options, seed, chk=check)
        assert out.result is not None and out.result.winners
        total += sent
    assert total > games  # the unasked path is exercised


def test_unasked_playout_determinism() -> None:
    a, _, _ = play_unasked(3, {"decisions": "ask"}, 4)
    b, _, _ = play_unasked(3, {"decisions": "ask"}, 4)
    c, _, _ = play_unasked(3, {"decisions": "ask"}, 5)
    assert a.state_json == b.state_json
    assert a.state_json != c.state_json


def test_unasked_playout_leak_redeal() -> None:
    rng = random.Random(9)
    for seed, n in ((1, 3), (2, 4)):
        _, _, kept = play_unasked(n, {"decisions": "ask"}, seed, keep=True)
        for out in kept[::3]:
            _redeal_keeps_views(out.state, rng, seed)
