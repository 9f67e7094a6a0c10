"""Positions and GM rulings: print a game's position, start a game from one, and let the
GM rule on a dispute by editing the position (`gm edit`) or by resolving a step himself
(`gm adjudicate`), openly and verifiably.

A ruling is a step of its own in the history. It closes the open step with kind
"ruling" (orders on file carried over to the next step and judged again) or
"adjudicated" (the orders on file are locked, the GM's position is the result). Its
stated input (position text, reason, GM, digests before and after) is stored with it, so
`archive verify` recomputes every segment between rulings and checks each ruling as a
stated input. Every seat is told what changed in its own view, the public what changed
in the public view, and the GM the whole difference.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from pbem.core.dice import orders_digest
from pbem.core.diff import diff_lines
from pbem.core.engine import StepOutcome, canonical_json, digest
from pbem.core.events import Event
from pbem.core.ruleset import Ruleset, State
from pbem.service.games import (
    ServiceError,
    audit,
    check_position_seats,
    close_step,
    config_of,
    find_game,
    live_step,
    open_next,
    read_position,
    ruleset_of,
    seats_of,
)
from pbem.service.orders import orders_on_file
from pbem.store.models import Game, Step, Submission, stored_id

MAX_DIFF_LINES = 60  # per seat and per report; the GM's mail has them all


def position_of(session: Session, name: str, *, step: int | None = None) -> str:
    """The position notation of a step's state (default: the open step). GM only: it
    shows every hidden part."""
    game = find_game(session, name)
    row = live_step(session, game, step)
    ruleset = ruleset_of(game)
    if row.number == 0:
        raise ServiceError("step 0 is the set-up; its position is step 1's")
    try:
        return ruleset.dump_position(ruleset.load(json.loads(row.state_json)))
    except NotImplementedError as exc:
        raise ServiceError(str(exc)) from None


def ruling_events(ruleset: Ruleset, before: State, after: State, seats: list[str], *,
                  kind: str, reason: str, number: int) -> list[Event]:
    """What every seat is told of a ruling: the reason, the public differences, and each
    seat's own further differences (from its own view only)."""
    head = (f"The GM changed the position: {reason}" if kind == "ruling"
            else f"The GM adjudicated step {number}: {reason}")
    events = [Event("gm-ruling", head, {"kind": kind, "reason": reason})]
    public = diff_lines(ruleset.view(before, None), ruleset.view(after, None))
    events += [Event("gm-change", f"Changed: {line}", {}) for line in public[:MAX_DIFF_LINES]]
    if len(public) > MAX_DIFF_LINES:
        events.append(Event("gm-change", f"... and {len(public) - MAX_DIFF_LINES} more "
                                         "public changes", {}))
    shown = set(public)
    for seat in seats:
        own = [line for line in diff_lines(ruleset.view(before, seat), ruleset.view(after, seat))
               if line not in shown]
        for line in own[:MAX_DIFF_LINES]:
            events.append(Event("gm-change", f"Changed for you: {line}", {}, (seat,)))
        if len(own) > MAX_DIFF_LINES:
            events.append(Event("gm-change", f"... and {len(own) - MAX_DIFF_LINES} more "
                                             "changes you can see", {}, (seat,)))
    return events


@dataclass
class Ruling:
    game: str
    kind: str  # ruling | adjudicated
    closed: int  # the step the ruling closed
    opened: int  # the step it opened
    full_diff: list[str]  # the GM's view: every change of the state
    warnings: list[str] = field(default_factory=list)
    # seat -> (registered address, new echo) for orders judged again against the new position
    rejudged: dict[str, tuple[str, str]] = field(default_factory=dict)
    dropped: dict[str, tuple[str, str]] = field(default_factory=dict)  # seat -> (address, why)


def _rule(session: Session, name: str, text: str, *, kind: str, reason: str, actor: str,
          force: bool, now: datetime) -> Ruling:
    if not reason.strip():
        raise ServiceError("a ruling needs a --reason the players will read")
    game = find_game(session, name)
    if game.status == "finished":
        raise ServiceError(f"game {game.name} is over")
    ruleset = ruleset_of(game)
    step = live_step(session, game)
    if step.closed_at is not None:
        raise ServiceError(f"step {step.number} of {game.name} is closed")
    before = ruleset.load(json.loads(step.state_json))
    after, warnings = read_position(ruleset, text, force=force)
    problems = ruleset.edit_problems(before, after)
    if problems:
        raise ServiceError(f"position: {problems[0]}")
    seats = list(config_of(game).seats)
    check_position_seats(ruleset, after, seats)
    after_json = canonical_json(ruleset.dump(after))
    if after_json == step.state_json:
        raise ServiceError("the position is the same as the open step's; nothing to rule")
    after = ruleset.load(json.loads(after_json))
    on_file = orders_on_file(session, step)
    applied = {seat: sub.body for seat, sub in on_file.items()} if kind == "adjudicated" else {}
    hashes = {seat: sub.file_hash for seat, sub in on_file.items()} if applied else {}
    events = ruling_events(ruleset, before, after, seats, kind=kind, reason=reason,
                           number=step.number)
    outcome = StepOutcome(after, after_json, events, [], hashes, orders_digest(hashes), applied,
                          [], ruleset.awaiting(after), ruleset.result(after))
    close_step(step, outcome, now=now, session=session)
    step.kind = kind
    step.ruling_json = canonical_json({"kind": kind, "reason": reason, "gm": actor,
                                       "before": step.state_digest or digest(step.state_json),
                                       "after": digest(after_json), "position": text,
                                       "warnings": warnings})
    session.add(step)
    nxt = open_next(session, game, ruleset, outcome, base=step, now=now)
    result = Ruling(game.name, kind, step.number, nxt.number,
                    diff_lines(ruleset.dump(before), ruleset.dump(after)), warnings)
    if kind == "ruling":
        _carry_orders(session, game, ruleset, on_file, nxt, after, result)
    audit(session, game, "gm-" + ("edit" if kind == "ruling" else "adjudicate"), now=now,
          actor=actor, step=step.number, reason=reason, before=digest(step.state_json),
          after=digest(after_json), warnings=warnings)
    return result


