"""Moving mail bytes: SMTP out, maildir out and in, IMAP in, and the SMTP listener.

``send_smtp`` sends one message and says whether a failure is worth retrying
(TransientMailError) or not (PermanentMailError); the outbox decides when to retry.
The fetchers hand each raw message to ``on_message`` (which stores it) and mark it done only
after that returned, so a crash never loses a message: at worst it is fetched again, and
the store recognises the duplicate by its Message-ID.

No parsing, no storage and no retry loop live here.
"""

from __future__ import annotations

import os
import re
import smtplib
import ssl
from collections.abc import Callable
from email.message import Message
from email.parser import BytesParser
from email.policy import default
from email.utils import getaddresses
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pbem.mail.listener import SmtpListener

__all__ = ["MailError", "TransientMailError", "PermanentMailError", "send_smtp",
           "MaildirSink", "fetch_maildir", "fetch_imap", "SmtpListener", "parse_mail_url"]


class MailError(Exception):
    """A mail could not be sent or fetched. ``code`` is the server's reply code if any."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class TransientMailError(MailError):
    """Try again later: 4xx replies, refused or dropped connections, timeouts."""


class PermanentMailError(MailError):
    """Do not retry this message: 5xx replies (bad recipient, rejected content, auth)."""


def parse_mail_url(url: str, schemes: dict[str, int]) -> tuple[str, str, int, str | None,
                                                               str | None, str, dict[str, str]]:
    """``scheme://user:pass@host:port/path?opt=1`` -> (scheme, host, port, user, password,
    path, options). Raises ValueError for an unknown scheme or a missing host.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        raise ValueError(f"unsupported mail URL scheme {parts.scheme!r} in {_redact(url)}; "
                         f"use one of {', '.join(sorted(schemes))}")
    if not parts.hostname:
        raise ValueError(f"no host in mail URL {_redact(url)}")
    options = {k.lower(): v[-1] for k, v in parse_qs(parts.query).items()}
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return (scheme, parts.hostname, parts.port or schemes[scheme], user, password,
            unquote(parts.path.lstrip("/")), options)


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


def _flag(options: dict[str, str], name: str) -> bool:
    return options.get(name, "").lower() in ("1", "true", "yes", "on")


def _ssl_context(options: dict[str, str]) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if _flag(options, "insecure"):  # a self-signed relay on a private network
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def send_smtp(url: str, msg: Message | bytes, *, timeout: float = 30.0,
              envelope_from: str | None = None) -> None:
    """Send one message through the relay at ``url``.

    ``smtp://[user:pass@]host[:port][?starttls=1]`` or ``smtps://...`` (implicit TLS, port
    465); ``?insecure=1`` accepts a self-signed certificate. Envelope recipients come from
    the message's To/Cc, the envelope sender from ``envelope_from`` (a bounce address),
    else From. Raises TransientMailError or
    PermanentMailError; ValueError for a malformed URL.
    """
    scheme, host, port, user, password, _, options = parse_mail_url(
        url, {"smtp": 25, "smtps": 465})
    timeout = float(options.get("timeout", timeout))
    try:
        if scheme == "smtps":
            client: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=timeout,
                                                    context=_ssl_context(options))
        else:
            client = smtplib.SMTP(host, port, timeout=timeout)
        with client:
            if scheme == "smtp" and _flag(options, "starttls"):
                client.starttls(context=_ssl_context(options))
            if user:
                client.login(user, password or "")
            if isinstance(msg, bytes):  # the outbox's exact bytes, not a re-serialisation
                msg = _CRLF.sub(b"\r\n", msg)  # as_bytes() ends lines with LF; SMTP: CRLF
                sender, rcpts = _envelope(msg)
                utf8 = ["SMTPUTF8"] if not all(a.isascii() for a in [sender, *rcpts]) else []
                refused = client.sendmail(envelope_from or sender, rcpts, msg,
                                          mail_options=utf8)
            else:
                refused = client.send_message(msg, from_addr=envelope_from)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        error = TransientMailError if all(400 <= c < 500 for c in codes) else PermanentMailError
        raise error(f"all recipients refused: {exc.recipients}", max(codes)) from exc
    except smtplib.SMTPResponseException as exc:
        error = PermanentMailError if 500 <= exc.smtp_code < 600 else TransientMailError
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(
            exc.smtp_error, bytes) else str(exc.smtp_error)
        raise error(f"{exc.smtp_code} {text}", exc.smtp_code) from exc
    except smtplib.SMTPNotSupportedError as exc:
        raise PermanentMailError(f"relay does not support: {exc}") from exc
    except (TimeoutError, smtplib.SMTPException, OSError) as exc:
        raise TransientMailError(f"relay {host}:{port} unreachable: {exc}") from exc
    if refused:
        raise PermanentMailError(f"some recipients refused (the others got it): {refused}")


