"""The resolution context: dice with a replay record, events, and mid-turn decisions.

A turn is resolved by running the active player's script from the state at the start of
the turn. When a decision falls to a seat that has no standing order for it and the game
option `decisions` is `ask`, resolution stops (`NeedDecision`); the state keeps the
start-of-turn snapshot, the dice drawn so far and the answers given. When the answer
arrives, the turn is run again from the snapshot: recorded dice are replayed (not drawn
again), earlier answers are reused, and events already reported are not repeated. Rules
code never sees the difference.

Not here: the rules themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event

from .state import FACES


class NeedDecision(Exception):
    """Resolution must stop: `seat` has to answer `question` (one of `options`)."""

    def __init__(self, seat: str, kind: str, question: str, options: list[str],
                 default: str) -> None:
        super().__init__(question)
        self.seat = seat
        self.kind = kind
        self.question = question
        self.options = options
        self.default = default


class GameOver(Exception):
    """A player reached the Victory Banners needed (rulebook p.20: the game ends at once)."""


class RecDice:
    """The step's dice, with every value recorded so a paused turn can be replayed."""

    def __init__(self, dice: Dice, replay: list[int]) -> None:
        self._dice = dice
        self._replay = list(replay)
        self._i = 0
        self.record: list[int] = []

    def _take(self) -> int | None:
        if self._i < len(self._replay):
            v = self._replay[self._i]
            self._i += 1
            self.record.append(v)
            return v
        return None

    def face(self, purpose: str) -> str:
        v = self._take()
        if v is None:
            v = self._dice.roll(6, purpose)
            self.record.append(v)
        return FACES[v]

    def faces(self, n: int, purpose: str) -> list[str]:
        return [self.face(f"{purpose} #{i + 1}" if n > 1 else purpose) for i in range(n)]

    def pick(self, n: int, purpose: str, visible_to: Iterable[str] | None = None) -> int:
        v = self._take()
        if v is None:
            v = self._dice.pick(n, purpose, visible_to=visible_to)
            self.record.append(v)
        return v


class Ctx:
    def __init__(self, s: dict[str, Any], dice: RecDice, *, ask: bool,
                 answers: list[str] | None = None,
                 late_standing: list[Any] | None = None) -> None:
        self.s = s
        self.dice = dice
        self.ask = ask
        self.answers = list(answers or [])
        self.asked = 0
        self.events: list[Event] = []
        # standing orders sent with the k-th answer: [k, {seat: {key: value}}]; they apply
        # to the decisions after that answer only, so a replay takes the same path
        self.late_standing = late_standing or []

    def ev(self, kind: str, text: str, to: Iterable[str] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, text, data, tuple(sorted(to)) if to is not None else None))

    def standing(self, seat: str, *keys: str) -> str | None:
        layers = [d.get(seat, {}) for k, d in reversed(self.late_standing) if self.asked >= k]
        layers.append(self.s.get("standing", {}).get(seat, {}))
        for k in keys:
            for st in layers:
                if k in st:
                    return str(st[k])
        return None

    def decide(self, seat: str, kind: str, keys: list[str], options: list[str], default: str,
               question: str, resolve_standing: Any = None, force: bool = False) -> str:
        """One decision of `seat` among `options` (canonical answer words).

        Order: the seat's standing order (first matching key; `resolve_standing` maps it to
        an option), then `ask` (stop, or the recorded answer), then the default. `force`
        asks even when there is only one option (a blind question that must not show the
        others whether the seat had a choice)."""
        if len(options) <= 1 and not (force and self.ask):
            return options[0] if options else default
        st = self.standing(seat, *keys)
        if st is not None:
            choice = resolve_standing(st) if resolve_standing else st
            if choice in options:
                return str(choice)
        if self.ask:
            if self.asked < len(self.answers):
                ans = self.answers[self.asked]
                self.asked += 1
                if ans in options:
                    return ans
                return default
            raise NeedDecision(seat, kind, question, options, default)
        return default
