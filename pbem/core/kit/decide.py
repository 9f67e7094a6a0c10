"""One mechanism for every decision that falls to a seat in the middle of a resolution:
standing order, then `ask`, then the documented default, with exact replay.

A resolution runs from the state at the start of the step (the snapshot). When a decision
falls to a seat with no standing order for it and the game's `decisions` option is `ask`,
`Context.decide` raises `NeedDecision`; the kit stores a pause record in the state (the
snapshot, the scripts, the answers so far, every random number drawn) and asks the seat in
a short step. When the answer arrives the resolution runs again from the snapshot: the
recorded numbers are replayed (not drawn again), earlier answers are reused, and events
already reported are not repeated. Rules code never sees the difference: it just calls
`ctx.decide(...)` and gets an answer.

BattleLore's `Ctx.decide` and `RecDice` were the model. Not here: the step envelope
(`pbem.core.kit.game`), the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from pbem.core.dice import Dice, Roll, _vis
from pbem.core.i18n import _, restored, stored_values
from pbem.core.kit.log import Log


class ReplayDice(Dice):
    """The step's dice behind a replay record: recorded numbers first, then fresh draws.

    Only fresh draws reach the step's roll log (they are the step's own, derived from its
    seed); `record` holds every number of the resolution for the pause record.
    """

    def __init__(self, dice: Dice, replay: Sequence[int] = ()) -> None:
        super().__init__()
        self.inner = dice
        self.log = dice.log  # fresh draws are the step's rolls
        self._replay = list(replay)
        self._i = 0
        self.record: list[int] = []
        self._fresh = True

    @property
    def replaying(self) -> bool:
        return self._i < len(self._replay)

    def _next(self, n: int, kind: str) -> int:
        if self._i < len(self._replay):
            v = self._replay[self._i]
            self._i += 1
            if not 0 <= v < n:
                raise AssertionError(f"replayed number {v} does not fit {kind}: the resolution "
                                     "did not replay the same way")
            self._fresh = False
        else:
            v = self.inner._next(n, kind)
            self._fresh = True
        self.record.append(v)
        return v

    def roll(self, sides: int, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        value = self._next(sides, f"d{sides}") + 1
        if self._fresh:
            self.log.append(Roll(purpose, f"d{sides}", value, _vis(visible_to)))
        return value

    def pick(self, n: int, purpose: str, *, visible_to: Iterable[str] | None = None) -> int:
        if n < 1:
            raise ValueError("cannot pick from nothing")
        value = self._next(n, f"pick/{n}")
        if self._fresh:
            self.log.append(Roll(purpose, f"pick/{n}", value, _vis(visible_to)))
        return value


@dataclass(frozen=True)
class Question:
    """What a seat is asked mid-resolution.

    `text` is shown to the asked seat only (it may name its hidden cards); `public` is what
    the other seats are told ("waiting for white: whether to play a serpent"). Both may be
    messages (`Msg`): they are stored as messages, so the notices and the prompt read in the
    reader's language. `options` lists legal answers as canonical order lines (all of them
    when `exhaustive`, else a sample for the report); `default` is the answer at the
    deadline (NMR) and in `auto`.
    """

    seat: str
    kind: str
    text: str
    default: str
    options: tuple[str, ...] = ()
    exhaustive: bool = True
    public: str = ""
    # JSON facts of the situation for the game's view and arrival checks while the
    # question is open (the auctioned tile, the attacker...); the game decides who sees them.
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = {"seat": self.seat, "kind": self.kind, "text": str(self.text),
             "default": self.default, "options": list(self.options),
             "exhaustive": self.exhaustive, "public": str(self.public), "data": dict(self.data)}
        # The English texts stay beside their messages, as an event keeps its text: a
        # question asked with plain strings is stored exactly as before messages were kept.
        msgs = stored_values({"text": self.text, "public": self.public})
        if msgs:
            d["msgs"] = msgs
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Question:
        """A stored question: its messages where they were kept, else the plain texts (a
        question stored before questions kept their messages)."""
        msgs = d.get("msgs") or _legacy_msgs(d.get("data") or {})
        return cls(d["seat"], d["kind"], restored(d["text"], msgs.get("text")), d["default"],
                   tuple(d.get("options", ())), bool(d.get("exhaustive", True)),
                   restored(d.get("public", ""), msgs.get("public")), d.get("data") or {})


def _legacy_msgs(data: Mapping[str, Any]) -> dict[str, Any]:
    """A question's messages as the games kept them in its data before `Question` kept them
    (BattleLore and Cherubion under `msg`, Macht & Ohnmacht under `texts`, Kard és Korona
    as `text_msg` and `public_msg`), so the states stored then still read in their
    language (a paused step's view, an archive rendered again)."""
    m, t = (v if isinstance(v := data.get(k), Mapping) else {} for k in ("msg", "texts"))
    found = {"text": m.get("text") or t.get("question") or data.get("text_msg"),
             "public": m.get("public") or t.get("public") or data.get("public_msg")}
    return {k: v for k, v in found.items() if isinstance(v, Mapping) and "id" in v}


class NeedDecision(Exception):
    """The resolution must stop: these seats have to answer (several: sealed, at once)."""

    def __init__(self, questions: Sequence[Question]) -> None:
        super().__init__("; ".join(q.text for q in questions))
        self.questions = list(questions)


class Pause(TypedDict):
    """The kit's pause record, kept in the game state under `pause` while a decision is
    open. `snapshot` is the whole state as the paused resolution began."""

    phase: str  # the phase whose resolution paused
    snapshot: dict[str, Any]
    script: dict[str, list[list[Any]]]  # seat -> [[line number, canonical order line], ...]
    answers: list[dict[str, str]]  # per decision point: seat -> canonical answer line
    late: list[list[Any]]  # [[k, seat, [[lineno, line], ...]]]: standing orders sent with answer k
    dice: list[int]  # every number drawn so far (replayed first)
    emitted: int  # events already reported
    questions: list[dict[str, Any]]  # the open questions (Question.to_json)


Absorb = Callable[["Context", str, list[Any]], None]


@dataclass
class Context:
    """Everything a resolution works with: the state, the dice, the log, and decisions.

    `ctx.state` is the game state being changed; `ctx.dice` the step's dice (with replay);
    `ctx.log` the event log; `ctx.decide(...)` one decision of one seat.
    """

    state: Any
    dice: Dice
    log: Log = field(default_factory=Log)
    ask: bool = False
    answers: list[dict[str, str]] = field(default_factory=list)
    late: list[list[Any]] = field(default_factory=list)
    absorb: Absorb | None = None  # the game's standing-order hook, for late standing orders
    asked: int = 0  # decision points answered so far in this run
    # (decision point, seat) -> None when the recorded answer was used, else why not
    verdicts: dict[tuple[int, str], str | None] = field(default_factory=dict)

    # --- decisions -------------------------------------------------------------------
    def decide(self, seat: str, kind: str, *, question: str, default: str,
               options: Sequence[str] = (), standing: str | None = None,
               accept: Callable[[str], bool] | None = None, exhaustive: bool = True,
               public: str = "", force: bool = False,
               data: Mapping[str, Any] | None = None) -> str:
        """One decision of `seat`, as a canonical answer line.

        Order: `standing` (the seat's standing order for it, already looked up by the game),
        then `ask` (pause, or the recorded answer), then `default`. With a single option
        nobody is asked (unless `force`: a blind question that must not reveal whether the
        seat had a choice). `accept(answer)` says whether an answer is legal when `options`
        is not the whole list.
        """
        return self.decide_all(kind, {seat: Ask(question, default, tuple(options), standing,
                                                 accept, exhaustive, public, force,
                                                 dict(data or {}))})[seat]

    def decide_all(self, kind: str, asks: Mapping[str, Ask]) -> dict[str, str]:
        """Several seats decide at once and in secret (sealed bids): seats without a
        standing answer are asked together in one step."""
        answers: dict[str, str] = {}
        open_: dict[str, Ask] = {}
        for seat, a in asks.items():
            if len(a.options) == 1 and a.exhaustive and not (a.force and self.ask):
                answers[seat] = a.options[0]
            elif a.standing is not None and a.legal(a.standing):
                answers[seat] = a.standing
            elif self.ask:
                open_[seat] = a
            else:
                answers[seat] = a.default
        if not open_:
            return answers
        if self.asked < len(self.answers):
            given = self.answers[self.asked]
            self.asked += 1
            for seat, a in open_.items():
                ans = given.get(seat)
                if ans is not None and a.legal(ans):
                    answers[seat] = ans
                    self.verdicts[(self.asked - 1, seat)] = None
                else:
                    answers[seat] = a.default
                    self.verdicts[(self.asked - 1, seat)] = (
                        _("not a legal answer now; the default {default} was used",
                          default=a.default) if ans is not None else
                        _("no answer; the default {default} was used", default=a.default))
            self._absorb_late()
            return answers
        raise NeedDecision([Question(seat, kind, a.question, a.default, a.options,
                                     a.exhaustive, a.public, a.data)
                            for seat, a in open_.items()])

    def _absorb_late(self) -> None:
        """Standing orders sent together with answer k take effect right after it."""
        if self.absorb is None:
            return
        for k, seat, lines in self.late:
            if k == self.asked:
                self.absorb(self, seat, lines)


@dataclass(frozen=True)
class Ask:
    """One seat's part of a decision (see `Context.decide`)."""

    question: str
    default: str
    options: tuple[str, ...] = ()
    standing: str | None = None
    accept: Callable[[str], bool] | None = None
    exhaustive: bool = True
    public: str = ""
    force: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)

    def legal(self, answer: str) -> bool:
        if self.accept is not None:
            return self.accept(answer)
        return not self.options or not self.exhaustive or answer in self.options
