"""HTML mail bodies to plain text, for HTML-only order mails.

Block elements end lines, entities are decoded, scripts and styles are dropped, and a
quoted original (blockquote, Gmail's and Yahoo's quote divs) becomes '>' lines, which the
envelope parser ignores; an Outlook reply's unmarked original is cut off. Not a renderer:
only what an order file needs survives.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_text"]

# Outlook: where the quoted original starts (ids may carry an "x_" prefix when forwarded).
_STOP_IDS = {"divrplyfwdmsg", "appendonsend", "stopspelling",
             "mail-editor-reference-message-container"}


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
