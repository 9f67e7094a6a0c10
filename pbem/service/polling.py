"""Fetching mail: IMAP (`PBEM_IMAP`) and a local maildir (`inbox`). Each message is stored
by `mailflow.receive` before the mailbox marks it seen, so a crash loses nothing."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session

from pbem.config import Settings
from pbem.mail.transport import MailError, fetch_imap, fetch_maildir
from pbem.service import mailflow
from pbem.store.db import session_scope


def poll(engine: Engine, *, settings: Settings, now: datetime) -> list[str]:
    lines: list[str] = []

    def sessions() -> AbstractContextManager[Session]:
        return session_scope(engine)

    def handle(source: str) -> Callable[[bytes], None]:
        def on_message(raw: bytes) -> None:
            r = mailflow.receive(sessions, raw, source=source, settings=settings, now=now)
            lines.append(f"{source} {r.message_id}: {r.status} {r.reason}".rstrip())
        return on_message

    def oversize(head: bytes, size: int) -> None:  # only the header is fetched
        r = mailflow.receive(sessions, head, source="imap", settings=settings, now=now, size=size)
        lines.append(f"imap {r.message_id}: {r.status} {r.reason}".rstrip())

    if settings.imap:
        try:
            fetch_imap(settings.imap, on_message=handle("imap"),
                       max_bytes=settings.max_mail_bytes, on_oversize=oversize)
        except MailError as e:
            lines.append(f"imap: {e}")
    if settings.inbox:
        fetch_maildir(settings.inbox, handle("maildir"))
    return lines
