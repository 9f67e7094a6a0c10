"""Bots playing a stored game through the services: each awaited seat submits a random
legal order file with its password, then the step is processed (no mail)."""

from __future__ import annotations

import json
import random
from datetime import datetime

from pbem.core.envelope import render_envelope
from pbem.service.games import awaiting_of, find_game, live_step, ruleset_of
from pbem.service.orders import submit_orders
from pbem.service.turns import process_turn
from pbem.store.db import session_scope


def bot_step(engine, name: str, passwords: dict[str, str], rng: random.Random,  # type: ignore[no-untyped-def]
             *, now: datetime) -> bool:
    """Play one step of game `name`; False if the game is over (nothing was played)."""
    with session_scope(engine) as s:
        game = find_game(s, name)
        if game.status == "finished":
            return False
        ruleset = ruleset_of(game)
        step = live_step(s, game)
        state = ruleset.load(json.loads(step.state_json))
        for seat in sorted(awaiting_of(step)):
            body = "".join(f"{x}\n" for x in ruleset.legal_orders(state, seat, rng))
            submit_orders(s, render_envelope(game=name, seat=seat, turn=None,
                                             password=passwords[seat], body=body), now=now)
    with session_scope(engine) as s:
        process_turn(s, name, now=now, force=True)
    return True
