"""Games: create, find, list and describe them; seats and passwords; the audit log.

Services take a session and an explicit `now`; they never read the clock themselves.
"""

from __future__ import annotations

import difflib
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.utils import getaddresses
from typing import Any

from sqlmodel import Session, col, func, select

from pbem.core.dice import commitment, orders_digest, step_seed
from pbem.core.engine import StepOutcome, canonical_json, digest, set_up
from pbem.core.events import Event
from pbem.core.i18n import _
from pbem.core.orders import Prompt
from pbem.core.ruleset import GameConfig, Ruleset, State
from pbem.rulesets import get as get_ruleset
from pbem.service import game_settings
from pbem.service.deadlines import DeadlineRule
from pbem.service.errors import ServiceError as ServiceError  # callers import it from here
from pbem.service.vault import master_seed_of, new_secret, reveal_seed, seal
from pbem.store import steptexts
from pbem.store.models import Audit, Game, Seat, Step, stored_id

# --- passwords -------------------------------------------------------------------------

# scrypt, N=2**14, r=8, p=1: about 40 ms and 16 MiB per check on the reference machine
# (PBKDF2-SHA256 120k rounds: 26 ms; 600k: 145 ms; argon2id 19 MiB t=2: 21 ms but another
# dependency). Passwords are 72 random bits, so the KDF guards a stolen database copy
# only as a second line; the per-seat limit on wrong passwords guards the mail path.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
_PBKDF2_ROUNDS = 120_000  # hashes made before scrypt still check


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    dk = hashlib.scrypt(password.encode(), salt=salt, dklen=32, maxmem=2**26, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${dk.hex()}"


def check_password(password: str, stored: str) -> bool:
    parts = stored.split("$")
    try:
        if parts[0] == "scrypt" and len(parts) == 6:
            n, r, p = (int(x) for x in parts[1:4])
            dk = hashlib.scrypt(password.encode(), salt=bytes.fromhex(parts[4]), n=n, r=r, p=p,
                                dklen=32, maxmem=2**27)
            return hmac.compare_digest(dk.hex(), parts[5])
        if parts[0] == "pbkdf2_sha256" and len(parts) == 4:
            dk = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(parts[2]),
                                     int(parts[1]))
            return hmac.compare_digest(dk.hex(), parts[3])
    except ValueError:
        return False
    return False


def new_password() -> str:
    return secrets.token_urlsafe(9)


# --- names and addresses at the door -----------------------------------------------------

GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def check_game_name(name: str) -> None:
    if not GAME_NAME.match(name):
        raise ServiceError(f'"{name[:70]}" is not a game name: use 1-63 lowercase letters, '
                           "digits and hyphens, starting with a letter or digit (e.g. kassa-1302)")


def clean_address(value: str, what: str = "address") -> str:
    """One plain e-mail address (`local@domain`, domain in lower case), or a one-line
    ServiceError: a display name, a list, CR/LF or anything else is refused."""
    text = value.strip()
    shown = text[:80].encode("unicode_escape").decode("ascii")
    problem = ServiceError(f'{what} "{shown}" is not one e-mail address (write name@example.org)')
    if not text or len(text) > 254 or any(ord(c) < 33 or ord(c) == 127 for c in value.strip(" ")):
        raise problem
    pairs = getaddresses([text])
    if len(pairs) != 1 or pairs[0][1] != text or text.count("@") != 1:
        raise problem
    try:
        parsed = Address(addr_spec=text)
    except (ValueError, IndexError, TypeError, HeaderParseError):
        raise problem from None
    if not parsed.username or not parsed.domain or parsed.addr_spec != text:
        raise problem
    return f"{parsed.username}@{parsed.domain.lower()}"


# --- lookups -----------------------------------------------------------------------------

def find_game(session: Session, name: str) -> Game:
    shown = name[:70].encode("unicode_escape").decode("ascii")
    if len(name) > 200:  # no lookup, no "did you mean" over a hostile name
        raise ServiceError(_('no game named "{name}..."', name=shown))
    game = session.exec(select(Game).where(Game.name == name)).first()
    if game is None:  # case-insensitive, and no LIKE: "%" is not a wildcard here
        game = session.exec(select(Game).where(func.lower(Game.name) == name.lower())).first()
    if game is None:
        names = list(session.exec(select(Game.name)))
        close = difflib.get_close_matches(name, names, n=1)
        if close:
            raise ServiceError(_('no game named "{name}"; did you mean "{close}"?', name=shown,
                                 close=close[0]))
        raise ServiceError(_('no game named "{name}"', name=shown))
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
    return list(session.exec(q.order_by(col(Seat.id))))


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
        raise ServiceError(_("game {game} has no step {n} (it is at step {at})",
                             game=game.name, n=number, at=game.step))
    return step


def live_steps(session: Session, game: Game) -> list[Step]:
    return list(session.exec(select(Step).where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                             .order_by(col(Step.number))))


def awaiting_of(step: Step) -> dict[str, Prompt]:
    return {s: Prompt.from_json(p) for s, p in json.loads(step.awaiting_json).items()}


