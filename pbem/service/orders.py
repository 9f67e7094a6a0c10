"""Order files: check, submit, withdraw, and the file spool (orders/inbox).

Every submission gets an answer (`Receipt`): the orders now on file echoed line by line
with OK or the error, or the one reason the whole file was refused. A password is never
echoed. A wrong password is reported to the seat's registered address, not the sender.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from sqlmodel import Session, col, select

from pbem.core.dice import file_hash
from pbem.core.envelope import Envelope, normalise, parse_envelope
from pbem.core.i18n import Msg, Translator, _, n_, render
from pbem.core.orders import Parsed, echo_message
from pbem.core.ruleset import Ruleset, State
from pbem.service import players
from pbem.service.games import (
    ServiceError,
    audit,
    awaiting_of,
    check_password,
    find_game,
    live_step,
    mark_due,
    ruleset_of,
    seat_row,
    seats_of,
)
from pbem.service.limits import password_locked
from pbem.store.models import Game, Seat, Step, Submission, stored_id

if TYPE_CHECKING:
    from pbem.service.outbox import SessionFactory


@dataclass
class Receipt:
    accepted: bool
    reason: str = ""  # one line when refused
    lines: list[str] = field(default_factory=list)  # the echo
    game: str | None = None
    seat: str | None = None
    step: int | None = None
    # When the password was wrong: tell this registered address (not the sender).
    notify: str | None = None
    # The file proved it speaks for the seat (password or reply token): answers may go to
    # the seat's registered address.
    authenticated: bool = False
    # The orders on file exactly as they are hashed (the seat's file hash in the report).
    hashed: str | None = None
    # The open step's deadline as the seat's holder reads it (zone, UTC, time left).
    deadline: str | None = None
    # SETTINGS lines: what became of each, and the away period when it changed (the GM
    # is told).
    settings: list[Msg] = field(default_factory=list)
    away_changed: bool = False
    away: tuple[str, str] | None = None

    def hashed_name(self) -> str:
        """The file name under which a confirmation mail attaches `hashed`."""
        return f"{self.game}-step{self.step}-{self.seat}-hashed.txt"

    def text(self, t: Translator | None = None) -> str:
        """The answer, in the translator's language (English without one)."""
        if not self.game:
            head = ""
        elif not self.seat:
            head = render(_("Game {game}: ", game=self.game) if self.step is None else
                          _("Game {game}, step {step}: ", game=self.game, step=self.step), t)
        elif self.step is None:  # an unknown game: no step
            head = render(_("Game {game}, seat {seat}: ", game=self.game, seat=self.seat), t)
        else:
            head = render(_("Game {game}, seat {seat}, step {step}: ", game=self.game,
                            seat=self.seat, step=self.step), t)
        lines = [render(line, t) for line in self.lines]
        settings = "".join(render(line, t) + "\n" for line in self.settings)
        deadline = render(_("Deadline of step {step}: {deadline}", step=self.step,
                            deadline=self.deadline), t) + "\n" if self.deadline else ""
        if not self.accepted:
            body = "".join(f"{line}\n" for line in lines)
            return (head + render(_("REFUSED: {reason}", reason=self.reason), t) + f"\n{body}"
                    + settings + deadline)
        body = "\n".join(lines)
        reason = render(self.reason or _("orders on file"), t) if body else render(self.reason, t)
        text = f"{head}{reason}\n{body}\n" if body else f"{head}{reason}\n"
        return text + settings + deadline + (hashed_block(self.hashed, self.hashed_name(), t)
                                             if self.hashed is not None else "")


def hashed_block(hashed: str, name: str, t: Translator | None = None) -> str:
    """How a confirmation shows the text that is hashed, so a player can check the file
    hash the next report lists for his seat (docs/dice.md)."""
    lines = hashed.split("\n")[:-1] if hashed else []
    return ("\n" + render(_("File hash: {hash}", hash=file_hash(hashed)), t) + "\n"
            + render(_("It is the SHA-256 of exactly the text below (by mail: the attached {name}),\n"
                       "as UTF-8 with every line ending in a newline (LF), the empty lines included: they\n"
                       "stand for the lines that are not hashed (the header lines, STATUS, CLEAR, WAIT,\n"
                       "CONFIRM and quoted lines); text after END is left out. Each line is shown after '| '.\n",
                       name=name), t)
            + "".join(f"| {line}".rstrip() + "\n" for line in lines)
            + (render(_("(no orders: the SHA-256 of the empty text)"), t) + "\n" if not lines else ""))


