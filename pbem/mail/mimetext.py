"""Text out of MIME: header decoding, charset guessing, the candidate order-file parts.

Lenient by design: every function here returns something for any input and never raises on
malformed mail. It knows nothing about orders beyond "which parts may hold an order file";
parsing the envelope is ``pbem.core.envelope``'s job.
"""

from __future__ import annotations

import re
from email.header import decode_header
from email.message import Message

from pbem.mail.replytext import unflow

__all__ = ["decode_text", "header_text", "body_texts", "Headers", "MAX_HEADER_CHARS"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_SURROGATE = re.compile("[\udc80-\udcff]")
ATTACHMENT_SUFFIXES = (".txt", ".text", ".ord", ".orders", ".order", ".asc", ".md")
MAX_TEXT_CHARS = 200_000  # one order file; longer bodies are cut, longer attachments skipped
MAX_HEADER_CHARS = 8_000  # a header value is read this far


def decode_text(data: bytes, charset: str | None = None) -> str:
    """Bytes to text: UTF-8 if it decodes strictly, else the declared charset, else cp1252.

    UTF-8 comes first because mail clients often declare a Latin charset and send UTF-8,
    and Latin text almost never decodes as valid multi-byte UTF-8 by accident (``Gömör`` in
    latin-2 is not valid UTF-8). Pure ASCII decodes the same under every choice.
    """
    if not _NON_ASCII.search(data):
        return data.decode("ascii", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if charset:
        name = charset.strip().strip('"').lower()
        if name in ("unknown-8bit", "x-unknown", "us-ascii", "ascii", "utf-8", "utf8"):
            name = ""
        if name:
            try:
                return data.decode(name)
            except (LookupError, UnicodeDecodeError, ValueError):
                pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def header_text(value: object) -> str:
    """A header value as one line of text: RFC 2047 decoded, CR/LF and controls removed."""
    if value is None:
        return ""
    if not isinstance(value, str):  # compat32 may hand back a Header object
        value = str(value)
    if len(value) > MAX_HEADER_CHARS:  # decode_header is slow on thousands of words
        value = value[:MAX_HEADER_CHARS]
    try:
        parts = decode_header(value)
    except Exception:  # noqa: BLE001 - malformed encoded words: keep the raw text
        parts = [(value, None)]
    out: list[str] = []
    for chunk, charset in parts:
        if isinstance(chunk, bytes):
            out.append(decode_text(chunk, charset))
        else:
            out.append(chunk)
    text = "".join(out) if len(parts) > 1 else (out[0] if out else "")
    text = _CONTROL.sub(" ", text.replace("\r", " ").replace("\n", " "))
    return " ".join(text.split())


class Headers:
    """A message's header fields looked up by lowercase name, read once (lookups on a
    Message scan every field each time)."""

    def __init__(self, msg: Message) -> None:
        self._raw: dict[str, list[str]] = {}
        try:  # the fields as parsed: 8-bit bytes still surrogate-escaped, not yet mangled
            items = list(getattr(msg, "_headers", None) or msg.items())
        except Exception:  # noqa: BLE001
            items = []
        for name, value in items:
            value = str(value)
            if _SURROGATE.search(value):  # raw 8-bit header: UTF-8, else a Latin guess
                value = decode_text(value.encode("utf-8", "surrogateescape"))
            self._raw.setdefault(str(name).lower(), []).append(value)

    def __bool__(self) -> bool:
        return bool(self._raw)

    def has(self, name: str) -> bool:
        return name.lower() in self._raw

    def raw(self, name: str) -> list[str]:
        """All values as received (not RFC 2047 decoded): for address parsing."""
        return self._raw.get(name.lower(), [])

    def raw_first(self, name: str) -> str:
        values = self._raw.get(name.lower())
        return values[0] if values else ""

    def texts(self, name: str) -> list[str]:
        return [header_text(v) for v in self._raw.get(name.lower(), [])]

    def text(self, name: str) -> str:
        """The first value, decoded, on one line; "" if absent."""
        values = self._raw.get(name.lower())
        return header_text(values[0]) if values else ""


def _part_text(part: Message, *, body: bool = False) -> str | None:
    """Decoded text of a leaf part; None if it is binary. A body part loses stray NULs."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001
        payload = None
    if payload is None:
        raw = part.get_payload()
        if not isinstance(raw, str):
            return None
        payload = raw.encode("utf-8", errors="surrogateescape")
    if not isinstance(payload, bytes):
        return None
    if b"\x00" in payload[:4096]:
        if not body or payload.count(b"\x00") > len(payload) // 20:
            return None  # binary, whatever the label says
        payload = payload.replace(b"\x00", b"")
    params = {k.lower(): (v or "").lower() for k, v in _params(part)}
    charset = params.get("charset") or None
    if charset and charset.startswith("=?"):  # an encoded word where none belongs
        charset = None
    text = decode_text(payload, charset)
    if len(text) > MAX_TEXT_CHARS:
        if not body:
            return None
        text = text[:text.rfind("\n", 0, MAX_TEXT_CHARS) + 1] or text[:MAX_TEXT_CHARS]
    if params.get("format") == "flowed" and part.get_content_type() == "text/plain":
        text = unflow(text.replace("\r\n", "\n"), params.get("delsp") == "yes")
    return text


def _params(part: Message) -> list[tuple[str, str]]:
    try:
        return [(k, v if isinstance(v, str) else str(v)) for k, v in (part.get_params() or [])]
    except Exception:  # noqa: BLE001
        return []


def _filename(part: Message) -> str:
    disposition = str(part.get("Content-Disposition") or "")
    if "name" not in disposition.lower() and "name" not in str(
            part.get("Content-Type") or "").lower():
        return ""  # the common case, without parsing parameters twice
    try:
        name = part.get_filename() or ""
    except Exception:  # noqa: BLE001
        name = ""
    return header_text(name).lower()


def _is_attachment(part: Message) -> bool:
    disposition = str(part.get("Content-Disposition") or "").strip().lower()
    return disposition.startswith("attachment") or bool(_filename(part))


def body_texts(msg: Message) -> tuple[str | None, str | None, list[str]]:
    """``(plain body, html body, text attachments)`` of a message, each decoded to text.

    The body is the first inline text/plain (resp. text/html) part outside attachments;
    attachments count when they are text/* or carry an order-file suffix (.txt, .ord, ...).
    Parts inside message/rfc822 (forwarded or bounced mail) are not looked at.
    """
    plain: str | None = None
    html: str | None = None
    attached: list[str] = []
    stack: list[Message] = [msg]
    seen = 0
    while stack and seen < 500:  # pathological nesting: stop looking, keep what we have
        part = stack.pop(0)
        seen += 1
        ctype = part.get_content_type()
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list) and ctype != "message/rfc822":
                stack[0:0] = [p for p in payload if isinstance(p, Message)]
            continue
        if ctype.startswith("message/"):
            continue
        if _is_attachment(part) and part is not msg:
            name = _filename(part)
            if ctype in ("text/plain", "text/x-orders") or name.endswith(ATTACHMENT_SUFFIXES):
                text = _part_text(part)
                if text is not None and text.strip():
                    attached.append(text)
            continue
        if ctype == "text/plain" and plain is None:
            plain = _part_text(part, body=True)
        elif ctype == "text/html" and html is None:
            html = _part_text(part, body=True)
        elif ctype.startswith("text/") and plain is None and ctype not in (
                "text/html", "text/calendar", "text/x-vcard", "text/vcard", "text/css",
                "text/rfc822-headers"):
            plain = _part_text(part, body=True)
    return plain, html, attached
