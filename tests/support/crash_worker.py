"""Plays the test game to its end through the services; the crash test kills it at random.

Usage: python crash_worker.py DB_URL SLOW_SECONDS. Idempotent: started again, it carries
on from what the database holds. Bots' orders depend only on the stored state, so every
run submits the same files.
"""

from __future__ import annotations

import json
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from clock import T0  # noqa: E402
from fixture_game import RULESET  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlmodel import Session  # noqa: E402

from pbem.core.envelope import render_envelope  # noqa: E402
from pbem.rulesets import register  # noqa: E402
from pbem.service.games import ServiceError, awaiting_of, create_game, find_game, live_step  # noqa: E402
from pbem.service.orders import submit_orders  # noqa: E402
from pbem.service.turns import process_turn  # noqa: E402
from pbem.store.db import connect, migrate, session_scope  # noqa: E402

register(RULESET)


def main(url: str, slow: float) -> None:
    engine = connect(url)
    migrate(engine)
    print("ready", flush=True)  # the crash test's kill timer starts here, not at start-up
    if slow:
        # Widen the window inside each transaction so a kill lands mid-write.
        event.listen(Session, "after_flush", lambda *a: time.sleep(slow))
    with session_scope(engine) as s:
        try:
            find_game(s, "crash")
            passwords = json.loads(Path(url.removeprefix("sqlite:///") + ".pw").read_text())
        except ServiceError:
            new = create_game(s, ruleset_id="highcard", name="crash",
                              seats={"north": "n@x.org", "south": "s@x.org"},
                              variant="long", seed="crash", now=T0)
            passwords = new.passwords
            Path(url.removeprefix("sqlite:///") + ".pw").write_text(json.dumps(passwords))
    while True:
        with session_scope(engine) as s:
            game = find_game(s, "crash")
            if game.status == "finished":
                return
            step = live_step(s, game)
            state = RULESET.load(json.loads(step.state_json))
            number = step.number
            seats = sorted(awaiting_of(step))
        for seat in seats:
            rng = random.Random(f"{number}:{seat}")
            body = "".join(f"{x}\n" for x in RULESET.legal_orders(state, seat, rng))
            with session_scope(engine) as s:
                submit_orders(s, render_envelope(game="crash", seat=seat, password=passwords[seat],
                                                 turn=number, body=body),
                              now=T0 + timedelta(minutes=number))
        with session_scope(engine) as s:
            try:
                process_turn(s, "crash", now=T0 + timedelta(minutes=number))
            except ServiceError:
                pass  # another run got there first


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