def read_envelope(text: str, *, headerless: bool = False) -> Envelope:
    """`parse_envelope`, except that what it cannot read becomes a problem, not an
    exception: a TURN value of non-ASCII digits ("²", which str.isdigit() accepts) makes
    int() raise inside it."""
    try:
        return parse_envelope(text, headerless=headerless)
    except ValueError:
        for raw in normalise(text).split("\n"):
            word, _sep, rest = raw.strip().split("#", 1)[0].strip().partition(" ")
            value = rest.strip()
            if word.upper().rstrip(":") == "TURN" and not (value.isascii() and value.isdigit()):
                return Envelope(problems=[_('TURN must be a step number, not "{value}"',
                                            value=value[:40])])
        return Envelope(problems=[_("the order file could not be read")])


def orders_on_file(session: Session, step: Step) -> dict[str, Submission]:
    """The latest accepted submission of each seat for a step."""
    rows = session.exec(select(Submission).where(Submission.step_id == step.id,
                                                 Submission.status == "accepted")
                        .order_by(col(Submission.id)))
    return {row.seat: row for row in rows}


def _locate(session: Session, env: Envelope) -> tuple[Game, str, Step]:
    if env.problems:
        raise ServiceError(env.problems[0])
    assert env.game and env.seat
    game = find_game(session, env.game)
    row = seat_row(session, game, env.seat)
    if row is None:
        seats = ", ".join(s.seat for s in seats_of(session, game))
        raise ServiceError(_('game {game} has no seat "{seat}"; seats: {seats}',
                             game=game.name, seat=env.seat, seats=seats))
    return game, row.seat, live_step(session, game)


def _echo(parsed: Parsed) -> list[str]:
    return parsed.echo() or [_("(no order lines)")]


def check_orders(session: Session, text: str, *, now: datetime) -> Receipt:
    """Judge an order file as `submit_orders` would (password or lock, game status, TURN,
    whether the seat may send now, then every line against the game's current state), but
    store nothing, audit nothing and tell no one."""
    env = read_envelope(text)
    try:
        game, seat, step = _locate(session, env)
    except ServiceError as e:
        return Receipt(False, e.message, game=env.game, seat=env.seat)
    receipt = Receipt(False, game=game.name, seat=seat, step=step.number)
    row = seat_row(session, game, seat)
    assert row is not None
    refusal = _gate(session, env, game, row, step, None, receipt, now=now, actor="check",
                    record=False)
    if receipt.authenticated and env.settings:
        _settings(session, env, game, row, receipt, now=now, actor="check", save=False)
        if _settings_only(env):
            receipt.accepted, receipt.reason = True, "settings checked (nothing stored)"
            return receipt
    ruleset = ruleset_of(game)
    state = ruleset.load(json.loads(step.state_json))
    refusal = refusal or _not_now(ruleset, state, seat, step)
    if refusal:
        receipt.reason = refusal
        return receipt
    parsed = ruleset.parse(state, seat, env.body)
    receipt.lines = _echo(parsed)
    if parsed.lines and not parsed.orders:
        receipt.reason = _("no line of this file can be used: submitting it would put "
                           "nothing on file")
        return receipt
    receipt.accepted = True
    receipt.reason = (_("all lines OK") if parsed.ok
                      else _("{n} line(s) with errors", n=len(parsed.errors)))
    return receipt


def _not_now(ruleset: Ruleset, state: State, seat: str, step: Step) -> str:
    """Why `seat` may not send orders in `step` ("" if it may)."""
    awaited = awaiting_of(step)
    if seat not in awaited and not ruleset.accepts_unasked(state, seat):
        return _("{seat} is not awaited in step {n}; awaited: {awaited}", seat=seat,
                 n=step.number, awaited=", ".join(sorted(awaited)) or _("nobody"))
    return ""


