"""`pbem demo`: a whole game between random bots through the real mail path.

The built-in SMTP listener (aiosmtpd) runs on a free loopback port; each bot reads its
own report from the local maildir, answers it (Reply-To with the signed token, so no
password) with real RFC 5322 messages sent over SMTP; `tick` processes each step and mails
the reports; at the end the HTML archive is exported and verified.
"""

from __future__ import annotations

import email
import json
import random
import smtplib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from sqlalchemy.engine import Engine

from pbem.archive.export import export_game
from pbem.archive.verify import verify_game
from pbem.config import Settings
from pbem.mail.listener import SmtpListener
from pbem.rulesets import all_rulesets
from pbem.service import mailflow
from pbem.service.games import ServiceError, awaiting_of, create_game, find_game, live_step
from pbem.service.tick import tick
from pbem.store.db import session_scope


def run_demo(engine: Engine, *, settings: Settings, out: Path, ruleset_id: str | None,
             seed: int, max_steps: int, now: datetime,
             echo: Callable[[str], None] = print) -> str:
    hosted = all_rulesets()
    if not hosted:
        raise ServiceError("no rulesets are installed")
    rid = ruleset_id or sorted(hosted)[0]
    if rid not in hosted:
        raise ServiceError(f"unknown ruleset {rid!r}; hosted: {', '.join(sorted(hosted))}")
    ruleset = hosted[rid]
    settings = replace(settings, smtp=None, maildir=str(out / "maildir"), imap=None, inbox=None)
    seats = ruleset.seat_ids(ruleset.max_players, ruleset.default_variant())
    name = f"demo-{rid}-{now:%Y%m%d%H%M%S}"
    sessions = lambda: session_scope(engine)  # noqa: E731
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=rid, name=name,
                          seats={seat: f"{seat}@bots.invalid" for seat in seats},
                          seed=f"demo-{seed}", deadline_hours=72, now=now)
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=now)
        mailflow.queue_reports(s, settings, new.game, now=now)
    mailflow.send_outbox(sessions, settings, now=now)
    echo(f"demo game {name} ({ruleset.title}), seats: {', '.join(seats)}")
    rng = random.Random(seed)
    clock = now
    steps = 0
    received = 0

    def on_message(raw: bytes) -> None:
        mailflow.receive(sessions, raw, source="smtp", settings=settings, now=clock)

    maildir = Path(settings.maildir)
    with SmtpListener("127.0.0.1", 0, on_message) as listener:
        echo(f"SMTP listener on 127.0.0.1:{listener.port}; mail out to {maildir}/")
        while steps < max_steps:
            with session_scope(engine) as s:
                game = find_game(s, name)
                if game.status == "finished":
                    break
                step = live_step(s, game)
                state = ruleset.load(json.loads(step.state_json))
                awaited = sorted(awaiting_of(step))
            reports = _latest_reports(maildir, name)
            with smtplib.SMTP("127.0.0.1", listener.port) as client:
                for seat in awaited:
                    report = reports.get(f"{seat}@bots.invalid")
                    if report is None:
                        raise ServiceError(f"no report reached {seat}")
                    body = "".join(f"{line}\n" for line in ruleset.legal_orders(state, seat, rng))
                    msg = EmailMessage()
                    msg["From"] = f"{seat}@bots.invalid"
                    msg["To"] = report["Reply-To"]
                    msg["Subject"] = f"Re: {report['Subject']}"
                    msg["In-Reply-To"] = report["Message-ID"]
                    msg.set_content(body)
                    client.send_message(msg)
                    received += 1
            clock += timedelta(minutes=5)
            lines = tick(engine, spool=out / "spool", now=clock, settings=settings)
            if not any(line.startswith(f"{name}: step") for line in lines):
                raise ServiceError(f"the demo stalled at step {step.number}: " + "; ".join(lines))
            steps += 1
    with session_scope(engine) as s:
        files = export_game(s, name, out / "archive", override=settings.templates)
        verdict = verify_game(s, name)
        status = find_game(s, name).status
    mails = len(list((maildir / "new").iterdir()))
    return (f"{steps} steps played by mail ({received} order mails in, {mails} mails out in "
            f"{maildir}/new), game {status}; archive {files[-1]} ({len(files)} pages); verify: "
            + ("all steps recomputed identically" if verdict.ok else f"FAILED: {verdict.problem}"))


def _latest_reports(maildir: Path, game: str) -> dict[str, EmailMessage]:
    """Each bot's newest report mail (the one whose Reply-To carries the current token)."""
    latest: dict[str, tuple[int, EmailMessage]] = {}
    new = maildir / "new"
    if not new.is_dir():
        return {}
    for path in new.iterdir():
        msg = email.message_from_bytes(path.read_bytes(), policy=default)
        subject = msg["Subject"] or ""
        if not subject.startswith(f"[{game}] step "):
            continue
        number = int(subject.split(" step ")[1].split(":")[0].split()[0])
        to = msg["To"]
        if to not in latest or latest[to][0] < number:
            latest[to] = (number, msg)  # type: ignore[assignment]
    return {to: m for to, (_, m) in latest.items()}