_CRLF = re.compile(rb"\r?\n")


def _envelope(raw: bytes) -> tuple[str, list[str]]:
    """Envelope sender and recipients from a message's own headers (as send_message does)."""
    head = BytesParser(policy=default).parsebytes(raw, headersonly=True)
    sender = getaddresses([str(head.get("Sender") or head.get("From") or "")])
    rcpts = [a for _, a in getaddresses([str(v) for h in ("To", "Cc", "Bcc")
                                         for v in (head.get_all(h) or [])]) if a]
    if not rcpts:
        raise PermanentMailError("the message names no recipient")
    return (sender[0][1] if sender else ""), rcpts


def make_maildir(root: Path) -> None:
    """`root` as a maildir: it and its tmp/, new/ and cur/ made where missing, so an
    existing empty folder (a GM's `mkdir`) becomes one too; `mailbox.Maildir` only makes
    them when `root` itself is new. Made private (0700): the outbox may hold passwords."""
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    for sub in ("tmp", "new", "cur"):
        (root / sub).mkdir(mode=0o700, exist_ok=True)


class MaildirSink:
    """Outgoing mail written to a local maildir, for when no relay is configured. A folder
    that cannot be made or written raises TransientMailError, as a relay that is down does:
    the outbox keeps the mail, says why, and tries again later."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import mailbox
        self.path = Path(path)
        try:
            make_maildir(self.path)
        except OSError as exc:
            raise TransientMailError(f"maildir {self.path}: {exc}") from exc
        self._box = mailbox.Maildir(self.path, create=False)

    def deliver(self, msg: Message | bytes) -> str:
        """Store the message under new/; returns its maildir key."""
        try:
            return self._box.add(msg)
        except OSError as exc:
            raise TransientMailError(f"maildir {self.path}: {exc}") from exc


def fetch_maildir(path: str | os.PathLike[str], on_message: Callable[[bytes], None]) -> int:
    """Hand every unseen message of a maildir to ``on_message``, then mark it seen.

    Unseen means in new/, or in cur/ without the S flag. After ``on_message`` returns the
    file moves to cur/ with the S flag; if it raises, the file stays and the error
    propagates. Returns the number of messages handed over.
    """
    root = Path(path)
    make_maildir(root)
    todo: list[tuple[Path, str]] = []
    for name in sorted(os.listdir(root / "new")):
        if not name.startswith("."):
            todo.append((root / "new" / name, name.split(":", 1)[0]))
    for name in sorted(os.listdir(root / "cur")):
        base, _, info = name.partition(":")
        if not name.startswith(".") and "S" not in info.partition(",")[2]:
            todo.append((root / "cur" / name, base))
    done = 0
    for file, base in todo:
        try:
            raw = file.read_bytes()
        except FileNotFoundError:  # another poller took it
            continue
        on_message(raw)
        flags = ""
        if file.parent.name == "cur":
            flags = file.name.partition(":")[2].partition(",")[2]
        target = root / "cur" / f"{base}:2,{''.join(sorted(set(flags + 'S')))}"
        try:
            os.rename(file, target)
        except FileNotFoundError:
            pass
        done += 1
    return done


def fetch_imap(url: str, *, on_message: Callable[[bytes], None], folder: str | None = None,
               move_to: str | None = None, timeout: float = 60.0,
               max_bytes: int | None = None,
               on_oversize: Callable[[bytes, int], None] | None = None) -> int:
    """Hand every UNSEEN message of an IMAP folder to ``on_message``, then flag it \\Seen.

    ``imap://user:pass@host[:port][/FOLDER][?starttls=1]`` or ``imaps://...``; the folder
    is ``folder``, else the URL's path, else INBOX. Messages are read with BODY.PEEK (which
    does not set \\Seen), so a crash in ``on_message`` leaves the message unseen and it is
    fetched again next time. With ``move_to`` (e.g. "pbem-processed") handled messages are
    moved there (the folder is created if missing). Returns the number handed over.
    Connection and server failures raise TransientMailError; a failed login
    PermanentMailError; what ``on_message`` raises propagates unchanged.
    With ``max_bytes`` and ``on_oversize``, a message whose RFC822.SIZE is larger is never
    fetched whole: ``on_oversize(header bytes, size)`` gets its header instead.
    """
    from imapclient import IMAPClient
    from imapclient.exceptions import IMAPClientError, LoginError

    scheme, host, port, user, password, path, options = parse_mail_url(
        url, {"imap": 143, "imaps": 993})
    folder = folder or path or "INBOX"
    try:
        client = IMAPClient(host, port=port, ssl=scheme == "imaps",
                            ssl_context=_ssl_context(options), timeout=timeout)
    except (OSError, IMAPClientError) as exc:
        raise TransientMailError(f"IMAP server {host}:{port} unreachable: {exc}") from exc
    done = 0
    try:
        try:
            if scheme == "imap" and _flag(options, "starttls"):
                client.starttls(_ssl_context(options))
            client.login(user or "", password or "")
        except LoginError as exc:
            raise PermanentMailError(f"IMAP login failed for {user!r}: {exc}") from exc
        try:
            client.select_folder(folder)
            if move_to and not client.folder_exists(move_to):
                client.create_folder(move_to)
            uids = client.search(["UNSEEN"])
        except (OSError, IMAPClientError) as exc:
            raise TransientMailError(f"IMAP {folder}: {exc}") from exc
        sizes = _sizes(client, uids) if max_bytes is not None and on_oversize else {}
        for uid in sorted(uids):
            big = on_oversize is not None and max_bytes is not None \
                and sizes.get(uid, 0) > max_bytes
            raw = _fetch(client, uid, header_only=big)
            if raw is None:
                continue  # expunged meanwhile
            if big:
                assert on_oversize is not None
                on_oversize(raw, sizes[uid])
            else:
                on_message(raw)
            try:
                client.add_flags([uid], [b"\\Seen"])
                if move_to:
                    if client.has_capability("MOVE"):
                        client.move([uid], move_to)
                    else:
                        client.copy([uid], move_to)
                        client.delete_messages([uid])
                        if client.has_capability("UIDPLUS"):
                            client.expunge([uid])
            except (OSError, IMAPClientError) as exc:
                raise TransientMailError(f"IMAP marking {uid} seen: {exc}") from exc
            done += 1
        if move_to and not client.has_capability("MOVE") and not client.has_capability(
                "UIDPLUS"):
            client.expunge()
    finally:
        try:
            client.logout()
        except Exception:  # noqa: BLE001 - the connection may already be gone
            pass
    return done


def _sizes(client: Any, uids: list[int]) -> dict[int, int]:
    """RFC822.SIZE of each message, asked before anything is fetched."""
    from imapclient.exceptions import IMAPClientError

    if not uids:
        return {}
    try:
        return {u: int(d.get(b"RFC822.SIZE", 0))
                for u, d in client.fetch(sorted(uids), ["RFC822.SIZE"]).items()}
    except (OSError, IMAPClientError) as exc:
        raise TransientMailError(f"IMAP sizes: {exc}") from exc


def _fetch(client: Any, uid: int, *, header_only: bool) -> bytes | None:
    """One message (or only its header), without setting \\Seen; None if it is gone."""
    from imapclient.exceptions import IMAPClientError

    item, key = ("BODY.PEEK[HEADER]", b"BODY[HEADER]") if header_only else \
        ("BODY.PEEK[]", b"BODY[]")
    try:
        fetched = client.fetch([uid], [item])
    except (OSError, IMAPClientError) as exc:
        raise TransientMailError(f"IMAP fetch {uid}: {exc}") from exc
    raw = fetched.get(uid, {}).get(key)
    return bytes(raw) if raw is not None else None
