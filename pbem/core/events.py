"""Events: what happened during a step, each with who may see it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pbem.core.i18n import Msg, stored_values


@dataclass(frozen=True)
class Event:
    """One thing that happened. `text` is the English line a report prints; a `Msg`
    (pbem.core.i18n) keeps what it needs to be printed in another language.

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
        d = {"kind": self.kind, "text": str(self.text), "data": self.data,
             "to": list(self.to) if self.to is not None else None}
        if isinstance(self.text, Msg):
            d["msg"] = self.text.to_json()  # so a report can render it in any language
        msgs = stored_values(self.data)  # e.g. an outcome's reason
        if msgs:
            d["data_msgs"] = msgs
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        to = d.get("to")
        text = Msg.from_json(d["msg"]) if d.get("msg") else d["text"]
        data = d.get("data") or {}
        if d.get("data_msgs"):
            data = {**data, **{k: Msg.from_json(v) for k, v in d["data_msgs"].items()}}
        return cls(d["kind"], text, data, tuple(to) if to is not None else None)


def private(kind: str, text: str, seats: Iterable[str], **data: Any) -> Event:
    return Event(kind, text, data, tuple(sorted(seats)))


def public(kind: str, text: str, **data: Any) -> Event:
    return Event(kind, text, data, None)
