"""`pbem demo`: a whole game between random bots through the spool, reports and archive.

Bots write real order files (envelope and all) into the spool; `tick` submits them and
processes each step; every seat's report is rendered to disk; the archive is exported and
verified at the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy.engine import Engine

from pbem.archive.export import export_game
from pbem.archive.verify import verify_game
from pbem.core.envelope import render_envelope
from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.rulesets import all_rulesets
from pbem.service.games import ServiceError, create_game, find_game, live_step, ruleset_of
from pbem.service.games import awaiting_of as awaiting
from pbem.service.tick import tick
from pbem.store.db import session_scope


def run_demo(engine: Engine, *, spool: Path, out: Path, ruleset_id: str | None, seed: int,
             max_steps: int, now: datetime, echo: Callable[[str], None] = print,
             override: str | None = None) -> str:
    hosted = all_rulesets()
    if not hosted:
        raise ServiceError("no rulesets are installed")
    rid = ruleset_id or sorted(hosted)[0]
    if rid not in hosted:
        raise ServiceError(f"unknown ruleset {rid!r}; hosted: {', '.join(sorted(hosted))}")
    ruleset = hosted[rid]
    seats = ruleset.seat_ids(ruleset.max_players, ruleset.default_variant())
    name = f"demo-{rid}-{now:%Y%m%d%H%M%S}"
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=rid, name=name,
                          seats={seat: f"{seat}@bots.invalid" for seat in seats},
                          seed=f"demo-{seed}", deadline_hours=72, now=now)
        passwords = new.passwords
    echo(f"demo game {name} ({ruleset.title}), seats: {', '.join(seats)}")
    (spool / "inbox").mkdir(parents=True, exist_ok=True)
    reports = out / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    clock = now
    steps = 0
    while steps < max_steps:
        with session_scope(engine) as s:
            game = find_game(s, name)
            step = live_step(s, game)
            for seat in sorted(seats):
                ctx = report_context(s, name, seat=seat)
                (reports / f"step-{step.number:04d}-{seat}.txt").write_text(
                    render_report(ctx, fmt="text", override=override), encoding="utf-8")
            if game.status == "finished":
                break
            import json

            state = ruleset_of(game).load(json.loads(step.state_json))
            for seat in sorted(awaiting(step)):
                body = "".join(f"{line}\n" for line in ruleset.legal_orders(state, seat, rng))
                text = render_envelope(game=name, seat=seat, password=passwords[seat],
                                       turn=step.number, body=body)
                (spool / "inbox" / f"{name}-{step.number:04d}-{seat}.txt").write_text(
                    text, encoding="utf-8")
        clock += timedelta(minutes=5)
        lines = tick(engine, spool=spool, now=clock)
        if not any("processed" in line for line in lines if line.startswith(name)):
            raise ServiceError(f"the demo stalled at step {step.number}: " + "; ".join(lines))
        steps += 1
    with session_scope(engine) as s:
        files = export_game(s, name, out / "archive", override=override)
        verdict = verify_game(s, name)
        game = find_game(s, name)
        status = game.status
    return (f"{steps} steps played, game {status}; reports in {reports}/, archive "
            f"{files[-1]} ({len(files)} pages); verify: "
            + ("all steps recomputed identically" if verdict.ok else f"FAILED: {verdict.problem}"))