def mark_due(game: Game, now: datetime) -> None:
    """Something changed that the tick must look at (orders in, a new step, a GM action):
    the next tick takes the game up and works out when it is due after that."""
    game.due_at = now


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
    own = list(ruleset.seats_of(state)) or seats
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
    check_game_name(name)
    if session.exec(select(Game).where(Game.name == name)).first() is not None:
        raise ServiceError(f'a game named "{name}" exists already')
    config = GameConfig(tuple(seats), variant or ruleset.default_variant(), options or {})
    problems = ruleset.check_config(config)
    if problems:
        raise ServiceError(problems[0])
    seats = {seat: clean_address(email, f"seat {seat}:") for seat, email in seats.items()}
    # "deadline" is the time-of-day rule from `--deadline`, not a setting a GM types.
    wrong = game_settings.problems({k: v for k, v in (settings or {}).items()
                                    if k != "deadline"}, seats)
    if wrong:
        raise ServiceError(wrong[0])
    master = master_seed_from(seed)
    if position is None:
        outcome = set_up(ruleset, config, master, verify=False)
    else:
        outcome = _position_start(ruleset, config, position, force=force)
    game = Game(name=name, ruleset=ruleset.id, variant=config.variant,
                config_json=canonical_json(config.to_json()), master_seed=seal(session, master),
                token_secret=new_secret(session), status="open", step=0, created_at=now,
                deadline_hours=deadline_hours, settings_json=canonical_json(settings or {}))
    session.add(game)
    session.flush()
    passwords = {}
    for seat, email in seats.items():
        passwords[seat] = new_password()
        session.add(Seat(game_id=stored_id(game), seat=seat, email=email,
                         password_hash=hash_password(passwords[seat]),
                         holder_secret=new_secret(session), joined_at=now))
    seed0 = step_seed(master, 0)
    setup_step = Step(game_id=stored_id(game), number=0, state_digest="", phase="set-up",
                      commitment=commitment(seed0), seed=seal(session, seed0), opened_at=now,
                      kind="setup")
    steptexts.link(setup_step, None)
    setup_step.state_json, setup_step.awaiting_json = "null", "{}"
    close_step(setup_step, outcome, now=now, session=session)
    if position is not None:
        setup_step.kind = "position"
        setup_step.ruling_json = canonical_json({
            "kind": "position", "reason": "the game starts from a position", "gm": "gm",
            "before": "", "after": digest(outcome.state_json), "position": position,
            "warnings": ruleset.position_warnings(outcome.state)})
    session.add(setup_step)
    open_next(session, game, ruleset, outcome, base=None, now=now)  # the first of a chain
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


def close_step(step: Step, outcome: StepOutcome, *, now: datetime, session: Session) -> None:
    step.closed_at = now
    step.orders_digest = outcome.orders_digest
    step.applied_json = canonical_json(outcome.applied)
    step.defaulted_json = canonical_json(outcome.defaulted)
    step.events_json = canonical_json([e.to_json() for e in outcome.events])
    step.rolls_json = canonical_json([r.to_json() for r in outcome.rolls])
    if outcome.seed_public:
        reveal_seed(session, step)
    step.seed_revealed = outcome.seed_public
    if outcome.result is not None:
        step.result_json = canonical_json(outcome.result.to_json())


def open_next(session: Session, game: Game, ruleset: Ruleset, outcome: StepOutcome, *,
              base: Step | None, now: datetime) -> Step:
    """Insert the row of the step that `outcome` opens (computed from `base`, the step that
    closed); finish the game if it is over."""
    number = game.step + 1
    seed = step_seed(master_seed_of(session, game), number)
    step = Step(game_id=stored_id(game), number=number, generation=game.generation,
                state_digest=digest(outcome.state_json),
                phase=ruleset.phase_label(outcome.state), round=ruleset.round_number(outcome.state),
                commitment=commitment(seed), seed=seal(session, seed), opened_at=now)
    steptexts.link(step, base)
    step.state_json = outcome.state_json
    step.awaiting_json = canonical_json({s: p.to_json() for s, p in outcome.awaiting.items()})
    if outcome.result is not None:
        step.result_json = canonical_json(outcome.result.to_json())
        step.closed_at = now
        game.status = "finished"
        game.finished_at = now
        game.deadline = None
        # Nothing is hidden any more: every seed of the game is published. Only the rows
        # still secret are read (a sealed seed is unsealed row by row), not the history.
        for old in session.exec(select(Step).where(Step.game_id == game.id,
                                                   Step.live == True,  # noqa: E712
                                                   Step.seed_revealed == False)):  # noqa: E712
            reveal_seed(session, old)
            session.add(old)
        reveal_seed(session, step)
    else:
        game.deadline = next_deadline(game, now)
    step.deadline = game.deadline
    game.step = number
    mark_due(game, now)
    session.add(step)
    session.add(game)
    session.flush()
    return step


def next_deadline(game: Game, now: datetime) -> datetime | None:
    """When a step opening now is due: the game's time-of-day rule, else its duration."""
    rule = settings_of(game).get("deadline")
    if rule:
        return DeadlineRule.from_json(rule).next(now)
    return now + timedelta(hours=game.deadline_hours) if game.deadline_hours else None


