"""Selfplay games per second, each hosted game, this tree against an older one in one run.

    git archive <old commit> | tar -x -C /tmp/pbem-old
    python bench/bench_selfplay.py --baseline /tmp/pbem-old [--games 10] [--repeat 3]

Each measurement is a fresh Python process playing whole games between random bots
(default variant, the most players) with `pbem.core.selfplay.play`, timed in CPU seconds of
that process (wall time on a shared machine measures the other processes); old and new
alternate; medians of the repeats. The new engine is
measured as it runs live (no round-trip check) and checked (`verify=True`, what the tests
and `pbem selfplay` do; the old engine always checked).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import inspect, json, sys, time
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets import get
rid, games, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = get(rid)
v = r.default_variant()
config = GameConfig(r.seat_ids(r.max_players, v), v)
kw = {} if mode == "old" else {"verify": mode == "checked"}
t0 = time.process_time()
steps = sum(play(r, config, seed, **kw).steps for seed in range(1, games + 1))
dt = time.process_time() - t0
print(json.dumps({"games_s": games / dt, "steps_s": steps / dt}))
"""


def measure(tree: Path, rid: str, games: int, mode: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", PROBE, rid, str(games), mode], env=env,
                         cwd="/", capture_output=True, text=True, check=True, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", type=Path, required=True, help="a checkout of the old code")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ruleset", action="append")
    args = ap.parse_args()
    rids = args.ruleset or ["battlelore", "cherubion", "helios", "kard-es-korona",
                            "macht-und-ohnmacht"]
    print(f"games per CPU second, median of {args.repeat} runs of {args.games} games (old | new live | "
          "new checked; speed-up of live and checked over old)")
    for rid in rids:
        runs: dict[str, list[float]] = {"old": [], "live": [], "checked": []}
        for _ in range(args.repeat):
            runs["old"].append(measure(args.baseline, rid, args.games, "old")["games_s"])
            runs["live"].append(measure(ROOT, rid, args.games, "live")["games_s"])
            runs["checked"].append(measure(ROOT, rid, args.games, "checked")["games_s"])
        old, live, checked = (statistics.median(runs[k]) for k in ("old", "live", "checked"))
        print(f"  {rid:20} {old:7.2f} | {live:7.2f} | {checked:7.2f}    "
              f"x{live / old:.2f}  x{checked / old:.2f}")


if __name__ == "__main__":
    main()
