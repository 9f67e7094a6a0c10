"""Parsed orders, prompts and results of parsing: the values a ruleset's parser returns.

A seat's orders are a script: one command per line, used in order at resolution. Parsing
never mutates state. A line that does not parse keeps its text and a one-line error that
names what is wrong and what would be right; the other lines are still accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.core.i18n import Msg, _, restored


@dataclass(frozen=True)
class OrderLine:
    lineno: int
    text: str
    order: Any = None  # the ruleset's frozen value object; str(order) is its canonical form
    error: str | None = None
    # Accepted, with what would happen if the board stays as it is now (judged on arrival).
    note: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def echo(self) -> Msg:
        """The line as a confirmation echoes it (a message: its frame is translated, the
        order, error and note are the game's text)."""
        if self.error is not None:
            return _("line {n}: {text}  -> ERROR: {error}", n=self.lineno, text=self.text,
                     error=self.error)
        if self.note is not None:
            return _("line {n}: {text}  -> OK, note: {note}", n=self.lineno,
                     text=str(self.order), note=self.note)
        return _("line {n}: {text}  -> OK", n=self.lineno, text=str(self.order))


# An echo line as stored (English), read back into its message.
_ECHO = re.compile(r"line (\d+): (.*)  -> (?:OK(?:, note: (.*))?|ERROR: (.*))\Z", re.S)


def echo_message(line: str) -> str:
    """A stored echo line (`OrderLine.echo` in English) as its message again, so that an
    answer can show it in the reader's language; any other line as it is."""
    m = _ECHO.match(line)
    if m is None:
        return line
    n, text, note, error = int(m[1]), m[2], m[3], m[4]
    out = (OrderLine(n, text, error=error) if error is not None
           else OrderLine(n, text, order=text, note=note)).echo()
    return out if out == line else line  # only what reads back exactly


@dataclass(frozen=True)
class Parsed:
    lines: tuple[OrderLine, ...] = ()

    @classmethod
    def of(cls, lines: Iterable[OrderLine]) -> Parsed:
        return cls(tuple(lines))

    @property
    def orders(self) -> list[Any]:
        return [line.order for line in self.lines if line.ok]

    @property
    def errors(self) -> list[OrderLine]:
        return [line for line in self.lines if not line.ok]

    @property
    def ok(self) -> bool:
        return not self.errors

    def __iter__(self) -> Iterator[OrderLine]:
        return iter(self.lines)

    def canonical(self) -> str:
        """The accepted orders in canonical form, one per line (what NMR defaults store)."""
        return "".join(f"{o}\n" for o in self.orders)

    def echo(self) -> list[str]:
        return [line.echo() for line in self.lines]


@dataclass(frozen=True)
class Prompt:
    """What a seat is asked now: a short text, and a pre-filled order skeleton.

    `skeleton` lines are order lines (comments allowed with '#') that the report offers as a
    starting point; `options` optionally lists legal single orders for the report.
    """

    text: str
    skeleton: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = {"text": str(self.text), "skeleton": [str(line) for line in self.skeleton],
             "options": list(self.options), "data": self.data}
        if isinstance(self.text, Msg):  # so the report can ask in the reader's language
            d["msg"] = self.text.to_json()
        lines = {str(i): line.to_json() for i, line in enumerate(self.skeleton)
                 if isinstance(line, Msg)}  # comment lines a report may translate
        if lines:
            d["skeleton_msgs"] = lines
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Prompt:
        lines = d.get("skeleton_msgs") or {}
        skeleton = tuple(restored(line, lines.get(str(i)))
                         for i, line in enumerate(d.get("skeleton", ())))
        return cls(restored(d["text"], d.get("msg")), skeleton, tuple(d.get("options", ())),
                   d.get("data") or {})


def order_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each command line: comments and blank lines dropped.

    Line numbers count from 1 over the text the ruleset was given.
    """
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield i, line
