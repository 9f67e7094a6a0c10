"""What `pbem game show` says of a game: its seats, step, who is awaited, whose orders are in.

Apart from `games` because it reads the orders on file (`orders`, which builds on `games`).
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from pbem.service.games import awaiting_of, live_step, seats_of
from pbem.service.orders import orders_on_file
from pbem.store.models import Game


def summary(session: Session, game: Game) -> dict[str, Any]:
    """What `pbem game show --json` prints (a contract: ruleset, seats, step, awaited,
    deadline, status; also orders_in and wait)."""
    step = live_step(session, game)
    awaited = sorted(awaiting_of(step))
    on_file = orders_on_file(session, step)
    return {
        "name": game.name, "ruleset": game.ruleset, "variant": game.variant,
        "status": game.status, "step": game.step, "phase": step.phase, "round": step.round,
        "seats": [{"seat": s.seat, "email": s.email, "bounces": s.bounces}
                  for s in seats_of(session, game)],
        "awaited": awaited,
        "orders_in": sorted(s for s in awaited if s in on_file),
        # seats that sent WAIT: the step is not processed before its deadline
        "wait": sorted(s for s, sub in on_file.items() if sub.wait),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "commitment": step.commitment,
        "result": json.loads(step.result_json) if step.result_json else None,
    }
