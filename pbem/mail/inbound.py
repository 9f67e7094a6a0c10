"""Reading one received mail: ``read_message(raw) -> InboundMail``, and ``should_reply``.

Turns raw RFC 5322 bytes into a frozen summary: who sent it, what it answers, what kind of
mail it is (orders, bounce, auto-reply, oversize, empty, malformed) and the candidate
order files it carries, normalised but not parsed. It never raises, whatever the input.

It does not store anything, check passwords, look up games or decide what the orders do:
the caller stores the raw bytes first, then reads them with this, then hands
``order_texts`` to ``pbem.core.envelope.parse_envelope`` and the service.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from email.utils import getaddresses, parseaddr, parsedate_to_datetime

from pbem.core.envelope import normalise
from pbem.mail.classify import MSGID, bounce_details, detect_loop, is_daemon_address
from pbem.mail.htmltext import html_to_text
from pbem.mail.mimetext import MAX_HEADER_CHARS, Headers, body_texts
from pbem.mail.replytext import clean_reply_text
from pbem.mail.tokens import find_token

__all__ = ["InboundMail", "read_message", "should_reply", "KINDS", "DEFAULT_MAX_BYTES",
           "content_digest", "header_block", "strip_passwords"]

KINDS = ("orders", "bounce", "autoreply", "oversize", "empty", "malformed")
DEFAULT_MAX_BYTES = 2_000_000
_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-\u0080-\ud7ff\ue000-\uffff]{1,64}@"
                      r"[A-Za-z0-9\-\u0080-\ud7ff\ue000-\uffff]+"
                      r"(\.[A-Za-z0-9\-\u0080-\ud7ff\ue000-\uffff]+)*$")
_SEVERE_DEFECTS = {"NoBoundaryInMultipartDefect", "StartBoundaryNotFoundDefect",
                   "MissingHeaderBodySeparatorDefect", "MultipartInvariantViolationDefect"}
_TOKEN_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To", "Cc")


@dataclass(frozen=True)
class InboundMail:
    """What one received mail is, in the terms the service needs. Built by read_message."""

    message_id: str  # "<...>" from the header, or synthesised: see _synthesised_id
    kind: str  # one of KINDS
    sender: str | None = None  # the From address (lowercase domain), None when unusable
    reply_to: str | None = None  # a valid Reply-To address, if the mail gave one
    to: tuple[str, ...] = ()
    subject: str = ""
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    date: datetime | None = None
    order_texts: tuple[str, ...] = ()  # candidate order files, normalised, best first
    token: str | None = None  # a reply token's shape found in a plus-address; check it
    reason: str = ""  # one line: why the mail is refused or not answered
    bounce_of: str | None = None  # for bounces: the Message-ID of the mail that bounced
    bounced_recipient: str | None = None  # for bounces: the address that failed
    size: int = 0
    sha256: str = ""
    defects: tuple[str, ...] = field(default=(), compare=False)
    message_id_synthesised: bool = False


_SIMPLE_FROM = re.compile(r'^\s*(?:"[^"\\<>]*"|[^"<>,()@]*)\s*<([^<>\s,]+)>\s*$|'
                          r"^\s*([^<>\s,()\"]+@[^<>\s,()\"]+)\s*$")


def _clean_address(addr: str) -> str | None:
    addr = addr.strip()
    if not _ADDRESS.match(addr):
        return None
    local, _, domain = addr.rpartition("@")
    return f"{local}@{domain.lower()}"


def _address(value: str) -> str | None:
    """The first clean address in a raw (undecoded) header value, or None.

    Raw, because decoding first would let an encoded display name smuggle in an address
    ("=?utf-8?q?Bcc=3A_victim=40x?="); verbatim, because the parser quietly joins
    "exa mple.org" into "example.org".
    """
    if not value or len(value) > 2000:
        return None
    value = value.replace("\r", " ").replace("\n", " ")
    simple = _SIMPLE_FROM.match(value)  # the common shapes, without the full parser
    if simple:
        return _clean_address(simple.group(1) or simple.group(2))
    for _, addr in getaddresses([value]):
        if addr.strip() and addr.strip() in value:
            found = _clean_address(addr)
            if found:
                return found
    return None


def _addresses(values: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for value in list(values)[:20]:
        value = value[:MAX_HEADER_CHARS].replace("\r", " ").replace("\n", " ")
        simple = _SIMPLE_FROM.match(value)
        pairs = [("", simple.group(1) or simple.group(2))] if simple else getaddresses([value])
        for _, addr in pairs:
            found = _clean_address(addr) if addr.strip() in value else None
            if found and found not in out:
                out.append(found)
            if len(out) >= 50:
                return tuple(out)
    return tuple(out)


_LOOSE_MSGID = re.compile(r"<[^<>\s]{1,250}>")
_TRACE = re.compile(rb"^(received|return-path|delivered-to|x-original-to|envelope-to|"
                    rb"x-envelope-to|delivery-date|x-spam-[a-z-]*|x-virus-[a-z-]*|"
                    rb"authentication-results|arc-[a-z-]*|x-received):", re.I)


def _msgid(value: str, *, loose: bool = False) -> str | None:
    found = MSGID.search(value or "") or (_LOOSE_MSGID.search(value or "") if loose else None)
    return found.group(0) if found else None


def _synthesised_id(raw: bytes) -> str:
    """A stable Message-ID for a mail without one: its content digest, so the same mail
    delivered twice, or fetched once by IMAP and once by pipe, gets the same id."""
    return f"<{content_digest(raw)}@synthesised.pbem.invalid>"


def content_digest(raw: bytes) -> str:
    """SHA-256 of a mail's bytes after the trace fields that each delivery prepends
    (Received, Return-Path, ...): the same for every delivery of one mail, different for
    another mail that reuses its Message-ID."""
    start = 0
    in_trace = False
    while start < len(raw) and start < 200_000:
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end + 1
        line = raw[start:end]
        if line[:1] in (b" ", b"\t") and in_trace:
            start = end
            continue
        if _TRACE.match(line):
            in_trace = True
            start = end
            continue
        break
    return hashlib.sha256(raw[start:]).hexdigest()


def _defects(msg: Message) -> tuple[str, ...]:
    names: set[str] = set()
    try:
        for n, part in enumerate(msg.walk()):
            names.update(type(d).__name__ for d in getattr(part, "defects", []))
            if n > 500:
                break
    except Exception:  # noqa: BLE001
        names.add("UnwalkableMessage")
    return tuple(sorted(names))


def _date(value: str) -> datetime | None:
    if not value:
        return None
    try:
        return parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def header_block(raw: bytes, limit: int = 256_000) -> bytes:
    """The header of a raw mail (through the blank line), at most `limit` bytes."""
    head = raw[:limit]
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = head.find(sep)
        if at >= 0:
            return head[:at + len(sep)]
    return head


def _order_texts(msg: Message) -> tuple[str, ...]:
    plain, html, attached = body_texts(msg)
    texts: list[str] = []
    if plain is not None and plain.strip():
        texts.append(plain)
    elif html is not None:
        converted = html_to_text(html)
        if converted.strip():
            texts.append(converted)
    texts.extend(attached)
    return tuple(clean_reply_text(normalise(t)) for t in texts)


def read_message(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> InboundMail:
    """Read raw mail bytes into an InboundMail. Never raises; see the module docstring."""
    if not isinstance(raw, bytes):
        try:
            raw = bytes(raw)
        except Exception:  # noqa: BLE001
            raw = str(raw).encode("utf-8", "replace")
    digest = hashlib.sha256(raw).hexdigest()
    try:
        return _read(raw, max_bytes, digest)
    except Exception as exc:  # noqa: BLE001 - the contract is: never raise
        return InboundMail(message_id=_synthesised_id(raw), kind="malformed",
                           reason=f"unreadable message ({type(exc).__name__})",
                           size=len(raw), sha256=digest, message_id_synthesised=True)


def _read(raw: bytes, max_bytes: int, digest: str) -> InboundMail:
    oversize = len(raw) > max_bytes
    msg = BytesParser(policy=compat32).parsebytes(header_block(raw) if oversize else raw)
    h = Headers(msg)
    header_id = _msgid(h.text("Message-ID"), loose=True)
    message_id = header_id or _synthesised_id(raw)
    sender = _address(h.raw_first("From")) or _address(h.raw_first("Sender"))
    base = InboundMail(
        message_id=message_id, message_id_synthesised=header_id is None, kind="malformed",
        sender=sender, reply_to=_address(h.raw_first("Reply-To")),
        to=_addresses(h.raw("To") + h.raw("Cc")),
        subject=h.text("Subject")[:500],
        in_reply_to=_msgid(h.text("In-Reply-To")),
        references=tuple(MSGID.findall(" ".join(h.texts("References"))))[:100],
        date=_date(h.text("Date")),
        token=find_token(v for name in _TOKEN_HEADERS for v in h.raw(name)),
        size=len(raw), sha256=digest, defects=_defects(msg),
    )
    loop = detect_loop(msg, sender or "", h)
    if loop is not None:
        if loop.kind != "bounce":
            return replace(base, kind=loop.kind, reason=loop.reason)
        full = BytesParser(policy=compat32).parsebytes(raw[:max_bytes]) if oversize else msg
        bounce_of, recipient = bounce_details(full, header_id or "")
        return replace(base, kind="bounce", reason=loop.reason, bounce_of=bounce_of,
                       bounced_recipient=recipient)
    if not h:
        return replace(base, reason="no mail headers found")
    if sender is None:
        return replace(base, reason="no usable From address")
    if oversize:
        return replace(base, kind="oversize", reason=(
            f"the message is {len(raw) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.1f} MB: "
            "send the order file as plain text"))
    texts = _order_texts(msg)
    if not any(t.strip() for t in texts):
        if set(base.defects) & _SEVERE_DEFECTS:
            return replace(base, reason="broken MIME structure; no readable text found")
        return replace(base, kind="empty", reason="no text found in the message")
    return replace(base, kind="orders", order_texts=texts)


def should_reply(mail: InboundMail, *, own_addresses: Iterable[str] = ()) -> bool:
    """May this mail be answered at all? Never for bounces, auto-replies, daemons, ourselves.

    ``own_addresses``: the order address and any address we send from; a plus-address of
    one of them counts too. Without a usable sender there is no one to answer.
    """
    if mail.kind in ("bounce", "autoreply") or not mail.sender:
        return False
    if is_daemon_address(mail.sender):
        return False
    own = {_bare(a) for a in own_addresses if a}
    return _bare(mail.sender) not in own


def _bare(address: str) -> str:
    addr = parseaddr(address)[1] or address
    local, _, domain = addr.strip().lower().rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


_PASSWORD_LINE = re.compile(r"(?im)^[ \t>]*password:?[ \t]+(\S.*?)[ \t]*$")
_STRIPPED_NOTE = (b"(The body of this mail carried a password. It was removed once the "
                  b"orders were applied; the orders are kept as the submission.)\r\n")


def strip_passwords(raw: bytes, mail: InboundMail | None = None) -> bytes | None:
    """The mail without the values of its PASSWORD lines, or None if it has none
    (`mail`: `raw` already read, read_message's result).

    Each value is blanked where it stands in the bytes; if it still shows in the decoded
    text (a base64 or folded quoted-printable body) the whole body is replaced by a note.
    """
    mail = mail or read_message(raw, max_bytes=len(raw) + 1)
    secrets = {m.group(1) for t in mail.order_texts for m in _PASSWORD_LINE.finditer(t)}
    secrets = {p for p in secrets if len(p) >= 3}
    if not secrets:
        return None
    out = raw
    for value in sorted(secrets, key=len, reverse=True):
        out = out.replace(value.encode("utf-8"), b"(removed)")
    again = read_message(out, max_bytes=len(out) + 1)
    if any(p in t for p in secrets for t in again.order_texts):
        head = header_block(out)
        lines = [line for line in re.split(rb"\r?\n", head.rstrip(b"\r\n"))]
        kept: list[bytes] = []
        skip = False
        for line in lines:  # drop Content-* fields (with their folded lines): a new body
            if line[:1] in (b" ", b"\t"):
                if not skip:
                    kept.append(line)
                continue
            skip = line.lower().startswith((b"content-", b"mime-version"))
            if not skip:
                kept.append(line)
        out = (b"\r\n".join(kept) + b"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; "
               b"charset=utf-8\r\n\r\n" + _STRIPPED_NOTE)
    return out
