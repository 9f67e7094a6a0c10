"""Random-bot playouts through the pure engine: selfplay, fuzzing, benchmarks.

No I/O: the caller prints. The bot's choices come from its own `random.Random`; the game's
dice come from the engine (HMAC from a master seed), so a playout is reproducible.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.core.dice import step_seed
from pbem.core.engine import StepOutcome, process, set_up
from pbem.core.ruleset import GameConfig, Result, Ruleset


@dataclass
class Playout:
    result: Result | None
    steps: int
    rounds: int
    final_digest: str
    max_step_seconds: float = 0.0
    outcomes: list[StepOutcome] = field(default_factory=list)


def play(ruleset: Ruleset, config: GameConfig, seed: int, *, max_steps: int = 20000,
         keep: bool = False, check: Callable[[StepOutcome], None] | None = None,
         timer: Callable[[], float] | None = None, verify: bool = True) -> Playout:
    """Play one whole game with random legal orders for every awaited seat.

    `check` runs after every step (invariants); `timer` (e.g. time.perf_counter) measures
    the slowest step; `verify` runs the engine's round-trip check after every step (off:
    the engine as it runs live). Raises if the game does not end within `max_steps`.
    """
    master = hashlib.sha256(f"selfplay:{seed}".encode()).digest()
    rng = random.Random(seed)
    out = set_up(ruleset, config, master, verify=verify)
    if check:
        check(out)
    outcomes = [out] if keep else []
    steps = 0
    slowest = 0.0
    while out.awaiting:
        steps += 1
        if steps > max_steps:
            raise AssertionError(f"{ruleset.id}: no result after {max_steps} steps (seed {seed})")
        texts = {seat: "".join(f"{line}\n" for line in ruleset.legal_orders(out.state, seat, rng))
                 for seat in sorted(out.awaiting)}
        t0 = timer() if timer else 0.0
        # Unchecked and not kept: the outcome's state goes on as the next step's input.
        out = process(ruleset, out.state_json, texts, seed=step_seed(master, steps),
                      verify=verify, state=None if verify or keep else out.state)
        if timer:
            slowest = max(slowest, timer() - t0)
        if check:
            check(out)
        if keep:
            outcomes.append(out)
    return Playout(out.result, steps, ruleset.round_number(out.state),
                   hashlib.sha256(out.state_json.encode()).hexdigest(), slowest, outcomes)
