"""Plain-text reply clean-up: format=flowed lines joined, signatures and quoted originals cut.

``clean_reply_text`` keeps the line numbers of what it keeps (an order error "line 7" must
still point right) and leaves '>' quoted lines to ``pbem.core.envelope``, which ignores
them; ``unflow`` joins what the sender's client wrapped, as RFC 3676 means it.
"""

from __future__ import annotations

import re

__all__ = ["clean_reply_text", "unflow"]


def unflow(text: str, delsp: bool) -> str:
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
