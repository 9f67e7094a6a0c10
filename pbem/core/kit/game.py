"""The game kit's ruleset: phases declared as data, handled once for every game.

A game derives from `Game`, lists its order types in a `Grammar`, and declares a phase
table: for each phase, who is awaited, which order types it accepts, the prompt, the NMR
default and how it resolves (boardgame.io's phases and moves; godip's per-order types).
From that table the kit implements the engine-facing `Ruleset` protocol: `awaiting`,
`parse` (syntax, then the step, then the position: each line judged on arrival),
`default_orders`, `accepts_unasked` and `resolve`, including mid-resolution decisions
(`pbem.core.kit.decide`) and the outcome of every order line (`pbem.core.kit.log`).

The state is a JSON dict with a `pause` key the kit owns (None, or a `Pause` record while
a decision is open). Not here: any rule.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pbem.core.dice import Dice
from pbem.core.diff import flatten
from pbem.core.events import Event
from pbem.core.i18n import Msg, _
from pbem.core.kit import position
from pbem.core.kit.decide import Context, NeedDecision, Pause, Question, ReplayDice
from pbem.core.kit.grammar import Grammar, Order, OrderError, message_of
from pbem.core.kit.log import Log
from pbem.core.orders import OrderLine, Parsed, Prompt
from pbem.core.ruleset import Ruleset

OVER = "over"
DECISION = "decision"  # the kit's phase while a pause record is open

Lines = Mapping[str, Sequence[OrderLine]]


@dataclass(frozen=True)
class Note:
    """An arrival verdict that accepts a line with a note: what would happen if the board
    stays as it is (the line may still be refused when it is reached)."""

    text: str


Verdict = str | Note | None  # a refusal reason, a note, or fine


@dataclass(frozen=True)
class Phase:
    """One row of a game's phase table.

    `awaits(state)`: the seats that must send orders (several: sealed, simultaneous).
    `orders`: the order types an awaited seat may send (standing orders are always fine).
    `what`: a short text of what the step asks for, used in refusals.
    `prompt(state, seat)`: what the report asks. `default(state, seat)`: the NMR lines.
    `resolve(ctx, lines)`: apply the step (`ctx.state`, `ctx.log`, `ctx.dice`,
    `ctx.decide`); `lines[seat]` are the seat's non-standing lines in file order.
    `unasked`: seats that are not awaited may send standing orders in this phase.
    """

    name: str
    orders: tuple[type[Order], ...]
    what: str
    awaits: Callable[[Any], Sequence[str]]
    prompt: Callable[[Any, str], Prompt]
    default: Callable[[Any, str], Sequence[str]]
    resolve: Callable[[Context, Lines], None]
    unasked: bool = False


class Game(Ruleset):
    """Base of every kit-built game. Subclasses set `grammar` and `phases` and implement
    `phase_of`; most games also set `answers` (decision kind -> the order types that answer
    it) and override `absorb_standing`, `check`, `ask_mode`."""

    grammar: ClassVar[Grammar]
    phases: ClassVar[Mapping[str, Phase]] = {}
    answers: ClassVar[Mapping[str, tuple[type[Order], ...]]] = {}
    # Seats not awaited may send standing orders in every step (also while a decision is
    # open); their file is locked with the step.
    standing_anytime: ClassVar[bool] = False
    # The declared shape of the state (a TypedDict, in the game's state.py): positions.
    state_schema: ClassVar[Any] = None
    # A kit game's state is a plain JSON dict: the engine uses the parsed JSON as it is.
    state_is_plain_json: ClassVar[bool] = True
    # The kit gives outcomes to the lines only it sees (lines refused on arrival, answers
    # to questions); a game turns this on once it gives every other line its outcome.
    report_outcomes: ClassVar[bool] = False

    # --- what a game provides -------------------------------------------------------------
    def phase_of(self, state: Any) -> str:
        """required: the name of the phase the state is in (OVER when the game is over)."""
        raise NotImplementedError

    def ask_mode(self, state: Any) -> bool:
        """Does a decision without a standing order open a short step (`ask`)?"""
        return False

    def check(self, state: Any, seat: str, order: Order) -> Verdict:
        """Judge a well-formed line against the position on arrival: a refusal reason
        (naming the legal choices), a `Note`, or None. Default: the order's own `check`."""
        check = getattr(order, "check", None)
        return check(state, seat) if check is not None else None

    def is_standing(self, state: Any, seat: str, order: Order) -> bool:
        """Is this line a standing order of `seat` in this state? Default: its type says
        (`Order.standing`). A game whose lines are standing for some seats only (coming
        turns sent while another seat is on turn) or only outside one step overrides it."""
        return order.standing

    def absorb_standing(self, ctx: Context, seat: str, lines: Sequence[OrderLine]) -> None:
        """Store a seat's standing orders (each line gets its outcome). Default: the game
        has none."""
        if lines:
            raise AssertionError(f"{self.id}: standing orders without absorb_standing")

    def pause_of(self, state: Any) -> Pause | None:
        return state.get("pause") if isinstance(state, dict) else None

    def questions(self, state: Any) -> list[Question]:
        pause = self.pause_of(state)
        return [Question.from_json(q) for q in pause["questions"]] if pause else []

    # --- an open question: the notices and the prompt -------------------------------------
    # The question's text and public line are messages when the game asked with messages
    # (Question keeps them), so these read in the reader's language with no game code.
    def question_public(self, q: Question) -> str | None:
        """What the other seats are told `q.seat` is asked about. None: the question is
        not announced at all (to the asked seat neither): its prompt asks it. Default: the
        question's public line, else its kind."""
        return q.public or q.kind

    def waiting_notice(self, seat: str, what: str) -> Msg:
        """The other seats' notice while `seat` decides `what`; a game may word it itself
        (its own message, in its own catalog)."""
        return _("Waiting for {seat}: {what}.", seat=seat, what=what)

    def decision_notice(self, question: str) -> Msg:
        """The asked seat's notice of its question; a game may word it itself."""
        return _("Your decision is needed: {question}", question=question)

    def ask_events(self, ctx: Context, questions: Sequence[Question]) -> None:
        """Tell the seats that the resolution waits for a decision: the asked seat reads its
        question, the others who is asked about what (`question_public`)."""
        for q in questions:
            what = self.question_public(q)
            if what is None:
                continue
            others = [s for s in self.seats_of(ctx.state) if s != q.seat]
            ctx.log.private(others, "ask", self.waiting_notice(q.seat, what),
                            seat=q.seat, question=q.kind)
            ctx.log.private([q.seat], "ask", self.decision_notice(q.text),
                            seat=q.seat, question=q.kind)

    def question_prompt(self, state: Any, q: Question) -> Prompt:
        """The report's prompt for an open question: its text, the default as the skeleton,
        the options (at most 60)."""
        options = q.options[:60]
        return Prompt(q.text, (q.default,), options,
                      {"phase": DECISION, "kind": q.kind})

    def position_problems(self, state: Any) -> list[str]:
        """Hard errors of a well-shaped position (a seat that does not exist, a unit on no
        field): one line each, naming the field. Default: none."""
        return []

    # --- positions ------------------------------------------------------------------------
    def edit_problems(self, before: Any, after: Any) -> list[str]:
        """A paused resolution runs again from `pause.snapshot` when its question is
        answered, so a change made only outside the snapshot would be undone by the next
        step: the GM must make it in the snapshot too (or end the pause)."""
        old, new = self.pause_of(before), self.pause_of(after)
        if not old or not new:
            return []
        was = flatten({k: v for k, v in self.dump(before).items() if k != "pause"})
        now = flatten({k: v for k, v in self.dump(after).items() if k != "pause"})
        snap_was, snap_now = flatten(old["snapshot"]), flatten(new["snapshot"])
        for path in sorted(set(was) | set(now)):
            if was.get(path) != now.get(path) and snap_was.get(path) == snap_now.get(path):
                return [f"{path}: the open step is a question in the middle of a resolution "
                        "that runs again from pause.snapshot when answered, which would "
                        f"undo this change; make it in pause.snapshot.{path} too"]
        return []

    def dump_position(self, state: Any) -> str:
        if self.state_schema is None:
            return super().dump_position(state)
        return position.dump(self.state_schema, self.dump(state), ruleset=self.id,
                             title=self.title)

    def load_position(self, text: str) -> Any:
        if self.state_schema is None:
            return super().load_position(text)
        data = position.load(self.state_schema, text, ruleset=self.id)
        problems = self.position_problems(data)
        if problems:
            raise position.PositionError(f"position: {problems[0]}")
        return self.load(data)

    # --- the protocol ---------------------------------------------------------------------
    def awaiting(self, state: Any) -> dict[str, Prompt]:
        qs = self.questions(state)
        if qs:
            return {q.seat: self.question_prompt(state, q) for q in qs}
        name = self.phase_of(state)
        if name == OVER:
            return {}
        phase = self.phases[name]
        return {seat: phase.prompt(state, seat) for seat in phase.awaits(state)}

    def awaited_seats(self, state: Any) -> list[str]:
        qs = self.questions(state)
        if qs:
            return [q.seat for q in qs]
        name = self.phase_of(state)
        return [] if name == OVER else list(self.phases[name].awaits(state))

    def accepts_unasked(self, state: Any, seat: str) -> bool:
        if seat not in self.seats_of(state):
            return False
        if self.pause_of(state):
            return self.standing_anytime
        name = self.phase_of(state)
        return name != OVER and (self.standing_anytime or self.phases[name].unasked)

    def seats_of(self, state: Any) -> Sequence[str]:
        return tuple(state.get("seats", ()))

    def parse(self, state: Any, seat: str, text: str) -> Parsed:
        parsed = self.grammar.parse(state, seat, text)
        return Parsed.of(self._judge(state, seat, line) for line in parsed.lines)

    def _judge(self, state: Any, seat: str, line: OrderLine) -> OrderLine:
        if not line.ok:
            return line
        order = line.order
        why = self._step_problem(state, seat, order)
        if why is None:
            try:
                verdict = self.check(state, seat, order)
            except OrderError as exc:
                verdict = message_of(exc)
            if isinstance(verdict, Note):
                return OrderLine(line.lineno, line.text, order, None, verdict.text)
            why = verdict
        return line if why is None else OrderLine(line.lineno, line.text, None, why)

    def _step_problem(self, state: Any, seat: str, order: Order) -> str | None:
        """Is this kind of line accepted from `seat` in the step now?"""
        if self.is_standing(state, seat, order):
            return None
        verb = str(order).split()[0] if str(order) else type(order).__name__
        qs = {q.seat: q for q in self.questions(state)}
        if qs:
            q = qs.get(seat)
            if q is None:
                return _("{verb} is not yours to send now: {seats} is asked a question; you "
                         "may send standing orders only", verb=verb, seats=" and ".join(sorted(qs)))
            kinds = self.answers.get(q.kind, ())
            if not isinstance(order, kinds):
                return _("{verb} does not answer the question ({question}); answer with "
                         "{verbs}", verb=verb, question=q.text,
                         verbs=" or ".join(k.verbs[0] for k in kinds if k.verbs))
            if q.exhaustive and q.options and str(order) not in q.options:
                shown = list(q.options[:12]) + (["..."] if len(q.options) > 12 else [])
                return _("{order} is not an answer to the question; answer {answers}",
                         order=str(order), answers=" or ".join(shown))
            return None
        name = self.phase_of(state)
        if name == OVER:
            return _("the game is over")
        phase = self.phases[name]
        if seat not in phase.awaits(state):
            who = " and ".join(sorted(phase.awaits(state))) or _("nobody")
            return _("{verb} is not yours to send now: {seats} is awaited; you may send "
                     "standing orders only", verb=verb, seats=who)
        if not isinstance(order, phase.orders):
            return _("{verb} is not part of this step; it asks for {what} (standing orders "
                     "are welcome in any step)", verb=verb, what=phase.what)
        return None

    def default_orders(self, state: Any, seat: str) -> Parsed:
        qs = {q.seat: q for q in self.questions(state)}
        if qs:
            lines: Sequence[str] = [qs[seat].default] if seat in qs else []
        else:
            lines = self.phases[self.phase_of(state)].default(state, seat)
        return self.parse(state, seat, "".join(f"{ln}\n" for ln in lines))

    def resolve(self, state: Any, orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[Any, list[Event]]:
        pause = self.pause_of(state)
        refusals = Log(report_outcomes=self.report_outcomes)
        # The files of a step that answers decision point k are file k of the paused
        # resolution (its script is file 0), so every outcome names its file.
        refusals.file = len(pause["answers"]) + 1 if pause else 0
        for seat, parsed in sorted(orders.items()):
            for line in parsed.errors:
                refusals.refused(seat, line, line.error or "", order=line.text)
        if pause:
            new, events = self._resume(state, pause, orders, dice, refusals)
        else:
            script = {seat: [[ln.lineno, str(ln.order)] for ln in parsed.lines if ln.ok]
                      for seat, parsed in orders.items()}
            snapshot = _copy(state) if self.ask_mode(state) else None
            new, events, _ = self._run(state, self.phase_of(state), script, [], [], [], 0,
                                       dice, snapshot)
        return new, refusals.events + events

    # --- running and resuming ---------------------------------------------------------------
    def _run(self, work: Any, phase_name: str, script: Mapping[str, list[list[Any]]],
             answers: list[dict[str, str]], late: list[list[Any]], replay: list[int],
             emitted: int, dice: Dice, snapshot: Any) -> tuple[Any, list[Event], Context]:
        work["pause"] = None
        ctx = Context(work, ReplayDice(dice, replay), Log(report_outcomes=self.report_outcomes),
                      ask=self.ask_mode(work), answers=answers, late=late,
                      absorb=self._absorb_late)
        lines = {seat: [OrderLine(n, text, self.grammar.parse_line(work, seat, text))
                        for n, text in script[seat]] for seat in sorted(script)}
        for seat, seat_lines in lines.items():
            standing = [ln for ln in seat_lines if self.is_standing(work, seat, ln.order)]
            if standing:
                self.absorb_standing(ctx, seat, standing)
        rest = {seat: [ln for ln in seat_lines if not self.is_standing(work, seat, ln.order)]
                for seat, seat_lines in lines.items()}
        try:
            self.phases[phase_name].resolve(ctx, rest)
        except NeedDecision as need:
            if snapshot is None:
                raise AssertionError(f"{self.id}: a decision was asked outside ask mode") \
                    from None
            shown = len(ctx.log.events)
            pause: Pause = {"phase": phase_name, "snapshot": snapshot,
                            "script": {s: [list(x) for x in v] for s, v in script.items()},
                            "answers": answers, "late": late,
                            "dice": list(ctx.dice.record) if isinstance(ctx.dice, ReplayDice)
                            else [], "emitted": shown,
                            "questions": [q.to_json() for q in need.questions]}
            work["pause"] = pause
            self.ask_events(ctx, need.questions)
            return work, ctx.log.events[emitted:], ctx
        return work, ctx.log.events[emitted:], ctx

    def _absorb_late(self, ctx: Context, seat: str, lines: list[Any]) -> None:
        parsed = [OrderLine(n, text, self.grammar.parse_line(ctx.state, seat, text))
                  for n, text in lines]
        ctx.log.file = ctx.asked
        try:
            self.absorb_standing(ctx, seat, parsed)
        finally:
            ctx.log.file = 0

    def _resume(self, state: Any, pause: Pause, orders: Mapping[str, Parsed], dice: Dice,
                refusals: Log) -> tuple[Any, list[Event]]:
        questions = {q.seat: q for q in (Question.from_json(x) for x in pause["questions"])}
        given: dict[str, str] = {}
        answer_lines: dict[str, OrderLine] = {}
        late = [list(x) for x in pause["late"]]
        k = len(pause["answers"]) + 1
        for seat, parsed in sorted(orders.items()):
            standing = [[ln.lineno, str(ln.order)] for ln in parsed.lines
                        if ln.ok and self.is_standing(state, seat, ln.order)]
            if standing:
                late.append([k, seat, standing])
            q = questions.get(seat)
            for ln in parsed.lines:
                if not ln.ok or self.is_standing(state, seat, ln.order):
                    continue
                if q is not None and seat not in given:
                    given[seat] = str(ln.order)
                    answer_lines[seat] = ln
                else:
                    refusals.refused(seat, ln, _("only the first answer counts"))
        answers = [*pause["answers"], given]
        snapshot = pause["snapshot"]
        new, events, ctx = self._run(_copy(snapshot), pause["phase"], pause["script"],
                                     answers, late, list(pause["dice"]), pause["emitted"],
                                     dice, snapshot)
        for seat, ln in answer_lines.items():
            why = ctx.verdicts.get((k - 1, seat))
            if why is None:
                refusals.done(seat, ln, _("your answer was used"))
            else:
                refusals.changed(seat, ln, why)
        return new, events


def _copy(state: Any) -> Any:
    """An exact, independent copy of a JSON state (faster than deepcopy for plain data)."""
    try:
        return json.loads(json.dumps(state))
    except TypeError:  # pragma: no cover - a state that is not plain JSON
        return copy.deepcopy(state)
