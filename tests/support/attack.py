"""For the attacker's suite (tests/security): a host with one live game, mail builders."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from clock import T0
from sqlmodel import select

from pbem.config import Settings
from pbem.service import mailflow
from pbem.service.games import create_game, find_game, live_step
from pbem.service.tick import tick
from pbem.store.db import session_scope
from pbem.store.models import Game, Outbox, Seat

ORDERS = "orders@pbem.test"


@dataclass
class Host:
    engine: object
    settings: Settings
    passwords: dict[str, str]
    tmp: Path
    now: datetime = T0
    lines: list[str] = field(default_factory=list)

    def sessions(self):  # type: ignore[no-untyped-def]
        return session_scope(self.engine)

    def receive(self, raw: bytes | EmailMessage, **kw) -> mailflow.Received:  # type: ignore[no-untyped-def]
        data = raw.as_bytes() if isinstance(raw, EmailMessage) else raw
        return mailflow.receive(self.sessions, data, source=kw.pop("source", "pipe"),
                                settings=self.settings, now=kw.pop("now", self.now), **kw)

    def tick(self, now: datetime | None = None) -> list[str]:
        out = tick(self.engine, spool=self.tmp / "spool", now=now or self.now,  # type: ignore[arg-type]
                   settings=self.settings)
        self.lines += out
        return out

    def game(self, name: str = "g1") -> Game:
        with self.sessions() as s:
            return find_game(s, name)

    def hand(self, seat: str, name: str = "g1") -> list[int]:
        with self.sessions() as s:
            return json.loads(live_step(s, find_game(s, name)).state_json)["hands"][seat]

    def outbox(self, **where: object) -> list[Outbox]:
        with self.sessions() as s:
            rows = list(s.exec(select(Outbox).order_by(Outbox.id)))
        return [r for r in rows if all(getattr(r, k) == v for k, v in where.items())]

    def seat(self, seat: str, name: str = "g1") -> Seat:
        with self.sessions() as s:
            game = find_game(s, name)
            return s.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat,
                                             Seat.active == True)).one()  # noqa: E712

    def reply_to(self, seat_email: str, step: int | None = None) -> str:
        """The Reply-To of the latest report (or welcome mail) queued to a seat."""
        import email
        from email.policy import default

        rows = [r for r in self.outbox(recipient=seat_email) if r.kind in ("report", "welcome")]
        for row in reversed(rows):
            msg = email.message_from_bytes(row.raw, policy=default)
            if step is None or f"step {step}" in str(msg["Subject"]) or row.kind == "welcome":
                return str(msg["Reply-To"])
        raise AssertionError("no report queued")


def mail(sender: str, body: str, *, to: str = ORDERS, subject: str = "my orders",
         message_id: str | None = None, **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def order_text(host: Host, seat: str, body: str, *, password: str | None = None,
               turn: int | None = None) -> str:
    pw = host.passwords[seat] if password is None else password
    text = f"GAME g1\nSEAT {seat}\nPASSWORD {pw}\n"
    if turn is not None:
        text += f"TURN {turn}\n"
    return text + body


def new_host(engine, tmp_path: Path, **settings_kw: object) -> Host:  # type: ignore[no-untyped-def]
    settings = Settings(db="unused", address=ORDERS, maildir=str(tmp_path / "out"),
                        gm="gm@pbem.test", **settings_kw)  # type: ignore[arg-type]
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id="highcard", name="g1",
                          seats={"north": "ann@example.org", "south": "bob@example.org"},
                          seed="attack", deadline_hours=48, now=T0)
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=T0)
        mailflow.queue_reports(s, settings, new.game, now=T0)
    return Host(engine, settings, new.passwords, tmp_path)


def body_text(row: Outbox) -> str:
    """The text part of a queued mail, decoded."""
    import email
    from email.policy import default

    msg = email.message_from_bytes(row.raw, policy=default)
    part = msg.get_body(("plain",))
    return part.get_content() if part is not None else ""
