"""The report context: everything a report shows, built from per-seat views only.

Nothing here reads the raw state except through `ruleset.view(state, seat)`, and events
and rolls are filtered by their visibility, so hidden information cannot leak by accident.

A report is built from two step rows, the one it opens and the one before (what happened),
never from the whole history, so it costs the same at step 10 or 10,000. Seeds: the report
that closes a step prints its seed once nothing it decided is hidden; the final report
prints the master seed, from which every step seed derives (docs/dice.md). The complete
list is `pbem report GAME --seeds` (`seed_list`) and the archive.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem.core.dice import Roll
from pbem.core.engine import load_state
from pbem.core.envelope import render_envelope
from pbem.core.events import Event
from pbem.core.i18n import Msg, _, restored
from pbem.core.kit.log import OUTCOME
from pbem.core.orders import Prompt
from pbem.core.ruleset import Ruleset
from pbem.locale import SOURCE, translator
from pbem.mail.when import describe_deadline
from pbem.reports.svg import compact_svg
from pbem.service import players
from pbem.service.games import (
    ServiceError,
    awaiting_of,
    find_game,
    live_step,
    ruleset_of,
    seat_row,
    seats_of,
)
from pbem.service.language import language_of
from pbem.store.models import Game, Step


def closing_of(step: Step, seat: str | None, *, everything: bool = False,
               ruleset: Ruleset | None = None) -> dict[str, Any]:
    """What a closed step produced, as `seat` may see it (its phase as the game words it
    now, a message, when `ruleset` is given)."""
    events = [Event.from_json(e) for e in json.loads(step.events_json or "[]")]
    rolls = [Roll.from_json(r) for r in json.loads(step.rolls_json or "[]")]
    seen = [e for e in events if everything or e.visible(seat)]
    return {
        "number": step.number,
        "phase": phase_of(ruleset, step) if ruleset is not None else step.phase,
        "events": [e.text for e in seen if e.kind != OUTCOME],
        # What became of each line of the seat's own order file (its seat only).
        "outcomes": [dict(e.data) for e in seen if e.kind == OUTCOME],
        "rolls": [{**r.to_json(), "purpose": r.purpose} for r in rolls
                  if everything or r.visible(seat)],
        "file_hashes": json.loads(step.file_hashes_json or "{}"),
        "orders_digest": step.orders_digest,
        "defaulted": json.loads(step.defaulted_json or "[]"),
        "seed": step.seed if step.seed_revealed else None,
        "commitment": step.commitment,
    }


# Labels the service gives a step with no state of its own (step 0 before the rules' set-up).
STORED_LABELS = {"set-up": _("set-up")}


def phase_of(ruleset: Ruleset, step: Step, state: Any = None) -> str:
    """The step's phase label as the game words it (a message a report can translate);
    the stored English label when the state cannot be read."""
    if step.phase in STORED_LABELS and step.state_json == "null":
        return STORED_LABELS[step.phase]
    try:
        return ruleset.phase_label(state if state is not None
                                   else load_state(ruleset, step.state_json)) or step.phase
    except Exception:  # noqa: BLE001 - an old or damaged row: the stored label
        return step.phase


def result_of(step: Step) -> dict[str, Any] | None:
    """How the game ended, its reason a message when the game gave one."""
    if not step.result_json:
        return None
    result = json.loads(step.result_json)
    return {**result, "reason": restored(result.get("reason", ""), result.get("reason_msg"))}


PASSWORD_PLACEHOLDER = "<your password>"  # what a report's skeleton has for the password


def skeleton(game: Game, seat: str, step: int, prompt: Prompt | None) -> str:
    """The order file a report offers to edit; a message when a line of it is one (a
    comment the game words), so the report shows it in the reader's language."""
    lines = list(prompt.skeleton if prompt else ())
    if not any(isinstance(line, Msg) for line in lines):
        body = "".join(f"{line}\n" for line in lines)
        return render_envelope(game=game.name, seat=seat, password=PASSWORD_PLACEHOLDER,
                               turn=step, body=body or "# no orders are asked of you in this step\n")
    marks = {f"line{i}": line for i, line in enumerate(lines)}
    body = "".join(f"\x00{name}\x00\n" for name in marks)
    text = render_envelope(game=game.name, seat=seat, password=PASSWORD_PLACEHOLDER,
                           turn=step, body=body)
    pattern = text.replace("{", "{{").replace("}", "}}")
    pattern = re.sub(r"\x00(line\d+)\x00", r"{\1}", pattern)
    return Msg(pattern, None, None, **marks)  # no plural: every keyword is an argument