def _carry_orders(session: Session, game: Game, ruleset: Ruleset, on_file: dict[str, Submission],
                  nxt: Step, after: State, result: Ruling) -> None:
    """Orders on file go on to the re-opened step, judged again against the new position;
    a seat whose orders changed meaning (or no longer count) is told."""
    emails = {row.seat: row.email for row in seats_of(session, game)}
    awaited = set(json.loads(nxt.awaiting_json))
    for seat, sub in on_file.items():
        if seat not in awaited and not ruleset.accepts_unasked(after, seat):
            result.dropped[seat] = (emails.get(seat, ""), f"{seat} is not asked for orders in "
                                    f"step {nxt.number} after the ruling; your orders are "
                                    "kept in the history but no longer count")
            continue
        parsed = ruleset.parse(after, seat, sub.body)
        echo = "\n".join(parsed.echo() or ["(no order lines)"])
        session.add(Submission(step_id=stored_id(nxt), seat=seat, body=sub.body,
                               echo=echo, source=sub.source, sender=sub.sender,
                               message_id=sub.message_id, received_at=sub.received_at,
                               wait=sub.wait))
        if echo != sub.echo:
            result.rejudged[seat] = (emails.get(seat, ""), echo)
    session.flush()


def edit_position(session: Session, name: str, text: str, *, reason: str, actor: str,
                  force: bool = False, now: datetime) -> Ruling:
    """`pbem gm edit`: replace the open step's position; orders on file carry over."""
    return _rule(session, name, text, kind="ruling", reason=reason, actor=actor, force=force,
                 now=now)


def adjudicate(session: Session, name: str, text: str, *, reason: str, actor: str,
               force: bool = False, now: datetime) -> Ruling:
    """`pbem gm adjudicate`: resolve the open step by the GM's position instead of the
    engine; the orders on file are locked with it."""
    return _rule(session, name, text, kind="adjudicated", reason=reason, actor=actor,
                 force=force, now=now)


def ruling_state(ruleset: Ruleset, step: Step) -> str | None:
    """The state (canonical JSON) a ruling step's position gives, or None if it does not load."""
    try:
        state = ruleset.load_position(json.loads(step.ruling_json or "{}")["position"])
    except (KeyError, ValueError, NotImplementedError):
        return None
    return canonical_json(ruleset.dump(state))


def verify_ruling(ruleset: Ruleset, step: Step, next_state_json: str | None,
                  seats: list[str]) -> str | None:
    """Check a ruling step as a stated input: its position gives the next step's state,
    its digests match, and its events are the ones the ruling tells. None when fine."""
    info = json.loads(step.ruling_json or "{}")
    try:
        state = ruleset.load_position(info["position"])
    except (KeyError, ValueError, NotImplementedError) as exc:
        return f"step {step.number}: the ruling's position does not load ({exc})"
    state_json = canonical_json(ruleset.dump(state))
    if info.get("after") != digest(state_json):
        return f"step {step.number}: the ruling's position does not match its digest"
    if step.number > 0 and info.get("before") != digest(step.state_json):
        return f"step {step.number}: the state before the ruling does not match its digest"
    if next_state_json is not None and next_state_json != state_json:
        return f"step {step.number + 1}: state differs from the ruling's position"
    if step.number > 0:
        before = ruleset.load(json.loads(step.state_json))
        expected = ruling_events(ruleset, before, ruleset.load(json.loads(state_json)), seats,
                                 kind=info["kind"], reason=info["reason"], number=step.number)
        if canonical_json([e.to_json() for e in expected]) != step.events_json:
            return f"step {step.number}: the ruling's events differ from what it tells"
    if json.loads(step.rolls_json or "[]"):
        return f"step {step.number}: a ruling draws no dice, but rolls are stored"
    return None