def submit_orders(session: Session, text: str, *, now: datetime, source: str = "file",
                  sender: str | None = None, message_id: str | None = None,
                  token: tuple[str, str, int] | None = None) -> Receipt:
    """Accept an order file for the game's open step, or refuse it with one reason.

    `token` = (game, seat, step) from a verified reply token stands in for the password,
    for that step only: a TURN line cannot move it. In such a reply, lines before the first
    line the ruleset reads are the player's prose and are ignored (the echo lists them).
    """
    env = read_envelope(text)
    if token is not None and not (env.game or env.seat):
        # A reply to a report: the token names game and seat, every line is the player's
        # (so line numbers are those of the text they wrote).
        env = read_envelope(text, headerless=True)
    if token is not None and not env.problems:
        env.game = env.game or token[0]
        env.seat = env.seat or token[1]
    try:
        game, seat, step = _locate(session, env)
    except ServiceError as e:
        return Receipt(False, e.message, game=env.game, seat=env.seat)
    receipt = Receipt(False, game=game.name, seat=seat, step=step.number)
    row = seat_row(session, game, seat)
    assert row is not None
    token_ok = token is not None and token[0] == game.name and token[1] == seat
    refusal = _gate(session, env, game, row, step, token if token_ok else None, receipt,
                    now=now, actor=sender or source)
    ruleset = ruleset_of(game)
    state = ruleset.load(json.loads(step.state_json))
    ignored = _drop_preamble(ruleset, state, seat, env) if token_ok else []
    if receipt.authenticated and _settings_first(session, env, game, row, step, receipt,
                                                 now=now, actor=sender or source):
        receipt.lines = _echo_lines(None, ignored)
        return receipt
    if refusal:
        receipt.reason = refusal
        return receipt
    awaited = awaiting_of(step)
    receipt.reason = _not_now(ruleset, state, seat, step)
    if receipt.reason:
        return receipt
    current = orders_on_file(session, step).get(seat)
    if "CLEAR" in env.controls and current is not None:
        current.status = "withdrawn"
        session.add(current)
        current = None
    confirm = "CONFIRM" in env.controls
    fresh: list[str] | None = None  # this file's echo as messages (the game's words translate)
    if env.body.strip():
        parsed = ruleset.parse(state, seat, env.body)
        if parsed.lines and not parsed.orders:
            # Not one usable line: nothing goes on file, the seat stays awaited.
            receipt.reason = (
                _("no line of your file can be used, so nothing was put on file (your "
                  "earlier orders stay): fix the lines below and send the file again")
                if current is not None else
                _("no line of your file can be used, so nothing was put on file; you are "
                  "still awaited: fix the lines below and send the file again"))
            receipt.lines = _echo(parsed)
            return receipt
        if current is not None:
            current.status = "superseded"
            session.add(current)
        fresh = _echo(parsed)
        current = Submission(step_id=stored_id(step), seat=seat, body=env.body,
                             echo="\n".join(fresh), source=source, sender=sender,
                             message_id=message_id, received_at=now,
                             wait="WAIT" in env.controls, refused=len(parsed.errors),
                             confirmed=confirm)
        session.add(current)
        receipt.reason = _("orders accepted") if parsed.ok else _refused_note(
            len(parsed.errors), confirm)
        if seat not in awaited:
            receipt.reason = _("{reason} (you are not awaited in step {n}: they are applied "
                               "when it is processed)", reason=receipt.reason, n=step.number)
    elif confirm and current is not None:
        current.confirmed = True
        session.add(current)
        receipt.reason = (_("CONFIRM noted: your file counts as it is ({n} refused line(s) "
                            "are not used)", n=current.refused) if current.refused
                          else _("CONFIRM noted: your file counts as it is"))
    elif "WAIT" in env.controls and current is not None:
        current.wait = True
        session.add(current)
        receipt.reason = _("WAIT noted: the step will not be processed before its deadline")
    elif "CLEAR" in env.controls:
        receipt.reason = _("orders withdrawn")
    else:
        receipt.reason = _("orders on file") if current else _("no orders on file")
    receipt.accepted = True
    receipt.lines = _echo_lines(current, ignored, fresh)
    receipt.hashed = current.body if current is not None else None
    mark_due(game, now)  # the step may be complete now: the tick looks at once
    session.add(game)
    session.flush()
    return receipt


def _settings_only(env: Envelope) -> bool:
    """A file of SETTINGS lines alone: it asks nothing of the step."""
    return bool(env.settings) and not env.body.strip() and not env.controls