def report_context(session: Session, name: str, *, seat: str | None, step: int | None = None,
                   everything: bool = False, now: datetime | None = None,
                   lang: str | None = None) -> dict[str, Any]:
    """The context of the report that opens `step` (default: the current one) for `seat`,
    who reads `lang` (default: the seat's language, `language_of`).

    `seat=None` is the public report. `everything=True` (archive of a finished game only)
    shows every event and roll. The deadline is shown in the seat holder's time zone (the
    game's for the public report), with how long is left from `now` when it is given;
    a seat's report ends with the holder's settings and how to change them.
    """
    game = find_game(session, name)
    seats = {s.seat for s in seats_of(session, game, active_only=False)}
    current = live_step(session, game, step)
    previous = live_step(session, game, current.number - 1) if current.number > 0 else None
    holder = seat_row(session, game, seat) if seat else None
    return build_context(game, ruleset_of(game), seats, current, previous, seat=seat,
                         everything=everything, lang=lang or language_of(game, seat),
                         deadline_text=players.deadline_text(game, holder, current.deadline, now),
                         footer=players.footer(game, holder) if holder is not None else None)


def build_context(game: Game, ruleset: Ruleset, seats: Iterable[str], current: Step,
                  previous: Step | None, *, seat: str | None,
                  everything: bool = False, deadline_text: str | None = None,
                  footer: Sequence[str] | None = None, lang: str = SOURCE) -> dict[str, Any]:
    """The context from rows already loaded (the archive export walks the steps once), for
    a reader of `lang`. Its texts are messages, rendered in any language later; the board
    picture is drawn once, in `lang` (`render_report` renders the report in it)."""
    if seat is not None and seat not in set(seats):
        raise ServiceError(f'game {game.name} has no seat "{seat}"')
    if everything and game.status != "finished":
        raise ServiceError("hidden information is shown only after the game ends")
    state = load_state(ruleset, current.state_json)
    view = ruleset.view(state, seat)
    awaiting = awaiting_of(current)
    prompt = awaiting.get(seat) if seat else None
    return {
        "game": {"name": game.name, "ruleset": ruleset.id, "title": ruleset.title,
                 "variant": game.variant, "status": game.status},
        "seat": seat,
        "step": current.number,
        "phase": phase_of(ruleset, current, state),
        "round": current.round,
        "happened": closing_of(previous, seat, everything=everything, ruleset=ruleset)
        if previous else None,
        "view": view,
        "board_text": ruleset.board_text(view),
        "board_svg": compact_svg(ruleset.board_svg(view, translator(lang, ruleset.id))),
        "lang": lang,  # the reader's, whose language the picture is drawn in
        "awaited": sorted(awaiting),
        # the text as its message, so the report asks in the reader's language
        "prompt": {**prompt.to_json(), "text": prompt.text} if prompt else None,
        "skeleton": skeleton(game, seat, current.number, prompt) if seat and prompt else None,
        "deadline": current.deadline.isoformat(timespec="minutes") if current.deadline else None,
        # The deadline as the reader reads it: their zone, UTC, how long is left.
        "deadline_text": deadline_text or (describe_deadline(current.deadline, players.game_zone(game), None)
                                           if current.deadline else None),
        # The seat holder's own settings and how to change them (a seat's mail only).
        "player": footer,
        "commitment": current.commitment,
        # Every step seed derives from it: published once the game is over (docs/dice.md).
        "master_seed": game.master_seed if game.status == "finished" and current.result_json
        else None,
        "result": result_of(current),
    }


def seed_list(session: Session, name: str) -> list[dict[str, Any]]:
    """Every live step's commitment, and its seed once revealed (`pbem report --seeds`):
    the small columns only."""
    game = find_game(session, name)
    rows = session.exec(select(Step.number, Step.commitment, Step.seed, Step.seed_revealed)
                        .where(Step.game_id == game.id, Step.live == True)  # noqa: E712
                        .order_by(col(Step.number)))
    return [{"step": n, "commitment": c, "seed": seed if revealed else None}
            for n, c, seed, revealed in rows]
