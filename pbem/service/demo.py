"""`pbem demo`: whole games between random bots through the real mail path, in a folder of
their own.

Each demo game gets a fresh folder with its own SQLite database, its own default
configuration (no `pbem.toml`, no `PBEM_*` variables, no relay: mail goes to the folder's
maildir) and its own clock, so it can never touch a real game, whatever folder it is run in.
The built-in SMTP listener (aiosmtpd) runs on a free loopback port; each awaited bot reads
the report that opened the current step from the maildir and answers it (Reply-To with the
signed token, so no password) with a real RFC 5322 message over SMTP; `tick` processes the
step and mails the next reports; at the end the HTML archive is exported and verified.

Not here: the bots' play (each ruleset's `legal_orders`) and the mail handling (mailflow).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import smtplib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path
from typing import Any

from pbem.archive.export import export_game
from pbem.archive.verify import verify_game
from pbem.config import Settings
from pbem.core.ruleset import GameConfig, Ruleset
from pbem.mail.listener import SmtpListener
from pbem.mail.outbound import clean_header
from pbem.rulesets import all_rulesets
from pbem.service import mailflow
from pbem.service.games import ServiceError, awaiting_of, create_game, find_game, live_step
from pbem.service.tick import tick
from pbem.store.db import connect, migrate, session_scope

MARKER = ".pbem-demo"  # marks a folder the demo made (and may clear on the next run)
BOTS = "bots.invalid"  # RFC 2606: no mail to a bot can ever leave the machine
_HEADERS = BytesHeaderParser(policy=default)
_REPORT_SUBJECT = re.compile(r"\[(?P<game>[^\]]+)\] step (?P<step>\d+)\b")


@dataclass(frozen=True)
class DemoPlan:
    ruleset: Ruleset
    variant: str
    players: int

    @property
    def name(self) -> str:
        return f"demo-{self.ruleset.id}-{self.variant}".replace("_", "-").lower()  # a game name


def plan(ruleset_id: str | None, *, variant: str | None = None, players: int | None = None,
         options: Mapping[str, Any] | None = None) -> list[DemoPlan]:
    """The games to play: one ruleset (`variant` or its default), or with `ruleset_id`
    "all" every hosted ruleset in every variant. Bad choices are a one-line ServiceError."""
    hosted = all_rulesets()
    if not hosted:
        raise ServiceError("no rulesets are installed")
    rid = ruleset_id or sorted(hosted)[0]
    if rid != "all" and rid not in hosted:
        raise ServiceError(f"unknown ruleset {rid!r}; hosted: {', '.join(sorted(hosted))}, or all")
    chosen = [hosted[r] for r in sorted(hosted)] if rid == "all" else [hosted[rid]]
    plans = []
    for ruleset in chosen:
        ids = [v.id for v in ruleset.variants]
        if variant is not None and variant not in ids:
            if rid != "all":
                raise ServiceError(f"unknown variant {variant!r} of {ruleset.id}; "
                                   f"choose one of {', '.join(ids)}")
            continue
        for v in ([variant] if variant else ids if rid == "all" else [ruleset.default_variant()]):
            plans.append(_seated(ruleset, v, players, options or {}))
    if not plans:
        raise ServiceError(f"no hosted ruleset has a variant {variant!r}")
    return plans


def _seated(ruleset: Ruleset, variant: str, players: int | None,
            options: Mapping[str, Any]) -> DemoPlan:
    """`players` seats, or the most the variant allows (e.g. Multiple Bases: fewer than 5)."""
    counts = [players] if players else range(ruleset.max_players, ruleset.min_players - 1, -1)
    problems: list[str] = []
    for n in counts:
        if not ruleset.min_players <= n <= ruleset.max_players:
            problems = [f"{ruleset.id} takes {ruleset.min_players}-{ruleset.max_players} players"]
            continue
        problems = ruleset.check_config(GameConfig(ruleset.seat_ids(n, variant), variant,
                                                   dict(options)))
        if not problems:
            return DemoPlan(ruleset, variant, n)
    raise ServiceError(f"{ruleset.id} ({variant}): {problems[0]}")


def prepare_folder(out: Path) -> Path:
    """A fresh folder for the demo: new, empty, or one an earlier demo made (cleared)."""
    if out.exists() and not out.is_dir():
        raise ServiceError(f"{out} is a file; give --out a new or empty folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARKER).exists():
            raise ServiceError(f"{out} is not empty and was not made by pbem demo; "
                               "give --out a new or empty folder")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("made by pbem demo; the next demo run here clears it\n")
    return out


def demo_settings(folder: Path) -> Settings:
    """The demo's whole configuration: the defaults, with every path inside `folder`."""
    return Settings(db=f"sqlite:///{folder / 'demo.sqlite'}", maildir=str(folder / "maildir"),
                    spool=str(folder / "spool"), smtp=None, imap=None, inbox=None,
                    templates=None)


