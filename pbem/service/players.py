"""Each player's own settings at work (the rules are `pbem.mail.player_settings`): reading
and changing them (by mail with SETTINGS lines, or by the GM), the zone a player's
deadlines are shown in, and the reply address every mail to a player carries.

The mail itself (quiet hours, format, digests) is `pbem.service.outbox` and
`pbem.service.delivery`; this module sends nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from pbem.config import Settings
from pbem.core.engine import canonical_json
from pbem.core.i18n import Msg, _
from pbem.mail import player_settings as ps
from pbem.mail.tokens import TokenTooLong, make_token, reply_address
from pbem.mail.when import describe_deadline, zone_of
from pbem.service.game_settings import wants_view_json
from pbem.service.games import ServiceError, audit, seat_row, settings_of
from pbem.service.language import language_of
from pbem.service.limits import bare
from pbem.service.vault import holder_secret_of
from pbem.store.models import Game, Seat


def settings_of_seat(row: Seat | None) -> ps.PlayerSettings:
    if row is None:
        return ps.DEFAULT
    try:
        return ps.PlayerSettings.from_json(json.loads(row.settings_json or "{}"))
    except (ValueError, TypeError, AttributeError):
        return ps.DEFAULT  # a damaged row must not stop the mail


def game_zone(game: Game) -> str | None:
    """The game's zone: its `zone` setting, else the zone of its time-of-day deadline."""
    gs = settings_of(game)
    rule = gs.get("deadline") or {}
    zone = gs.get("zone") or (rule.get("tz") if isinstance(rule, dict) else None)
    return zone if zone_of(zone) is not None else None


def away_extends(game: Game) -> bool:
    """The game's policy for a player away at a deadline: move it (else the NMR ladder)."""
    return settings_of(game).get("away_policy", "nmr") == "extend"


def zone_for(game: Game, row: Seat | None) -> str:
    return ps.effective_zone(settings_of_seat(row), game_zone(game))


def deadline_text(game: Game, row: Seat | None, deadline: datetime | None,
                  now: datetime | None) -> Msg:
    """The deadline as this player reads it (zone, UTC, time left), or "none set"."""
    if deadline is None:
        return _("none set")
    return describe_deadline(deadline, zone_for(game, row), now)


def holder_at(session: Session, game: Game, seat: str, to: str) -> Seat | None:
    """The seat's current holder, if `to` is their registered address (a mail to anyone
    else about the seat must not carry the holder's reply token)."""
    row = seat_row(session, game, seat)
    return row if row is not None and bare(row.email) == bare(to) else None


def reply_to(session: Session, settings: Settings, game: Game, row: Seat, step: int) -> str:
    """The order address with a token for this seat holder and step (the plain address
    when the token does not fit a local part)."""
    token = make_token(holder_secret_of(session, row), game_id=game.id or 0, seat=row.seat,
                       holder=row.id or 0, step=step, generation=game.generation)
    try:
        return reply_address(settings.address, token)
    except (TokenTooLong, ValueError):
        return settings.address


def attachments_for(game: Game, row: Seat) -> tuple[bool, bool]:
    """(board picture, view as JSON) attached to this holder's reports: their own choice,
    else the game's (`view_json`), with the board attached when they take text only (no
    HTML part shows it)."""
    return _attachments(game, row.seat, settings_of_seat(row))


def _attachments(game: Game, seat: str, prefs: ps.PlayerSettings) -> tuple[bool, bool]:
    if prefs.attach is not None:
        return "board" in prefs.attach, "json" in prefs.attach
    return prefs.format == "text", wants_view_json(settings_of(game), seat)


def footer(game: Game, row: Seat, prefs: ps.PlayerSettings | None = None) -> list[Msg]:
    """The lines of every report's footer: the settings in force (`prefs`, default the
    holder's stored ones) and how to change them."""
    prefs = prefs or settings_of_seat(row)
    board, view = _attachments(game, row.seat, prefs)
    return ps.describe(prefs, zone=ps.effective_zone(prefs, game_zone(game)),
                       board_attached=board, json_attached=view,
                       language=prefs.language or language_of(game, row.seat, own=False))


@dataclass
class Changed:
    echo: list[Msg] = field(default_factory=list)  # one line per setting line
    problems: list[Msg] = field(default_factory=list)
    away: tuple[str, str] | None = None  # the away period, when it changed
    away_changed: bool = False


def change(session: Session, game: Game, row: Seat, lines: list[tuple[int | None, str]], *,
           now: datetime, actor: str, save: bool = True) -> Changed:
    """Apply setting lines ("zone Europe/Budapest", ...) to a seat holder's settings.

    Each line is applied on its own, so a bad one loses nothing of the others. Every
    change is audited; whether the away period changed is said (the caller tells the GM)."""
    current = before = settings_of_seat(row)
    out = Changed()
    echo, problems = out.echo, out.problems
    for number, text in lines:
        where = {"where": _("line {n}: ", n=number) if number is not None else ""}
        key, value = ps.split_line(text)
        if not key:  # a bare SETTINGS: what is in force
            foot = footer(game, row, current)
            echo += [_("{where}SETTINGS  -> your settings: {settings}", **where,
                       settings=foot[0]), _("  {settings}", settings=foot[1])]
            continue
        today = now.astimezone(zone_of(ps.effective_zone(current, game_zone(game)))).date()
        try:
            current, said = ps.apply(current, key, value, today=today)
        except ps.SettingError as e:
            problems.append(_("{where}SETTINGS {line}  -> REFUSED: {reason}", **where,
                              line=text.strip()[:60], reason=e.message))
            echo.append(problems[-1])
            continue
        echo.append(_("{where}SETTINGS {line}  -> OK: {said}", **where, line=text.strip()[:60],
                      said=said))
    if current != before and save:
        row.settings_json = canonical_json(current.to_json())
        session.add(row)
        audit(session, game, "seat-settings", now=now, actor=actor, seat=row.seat,
              settings=current.to_json())
    out.away, out.away_changed = current.away, current.away != before.away
    return out


def gm_change(session: Session, game: Game, seat: str, pairs: list[str], *,
              now: datetime) -> tuple[Seat, list[Msg]]:
    """`pbem gm seat-settings GAME SEAT key=value ...`: the GM sets a player's settings."""
    row = seat_row(session, game, seat)
    if row is None:
        raise ServiceError(f'game {game.name} has no seat "{seat}"')
    done = change(session, game, row, [(None, p) for p in pairs], now=now, actor="gm")
    if done.problems:
        raise ServiceError(done.problems[0].split("-> REFUSED: ", 1)[-1])
    return row, done.echo
