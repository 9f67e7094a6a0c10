"""Games: create, find, list and describe them; seats and passwords; the audit log.

Services take a session and an explicit `now`; they never read the clock themselves.
"""

from __future__ import annotations

import difflib
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, select

from pbem.core.dice import commitment, orders_digest, step_seed
from pbem.core.engine import StepOutcome, canonical_json, digest, set_up
from pbem.core.events import Event
from pbem.core.orders import Prompt
from pbem.core.ruleset import GameConfig, Ruleset, State
from pbem.rulesets import get as get_ruleset
from pbem.store.models import Audit, Game, Seat, Step


class ServiceError(Exception):
    """A user-facing refusal: the message is the one line the user sees."""


# --- passwords -------------------------------------------------------------------------

_PBKDF2_ROUNDS = 120_000


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    dk = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, _PBKDF2_ROUNDS)
    return f"pbkdf2_sha256${_PBKDF2_ROUNDS}${salt.hex()}${dk.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        _, rounds, salt, want = stored.split("$")
    except ValueError:
        return False
    dk = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(rounds))
    return hmac.compare_digest(dk.hex(), want)


def new_password() -> str:
    return secrets.token_urlsafe(9)


# --- lookups -----------------------------------------------------------------------------

def find_game(session: Session, name: str) -> Game:
    game = session.exec(select(Game).where(Game.name == name)).first()
    if game is None:
        game = session.exec(select(Game).where(Game.name.ilike(name))).first()  # type: ignore[attr-defined]
    if game is None:
        names = list(session.exec(select(Game.name)))
        close = difflib.get_close_matches(name, names, n=1)
        hint = f'; did you mean "{close[0]}"?' if close else ""
        raise ServiceError(f'no game named "{name}"{hint}')
    return game


def ruleset_of(game: Game) -> Ruleset:
    return get_ruleset(game.ruleset)


def config_of(game: Game) -> GameConfig:
    return GameConfig.from_json(json.loads(game.config_json))


def settings_of(game: Game) -> dict[str, Any]:
    return json.loads(game.settings_json or "{}")


def seats_of(session: Session, game: Game, *, active_only: bool = True) -> list[Seat]:
    q = select(Seat).where(Seat.game_id == game.id)
    if active_only:
        q = q.where(Seat.active == True)  # noqa: E712
    return list(session.exec(q.order_by(Seat.id)))


def seat_row(session: Session, game: Game, seat: str) -> Seat | None:
    for row in seats_of(session, game):
        if row.seat.lower() == seat.lower():
            return row
    return None


def live_step(session: Session, game: Game, number: int | None = None) -> Step:
    number = game.step if number is None else number
    step = session.exec(select(Step).where(Step.game_id == game.id, Step.number == number,
                                           Step.live == True)).first()  # noqa: E712
    if step is None:
        raise ServiceError(f"game {game.name} has no step {number} (it is at step {game.step})")
    return step


def live_steps(session: Session, game: Game) -> list[Step]:
    return list(session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                             .order_by(Step.number)))


def awaiting_of(step: Step) -> dict[str, Prompt]:
    return {s: Prompt.from_json(p) for s, p in json.loads(step.awaiting_json).items()}


def audit(session: Session, game: Game | None, action: str, *, now: datetime,
          actor: str = "gm", **detail: Any) -> None:
    session.add(Audit(game_id=game.id if game else None, at=now, actor=actor, action=action,
                      detail=canonical_json(detail)))


# --- positions -----------------------------------------------------------------------------

def read_position(ruleset: Ruleset, text: str, *, force: bool) -> tuple[State, list[str]]:
    """Load a position text: a one-line error naming the field, or the state and the
    invariants it breaks (refused unless `force`)."""
    try:
        state = ruleset.load_position(text)
    except NotImplementedError as exc:
        raise ServiceError(str(exc)) from None
    except ValueError as exc:
        raise ServiceError(str(exc).splitlines()[0] if str(exc) else "bad position") from None
    warnings = ruleset.position_warnings(state)
    if warnings and not force:
        more = f" (and {len(warnings) - 1} more)" if len(warnings) > 1 else ""
        raise ServiceError(f"position: {warnings[0]}{more}; confirm with --force")
    return state, warnings


def check_position_seats(ruleset: Ruleset, state: State, seats: list[str]) -> None:
    own = list(state.get("seats", seats)) if isinstance(state, dict) else seats
    if sorted(own) != sorted(seats):
        raise ServiceError(f"position: seats: the position has {', '.join(own)}; the game "
                           f"has {', '.join(seats)}")



# --- creation ----------------------------------------------------------------------------

@dataclass
class NewGame:
    game: Game
    passwords: dict[str, str]


def master_seed_from(seed: str | None) -> bytes:
    """A GM-given seed makes a reproducible game; otherwise 32 secret random bytes."""
    if seed is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"pbem-master:{seed}".encode()).digest()


