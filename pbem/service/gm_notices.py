"""What the players are told when the GM acts: a pause, a resume, a moved deadline, a seat
given to a new player, a rollback, an announcement. One mail to every seat holder (and, for
a replacement, to the player who left), each keyed by the action's audit row, so a mail is
never queued twice and two actions never share one.

Not here: the actions themselves (`pbem.service.gm`), the new player's welcome mail and
the reports of a reopened step (`pbem.service.mailflow`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from sqlmodel import Session, func, select

from pbem.config import Settings
from pbem.core.i18n import Msg, _, join, render
from pbem.service import players
from pbem.service.games import seats_of
from pbem.service.gm import Extension, Rollback
from pbem.service.language import translator_of
from pbem.service.outbox import queue
from pbem.store.models import Audit, Game, Seat


def _when(game: Game, deadline: datetime | None, now: datetime) -> Callable[[Seat], Msg]:
    """A deadline as each holder reads it: their zone, UTC, and how long is left."""
    return lambda row: (players.deadline_text(game, row, deadline, now) if deadline
                        else _("no deadline"))


def _tell(session: Session, settings: Settings, game: Game, what: str, subject: Msg,
          text: Msg | Callable[[Seat], Msg], *, now: datetime,
          rows: Iterable[Seat] | None = None) -> int:
    """Each holder gets the notice in their own language (subject and text are messages;
    a text that depends on the holder, such as a deadline in his zone, is a function)."""
    session.flush()  # the action's audit row names the mails
    last = session.exec(select(func.max(Audit.id)).where(Audit.game_id == game.id)).one()
    count = 0
    for row in rows if rows is not None else seats_of(session, game):
        t = translator_of(game, row.seat)
        sent = queue(session, settings, kind="notice", to=row.email, game=game, seat=row.seat,
                     subject=f"[{game.name}] " + render(subject, t),
                     text=render(text(row) if callable(text) else text, t).rstrip("\n") + "\n",
                     now=now, key=(what, game.name, last, row.id))
        count += sent is not None
    return count


def paused(session: Session, settings: Settings, game: Game, *, reason: str,
           now: datetime) -> int:
    paused = (_("The GM paused {game}: {reason}.", game=game.name, reason=reason) if reason
              else _("The GM paused {game}.", game=game.name))
    return _tell(session, settings, game, "pause", _("the GM paused the game"),
                 join([paused, _("Until the GM resumes it, no orders are accepted and no "
                                 "deadline runs; the step keeps the time it had left.")], "\n"),
                 now=now)


def held(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    """The tick held a step that most seats missed (the GM is told apart)."""
    return _tell(session, settings, game, "hold", _("step {n} is held", n=game.step),
                 _("Most seats sent no orders for step {n} of {game} by its deadline. Lost "
                   "mail is likelier than mass absence, so the step is held and the game "
                   "paused until the GM resumes it; orders are accepted again then, and the "
                   "orders on file are kept.", n=game.step, game=game.name), now=now)


def resumed(session: Session, settings: Settings, game: Game, *, now: datetime) -> int:
    when = _when(game, game.deadline, now)
    return _tell(session, settings, game, "resume", _("the GM resumed the game"),
                 lambda row: _("The GM resumed {game}. Step {n} is open for orders; its "
                               "deadline: {deadline}.", game=game.name, n=game.step,
                               deadline=when(row)),
                 now=now)


def extended(session: Session, settings: Settings, game: Game, ext: Extension, *,
             now: datetime) -> int:
    before, after = _when(game, ext.before, now), _when(game, ext.after, now)

    def moved(row: Seat) -> Msg:  # the deadlines in each holder's zone
        if ext.paused_left_hours is not None:
            return _("The GM gave step {n} of {game} more time: the game is paused, and when "
                     "it resumes the step has {hours} hours.", n=game.step, game=game.name,
                     hours=format(ext.paused_left_hours, ".3g"))
        return _("The GM moved the deadline of step {n} of {game} from {before} to {after}.",
                 n=game.step, game=game.name, before=before(row), after=after(row))

    return _tell(session, settings, game, "extend",
                 _("the deadline of step {n} moved", n=game.step), moved, now=now)


def extended_for(session: Session, settings: Settings, game: Game, seat: str, *,
                 now: datetime) -> int:
    """The tick gave a seat that sent nothing more time: the other seats hear of the new
    deadline too (the seat itself gets its own reminder)."""
    others = [r for r in seats_of(session, game) if r.seat != seat]
    when = _when(game, game.deadline, now)
    return _tell(session, settings, game, "extend",
                 _("the deadline of step {n} moved", n=game.step),
                 lambda row: _("The deadline of step {n} of {game} moved to {deadline}: orders "
                               "from {seat} are missing. Until then you may still change "
                               "yours.", n=game.step, game=game.name, deadline=when(row),
                               seat=seat),
                 now=now, rows=others)


def replaced(session: Session, settings: Settings, game: Game, seat: str, *,
             now: datetime) -> int:
    """Told to the other seats and to the player who left (the new one gets a welcome)."""
    holders = seats_of(session, game, active_only=False)
    new = next(r for r in reversed(holders) if r.seat == seat and r.active)
    left = [r for r in holders if r.seat == seat and not r.active][-1:]
    others = [r for r in holders if r.active and r.seat != seat]
    count = _tell(session, settings, game, "replaced",
                  _("seat {seat} has a new player", seat=seat),
                  _("The GM gave seat {seat} of {game} to a new player ({email}).", seat=seat,
                    game=game.name, email=new.email), now=now, rows=others)
    return count + _tell(session, settings, game, "replaced-you",
                         _("you no longer play {seat}", seat=seat),
                         _("The GM gave your seat {seat} of {game} to another player. Your "
                           "password and reply addresses for it no longer work. Thank you for "
                           "playing.", seat=seat, game=game.name), now=now, rows=left)


def rolled_back(session: Session, settings: Settings, game: Game, rb: Rollback, *,
                now: datetime) -> int:
    count = 0
    for row in seats_of(session, game):
        lines = rb.changes.get(row.seat)
        if rb.reprocessed:
            text = _("The GM rolled {game} back to step {n} and processed it again.\n"
                     "What changed for you: {changes}", game=game.name, n=rb.to_step,
                     changes=join(lines, "; ") if lines else _("nothing you can see changed"))
        else:
            kept = _("Your orders on file for it are kept and count if you send nothing new; "
                     "a new order file replaces them. The report of the step follows.")
            text = (_("The GM rolled {game} back to step {n}; it is open for orders again "
                      "until {deadline}. {kept}", game=game.name, n=rb.to_step, kept=kept,
                      deadline=_when(game, game.deadline, now)(row)) if game.deadline else
                    _("The GM rolled {game} back to step {n}; it is open for orders again, "
                      "with no deadline: the GM decides when it is processed. {kept}",
                      game=game.name, n=rb.to_step, kept=kept))
        count += _tell(session, settings, game, "rollback",
                       _("the GM rolled the game back to step {n}", n=rb.to_step), text,
                       now=now, rows=[row])
    return count


def announced(session: Session, settings: Settings, game: Game, text: str, *,
              now: datetime) -> int:
    # The GM's own words stay as written; the subject is the reader's language.
    return _tell(session, settings, game, "announce", _("announcement from the GM"),
                 Msg("{text}", text=text), now=now)
