"""The scheduler's jobs: module-level functions with stable ids (no closures), so the job
store can persist them and a restart picks them up.

`wake` runs the tick now instead of at its next interval (mail came in: its echo and, if it
completed a step, the reports go out at once). A wake that arrives while a tick runs makes
that tick run once more when it ends, so none is lost.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from pbem.config import Settings, load_settings
from pbem.store.db import connect

log = logging.getLogger("pbem.scheduler")
_engines: dict[str, Engine] = {}
TICK_JOB = "pbem-tick"
_wake = threading.Event()  # set: run the tick (again) as soon as possible
_ticking = threading.Lock()  # one tick at a time in this process


def _engine(url: str) -> Engine:
    if url not in _engines:
        _engines[url] = connect(url)
    return _engines[url]


def _settings(config: str | None, db: str) -> Settings:
    settings = load_settings(Path(config) if config else None)
    settings.db = db
    return settings


def tick_job(db: str, config: str | None = None) -> None:
    """Mail and spool in, due steps processed, reminders, outbox out; again while woken.
    If a tick is already running here, it is asked to go round once more instead."""
    from pbem.service.tick import tick

    settings = _settings(config, db)
    while True:
        if not _ticking.acquire(blocking=False):
            _wake.set()
            return
        try:
            _wake.clear()
            lines = tick(_engine(db), spool=Path(settings.spool), now=datetime.now(UTC),
                         settings=settings)
            for line in lines:
                log.info("%s", line)
        finally:
            _ticking.release()
        # `wake` sets the flag before it looks at the lock: a wake during this tick is
        # seen here, one after the release starts the job itself.
        if not _wake.is_set():
            return


def wake(scheduler: Any) -> None:
    """Run the tick now (from the SMTP listener's thread, after a mail was applied)."""
    from apscheduler.jobstores.base import JobLookupError

    _wake.set()
    if _ticking.locked():
        return  # the running tick goes round once more
    try:
        scheduler.modify_job(TICK_JOB, next_run_time=datetime.now(UTC))
    except JobLookupError:  # not started yet: its first run is at once anyway
        pass


def spool_job(db: str, config: str | None = None) -> None:
    """Every few seconds: a file dropped into the spool's inbox is taken up at once."""
    inbox = Path(_settings(config, db).spool) / "inbox"
    if inbox.is_dir() and any(p.is_file() and not p.name.startswith(".") for p in inbox.iterdir()):
        tick_job(db, config)


def poll_job(db: str, config: str | None = None) -> None:
    """Fetch new mail from IMAP and/or the inbox maildir."""
    from pbem.service.polling import poll

    settings = _settings(config, db)
    for line in poll(_engine(db), settings=settings, now=datetime.now(UTC)):
        log.info("%s", line)