@dataclass
class DemoResult:
    name: str
    folder: Path
    steps: int
    mails_in: int
    mails_out: int
    status: str
    archive: Path
    pages: int
    verified: str  # "" when every step recomputed identically, else the first difference
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU (listener thread included)

    def line(self) -> str:
        return (f"{self.name}: {self.steps} steps played by mail ({self.mails_in} order mails "
                f"in, {self.mails_out} mails out) in {self.seconds:.1f}s ({self.cpu_seconds:.1f}s CPU), game {self.status}; archive {self.archive} "
                f"({self.pages} pages); verify: "
                + (f"FAILED: {self.verified}" if self.verified else
                   "all steps recomputed identically"))


def play(p: DemoPlan, folder: Path, *, seed: int, now: datetime, max_steps: int,
         options: Mapping[str, Any] | None = None,
         echo: Callable[[str], None] = print) -> DemoResult:
    """Play one demo game to its end in `folder` (made empty by the caller)."""
    settings = demo_settings(folder)
    engine = connect(settings.db)
    try:
        migrate(engine)
        return _play(p, folder, settings, engine, seed=seed, now=now, max_steps=max_steps,
                     options=options, echo=echo)
    finally:
        engine.dispose()


def _play(p: DemoPlan, folder: Path, settings: Settings, engine: Any, *, seed: int,
          now: datetime, max_steps: int, options: Mapping[str, Any] | None,
          echo: Callable[[str], None]) -> DemoResult:
    ruleset, name = p.ruleset, p.name
    seats = ruleset.seat_ids(p.players, p.variant)
    sessions = lambda: session_scope(engine)  # noqa: E731
    with session_scope(engine) as s:
        new = create_game(s, ruleset_id=ruleset.id, name=name, variant=p.variant,
                          seats={seat: f"{seat}@{BOTS}" for seat in seats},
                          options=dict(options or {}), seed=f"demo-{seed}", deadline_hours=72,
                          now=now)
        mailflow.queue_welcome(s, settings, new.game, new.passwords, now=now)
        mailflow.queue_reports(s, settings, new.game, now=now)
    mailflow.send_outbox(sessions, settings, now=now)
    echo(f"{name}: {ruleset.title}, variant {p.variant}, seats {', '.join(seats)}")
    rng = random.Random(seed)
    clock = now
    steps = 0
    answers: list[mailflow.Received] = []
    inbox = _Reports(Path(settings.maildir), name)

    def on_message(raw: bytes) -> None:
        answers.append(mailflow.receive(sessions, raw, source="smtp", settings=settings,
                                        now=clock))

    with SmtpListener("127.0.0.1", 0, on_message) as listener:
        while True:
            with session_scope(engine) as s:
                game = find_game(s, name)
                if game.status == "finished":
                    break
                step = live_step(s, game)
                state = ruleset.load(json.loads(step.state_json))
                awaited = sorted(awaiting_of(step))
            if steps >= max_steps:
                raise ServiceError(f"{name}: not finished after {max_steps} steps")
            answers.clear()
            with smtplib.SMTP("127.0.0.1", listener.port) as client:
                for seat in awaited:
                    # The bot answers the report that asked it, the one of this very step.
                    report = inbox.report(step.number, f"{seat}@{BOTS}")
                    if report is None:
                        raise ServiceError(f"{name}: no report of step {step.number} reached "
                                           f"{seat}")
                    client.send_message(_answer(report, seat, ruleset.legal_orders(state, seat, rng)))
            refused = [a for a in answers if a.status != "applied"]
            if refused:
                raise ServiceError(f"{name}: at step {step.number} a bot's orders were "
                                   f"{refused[0].status}: {refused[0].reason}")
            clock += timedelta(minutes=5)
            lines = tick(engine, spool=folder / "spool", now=clock, settings=settings)
            if not any(line.startswith(f"{name}: step {step.number} processed") for line in lines):
                raise ServiceError(f"{name}: the demo stalled at step {step.number}: "
                                   + "; ".join(lines))
            steps += 1
    with session_scope(engine) as s:
        files = export_game(s, name, folder / "archive")
        verdict = verify_game(s, name)
        status = find_game(s, name).status
    return DemoResult(name, folder, steps, inbox.bot_mails, inbox.count(), status,
                      files[-1], len(files), "" if verdict.ok else str(verdict.problem))


