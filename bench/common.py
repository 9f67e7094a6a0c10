"""Shared pieces of the benchmarks (not tests): the long bench game, timing with repeats and
medians, fresh databases, copies of a game, raw floors, whole real games by mail.

The machine the figures come from is shared, so every figure is compared with a floor
measured in the same run, runs are repeated and medians reported.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.parser import HeaderParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from sqlalchemy import insert, select  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from pbem.config import Settings  # noqa: E402
from pbem.core.dice import Dice  # noqa: E402
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines  # noqa: E402
from pbem.core.ruleset import GameConfig, Result, Ruleset  # noqa: E402
from pbem.rulesets import register  # noqa: E402
from pbem.store.db import connect, migrate  # noqa: E402
from pbem.store.models import Game, Seat, Step  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Tally(Ruleset):
    """A bench-only game that lasts as many steps as asked: each seat adds a number and a
    public die, so every step's seed is revealed (the worst case for a list of seeds)."""

    id = "bench-tally"
    title = "Tally (benchmark)"
    state_is_plain_json = True

    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return ("a", "b")

    def check_config(self, config: GameConfig) -> list[str]:
        return []

    def setup(self, config: GameConfig, dice: Dice) -> dict[str, Any]:
        return {"step": 0, "limit": int(config.options.get("limit", 1000)),
                "total": {"a": 0, "b": 0}}

    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        return {} if state["step"] >= state["limit"] else {s: Prompt("add", ("ADD 1",))
                                                            for s in "ab"}

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


TALLY = Tally()
register(TALLY)


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median(values: list[float]) -> float:
    return statistics.median(values)


def fresh(path: Path) -> Engine:
    path.unlink(missing_ok=True)
    engine = connect(f"sqlite:///{path}")
    migrate(engine)
    return engine


def clone_games(engine: Engine, source: str, count: int, *, prefix: str,
                **changes: Any) -> list[str]:
    """`count` copies of a game (its row, seats and live steps) under new names: setting up
    thousands of games without hashing thousands of passwords. Same seeds and secrets."""
    g, s, st = Game.__table__, Seat.__table__, Step.__table__
    names = []
    with engine.begin() as conn:
        game = dict(conn.execute(select(g).where(g.c.name == source)).mappings().one())
        seats = [dict(r) for r in conn.execute(select(s).where(s.c.game_id == game["id"]))
                 .mappings()]
        steps = [dict(r) for r in conn.execute(select(st).where(st.c.game_id == game["id"],
                                                                 st.c.live == True))  # noqa: E712
                 .mappings()]
        for i in range(count):
            name = f"{prefix}{i}"
            row = {**game, "name": name, **changes}
            del row["id"]
            gid = conn.execute(insert(g).values(**row)).inserted_primary_key[0]
            conn.execute(insert(s), [{**{k: v for k, v in r.items() if k != "id"},
                                      "game_id": gid} for r in seats])
            conn.execute(insert(st), [{**{k: v for k, v in r.items() if k != "id"},
                                       "game_id": gid} for r in steps])
            names.append(name)
    return names


def floor_table(path: Path, states: list[str]) -> None:
    """The raw floor's own table, holding the same state texts uncompressed."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TABLE IF NOT EXISTS floor_step (id INTEGER PRIMARY KEY, game INTEGER, "
                "number INTEGER, state TEXT)")
    con.execute("CREATE INDEX IF NOT EXISTS ix_floor ON floor_step (game, number)")
    con.execute("BEGIN")
    con.executemany("INSERT INTO floor_step (game, number, state) VALUES (?, 1, ?)",
                    list(enumerate(states)))
    con.execute("COMMIT")
    con.close()


def raw_steps(path: Path, games: int, number: int) -> float:
    """The floor of a step: read the state row, JSON round trip, insert the next row,
    commit, with sqlite3 itself, once per game (WAL, synchronous=NORMAL, as pbem runs)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    t0 = time.perf_counter()
    for game in range(games):
        con.execute("BEGIN IMMEDIATE")
        (state,) = con.execute("SELECT state FROM floor_step WHERE game = ? AND number = ?",
                               (game, number)).fetchone()
        text = json.dumps(json.loads(state), sort_keys=True, separators=(",", ":"))
        con.execute("INSERT INTO floor_step (game, number, state) VALUES (?, ?, ?)",
                    (game, number + 1, text))
        con.execute("COMMIT")
    elapsed = time.perf_counter() - t0
    con.close()
    return elapsed