def create_game(session: Session, *, ruleset_id: str, name: str, seats: dict[str, str],
                variant: str | None = None, seed: str | None = None,
                options: dict[str, Any] | None = None, deadline_hours: float | None = None,
                settings: dict[str, Any] | None = None, position: str | None = None,
                force: bool = False, now: datetime) -> NewGame:
    """A new game at step 1, from the rules' set-up or, with `position`, from a position
    file (a scenario, a game begun face to face): then step 0 records the position as
    the game's stated input."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except KeyError as e:
        raise ServiceError(str(e.args[0])) from None
    if not name or any(c.isspace() for c in name):
        raise ServiceError("a game name is one word, e.g. kassa-1302")
    if session.exec(select(Game).where(Game.name == name)).first() is not None:
        raise ServiceError(f'a game named "{name}" exists already')
    config = GameConfig(tuple(seats), variant or ruleset.default_variant(), options or {})
    problems = ruleset.check_config(config)
    if problems:
        raise ServiceError(problems[0])
    for seat, email in seats.items():
        if "@" not in email:
            raise ServiceError(f'seat {seat}: "{email}" is not an e-mail address')
    master = master_seed_from(seed)
    if position is None:
        outcome = set_up(ruleset, config, master)
    else:
        outcome = _position_start(ruleset, config, position, force=force)
    game = Game(name=name, ruleset=ruleset.id, variant=config.variant,
                config_json=canonical_json(config.to_json()), master_seed=master.hex(),
                token_secret=secrets.token_hex(16), status="open", step=0, created_at=now,
                deadline_hours=deadline_hours, settings_json=canonical_json(settings or {}))
    session.add(game)
    session.flush()
    passwords = {}
    for seat, email in seats.items():
        passwords[seat] = new_password()
        session.add(Seat(game_id=game.id, seat=seat, email=email,
                         password_hash=hash_password(passwords[seat]), joined_at=now))
    seed0 = step_seed(master, 0)
    setup_step = Step(game_id=game.id, number=0, state_json="null", state_digest="",
                      awaiting_json="{}", phase="set-up", commitment=commitment(seed0),
                      seed=seed0.hex(), opened_at=now, kind="setup")
    close_step(setup_step, outcome, now=now)
    if position is not None:
        setup_step.kind = "position"
        setup_step.ruling_json = canonical_json({
            "kind": "position", "reason": "the game starts from a position", "gm": "gm",
            "before": "", "after": digest(outcome.state_json), "position": position,
            "warnings": ruleset.position_warnings(outcome.state)})
    session.add(setup_step)
    open_next(session, game, ruleset, outcome, now=now)
    audit(session, game, "create", now=now, ruleset=ruleset.id, seats=seats,
          variant=config.variant, options=options or {})
    return NewGame(game, passwords)


def _position_start(ruleset: Ruleset, config: GameConfig, text: str, *,
                    force: bool) -> StepOutcome:
    state, _ = read_position(ruleset, text, force=force)
    check_position_seats(ruleset, state, list(config.seats))
    state_json = canonical_json(ruleset.dump(state))
    state = ruleset.load(json.loads(state_json))
    awaiting = ruleset.awaiting(state)
    if not awaiting:
        raise ServiceError("position: nobody is awaited in it (the game would be over)")
    events = [Event("position", "The game starts from a position set by the GM.", {})]
    return StepOutcome(state, state_json, events, [], {}, orders_digest({}), {}, [], awaiting,
                       ruleset.result(state))


def close_step(step: Step, outcome: StepOutcome, *, now: datetime) -> None:
    step.closed_at = now
    step.orders_digest = outcome.orders_digest
    step.file_hashes_json = canonical_json(outcome.file_hashes)
    step.applied_json = canonical_json(outcome.applied)
    step.defaulted_json = canonical_json(outcome.defaulted)
    step.events_json = canonical_json([e.to_json() for e in outcome.events])
    step.rolls_json = canonical_json([r.to_json() for r in outcome.rolls])
    step.seed_revealed = outcome.seed_public
    if outcome.result is not None:
        step.result_json = canonical_json(outcome.result.to_json())


def open_next(session: Session, game: Game, ruleset: Ruleset, outcome: StepOutcome, *,
              now: datetime) -> Step:
    """Insert the row of the step that `outcome` opens; finish the game if it is over."""
    number = game.step + 1
    seed = step_seed(bytes.fromhex(game.master_seed), number)
    step = Step(game_id=game.id, number=number, generation=game.generation,
                state_json=outcome.state_json, state_digest=digest(outcome.state_json),
                awaiting_json=canonical_json({s: p.to_json() for s, p in outcome.awaiting.items()}),
                phase=ruleset.phase_label(outcome.state), round=ruleset.round_number(outcome.state),
                commitment=commitment(seed), seed=seed.hex(), opened_at=now)
    if outcome.result is not None:
        step.result_json = canonical_json(outcome.result.to_json())
        step.closed_at = now
        game.status = "finished"
        game.finished_at = now
        game.deadline = None
        # Nothing is hidden any more: every seed of the game is published.
        for old in live_steps(session, game):
            old.seed_revealed = True
            session.add(old)
        step.seed_revealed = True
    else:
        game.deadline = next_deadline(game, now)
    step.deadline = game.deadline
    game.step = number
    session.add(step)
    session.add(game)
    session.flush()
    return step


def next_deadline(game: Game, now: datetime) -> datetime | None:
    """When a step opening now is due: the game's time-of-day rule, else its duration."""
    from pbem.service.deadlines import DeadlineRule

    rule = settings_of(game).get("deadline")
    if rule:
        return DeadlineRule.from_json(rule).next(now)
    return now + timedelta(hours=game.deadline_hours) if game.deadline_hours else None


def summary(session: Session, game: Game) -> dict[str, Any]:
    """What `pbem game show --json` prints (a contract: ruleset, seats, step, awaited,
    deadline, status)."""
    step = live_step(session, game)
    awaited = sorted(awaiting_of(step))
    from pbem.service.orders import orders_on_file  # local: orders imports games

    on_file = orders_on_file(session, step)
    return {
        "name": game.name, "ruleset": game.ruleset, "variant": game.variant,
        "status": game.status, "step": game.step, "phase": step.phase, "round": step.round,
        "seats": [{"seat": s.seat, "email": s.email, "bounces": s.bounces}
                  for s in seats_of(session, game)],
        "awaited": awaited,
        "orders_in": sorted(s for s in awaited if s in on_file),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "commitment": step.commitment,
        "result": json.loads(step.result_json) if step.result_json else None,
    }