def _answer(report: EmailMessage, seat: str, lines: list[str]) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"{seat}@{BOTS}"
    msg["To"] = report["Reply-To"]
    msg["Subject"] = f"Re: {clean_header(report['Subject'])}"
    msg["In-Reply-To"] = report["Message-ID"]
    # A bot with nothing to order says so, as a player would: an empty mail is refused.
    msg.set_content("".join(f"{line}\n" for line in lines or ["# nothing to order this step"]))
    return msg


class _Reports:
    """The report mails in the demo's maildir, by step and recipient; each file is read once."""

    def __init__(self, maildir: Path, game: str) -> None:
        self.new = maildir / "new"
        self.game = game
        self.seen: set[str] = set()
        self.by_step: dict[tuple[int, str], EmailMessage] = {}
        self.bot_mails = 0

    def count(self) -> int:
        return len(list(self.new.iterdir())) if self.new.is_dir() else 0

    def report(self, step: int, to: str) -> EmailMessage | None:
        self.bot_mails += 1
        for path in sorted(self.new.iterdir()) if self.new.is_dir() else ():
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            msg = _HEADERS.parsebytes(path.read_bytes())  # the bot needs only the headers
            # A long Subject is folded; unfolded it may start with a space.
            m = _REPORT_SUBJECT.match(clean_header(msg["Subject"] or ""))
            if m and m["game"] == self.game:
                self.by_step[(int(m["step"]), clean_header(msg["To"]))] = msg
        return self.by_step.get((step, to))


def run_demo(*, out: Path, ruleset_id: str | None, variant: str | None = None,
             players: int | None = None, options: Mapping[str, Any] | None = None,
             seed: int = 1, max_steps: int = 2000, now: datetime,
             echo: Callable[[str], None] = print,
             timer: Callable[[], float] | None = None,
             cpu_timer: Callable[[], float] | None = None) -> list[DemoResult]:
    """Play the planned games, each in its own subfolder of `out` (prepared by the caller
    with `prepare_folder`)."""
    results = []
    for p in plan(ruleset_id, variant=variant, players=players, options=options):
        folder = out / f"{p.ruleset.id}-{p.variant}"
        folder.mkdir(parents=True, exist_ok=True)
        t0, c0 = timer() if timer else 0.0, cpu_timer() if cpu_timer else 0.0
        result = play(p, folder, seed=seed, now=now, max_steps=max_steps, options=options,
                      echo=echo)
        result.seconds = timer() - t0 if timer else 0.0
        result.cpu_seconds = cpu_timer() - c0 if cpu_timer else 0.0
        echo(result.line())
        results.append(result)
    return results