def _settings_first(session: Session, env: Envelope, game: Game, row: Seat, step: Step,
                    receipt: Receipt, *, now: datetime, actor: str) -> bool:
    """For a file that speaks for the seat: the deadline as its holder reads it, and its
    SETTINGS lines applied whatever becomes of the orders (nothing is lost). True when
    the file held nothing else: it is answered already."""
    if env.settings:
        _settings(session, env, game, row, receipt, now=now, actor=actor)
    receipt.deadline = players.deadline_text(game, row, step.deadline, now) \
        if step.deadline else None  # in the zone the file may just have set
    if not _settings_only(env):
        return False
    receipt.accepted = True
    refused = sum("-> REFUSED: " in line for line in receipt.settings)
    receipt.reason = (n_("settings: {n} line refused (see below)",
                         "settings: {n} lines refused (see below)", refused) if refused else
                      _("settings changed") if any("-> OK: " in line for line in receipt.settings)
                      else _("your settings"))
    return True


def _settings(session: Session, env: Envelope, game: Game, row: Seat, receipt: Receipt, *,
              now: datetime, actor: str, save: bool = True) -> None:
    done = players.change(session, game, row, [(n, t) for n, t in env.settings], now=now,
                          actor=actor, save=save)
    receipt.settings = done.echo
    receipt.away_changed, receipt.away = done.away_changed and save, done.away


def _echo_lines(current: Submission | None, ignored: list[tuple[int, str]],
                fresh: list[str] | None = None) -> list[str]:
    lines: list[str] = []
    if ignored:
        shown = ", ".join(f'"{t[:60]}"' for _n, t in ignored[:5])
        lines.append(_("ignored, before your first order line: {lines} and {n} more",
                       lines=shown, n=len(ignored) - 5) if len(ignored) > 5 else
                     _("ignored, before your first order line: {lines}", lines=shown))
    if current is not None:
        lines += fresh if fresh is not None else [echo_message(line)
                                                  for line in current.echo.splitlines()]
        if current.wait:
            lines.append(_("WAIT: this step waits for its deadline"))
    return lines


def _gate(session: Session, env: Envelope, game: Game, row: Seat, step: Step,
          token: tuple[str, str, int] | None, receipt: Receipt, *, now: datetime,
          actor: str, record: bool = True) -> str:
    """Why the file may not go on file for this seat and step ("" if it may): the
    password (or the reply token, for its own step only), the game's status, TURN.
    `record=False` (`orders check`): a wrong password is not audited and nobody is told."""
    seat = row.seat
    if token is None:
        if not env.password:
            return _("missing PASSWORD line")
        if password_locked(session, game, seat, now):
            return _("too many wrong passwords for {seat} in the last 24 hours: passwords "
                     "are not checked for now; answer your latest report (its reply address "
                     "needs no password)", seat=seat)
        if not check_password(env.password, row.password_hash):
            if not record:
                return _("wrong password for this seat")
            receipt.notify = row.email
            audit(session, game, "wrong-password", now=now, actor=actor, seat=seat,
                  step=step.number)
            return _("wrong password for this seat; the seat's player will be told")
    receipt.authenticated = True
    if game.status == "finished":
        return _("the game is over")
    if game.status == "paused":
        return _("the game is paused by the GM; send your orders when it resumes")
    if token is not None and token[2] != step.number:
        return _("this reply address was for step {n}; step {open} is open: reply to the "
                 "latest report", n=token[2], open=step.number)
    if token is not None and env.turn is not None and env.turn != token[2]:
        return _("TURN {turn} does not match this reply address, which is for step {n} only",
                 turn=env.turn, n=token[2])
    if env.turn is not None and env.turn != step.number:
        return _("TURN {turn} is not the open step; the game is at step {n}", turn=env.turn,
                 n=step.number)
    return ""


