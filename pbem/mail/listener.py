"""The built-in SMTP listener: aiosmtpd on a port, each received mail handed to a callback.

It accepts mail for any recipient (or those ``accept`` approves) and answers 250 only after ``on_message`` has returned
(stored the bytes); a failure there answers 452 (the sender's MTA retries), a message over
``max_bytes`` 552. It prepends the trace headers an MDA would (Return-Path with the
envelope sender, X-Original-To with the envelope recipients) so that bounces (``<>``) and
reply tokens in the envelope recipient are visible to ``read_message``.

No parsing and no storage here; ``on_message`` runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Callable
from typing import Any

from aiosmtpd.controller import Controller

__all__ = ["SmtpListener"]

log = logging.getLogger(__name__)
_UNSAFE = re.compile(r"[\x00-\x1f\x7f<>]")
# aiosmtpd logs every envelope recipient at INFO, reply tokens included: keep it quiet.
logging.getLogger("mail.log").setLevel(logging.WARNING)


def orders_address_only(order_address: str) -> Callable[[str], bool]:
    """A RCPT predicate: the order address and its plus-addresses, nothing else."""
    from email.utils import parseaddr

    local, _, domain = parseaddr(order_address)[1].lower().rpartition("@")

    def accept(address: str) -> bool:
        rl, _, rd = parseaddr(address)[1].lower().rpartition("@")
        return rd == domain and (rl == local or rl.startswith(local + "+"))
    return accept


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class _Handler:
    def __init__(self, on_message: Callable[[bytes], None], max_bytes: int,
                 trace: bool, accept: Callable[[str], bool] | None) -> None:
        self.on_message = on_message
        self.max_bytes = max_bytes
        self.trace = trace
        self.accept = accept

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if self.accept is not None and not self.accept(address):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if len(raw) > self.max_bytes:
            return f"552 5.3.4 Message too big: the limit is {self.max_bytes} bytes"
        if self.trace:
            sender = _UNSAFE.sub("", envelope.mail_from or "")
            rcpts = ", ".join(_UNSAFE.sub("", r) for r in envelope.rcpt_tos)
            raw = (f"Return-Path: <{sender}>\r\nX-Original-To: {rcpts}\r\n"
                   .encode("utf-8", "replace") + raw)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, self.on_message, raw)
        except Exception:  # noqa: BLE001 - tell the client to retry; log the cause
            log.exception("storing a received message failed")
            return "452 4.3.1 Could not store the message; try again later"
        return "250 2.0.0 OK: stored"


class SmtpListener:
    """An SMTP server on ``host:port`` (port 0: a free port; see ``.port``).

    ``accept``: a predicate on each envelope recipient (e.g. "is it our order address or a
    plus-address of it?"); refused recipients get 550. Default: accept every recipient,
    which is right on loopback behind an MTA, not on a public port.
    Use as a context manager or call ``start()`` / ``stop()``.
    """

    def __init__(self, host: str, port: int, on_message: Callable[[bytes], None], *,
                 max_bytes: int = 2_000_000, trace_headers: bool = True,
                 accept: Callable[[str], bool] | None = None) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.max_bytes = max_bytes
        self._controller = Controller(
            _Handler(on_message, max_bytes, trace_headers, accept), hostname=host,
            port=self.port,
            data_size_limit=max_bytes, enable_SMTPUTF8=True)

    def start(self) -> SmtpListener:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def __enter__(self) -> SmtpListener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
