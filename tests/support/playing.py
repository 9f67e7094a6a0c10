"""Playing a test game through the services, as the tick would."""

from __future__ import annotations

from datetime import datetime, timedelta

from clock import T0
from sqlalchemy.engine import Engine

from pbem.service.games import find_game
from pbem.service.turns import process_turn
from pbem.store.db import session_scope


def play_to_the_end(engine: Engine, name: str, *, start: datetime = T0) -> datetime:
    """Process the game's steps an hour apart (NMR defaults) until it is finished; the time
    of the last step."""
    now = start
    while True:
        with session_scope(engine) as s:
            if find_game(s, name).status == "finished":
                return now
            now += timedelta(hours=1)
            process_turn(s, name, now=now, force=True)