def _drop_preamble(ruleset: Ruleset, state: State, seat: str,
                   env: Envelope) -> list[tuple[int, str]]:
    """A reply to a report has no GAME line to start the orders: blank the lines before the
    first one the ruleset reads (the player's "Here is my move"), and say which they were.
    If no line reads, nothing is dropped, so the player sees every error (unless the
    reply has SETTINGS lines: then it was about them, and the rest is prose)."""
    lines = env.body.split("\n")
    ignored: list[tuple[int, str]] = []
    for n, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parsed = ruleset.parse(state, seat, "\n" * n + line + "\n")
        if parsed.ok and parsed.orders:
            break
        ignored.append((n + 1, text))
    else:
        if not env.settings:
            return []
        # SETTINGS lines and prose, no order: the prose goes (the file is its settings).
    for n, _text in ignored:
        lines[n - 1] = ""
    env.body = "\n".join(lines)
    if not env.body.strip():
        env.body = ""
    return ignored


def _refused_note(refused: int, confirmed: bool) -> str:
    if confirmed:
        return _("orders accepted; {n} refused line(s) are not used (you sent CONFIRM, so "
                 "your file counts as it is)", n=refused)
    return _("orders accepted, but {n} line(s) are refused (see below): send the whole file "
             "again with them fixed, or a file with the line CONFIRM to play it as it is; "
             "until then the step waits for you (or its deadline)", n=refused)


def counts_as_in(sub: Submission) -> bool:
    """Does a file on record count as the seat's orders for early processing? Not while
    it has refused lines the player has not confirmed."""
    return sub.refused == 0 or sub.confirmed


# --- the spool -------------------------------------------------------------------------

SPOOL_LEASE = timedelta(minutes=5)  # a claimed file whose worker died goes back after this
MAX_SPOOL_BYTES = 1_000_000


@dataclass
class SpoolItem:
    path: Path
    receipt: Receipt
    error: str | None = None  # an internal error: the file is in quarantine/


def _claim_file(path: Path, claimed: Path, now: datetime) -> Path | None:
    """Take a spool file for this process with one atomic rename (only one process wins);
    its modification time is set to `now`, when the lease starts."""
    mine = claimed / path.name
    try:
        os.rename(path, mine)
    except FileNotFoundError:
        return None  # another process took it
    os.utime(mine, (now.timestamp(), now.timestamp()))
    return mine


def process_spool(session_factory: SessionFactory, spool: Path, *,
                  now: datetime) -> list[SpoolItem]:
    """Submit every file in `spool/inbox`, moving it to processed/ or rejected/ with its
    echo written beside it (`<name>.echo.txt`). Each file is its own transaction, claimed
    first by a rename into claimed/, so two runs at once never take the same file. A file
    that breaks the service goes to quarantine/ with the error, and the run goes on."""
    inbox, claimed = spool / "inbox", spool / "claimed"
    claimed.mkdir(parents=True, exist_ok=True)
    for stale in claimed.iterdir():  # claims of a worker that died
        try:
            if stale.stat().st_mtime < (now - SPOOL_LEASE).timestamp():
                os.rename(stale, inbox / stale.name)
        except FileNotFoundError:
            pass
    done: list[SpoolItem] = []
    for path in sorted(p for p in inbox.iterdir() if p.is_file() and not p.name.startswith(".")):
        mine = _claim_file(path, claimed, now)
        if mine is None:
            continue
        try:
            data = mine.read_bytes()
            if len(data) > MAX_SPOOL_BYTES:
                receipt = Receipt(False, _("the file is {size} bytes; an order file is at "
                                           "most {max}", size=len(data), max=MAX_SPOOL_BYTES))
            else:
                with session_factory() as session:
                    receipt = submit_orders(session, data.decode("utf-8", errors="replace"),
                                            now=now, source="spool")
        except Exception as e:  # noqa: BLE001 - one broken file must not stop the spool
            error = f"{type(e).__name__}: {e}".splitlines()[0][:300]
            target = spool / "quarantine"
            target.mkdir(parents=True, exist_ok=True)
            os.replace(mine, target / path.name)
            (target / (path.name + ".error.txt")).write_text(error + "\n", encoding="utf-8")
            done.append(SpoolItem(target / path.name, Receipt(
                False, _("could not be processed (an internal error); the GM has been told")),
                error))
            continue
        target = spool / ("processed" if receipt.accepted else "rejected")
        target.mkdir(parents=True, exist_ok=True)
        dest = target / path.name
        os.replace(mine, dest)
        (target / (path.name + ".echo.txt")).write_text(receipt.text(), encoding="utf-8")
        done.append(SpoolItem(dest, receipt))
    return done
