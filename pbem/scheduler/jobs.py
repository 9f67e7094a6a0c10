"""The scheduler's jobs: module-level functions with stable ids (no closures), so the job
store can persist them and a restart picks them up.

`wake` runs the tick now instead of at its next interval (mail came in: its echo and, if it
completed a step, the reports go out at once): `waker`, a thread of `pbem serve`, waits for
it, so a wake costs no scheduler round trip. One tick runs at a time in a process; a wake
that arrives while a tick runs makes that tick go round once more, so none is lost.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import Engine

from pbem.config import Settings, load_settings
from pbem.store.db import connect

log = logging.getLogger("pbem.scheduler")
_engines: dict[str, Engine] = {}
TICK_JOB = "pbem-tick"
_wake = threading.Event()  # set: run the tick (again) as soon as possible
_ticking = threading.Lock()  # one tick at a time in this process
# This process's own database and configuration, set by `pbem serve`. The job store is
# shared by every host on one database and holds the arguments of the host that started
# last; a job runs with the settings of the host that runs it, never another host's.
_host: tuple[str, str | None] | None = None


def run_here(db: str, config: str | None) -> None:
    """Jobs run in this process use this database URL and configuration file."""
    global _host
    _host = (db, config)


def _own(db: str, config: str | None) -> tuple[str, str | None]:
    return _host if _host is not None else (db, config)


def _engine(url: str, secret_key: str | None = None) -> Engine:
    if url not in _engines:
        from pbem.service.vault import attach_key

        _engines[url] = connect(url)
        attach_key(_engines[url], secret_key)
    return _engines[url]


def _settings(config: str | None, db: str) -> Settings:
    settings = load_settings(Path(config) if config else None)
    settings.db = db
    return settings


def tick_job(db: str, config: str | None = None) -> None:
    """Mail and spool in, due steps processed, reminders, outbox out; again while woken."""
    from pbem.service.tick import tick

    db, config = _own(db, config)
    settings = _settings(config, db)
    with _ticking:
        while True:
            _wake.clear()
            lines = tick(_engine(db, settings.secret_key), spool=Path(settings.spool), now=datetime.now(UTC),
                         settings=settings)
            for line in lines:
                log.info("%s", line)
            if not _wake.is_set():
                return


def wake() -> None:
    """Run the tick now (from the SMTP listener's thread, after a mail was applied)."""
    _wake.set()


def waker(db: str, config: str | None, stop: threading.Event) -> None:
    """The thread that runs the tick whenever it is woken, until `stop`."""
    while not stop.is_set():
        if _wake.wait(timeout=1.0):
            try:
                tick_job(db, config)
            except Exception:  # noqa: BLE001 - keep waking; the scheduled tick logs too
                log.exception("woken tick failed")


def spool_job(db: str, config: str | None = None) -> None:
    """Every few seconds: a file dropped into the spool's inbox is taken up at once."""
    db, config = _own(db, config)
    inbox = Path(_settings(config, db).spool) / "inbox"
    if inbox.is_dir() and any(p.is_file() and not p.name.startswith(".") for p in inbox.iterdir()):
        wake()


def poll_job(db: str, config: str | None = None) -> None:
    """Fetch new mail from IMAP and/or the inbox maildir."""
    from pbem.service.polling import poll

    db, config = _own(db, config)
    settings = _settings(config, db)
    lines = poll(_engine(db, settings.secret_key), settings=settings, now=datetime.now(UTC))
    for line in lines:
        log.info("%s", line)
    if lines:
        wake()  # the echoes, and the reports of the steps the mail completed
