"""Auditable dice: every random number of a step comes from its seed and its orders.

The contract (DESIGN section 3): a step's random numbers are derived with HMAC-SHA256 in
counter mode from the step seed (key) and the digest of the locked order files. Each
number is one HMAC block, read as a big-endian 64-bit integer and reduced to its range by
rejection sampling, so anyone with the revealed seed can recompute it with a few lines of
code in any language (see docs/dice.md).

Rulesets take dice only from the object handed to them. Every draw names its purpose and
who may see its outcome (`visible_to=None` is public; a set of seats means hidden from the
others, e.g. a card drawn into a hand). A step whose draws were all public may reveal its
seed when it closes; otherwise the seed stays secret until the game ends.

This module is not a shuffler: decks are never pre-shuffled into hidden state. A draw picks
from what is still in the pile at the moment of drawing (`pick`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pbem.core.i18n import Msg, restored

T = TypeVar("T")

_TWO64 = 1 << 64


@dataclass(frozen=True)
class Roll:
    """One random number as it was drawn: what for, its range, its value, who saw it."""

    purpose: str
    kind: str  # "d6" for a die of 6 sides; "pick/N" for a choice among N (value 0..N-1)
    value: int
    visible_to: tuple[str, ...] | None = None  # None: public

    def to_json(self) -> dict[str, Any]:
        d = {"purpose": str(self.purpose), "kind": self.kind, "value": self.value,
             "visible_to": list(self.visible_to) if self.visible_to is not None else None}
        if isinstance(self.purpose, Msg):  # a purpose a report can show in any language
            d["purpose_msg"] = self.purpose.to_json()
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roll:
        vis = data.get("visible_to")
        return cls(restored(data["purpose"], data.get("purpose_msg")), data["kind"],
                   int(data["value"]),
                   tuple(vis) if vis is not None else None)

    def visible(self, seat: str | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


def _vis(visible_to: Iterable[str] | None) -> tuple[str, ...] | None:
    return None if visible_to is None else tuple(sorted(visible_to))


@dataclass
class Dice:
    """Base class: subclasses supply `_next(n) -> 0..n-1`; the rest is shared."""

    log: list[Roll] = field(default_factory=list, init=False)

    def _next(self, n: int, kind: str) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(self, sides: int, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """One die of `sides` faces: 1..sides."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        value = self._next(sides, f"d{sides}") + 1
        self.log.append(Roll(purpose, f"d{sides}", value, _vis(visible_to)))
        return value

    def rolls(self, count: int, sides: int, purpose: str, *,
              visible_to: Iterable[str] | None = None) -> list[int]:
        """`count` dice of `sides` faces, each recorded as its own roll."""
        vis = None if visible_to is None else tuple(visible_to)
        return [self.roll(sides, Msg("{purpose} #{i}", purpose=purpose, i=i + 1) if count > 1
                          else purpose, visible_to=vis)
                for i in range(count)]

    def pick(self, n: int, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        """An index 0..n-1, e.g. which card of the n still in a pile is drawn."""
        if n < 1:
            raise ValueError("cannot pick from nothing")
        value = self._next(n, f"pick/{n}")
        self.log.append(Roll(purpose, f"pick/{n}", value, _vis(visible_to)))
        return value

    def choice(self, items: Sequence[T], purpose: str, *,
               visible_to: Iterable[str] | None = None) -> T:
        return items[self.pick(len(items), purpose, visible_to=visible_to)]

    def draw(self, pile: list[T], purpose: str, *,
             visible_to: Iterable[str] | None = None) -> T:
        """Remove and return one item of `pile`, chosen among those still in it."""
        return pile.pop(self.pick(len(pile), purpose, visible_to=visible_to))

    def permutation(self, items: Sequence[T], purpose: str, *,
                    visible_to: Iterable[str] | None = None) -> list[T]:
        """A random order of `items` (successive picks; for public orderings like seats)."""
        rest = list(items)
        out: list[T] = []
        while rest:
            out.append(rest.pop(self.pick(len(rest), purpose, visible_to=visible_to)))
        return out

    @property
    def all_public(self) -> bool:
        return all(r.visible_to is None for r in self.log)


class HmacDice(Dice):
    """The production dice: HMAC-SHA256(step_seed, orders_digest || counter)."""

    def __init__(self, step_seed: bytes, orders_digest: str) -> None:
        super().__init__()
        self._key = step_seed
        self._salt = orders_digest.encode("ascii")
        self._counter = 0

    def block(self) -> int:
        msg = self._salt + b":" + str(self._counter).encode("ascii")
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest()[:8], "big")

    def _next(self, n: int, kind: str) -> int:
        limit = _TWO64 - (_TWO64 % n)  # reject the top sliver so every value is equally likely
        while True:
            x = self.block()
            if x < limit:
                return x % n


class ScriptedDice(Dice):
    """Dice that return given results, to replay a rulebook example die for die.

    Die rolls take the face (1..sides); picks take the index (0..n-1). Running out or
    a value out of range raises, so a test cannot silently consume the wrong numbers.
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._i = 0

    def _next(self, n: int, kind: str) -> int:
        if self._i >= len(self._values):
            raise AssertionError(f"ScriptedDice ran out at draw {self._i + 1} ({kind})")
        v = self._values[self._i]
        self._i += 1
        if kind.startswith("d"):
            if not 1 <= v <= n:
                raise AssertionError(f"scripted value {v} is not a face of {kind}")
            return v - 1
        if not 0 <= v < n:
            raise AssertionError(f"scripted value {v} out of range for {kind}")
        return v

    @property
    def remaining(self) -> int:
        return len(self._values) - self._i


# --- seeds and digests -----------------------------------------------------------------

def step_seed(master_seed: bytes, step: int) -> bytes:
    """The seed of step `step`, derived from the game's secret master seed."""
    return hmac.new(master_seed, f"pbem-step:{step}".encode("ascii"), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """What a report prints before orders are sent: SHA-256 of the step seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def file_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def orders_digest(file_hashes: dict[str, str]) -> str:
    """Digest of all locked order files: SHA-256 over 'seat:filehash' lines, sorted by seat."""
    lines = "".join(f"{seat}:{h}\n" for seat, h in sorted(file_hashes.items()))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()
