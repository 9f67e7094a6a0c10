"""`pbem serve`: the tick and the mail poll on APScheduler (jobs persisted in the database),
plus the built-in SMTP listener. A deadline missed while the server was down is processed
at start, because the first tick runs at once."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.blocking import BlockingScheduler

from pbem.config import Settings
from pbem.mail.listener import SmtpListener, orders_address_only

log = logging.getLogger("pbem.scheduler")


def build_scheduler(settings: Settings, *, config: str | None,
                    scheduler_cls: type = BlockingScheduler):  # type: ignore[no-untyped-def]
    scheduler = scheduler_cls(jobstores={"default": SQLAlchemyJobStore(
        url=settings.db, tablename="pbem_jobs")}, timezone=UTC)
    common = {"kwargs": {"db": settings.db, "config": config}, "replace_existing": True,
              "coalesce": True, "max_instances": 1, "misfire_grace_time": 3600}
    scheduler.add_job("pbem.scheduler.jobs:tick_job", "interval", id="pbem-tick",
                      seconds=settings.poll_seconds, next_run_time=datetime.now(UTC), **common)
    if settings.imap or settings.inbox:
        scheduler.add_job("pbem.scheduler.jobs:poll_job", "interval", id="pbem-poll",
                          seconds=settings.poll_seconds, next_run_time=datetime.now(UTC), **common)
    return scheduler


def serve(settings: Settings, *, config: str | None, listen: bool,
          on_message: Callable[[bytes], None], echo: Callable[[str], None]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    listener = None
    if listen:
        host, _, port = settings.listen.rpartition(":")
        listener = SmtpListener(host or "127.0.0.1", int(port), on_message,
                                max_bytes=settings.max_mail_bytes,
                                accept=orders_address_only(settings.address)).start()
        echo(f"SMTP listener on {listener.host}:{listener.port} (orders to {settings.address})")
    scheduler = build_scheduler(settings, config=config)
    echo(f"pbem serve: tick every {settings.poll_seconds}s on {settings.db}; Ctrl-C stops")
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        if listener is not None:
            listener.stop()
