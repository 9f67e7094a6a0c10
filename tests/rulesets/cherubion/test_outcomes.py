"""Every line gets exactly one outcome, seen by its seat only (issue 14's contract, the
shared test's playout with Cherubion's own broken lines mixed into the bots' files): wrong
counts (X 99, LOSS amounts, a 99-step path), unreachable targets (a far field, a field off
the board), lines of another step (TEAM, PLACE, RESOURCE in a turn), another seat's pieces,
PASS in the middle, an ELSE without IF, and nonsense."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from pbem.core.ruleset import GameConfig
from pbem.rulesets.cherubion import RULESET
from tests.test_outcomes_all_games import play_broken

OTHER_STEP = ["TEAM melan", "PLACE ME1 K8", "RESOURCE L8", "DECK DEFAULT", "BASE 3"]


def cherubion_broken(line: str, pool: list[str], rng: random.Random) -> str:
    """One broken line made from a legal one."""
    words = line.split()
    kind = rng.randrange(8)
    if kind == 0 and words[:1] == ["PLAY"]:
        return line + " X 99"  # a price nobody can pay
    if kind == 1 and words[:1] == ["MOVE"] and len(words) > 2:
        return " ".join(words[:3] + [words[2]] * 9)  # a path standing still / too long
    if kind == 2 and re.search(r"\b[A-L]\d+\b", line):
        return re.sub(r"\b[A-L]\d+\b", rng.choice(["A1", "Z99", "L13"]), line, count=1)
    if kind == 3 and re.search(r"\b(ME|CH|SA|OT|RO)\d+\b", line):
        other = rng.choice(["ME", "CH", "SA", "OT", "RO"])
        return re.sub(r"\b(ME|CH|SA|OT|RO)(\d+)\b", rf"{other}\2", line, count=1)
    if kind == 4:
        return rng.choice(OTHER_STEP + ["PASS", "ELSE DRAW", "LOSS CH8=99 ME1=-1"])
    if kind == 5 and pool:
        return rng.choice(pool)  # another seat's or another step's line
    if kind == 6:
        return line + " " + line
    return rng.choice(["fly to the moon", "PLAY", "?!", "ATTACK ATTACK", "MOVE"])


@pytest.mark.parametrize("seed", range(4))
def test_every_line_gets_exactly_one_outcome_seen_by_its_seat_only(seed: int) -> None:
    n = 2 + seed % 4
    options: dict[str, Any] = {"decisions": "ask" if seed % 2 else "auto",
                               "diplomacy": seed == 3}
    config = GameConfig(RULESET.seat_ids(n, "standard"), "standard", options)
    assert play_broken(RULESET, config, 100 + seed, cherubion_broken) > 100
