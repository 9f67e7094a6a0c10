"""What the players are told when the GM acts: a pause, a resume, a moved deadline, a seat
given to a new player, a rollback, an announcement. One mail to every seat holder (and, for
a replacement, to the player who left), each keyed by the action's audit row, so a mail is
never queued twice and two actions never share one.

Not here: the actions themselves (`pbem.service.gm`), the new player's welcome mail and
the reports of a reopened step (`pbem.service.mailflow`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlmodel import Session, func, select

from pbem.config import Settings
from pbem.service.games import seats_of
from pbem.service.gm import Extension, Rollback
from pbem.service.outbox import queue
from pbem.store.models import Audit, Game, Seat


def _when(deadline: datetime | None) -> str:
    return deadline.isoformat(timespec="minutes") if deadline else "no deadline"


def _tell(session: Session, settings: Settings, game: Game, what: str, subject: str,
          text: str, *, now: datetime, rows: Iterable[Seat] | None = None) -> int:
    session.flush()  # the action's audit row names the mails
    last = session.exec(select(func.max(Audit.id)).where(Audit.game_id == game.id)).one()
    count = 0
    for row in rows if rows is not None else seats_of(session, game):
        sent = queue(session, settings, kind="notice", to=row.email, game=game, seat=row.seat,
                     subject=f"[{game.name}] {subject}", text=text.rstrip("\n") + "\n",
                     now=now, key=(what, game.name, last, row.id))
        count += sent is not None
    return count


def paused(session: Session, settings: Settings, game: Game, *, reason: str,
           now: datetime) -> int:
    return _tell(session, settings, game, "pause", "the GM paused the game",
                 f"The GM paused {game.name}" + (f": {reason}" if reason else "") + ".\n"
                 "Until the GM resumes it, no orders are accepted and no deadline runs; the "
                 "step keeps the time it had left.", now=now)


def held(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    """The tick held a step that most seats missed (the GM is told apart)."""
    return _tell(session, settings, game, "hold", f"step {game.step} is held",
                 f"Most seats sent no orders for step {game.step} of {game.name} by its "
                 "deadline. Lost mail is likelier than mass absence, so the step is held and the "
                 "game paused until the GM resumes it; orders are accepted again then, and the "
                 "orders on file are kept.", now=now)


def resumed(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    return _tell(session, settings, game, "resume", "the GM resumed the game",
                 f"The GM resumed {game.name}. Step {game.step} is open for orders; its "
                 f"deadline: {_when(game.deadline)}.", now=now)


def extended(session: Session, settings: Settings, game: Game, ext: Extension, *,
             now: datetime) -> int:
    if ext.paused_left_hours is not None:
        text = (f"The GM gave step {game.step} of {game.name} more time: the game is paused, "
                f"and when it resumes the step has {ext.paused_left_hours:.3g} hours.")
    else:
        text = (f"The GM moved the deadline of step {game.step} of {game.name} from "
                f"{_when(ext.before)} to {_when(ext.after)}.")
    return _tell(session, settings, game, "extend", f"the deadline of step {game.step} moved",
                 text, now=now)


def extended_for(session: Session, settings: Settings, game: Game, seat: str, *,
                 now: datetime) -> int:
    """The tick gave a seat that sent nothing more time: the other seats hear of the new
    deadline too (the seat itself gets its own reminder)."""
    others = [r for r in seats_of(session, game) if r.seat != seat]
    return _tell(session, settings, game, "extend", f"the deadline of step {game.step} moved",
                 f"The deadline of step {game.step} of {game.name} moved to "
                 f"{_when(game.deadline)}: orders from {seat} are missing. Until then you may "
                 "still change yours.", now=now, rows=others)


def replaced(session: Session, settings: Settings, game: Game, seat: str, *,
             now: datetime) -> int:
    """Told to the other seats and to the player who left (the new one gets a welcome)."""
    holders = seats_of(session, game, active_only=False)
    new = next(r for r in reversed(holders) if r.seat == seat and r.active)
    left = [r for r in holders if r.seat == seat and not r.active][-1:]
    others = [r for r in holders if r.active and r.seat != seat]
    count = _tell(session, settings, game, "replaced", f"seat {seat} has a new player",
                  f"The GM gave seat {seat} of {game.name} to a new player ({new.email}).",
                  now=now, rows=others)
    return count + _tell(session, settings, game, "replaced-you", f"you no longer play {seat}",
                         f"The GM gave your seat {seat} of {game.name} to another player. "
                         "Your password and reply addresses for it no longer work. Thank you "
                         "for playing.", now=now, rows=left)


def rolled_back(session: Session, settings: Settings, game: Game, rb: Rollback, *,
                now: datetime) -> int:
    count = 0
    for row in seats_of(session, game):
        lines = rb.changes.get(row.seat)
        if rb.reprocessed:
            text = (f"The GM rolled {game.name} back to step {rb.to_step} and processed it "
                    "again.\nWhat changed for you: "
                    + "; ".join(lines or ["nothing you can see changed"]))
        else:
            until = _when(game.deadline) if game.deadline else "the GM processes it"
            text = (f"The GM rolled {game.name} back to step {rb.to_step}; it is open for "
                    f"orders again until {until}. Your orders on file for it "
                    "are kept and count if you send nothing new; a new order file replaces "
                    "them. The report of the step follows.")
        count += _tell(session, settings, game, "rollback",
                       f"the GM rolled the game back to step {rb.to_step}", text, now=now,
                       rows=[row])
    return count


def announced(session: Session, settings: Settings, game: Game, text: str, *,
              now: datetime) -> int:
    return _tell(session, settings, game, "announce", "announcement from the GM", text, now=now)
