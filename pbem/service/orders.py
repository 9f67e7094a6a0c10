"""Order files: check, submit, withdraw, and the file spool (orders/inbox).

Every submission gets an answer (`Receipt`): the orders now on file echoed line by line
with OK or the error, or the one reason the whole file was refused. A password is never
echoed. A wrong password is reported to the seat's registered address, not the sender.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlmodel import Session, select

from pbem.core.dice import file_hash
from pbem.core.envelope import Envelope, parse_envelope
from pbem.core.orders import Parsed
from pbem.service.games import (
    ServiceError,
    audit,
    awaiting_of,
    check_password,
    find_game,
    live_step,
    ruleset_of,
    seat_row,
    seats_of,
)
from pbem.store.models import Game, Step, Submission


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

    def text(self) -> str:
        head = f"Game {self.game}, seat {self.seat}, step {self.step}: " if self.game else ""
        if not self.accepted:
            body = "".join(f"{line}\n" for line in self.lines)
            return f"{head}REFUSED: {self.reason}\n{body}"
        body = "\n".join(self.lines)
        return f"{head}{self.reason or 'orders on file'}\n{body}\n" if body else f"{head}{self.reason}\n"


def orders_on_file(session: Session, step: Step) -> dict[str, Submission]:
    """The latest accepted submission of each seat for a step."""
    rows = session.exec(select(Submission).where(Submission.step_id == step.id,
                                                 Submission.status == "accepted")
                        .order_by(Submission.id))
    return {row.seat: row for row in rows}


def _locate(session: Session, env: Envelope) -> tuple[Game, str, Step]:
    if env.problems:
        raise ServiceError(env.problems[0])
    assert env.game and env.seat
    game = find_game(session, env.game)
    row = seat_row(session, game, env.seat)
    if row is None:
        seats = ", ".join(s.seat for s in seats_of(session, game))
        raise ServiceError(f'game {game.name} has no seat "{env.seat}"; seats: {seats}')
    return game, row.seat, live_step(session, game)


def _echo(parsed: Parsed) -> list[str]:
    return parsed.echo() or ["(no order lines)"]


def check_orders(session: Session, text: str) -> Receipt:
    """Parse and echo an order file against the game's current state; store nothing."""
    env = parse_envelope(text)
    try:
        game, seat, step = _locate(session, env)
    except ServiceError as e:
        return Receipt(False, str(e))
    ruleset = ruleset_of(game)
    state = ruleset.load(json.loads(step.state_json))
    parsed = ruleset.parse(state, seat, env.body)
    awaited = awaiting_of(step)
    note = "" if seat in awaited else f"note: {seat} is not awaited in step {step.number}"
    return Receipt(True, note or ("all lines OK" if parsed.ok else
                                   f"{len(parsed.errors)} line(s) with errors"),
                   _echo(parsed), game.name, seat, step.number)


