"""The scheduler's jobs: module-level functions with stable ids (no closures), so the job
store can persist them and a restart picks them up."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import Engine

from pbem.config import Settings, load_settings
from pbem.store.db import connect

log = logging.getLogger("pbem.scheduler")
_engines: dict[str, Engine] = {}


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
    """Mail and spool in, due steps processed, reminders, outbox out."""
    from pbem.service.tick import tick

    settings = _settings(config, db)
    lines = tick(_engine(db, settings.secret_key), spool=Path(settings.spool), now=datetime.now(UTC), settings=settings)
    for line in lines:
        log.info("%s", line)


def poll_job(db: str, config: str | None = None) -> None:
    """Fetch new mail from IMAP and/or the inbox maildir."""
    from pbem.service.polling import poll

    settings = _settings(config, db)
    for line in poll(_engine(db, settings.secret_key), settings=settings, now=datetime.now(UTC)):
        log.info("%s", line)
