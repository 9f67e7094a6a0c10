"""Core benchmarks (not tests). Each figure is a ratio against a floor measured in the same run.

    python bench/bench_core.py [--games 1000] [--steps 1000]

(a) processing one step for N games, against loading and saving their states alone;
(b) processing step 1,000 against step 10 of one long game;
(c) reports rendered per second, against rendering the same context with a trivial template;
(d) database bytes per game step.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from fixture_game import RULESET as HIGHCARD  # noqa: E402
from jinja2 import Template  # noqa: E402

from pbem.core.dice import Dice  # noqa: E402
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines  # noqa: E402
from pbem.core.ruleset import GameConfig, Result, Ruleset  # noqa: E402
from pbem.reports.context import report_context  # noqa: E402
from pbem.reports.render import render_report  # noqa: E402
from pbem.rulesets import register  # noqa: E402
from pbem.service.games import create_game, find_game, live_step  # noqa: E402
from pbem.service.turns import process_turn  # noqa: E402
from pbem.store.db import connect, migrate, session_scope  # noqa: E402
from pbem.store.models import Step  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Tally(Ruleset):
    """A bench-only game that lasts as many steps as asked: each seat adds a number."""

    id = "bench-tally"
    title = "Tally (benchmark)"

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return ("a", "b")

    def check_config(self, config: GameConfig) -> list[str]:
        return []

    def setup(self, config: GameConfig, dice: Dice) -> dict[str, Any]:
        return {"step": 0, "limit": int(config.options.get("limit", 1000)), "total": {"a": 0, "b": 0}}

    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        return {} if state["step"] >= state["limit"] else {s: Prompt("add", ("ADD 1",)) for s in "ab"}

    def parse(self, state: dict[str, Any], seat: str, text: str) -> Parsed:
        return Parsed.of(OrderLine(n, line, int(line.split()[-1])) for n, line in order_lines(text))

    def resolve(self, state, orders, dice):  # type: ignore[no-untyped-def]
        for seat, parsed in orders.items():
            state["total"][seat] += sum(parsed.orders) + dice.roll(6, f"bonus {seat}")
        state["step"] += 1
        return state, []

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: dict[str, Any]) -> Result | None:
        return Result(("a",), state["total"]) if state["step"] >= state["limit"] else None

    def legal_orders(self, state, seat, rng):  # type: ignore[no-untyped-def]
        return ["ADD 1"]


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_many_games(tmp: Path, games: int) -> tuple[float, float]:
    engine = connect(f"sqlite:///{tmp / 'many.sqlite'}")
    migrate(engine)
    with session_scope(engine) as s:
        for i in range(games):
            create_game(s, ruleset_id="highcard", name=f"g{i}",
                        seats={"north": "n@x", "south": "s@x"}, seed=str(i), now=T0)

    def floor() -> None:  # load each open step's state and save a copy: the minimum I/O
        for i in range(games):
            with session_scope(engine) as s:
                step = live_step(s, find_game(s, f"g{i}"))
                s.add(Step(game_id=step.game_id, number=step.number + 10_000, state_json=step.state_json,
                           state_digest=step.state_digest, awaiting_json=step.awaiting_json,
                           commitment=step.commitment, seed=step.seed, opened_at=T0))

    def real() -> None:
        for i in range(games):
            with session_scope(engine) as s:
                process_turn(s, f"g{i}", now=T0, force=True)

    f, r = timed(floor), timed(real)
    return r, f


def bench_long_game(tmp: Path, steps: int) -> tuple[float, float, int]:
    register(Tally())
    path = tmp / "long.sqlite"
    engine = connect(f"sqlite:///{path}")
    migrate(engine)
    with session_scope(engine) as s:
        create_game(s, ruleset_id="bench-tally", name="long", seats={"a": "a@x", "b": "b@x"},
                    seed="l", options={"limit": steps + 50}, now=T0)
    times: dict[int, float] = {}
    for n in range(1, steps + 11):
        t0 = time.perf_counter()
        with session_scope(engine) as s:
            process_turn(s, "long", now=T0 + timedelta(minutes=n), force=True)
        times[n] = time.perf_counter() - t0
    early = sorted(times[n] for n in range(5, 16))[5]
    late = sorted(times[n] for n in range(steps - 5, steps + 6))[5]
    engine.dispose()
    import sqlite3

    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
    return late, early, path.stat().st_size


def bench_reports(tmp: Path) -> tuple[float, float]:
    engine = connect(f"sqlite:///{tmp / 'rep.sqlite'}")
    migrate(engine)
    with session_scope(engine) as s:
        create_game(s, ruleset_id="highcard", name="r", seats={"north": "n@x", "south": "s@x"},
                    seed="r", now=T0)
    with session_scope(engine) as s:
        process_turn(s, "r", now=T0, force=True)
    with session_scope(engine) as s:
        ctx = report_context(s, "r", seat="north")
    n = 300
    real = timed(lambda: [render_report(ctx, fmt="text") and render_report(ctx, fmt="html")
                          for _ in range(n)])
    trivial = Template("{{ game.name }} {{ step }} {{ view }} {{ happened }}")
    floor = timed(lambda: [trivial.render(**ctx) and trivial.render(**ctx) for _ in range(n)])
    return n * 2 / real, n * 2 / floor


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=1000)
    args = ap.parse_args()
    register(HIGHCARD)
    random.seed(0)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        real, floor = bench_many_games(tmp, args.games)
        print(f"(a) one step for {args.games} games: {real:.2f}s; load+save floor {floor:.2f}s; "
              f"ratio {real / floor:.2f}")
        late, early, size = bench_long_game(tmp, args.steps)
        print(f"(b) step {args.steps}: {late * 1000:.2f} ms; step 10: {early * 1000:.2f} ms; "
              f"ratio {late / early:.2f}")
        print(f"(d) database bytes per step (tally game, {args.steps + 10} steps): "
              f"{size / (args.steps + 10):.0f}")
        rps, floor_rps = bench_reports(tmp)
        print(f"(c) reports rendered: {rps:.0f}/s; trivial-template floor {floor_rps:.0f}/s; "
              f"ratio {floor_rps / rps:.2f}")



if __name__ == "__main__":
    main()
