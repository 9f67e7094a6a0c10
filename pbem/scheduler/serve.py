"""`pbem serve`: the tick and the mail poll on APScheduler (jobs persisted in the database),
plus the built-in SMTP listener. A deadline missed while the server was down is processed
at start, because the first tick runs at once. Each mail the listener takes wakes the tick
(`jobs.wake`, run by the `jobs.waker` thread): the echo, and the reports of a step the mail
completed, go out at once."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from pbem.config import Settings
from pbem.mail.listener import SmtpListener, orders_address_only
from pbem.scheduler.jobs import TICK_JOB, run_here, wake, waker

log = logging.getLogger("pbem.scheduler")
SPOOL_SECONDS = 2  # how often the spool's inbox is listed (cheap: one directory listing)


def build_scheduler(settings: Settings, *, config: str | None,
                    scheduler_cls: type[BaseScheduler] = BlockingScheduler) -> BaseScheduler:
    scheduler = scheduler_cls(jobstores={"default": SQLAlchemyJobStore(
        url=settings.db, tablename="pbem_jobs")}, timezone=UTC)
    common = {"kwargs": {"db": settings.db, "config": config}, "replace_existing": True,
              "coalesce": True, "max_instances": 1, "misfire_grace_time": 3600}
    scheduler.add_job("pbem.scheduler.jobs:tick_job", "interval", id=TICK_JOB,
                      seconds=settings.poll_seconds, next_run_time=datetime.now(UTC), **common)
    scheduler.add_job("pbem.scheduler.jobs:spool_job", "interval", id="pbem-spool",
                      seconds=SPOOL_SECONDS, **common)
    if settings.imap or settings.inbox:
        scheduler.add_job("pbem.scheduler.jobs:poll_job", "interval", id="pbem-poll",
                          seconds=settings.poll_seconds, next_run_time=datetime.now(UTC), **common)
    return scheduler


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(0)


def serve(settings: Settings, *, config: str | None, listen: bool,
          on_message: Callable[[bytes], None], echo: Callable[[str], None]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    run_here(settings.db, config)
    scheduler = build_scheduler(settings, config=config)
    stop = threading.Event()
    threading.Thread(target=waker, args=(settings.db, config, stop), name="pbem-waker",
                     daemon=True).start()

    def take(raw: bytes) -> None:
        on_message(raw)
        wake()

    listener = None
    if listen:
        host, _, port = settings.listen.rpartition(":")
        listener = SmtpListener(host or "127.0.0.1", int(port), take,
                                max_bytes=settings.max_mail_bytes,
                                accept=orders_address_only(settings.address)).start()
        echo(f"SMTP listener on {listener.host}:{listener.port} (orders to {settings.address})")
    echo(f"pbem serve: tick every {settings.poll_seconds}s on {settings.db}; Ctrl-C stops")
    if threading.current_thread() is threading.main_thread():
        # `systemctl stop` sends SIGTERM: stop as cleanly as on Ctrl-C (listener closed).
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop.set()
        if listener is not None:
            listener.stop()
