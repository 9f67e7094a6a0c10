"""Which mails must never be answered: bounces and auto-replies (no mail loops).

Recognises RFC 3464 delivery status notifications, the plain-text bounces of common MTAs
(Postfix, Exim, qmail, Sendmail, Exchange, Gmail), and RFC 3834 auto-replies plus the
usual vendor headers and vacation subjects. For bounces it digs out the Message-ID of the
mail that bounced and the recipient that failed. Pure functions over a parsed message;
deciding what a bounce means for a seat is the service's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser
from email.policy import compat32
from email.utils import getaddresses

from pbem.mail.mimetext import Headers, decode_text, header_text

__all__ = ["Loop", "detect_loop", "bounce_details", "is_daemon_address", "MSGID"]

MSGID = re.compile(r"<[^<>\s@]{1,200}@[^<>\s@]{1,200}>")
_DAEMON_LOCALS = {"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon", "noreply",
                  "no-reply", "do-not-reply", "donotreply", "bounce", "bounces",
                  "mail-delivery-subsystem", "mdaemon", "majordomo", "listserv"}
_BOUNCE_SUBJECT = re.compile(
    r"(undeliver(ed|able)|delivery (status notification \(failure\)|failure|has failed|"
    r"problem)|mail delivery (failed|failure|system)|returned mail|failure notice|"
    r"could not be delivered|non[- ]?delivery|unzustellbar|nicht zustellbar|"
    r"kézbesítési hiba|kézbesíthetetlen|non remis|rejected:)", re.I)
_DELAY_SUBJECT = re.compile(r"(delayed mail|delivery (status notification \(delay\)|delayed)|"
                            r"warning: could not send message)", re.I)
# Only phrases no player puts in an orders subject: a false match would swallow orders.
_AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic|matische|matikus)?[ -]?(reply|response|antwort|válasz|answer)\b|"
    r"auto:|out of (the )?office\b|abwesenheit(snotiz)?\b|r[ée]ponse automatique|"
    r"respuesta autom[áa]tica|risposta automatica|away from my (e-?)?mail|"
    r"vacation\s*(reply|message|notice|response|auto-?reply)?\s*(:|$)|házon kívül\b)",
    re.I)


@dataclass(frozen=True)
class Loop:
    """Why a mail must not be answered: ``kind`` is "bounce" or "autoreply"."""

    kind: str
    reason: str


def is_daemon_address(address: str) -> bool:
    local = address.rpartition("@")[0].lower() if "@" in address else address.lower()
    return local.split("+", 1)[0] in _DAEMON_LOCALS or local.startswith("mailer-daemon")


def _h(msg: Message, name: str) -> str:
    try:
        return header_text(msg.get(name))
    except Exception:  # noqa: BLE001
        return ""


def _dsn_action(msg: Message) -> str | None:
    """The worst Action of an RFC 3464 delivery-status part, if there is one."""
    actions: set[str] = set()
    for part in _walk(msg):
        if part.get_content_type() == "message/delivery-status":
            text = _payload_text(part)
            actions.update(a.lower() for a in re.findall(r"(?im)^action:\s*([a-z]+)", text))
    if not actions:
        return None
    return "failed" if "failed" in actions else sorted(actions)[0]


def detect_loop(msg: Message, sender: str, headers: Headers | None = None) -> Loop | None:
    """Bounce, auto-reply or neither, from headers first and the MIME structure second."""
    h = headers if headers is not None else Headers(msg)
    subject = h.text("Subject")
    daemon = is_daemon_address(sender) if sender else False
    empty_return_path = h.text("Return-Path").replace(" ", "") == "<>"
    found = _report_loop(msg)
    if found is not None:
        return found
    if h.text("X-Failed-Recipients"):
        return Loop("bounce", "bounce (X-Failed-Recipients)")
    if (daemon or empty_return_path) and _BOUNCE_SUBJECT.search(subject):
        return Loop("bounce", f"bounce: {subject[:80]}")
    if daemon and _DELAY_SUBJECT.search(subject):
        return Loop("autoreply", f"delay notice: {subject[:80]}")
    found = _autoreply_headers(h)
    if found is not None:
        return found
    if _AUTO_SUBJECT.search(subject):
        return Loop("autoreply", f"auto-reply subject: {subject[:80]}")
    if empty_return_path:
        return Loop("autoreply", "empty Return-Path <> (a notification)")
    if daemon:
        if _BOUNCE_SUBJECT.search(subject) or _bounce_body(msg):
            return Loop("bounce", f"bounce from {sender}")
        return Loop("autoreply", f"mail from {sender}")
    return None


def _report_loop(msg: Message) -> Loop | None:
    """A multipart/report: a failed DSN is a bounce, any other report an auto-reply."""
    if msg.get_content_type() != "multipart/report":
        return None
    report_type = str(msg.get_param("report-type") or "").lower()
    if report_type == "delivery-status":
        action = _dsn_action(msg)
        if action in (None, "failed"):
            return Loop("bounce", "delivery status notification: delivery failed")
        return Loop("autoreply", f"delivery status notification ({action})")
    return Loop("autoreply", f"report ({report_type or 'unknown type'})")


def _autoreply_headers(h: Headers) -> Loop | None:
    """The headers auto-responders and mailing lists set (RFC 3834 and common practice)."""
    auto = h.text("Auto-Submitted").lower()
    if auto and not auto.startswith("no"):
        return Loop("autoreply", f"Auto-Submitted: {auto[:40]}")
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply",
                 "X-Vacation", "X-Mailer-Autoreply"):
        if h.has(name):
            return Loop("autoreply", f"{name} header")
    precedence = h.text("Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply", "auto-reply"):
        return Loop("autoreply", f"Precedence: {precedence}")
    if h.has("List-Id") or h.has("List-Unsubscribe"):
        return Loop("autoreply", "mailing-list mail")
    return None


def _walk(msg: Message, limit: int = 200) -> list[Message]:
    out: list[Message] = []
    try:
        for part in msg.walk():
            out.append(part)
            if len(out) >= limit:
                break
    except Exception:  # noqa: BLE001
        pass
    return out


def _payload_text(part: Message) -> str:
    """Text of a part; message/* parts (a list of sub-messages under compat32) flattened."""
    try:
        payload = part.get_payload()
        if isinstance(payload, list):
            return "\n\n".join(p.as_string() if isinstance(p, Message) else str(p)
                               for p in payload)
        data = part.get_payload(decode=True)
        if isinstance(data, bytes):
            return decode_text(data, part.get_content_charset())
        return str(payload or "")
    except Exception:  # noqa: BLE001
        return ""


def _bounce_body(msg: Message) -> bool:
    text = "\n".join(_payload_text(p) for p in _walk(msg, 10) if not p.is_multipart())[:20000]
    return bool(re.search(r"(could not be delivered|delivery (has )?failed|"
                          r"permanent (fatal )?error|undeliverable|user unknown|"
                          r"mailbox unavailable|address rejected)", text, re.I))


def _original_headers(msg: Message) -> Message | None:
    """The bounced mail's headers: a message/rfc822 or text/rfc822-headers part."""
    for part in _walk(msg):
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            payload = part.get_payload()
            if isinstance(payload, list) and payload and isinstance(payload[0], Message):
                return payload[0]
        if ctype == "text/rfc822-headers":
            return HeaderParser(policy=compat32).parsestr(_payload_text(part))
    return None


_COPY_MARKERS = re.compile(
    r"(this is a copy of the message|below this line is a copy of the message|"
    r"original message follows|original message headers|returned message|"
    r"----- ?original message|the original message was|headers of the original)", re.I)


def bounce_details(msg: Message, own_message_id: str = "") -> tuple[str | None, str | None]:
    """``(Message-ID of the bounced mail, the recipient that failed)``, each None if unknown."""
    bounce_of = _bounced_id_from_parts(msg)
    recipient = _failed_recipient_from_parts(msg)
    if bounce_of is None:
        found = MSGID.search(_h(msg, "In-Reply-To"))
        bounce_of = found.group(0) if found else None
    if bounce_of is None or recipient is None:
        body_id, body_recipient = _details_from_body(msg, own_message_id)
        bounce_of = bounce_of if bounce_of is not None else body_id
        recipient = recipient if recipient is not None else body_recipient
    return bounce_of, recipient


def _bounced_id_from_parts(msg: Message) -> str | None:
    """The bounced mail's Message-ID from its attached headers, or from the report
    (Gmail names it there as X-Original-Message-ID)."""
    original = _original_headers(msg)
    if original is not None:
        found = MSGID.search(header_text(original.get("Message-ID")))
        if found:
            return found.group(0)
    for part in _walk(msg):
        if part.get_content_type() == "message/delivery-status":
            m = re.search(r"(?im)^x-original-message-id:\s*(<[^<>\s]+>)", _payload_text(part))
            if m:
                return m.group(1)
    return None


def _failed_recipient_from_parts(msg: Message) -> str | None:
    """The failed recipient from X-Failed-Recipients or the delivery-status report."""
    failed = _h(msg, "X-Failed-Recipients")
    if failed:
        addrs = [a for _, a in getaddresses([failed]) if "@" in a]
        if addrs:
            return addrs[0]
    for part in _walk(msg):
        if part.get_content_type() != "message/delivery-status":
            continue
        text = _payload_text(part)
        for field in ("Final-Recipient", "Original-Recipient"):
            m = re.search(rf"(?im)^{field}:\s*(?:rfc822\s*;\s*)?<?([^\s<>;]+@[^\s<>;]+)>?", text)
            if m:
                return m.group(1)
    return None


def _details_from_body(msg: Message, own_message_id: str) -> tuple[str | None, str | None]:
    """A bounce in prose: the copy of the original after its marker names the Message-ID;
    the recipient is the address line above it."""
    body = "\n".join(_payload_text(p) for p in _walk(msg, 20) if not p.is_multipart())
    marker = _COPY_MARKERS.search(body)
    tail = body[marker.end():] if marker else ""
    bounce_of = next((m.group(1) for m in re.finditer(r"(?im)^message-id:\s*(<[^<>\s]+>)", tail)
                      if m.group(1) != own_message_id), None)
    head = body[:marker.start()] if marker else body[:5000]
    m = re.search(r"(?im)^\s*<?([^\s<>@:\"]+@[^\s<>@:\"]+?)>?:?\s*$", head)
    if m:
        return bounce_of, m.group(1).rstrip(".")
    m = re.search(r"(?i)(?:to|recipient|address)[^<\n]{0,40}<([^\s<>@]+@[^\s<>@]+)>", head)
    return bounce_of, (m.group(1) if m else None)
