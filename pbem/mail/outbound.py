"""Composing outgoing mail: replies, welcome mails and reports as EmailMessage objects.

``compose`` builds a text part, an optional HTML alternative, inline pictures and
attachments (board picture, the seat's view as JSON), threading headers (Message-ID,
In-Reply-To, References from a thread root, List-Id), and RFC 3834 Auto-Submitted so that
well-behaved auto-responders do not answer. Header values are stripped of CR/LF and control
characters (no header injection). Given an explicit ``message_id`` and ``date`` the result
is byte-for-byte deterministic, MIME boundaries included.

It does not send, queue or render templates: the outbox stores the bytes and the
transport sends them; reports are rendered by ``pbem.reports``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, getaddresses, make_msgid

__all__ = ["Attachment", "Thread", "compose", "thread_root_id", "make_message_id",
           "clean_header", "reply_subject"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_ID_SAFE = re.compile(r"[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+")
_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|vs|antw|vá|válasz|réf|rif|odp|fw|fwd|wg)"
                           r"(\[\d+\])?\s*:\s*)+", re.I)


@dataclass(frozen=True)
class Attachment:
    """One attached file. ``inline`` with a ``content_id`` puts it next to the HTML part, for
    ``<img src="cid:...">`` (the board picture); otherwise it is a plain attachment.
    """

    data: bytes
    mime_type: str
    filename: str
    inline: bool = False
    content_id: str | None = None


@dataclass(frozen=True)
class Thread:
    """A conversation: every mail of one seat in one game refers back to ``root_id``."""

    root_id: str


def clean_header(value: object) -> str:
    """A header value on one line: CR, LF and other control characters become spaces."""
    return " ".join(_CONTROL.sub(" ", str(value)).split())


def reply_subject(subject: str, *, limit: int = 200) -> str:
    """``Re: <subject>`` once, however many Re:/AW:/Vá: the mail piled up; one line."""
    bare = _REPLY_PREFIX.sub("", clean_header(subject))
    return f"Re: {bare}"[:limit].rstrip() if bare else "Re: your mail"


def _id_part(text: str) -> str:
    safe = _ID_SAFE.sub("-", text).strip(".-")[:40]
    if safe == text:
        return safe
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{safe}-{digest}" if safe else digest


def make_message_id(domain: str, *parts: object) -> str:
    """A deterministic Message-ID from its parts, e.g. ("report", game, seat, step).

    The outbox can use it as the key that keeps a mail from being queued twice.
    """
    body = ".".join(_id_part(str(p)) for p in parts) or "pbem"
    return f"<{body}@{clean_header(domain).strip('<>@ ') or 'pbem.invalid'}>"


def thread_root_id(game: str, seat: str, domain: str) -> str:
    """The Message-ID that roots one seat's thread in a game (the welcome mail uses it)."""
    return make_message_id(domain, "thread", game, seat)


def _address_list(value: str | Sequence[str], what: str) -> list[str]:
    items = [value] if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        item = clean_header(item)
        pairs = [p for p in getaddresses([item]) if p[1]]
        if len(pairs) != 1 or "@" not in pairs[0][1]:
            raise ValueError(f"{what}: expected one address, got {item!r}")
        out.append(item)
    if not out:
        raise ValueError(f"{what}: no address")
    return out


def _msgid(value: str) -> str:
    value = clean_header(value).replace(" ", "")
    if not value.startswith("<"):
        value = f"<{value}>"
    return value


def compose(*, sender: str, to: str | Sequence[str], subject: str, text: str | None,
            html: str | None = None, attachments: Iterable[Attachment | tuple] = (),
            reply_to: str | None = None, message_id_domain: str,
            thread: Thread | None = None, list_id: str | None = None,
            in_reply_to: str | None = None, message_id: str | None = None,
            date: datetime | None = None,
            extra_headers: Mapping[str, str] | None = None) -> EmailMessage:
    """Build one outgoing mail; see the module docstring.

    ``attachments``: Attachment objects or ``(data, mime_type, filename)`` tuples.
    ``in_reply_to``: the player's mail this answers (a confirmation); with a ``thread`` the
    References run root -> in_reply_to. ``message_id`` defaults to a fresh random one.
    """
    msg = EmailMessage(policy=policy.default)
    msg["From"] = _address_list(sender, "sender")[0]
    msg["To"] = ", ".join(_address_list(to, "to"))
    msg["Subject"] = clean_header(subject)
    msg["Date"] = format_datetime(date) if date is not None else format_datetime(
        datetime.now().astimezone())
    own_id = _msgid(message_id) if message_id else make_msgid(domain=message_id_domain)
    msg["Message-ID"] = own_id
    references: list[str] = []
    if thread is not None and _msgid(thread.root_id) != own_id:
        references.append(_msgid(thread.root_id))
    if in_reply_to:
        parent = _msgid(in_reply_to)
        if parent not in references and parent != own_id:
            references.append(parent)
    if references:
        msg["In-Reply-To"] = references[-1]
        msg["References"] = " ".join(references)
    if reply_to:
        msg["Reply-To"] = _address_list(reply_to, "reply_to")[0]
    if list_id:
        cleaned = clean_header(list_id)
        msg["List-Id"] = cleaned if "<" in cleaned else f"<{cleaned}>"
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"  # Exchange/Outlook: no out-of-office replies
    for name, value in (extra_headers or {}).items():
        msg[clean_header(name).replace(" ", "-").rstrip(":")] = clean_header(value)

    items = [a if isinstance(a, Attachment) else Attachment(*a) for a in attachments]
    html_part = _set_body(msg, text, html)
    if html_part is not None:
        for att in items:
            if att.inline and att.content_id:
                maintype, _, subtype = att.mime_type.partition("/")
                html_part.add_related(att.data, maintype, subtype or "octet-stream",
                                      cid=_msgid(att.content_id),
                                      filename=clean_header(att.filename),
                                      disposition="inline")
    for att in items:
        if att.inline and att.content_id and html is not None:
            continue
        maintype, _, subtype = att.mime_type.partition("/")
        data = att.data if isinstance(att.data, bytes) else str(att.data).encode("utf-8")
        msg.add_attachment(data, maintype, subtype or "octet-stream",
                           filename=clean_header(att.filename))
    _fix_boundaries(msg, own_id)
    return msg


def _set_body(msg: EmailMessage, text: str | None, html: str | None) -> MIMEPart | None:
    """The text part, the HTML part or both (as alternatives); returns the HTML part."""
    if text is None and html is None:
        raise ValueError("a mail needs a text or an HTML part")
    if text is not None:
        msg.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    if html is None:
        return None
    if text is None:  # HTML only (a player's `format html`)
        msg.set_content(html, subtype="html", charset="utf-8", cte="quoted-printable")
        return msg
    msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    return list(msg.iter_parts())[1]  # the alternatives: text, then HTML


def _fix_boundaries(msg: EmailMessage, seed: str) -> None:
    """Boundaries from the Message-ID, not from random: same inputs, same bytes."""
    digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:24]
    for n, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_pbem_{digest}_{n}")
