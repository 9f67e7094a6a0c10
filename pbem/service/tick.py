"""One pass of what is due: spooled order files in, ready steps processed.

`pbem tick` runs it once (for cron); the scheduler runs it on a timer.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import select

from pbem.service.games import ServiceError
from pbem.service.orders import process_spool
from pbem.service.turns import process_turn, ready
from pbem.store.db import session_scope
from pbem.store.models import Game


def tick(engine: Engine, *, spool: Path, now: datetime) -> list[str]:
    lines: list[str] = []
    if (spool / "inbox").is_dir():
        for item in process_spool(lambda: session_scope(engine), spool, now=now):
            lines.append(f"{item.path.name}: "
                         + ("accepted" if item.receipt.accepted else "refused: " + item.receipt.reason))
    with session_scope(engine) as s:
        names = list(s.exec(select(Game.name).where(Game.status == "open")))
    for name in names:
        with session_scope(engine) as s:
            game = s.exec(select(Game).where(Game.name == name)).one()
            why = ready(s, game, now=now)
            if why is None:
                continue
            try:
                done = process_turn(s, name, now=now, force=(why == "deadline"), actor="tick")
            except ServiceError as e:
                lines.append(f"{name}: {e}")
                continue
            lines.append(f"{name}: step {done.step} processed ({why})"
                         + ("; game over" if done.finished else ""))
    return lines
