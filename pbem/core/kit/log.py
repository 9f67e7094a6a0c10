"""One event API for every game, and the outcome of every order line.

`log.public(kind, text, **data)` and `log.private(seats, kind, text, **data)` record what
happened with who may see it. `log.outcome(seat, line, status, why)` records what became
of one line of a seat's order file: every applied line ends with exactly one outcome, seen
by its seat only (DESIGN section 3, "Outcomes").

Not here: rendering (reports), the events' storage (service).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.core.events import Event
from pbem.core.orders import OrderLine

# The four outcomes of an order line.
DONE = "carried out"
NOT_NEEDED = "not needed"  # a standing or conditional order that did not trigger
CHANGED = "changed"  # why, and what was done instead
REFUSED = "refused"  # why, and what the legal choices were
STATUSES = (DONE, NOT_NEEDED, CHANGED, REFUSED)

OUTCOME = "outcome"  # the event kind of outcomes


class Log:
    """The events of one resolution, in order."""

    def __init__(self, *, report_outcomes: bool = True) -> None:
        self.events: list[Event] = []
        # False: outcomes are checked (one per line) but not reported, for a game that
        # does not give every line its outcome yet.
        self.report_outcomes = report_outcomes
        self._outcomes: dict[tuple[str, int, int], str] = {}
        # Which file the lines belong to: 0 for the files the resolution started with, k
        # for the files sent to answer its k-th decision (a paused resolution's steps).
        self.file = 0

    def public(self, kind: str, text: str, **data: Any) -> Event:
        e = Event(kind, text, data, None)
        self.events.append(e)
        return e

    def private(self, seats: Iterable[str], kind: str, text: str, **data: Any) -> Event:
        e = Event(kind, text, data, tuple(sorted(set(seats))))
        self.events.append(e)
        return e

    def add(self, event: Event) -> None:
        self.events.append(event)

    def extend(self, events: Iterable[Event]) -> None:
        self.events.extend(events)

    # --- outcomes --------------------------------------------------------------------
    def outcome(self, seat: str, line: OrderLine | int, status: str, why: str = "", *,
                order: Any = None) -> Event:
        """What became of `line` of `seat`'s file. A line gets exactly one outcome."""
        if status not in STATUSES:
            raise ValueError(f"unknown outcome {status!r}")
        lineno = line if isinstance(line, int) else line.lineno
        shown = order if order is not None else (
            line.order if isinstance(line, OrderLine) and line.order is not None
            else (line.text if isinstance(line, OrderLine) else ""))
        key = (seat, lineno, self.file)
        if key in self._outcomes:
            raise AssertionError(f"line {lineno} of {seat} already has an outcome "
                                 f"({self._outcomes[key]}); now {status}")
        self._outcomes[key] = status
        text = f"line {lineno}: {shown} -> {status}" + (f": {why}" if why else "")
        data = {"seat": seat, "line": lineno, "order": str(shown), "status": status,
                "why": why, "file": self.file}
        if not self.report_outcomes:
            return Event(OUTCOME, text, data, (seat,))
        return self.private([seat], OUTCOME, text, **data)

    def done(self, seat: str, line: OrderLine | int, why: str = "", **kw: Any) -> Event:
        return self.outcome(seat, line, DONE, why, **kw)

    def not_needed(self, seat: str, line: OrderLine | int, why: str, **kw: Any) -> Event:
        return self.outcome(seat, line, NOT_NEEDED, why, **kw)

    def changed(self, seat: str, line: OrderLine | int, why: str, **kw: Any) -> Event:
        return self.outcome(seat, line, CHANGED, why, **kw)

    def refused(self, seat: str, line: OrderLine | int, why: str, **kw: Any) -> Event:
        return self.outcome(seat, line, REFUSED, why, **kw)

    def has_outcome(self, seat: str, lineno: int) -> bool:
        return (seat, lineno, self.file) in self._outcomes

    def outcomes_of(self, seat: str) -> dict[int, str]:
        return {n: st for (s, n, f), st in self._outcomes.items() if s == seat and f == self.file}


def outcomes(events: Iterable[Event], seat: str) -> list[Event]:
    """The outcome events `seat` may see (its own), in order."""
    return [e for e in events if e.kind == OUTCOME and e.visible(seat) and
            e.data.get("seat") == seat]