# --- a whole real game through the mail path -------------------------------------------

@dataclass
class GameByMail:
    ruleset: str
    players: int
    steps: int = 0
    mails_in: int = 0
    seconds: float = 0.0
    report_sizes: list[int] = field(default_factory=list)


def play_by_mail(engine: Engine, settings: Settings, rid: str, *, seed: int,
                 players: int | None = None, max_steps: int = 5000) -> GameByMail:
    """Bots answer each report's Reply-To (the signed token, no password) with random legal
    orders as real RFC 5322 mails through `mailflow.receive`; the tick processes each step,
    queues the reports and sends them (to a maildir)."""
    from pbem.rulesets import get
    from pbem.service import mailflow
    from pbem.service.games import awaiting_of, create_game, find_game, live_step
    from pbem.service.tick import tick
    from pbem.store.db import session_scope
    from pbem.store.models import Outbox

    ruleset = get(rid)
    n = players or ruleset.max_players
    seats = ruleset.seat_ids(n, ruleset.default_variant())
    name = f"{rid}-{seed}"
    out = GameByMail(rid, n)
    sessions = lambda: session_scope(engine)  # noqa: E731
    now = T0
    t0 = time.perf_counter()
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=rid, name=name, seed=str(seed), deadline_hours=72,
                          seats={seat: f"{seat}@{name}.example" for seat in seats}, now=now)
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=now)
        mailflow.queue_reports(s, settings, new.game, now=now)
    mailflow.send_outbox(sessions, settings, now=now)
    rng = random.Random(seed)
    while out.steps < max_steps:
        with session_scope(engine) as s:
            game = find_game(s, name)
            if game.status == "finished":
                break
            step = live_step(s, game)
            state = ruleset.load(json.loads(step.state_json))
            awaited = sorted(awaiting_of(step))
            reply = {}
            for seat in awaited:
                row = s.exec(select(Outbox).where(Outbox.game_id == game.id, Outbox.seat == seat,
                                                  Outbox.kind == "report")
                             .order_by(Outbox.id.desc())).first()  # type: ignore[union-attr,call-overload]
                # the mail as sent (its body is kept until the archive is exported)
                reply[seat] = HeaderParser().parsestr(row[0].raw.decode("ascii", "replace")
                                                      )["Reply-To"]
        for seat in awaited:
            msg = EmailMessage()
            msg["From"] = f"{seat}@{name}.example"
            msg["To"] = reply[seat]
            msg["Subject"] = f"Re: [{name}] step {step.number}"
            msg["Message-ID"] = f"<{name}-{step.number}-{seat}@bots.example>"
            msg.set_content("".join(f"{line}\n" for line in ruleset.legal_orders(state, seat, rng)))
            mailflow.receive(sessions, msg.as_bytes(), source="pipe", settings=settings, now=now)
            out.mails_in += 1
        now += timedelta(minutes=5)
        lines = tick(engine, spool=Path("/nonexistent"), now=now, settings=settings)
        if not any(line.startswith(f"{name}: step") for line in lines):
            raise RuntimeError(f"{name} stalled at step {step.number}: {lines}")
        out.steps += 1
    out.seconds = time.perf_counter() - t0
    with session_scope(engine) as s:
        game = find_game(s, name)
        out.report_sizes = [len(r[0].raw) for r in s.exec(
            select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "report"))]
    return out
