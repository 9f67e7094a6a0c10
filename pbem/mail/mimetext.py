"""Text out of MIME: header decoding, charset guessing, HTML to text, order-file candidates.

Lenient by design: every function here returns something for any input and never raises on
malformed mail. It knows nothing about orders beyond "which parts may hold an order file";
parsing the envelope is ``pbem.core.envelope``'s job.
"""

from __future__ import annotations

import re
from email.header import decode_header
from email.message import Message
from html.parser import HTMLParser

__all__ = ["decode_text", "header_text", "html_to_text", "body_texts", "clean_reply_text",
           "Headers"]

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


_STOP_IDS = {"divrplyfwdmsg", "appendonsend", "stopspelling", "mail-editor-reference-message-container"}


class _HtmlText(HTMLParser):
    """HTML to plain text lines; blockquotes become '>' quoted lines (a quoted reply)."""

    BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
             "table", "ul", "ol", "hr", "blockquote", "section", "article", "header",
             "footer", "dt", "dd", "address"}
    SKIP = {"script", "style", "head", "title", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.quote = 0
        self.skip = 0
        self.pre = 0
        self.divs: list[bool] = []  # open <div>s: does this one mark a quoted original?
        self.stopped = False  # past the start of an unmarked quoted original

    def _break(self) -> None:
        text = "".join(self.current)
        self.current = []
        for line in text.split("\n"):
            line = line if self.pre else " ".join(line.split())
            self.lines.append(("> " * self.quote + line) if self.quote and line else line)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCK:
            if tag == "br":
                self._break()
            elif self.current:
                self._break()
            if tag == "blockquote":
                self.quote += 1
            if tag == "pre":
                self.pre += 1
        if tag in ("div", "hr"):
            attributes = dict(attrs)
            ident = (attributes.get("id") or "").lower()
            classes = attributes.get("class") or ""
            if ident.lstrip("x_") in _STOP_IDS or "OutlookMessageHeader" in classes:
                self.stopped = True  # Outlook: the quoted original follows, unmarked
        if tag == "div":
            # Gmail and Yahoo mark the quoted original with a class, not a blockquote.
            quoted = "gmail_quote" in classes or "yahoo_quoted" in classes
            self.divs.append(quoted)
            self.quote += quoted

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK:
            if self.current:
                self._break()
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if tag == "div" and self.divs and self.divs.pop():
                self.quote = max(0, self.quote - 1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._break()
        else:
            self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if not self.skip and not self.stopped:
            self.current.append(data if self.pre else data.replace("\n", " "))

    def text(self) -> str:
        if self.current:
            self._break()
        out: list[str] = []
        for line in self.lines:  # collapse runs of blank lines made by nested blocks
            if line.strip() or (out and out[-1].strip()):
                out.append(line)
        return "\n".join(out).strip("\n") + "\n"


def html_to_text(html: str) -> str:
    """Readable text from an HTML body: block elements end lines, quotes become '>' lines."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - HTMLParser is lenient, but be sure
        return re.sub(r"<[^>]*>", " ", html)
    return parser.text()


def _unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed soft line breaks (a line ending in a space continues)."""
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        if line.startswith(" "):  # space-stuffing
            line = line[1:]
        if line.endswith(" ") and line != "-- ":
            buf += line[:-1] if delsp else line
            continue
        out.append(buf + line)
        buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


_SIG = re.compile(r"^-- ?$")
_ORIGINAL = re.compile(r"^\s*(-{2,}\s*(original message|ursprüngliche nachricht|eredeti üzenet|"
                       r"message d'origine|forwarded message)\s*-{2,}|_{20,})\s*$", re.I)
_ATTRIBUTION = re.compile(r"^\s*(on .{4,200} wrote|am .{4,200} schrieb .{1,100}|"
                          r".{4,200} (írta|wrote|schrieb|a écrit))\s*:\s*$", re.I)


_FROM_LINE = re.compile(r"^\s*\*?(from|von|feladó|de|da)\s*:\*?\s+\S", re.I)
_SENT_LINE = re.compile(r"^\s*\*?(sent|date|gesendet|datum|elküldve|dátum|küldve|envoyé|"
                        r"inviato)\s*:", re.I)


def _outlook_header_block(lines: list[str], i: int) -> bool:
    """Does line i start Outlook's "From: / Sent: / To: / Subject:" block of the original?"""
    return bool(_FROM_LINE.match(lines[i])) and any(
        _SENT_LINE.match(x) for x in lines[i + 1:i + 4])


def clean_reply_text(text: str) -> str:
    """Cut a signature ('-- ') and an Outlook-style quoted original; blank the "On ... wrote:"
    line that introduces a quote. Line numbers of what is kept do not change.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped[:1] in ("-", "_") and (_SIG.match(line) or _ORIGINAL.match(line)):
            break
        if ":" in stripped[:12] and _outlook_header_block(lines, i):
            break
        if stripped.endswith(":") and _ATTRIBUTION.match(line):
            nxt = next((x for x in lines[i + 1:] if x.strip()), "")
            if nxt.lstrip().startswith(">"):
                kept.append("")
                continue
        kept.append(line)
    return "\n".join(kept)


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
        text = _unflow(text.replace("\r\n", "\n"), params.get("delsp") == "yes")
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