def submit_orders(session: Session, text: str, *, now: datetime, source: str = "file",
                  sender: str | None = None, message_id: str | None = None,
                  token: tuple[str, str, int] | None = None) -> Receipt:
    """Accept an order file for the game's open step, or refuse it with one reason.

    `token` = (game, seat, step) from a verified reply token stands in for the password.
    """
    env = parse_envelope(text)
    if token is not None and not env.problems:
        env.game = env.game or token[0]
        env.seat = env.seat or token[1]
    try:
        game, seat, step = _locate(session, env)
    except ServiceError as e:
        return Receipt(False, str(e), game=env.game, seat=env.seat)
    receipt = Receipt(False, game=game.name, seat=seat, step=step.number)
    row = seat_row(session, game, seat)
    assert row is not None
    token_ok = token is not None and token[0] == game.name and token[1] == seat
    if not token_ok:
        if not env.password:
            receipt.reason = "missing PASSWORD line"
            return receipt
        if not check_password(env.password, row.password_hash):
            receipt.reason = "wrong password for this seat; the seat's player has been told"
            receipt.notify = row.email
            audit(session, game, "wrong-password", now=now, actor=sender or source, seat=seat)
            return receipt
    if game.status == "finished":
        receipt.reason = "the game is over"
        return receipt
    if game.status == "paused":
        receipt.reason = "the game is paused by the GM; send your orders when it resumes"
        return receipt
    expected_turn = token[2] if token_ok and env.turn is None else env.turn
    if expected_turn is not None and expected_turn != step.number:
        receipt.reason = (f"TURN {expected_turn} is not the open step; the game is at step "
                          f"{step.number}")
        return receipt
    awaited = awaiting_of(step)
    ruleset = ruleset_of(game)
    state = ruleset.load(json.loads(step.state_json))
    if seat not in awaited and not ruleset.accepts_unasked(state, seat):
        receipt.reason = (f"{seat} is not awaited in step {step.number}; awaited: "
                          + (", ".join(sorted(awaited)) or "nobody"))
        return receipt
    current = orders_on_file(session, step).get(seat)
    if "CLEAR" in env.controls and current is not None:
        current.status = "withdrawn"
        session.add(current)
        current = None
    confirm = "CONFIRM" in env.controls
    if env.body.strip():
        parsed = ruleset.parse(state, seat, env.body)
        if parsed.lines and not parsed.orders:
            # Not one usable line: nothing goes on file, the seat stays awaited.
            receipt.reason = ("no line of your file can be used, so nothing was put on file"
                              + (" (your earlier orders stay)" if current is not None else
                                 "; you are still awaited") + ": fix the lines below and send "
                              "the file again")
            receipt.lines = _echo(parsed)
            return receipt
        if current is not None:
            current.status = "superseded"
            session.add(current)
        current = Submission(step_id=step.id, seat=seat, body=env.body, file_hash=file_hash(env.body),
                             echo="\n".join(_echo(parsed)), source=source, sender=sender,
                             message_id=message_id, received_at=now,
                             wait="WAIT" in env.controls, refused=len(parsed.errors),
                             confirmed=confirm)
        session.add(current)
        receipt.reason = "orders accepted" if parsed.ok else _refused_note(len(parsed.errors),
                                                                          confirm)
        if seat not in awaited:
            receipt.reason += (f" (you are not awaited in step {step.number}: they are applied "
                               "when it is processed)")
    elif confirm and current is not None:
        current.confirmed = True
        session.add(current)
        receipt.reason = ("CONFIRM noted: your file counts as it is"
                          + (f" ({current.refused} refused line(s) are not used)"
                             if current.refused else ""))
    elif "WAIT" in env.controls and current is not None:
        current.wait = True
        session.add(current)
        receipt.reason = "WAIT noted: the step will not be processed before its deadline"
    elif "CLEAR" in env.controls:
        receipt.reason = "orders withdrawn"
    else:
        receipt.reason = "orders on file" if current else "no orders on file"
    receipt.accepted = True
    if current is not None:
        receipt.lines = current.echo.splitlines()
        if current.wait:
            receipt.lines.append("WAIT: this step waits for its deadline")
    session.flush()
    return receipt


def _refused_note(refused: int, confirmed: bool) -> str:
    if confirmed:
        return (f"orders accepted; {refused} refused line(s) are not used (you sent CONFIRM, "
                "so your file counts as it is)")
    return (f"orders accepted, but {refused} line(s) are refused (see below): send the whole "
            "file again with them fixed, or a file with the line CONFIRM to play it as it is; "
            "until then the step waits for you (or its deadline)")


def counts_as_in(sub: Submission) -> bool:
    """Does a file on record count as the seat's orders for early processing? Not while
    it has refused lines the player has not confirmed."""
    return sub.refused == 0 or sub.confirmed


# --- the spool -------------------------------------------------------------------------

@dataclass
class SpoolItem:
    path: Path
    receipt: Receipt


def process_spool(session_factory, spool: Path, *, now: datetime) -> list[SpoolItem]:  # type: ignore[no-untyped-def]
    """Submit every file in `spool/inbox`, moving it to processed/ or rejected/ with its
    echo written beside it (`<name>.echo.txt`). Each file is its own transaction."""
    inbox = spool / "inbox"
    done: list[SpoolItem] = []
    for path in sorted(p for p in inbox.iterdir() if p.is_file() and not p.name.startswith(".")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        with session_factory() as session:
            receipt = submit_orders(session, text, now=now, source="spool")
        target = spool / ("processed" if receipt.accepted else "rejected")
        target.mkdir(parents=True, exist_ok=True)
        dest = target / path.name
        shutil.move(str(path), dest)
        (target / (path.name + ".echo.txt")).write_text(receipt.text(), encoding="utf-8")
        done.append(SpoolItem(dest, receipt))
    return done
