"""Events: what happened during a step, each with who may see it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. `text` is the English line a report prints.

    `to=None` means public; a tuple of seat ids means only those seats see it (and the
    archive shows it to everyone once the game is over).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[str, ...] | None = None

    def visible(self, seat: str | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": self.data,
                "to": list(self.to) if self.to is not None else None}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        to = d.get("to")
        return cls(d["kind"], d["text"], d.get("data") or {}, tuple(to) if to is not None else None)


def private(kind: str, text: str, seats: Iterable[str], **data: Any) -> Event:
    return Event(kind, text, data, tuple(sorted(seats)))


def public(kind: str, text: str, **data: Any) -> Event:
    return Event(kind, text, data, None)
