"""The outcome contract for every game (DESIGN section 3, "Outcomes"): random playouts
with deliberately broken lines mixed into the bots' orders (numbers out of range, unknown
names, another seat's or another step's lines, nonsense); every line of every applied
file, the NMR defaults included, ends with exactly one outcome, seen by its seat only."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from pbem.core.dice import step_seed
from pbem.core.engine import process, set_up
from pbem.core.kit import OUTCOME, Game
from pbem.core.ruleset import GameConfig, Ruleset
from pbem.rulesets import all_rulesets
from tests.core.kit.duel import Duel

MAX_STEPS = 400


def kit_games() -> list[Ruleset]:
    games = [rs for rs in all_rulesets().values() if getattr(rs, "report_outcomes", False)]
    return sorted(games, key=lambda r: r.id) + [Duel()]


def broken(line: str, pool: list[str], rng: random.Random) -> str:
    """One deliberately broken line made from a legal one."""
    kind = rng.randrange(5)
    if kind == 0 and re.search(r"\d", line):
        return re.sub(r"\d+", "99", line, count=1)  # a wrong count
    words = line.split()
    if kind == 1 and len(words) > 1:
        words[rng.randrange(1, len(words))] = "nowhere"  # an unknown or unreachable name
        return " ".join(words)
    if kind == 2 and pool:
        return rng.choice(pool)  # another seat's or another step's line
    if kind == 3:
        return line + " " + line  # doubled
    return rng.choice(["fly to the moon", "PLAY", "?!", "TAKE TAKE TAKE"])


def play_broken(ruleset: Ruleset, config: GameConfig, seed: int,
                breaker: Callable[[str, list[str], random.Random], str] = broken) -> int:
    """One playout with broken lines mixed in (`breaker` makes one from a legal line; a
    game's own test may pass one that knows its order language); returns the outcomes
    checked."""
    master = hashlib.sha256(f"outcomes:{seed}".encode()).digest()
    rng = random.Random(seed)
    out = set_up(ruleset, config, master)
    pool: list[str] = []
    pending: dict[tuple[str, int, int], set[int]] = {}  # (seat, step sent, file) -> lines
    origin = 0
    checked = 0
    for step in range(1, MAX_STEPS + 1):
        if not out.awaiting:
            break
        before = out.state
        pause = before.get("pause") if isinstance(before, dict) else None
        if pause is None:
            origin = step
        k = len(pause["answers"]) + 1 if pause else 0
        texts = {}
        for seat in sorted(out.awaiting):
            lines = ruleset.legal_orders(before, seat, rng)
            pool.extend(lines)
            for _ in range(rng.randrange(3)):
                lines.insert(rng.randrange(len(lines) + 1), breaker(rng.choice(lines or ["X"]),
                                                                      pool, rng))
            if rng.random() < 0.1:
                continue  # this seat sends nothing: its NMR defaults need outcomes too
            texts[seat] = "".join(f"{x}\n" for x in lines)
        out = process(ruleset, out.state_json, texts, seed=step_seed(master, step))
        for seat, text in out.applied.items():
            lines = {ln.lineno for ln in ruleset.parse(before, seat, text).lines}
            file_of_step = k if pause else 0
            pending[(seat, step, file_of_step)] = lines
        for e in out.events:
            if e.kind != OUTCOME:
                continue
            seat, line, file = e.data["seat"], e.data["line"], e.data["file"]
            assert e.to == (seat,), f"{ruleset.id}: an outcome seen by {e.to}: {e.text}"
            sent = step if (pause is None or file == k) else origin
            key = (seat, sent, file)
            assert key in pending and line in pending[key], (
                f"{ruleset.id} seed {seed} step {step}: unexpected or second outcome {e.text}")
            pending[key].discard(line)
            checked += 1
        if out.awaiting and not (isinstance(out.state, dict) and out.state.get("pause")):
            left = {key: v for key, v in pending.items() if v}
            assert not left, f"{ruleset.id} seed {seed} step {step}: lines without an outcome: {left}"
    left = {key: v for key, v in pending.items() if v}
    assert not left, f"{ruleset.id} seed {seed}: lines without an outcome at the end: {left}"
    return checked


@pytest.mark.parametrize("ruleset", kit_games(), ids=lambda r: r.id)
def test_every_line_gets_exactly_one_outcome_seen_by_its_seat_only(ruleset: Ruleset) -> None:
    total = 0
    for seed in range(4):
        players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
        variant = ruleset.variants[seed % len(ruleset.variants)].id
        options: dict[str, Any] = {"decisions": "ask" if seed % 2 else "auto"}
        config = GameConfig(ruleset.seat_ids(players, variant), variant, options)
        if ruleset.check_config(config):  # a variant for fewer seats (e.g. a 2-player board)
            config = GameConfig(ruleset.seat_ids(ruleset.min_players, variant), variant, options)
        total += play_broken(ruleset, config, seed)
    assert total > 20, "the playouts produced outcomes"


def test_every_hosted_game_is_on_the_kit_and_reports_outcomes() -> None:
    """The contract above covers all five games, not only those that opted in."""
    five = ("battlelore", "cherubion", "helios", "kard-es-korona", "macht-und-ohnmacht")
    for rs in (all_rulesets()[id] for id in five):  # tests register games of their own too
        assert isinstance(rs, Game), f"{rs.id} is not built on the game kit"
        assert rs.report_outcomes, f"{rs.id} does not give every line an outcome"
