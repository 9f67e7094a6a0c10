"""Which language a seat reads: the one place that decides it, so that a per-player
setting can later take over here without touching the mail code.

The player's own choice (`SETTINGS language hu` by mail, `pbem gm seat-settings GAME SEAT
language=hu`: `pbem.mail.player_settings`), else the seat's entry in the game setting
`seat_language`, else the game's `language` (`pbem game new --lang hu`,
`pbem gm setting GAME language=hu`), else English.
"""

from __future__ import annotations

import json

from sqlalchemy.orm import object_session
from sqlmodel import Session, col, func, select

from pbem.core.i18n import Translator
from pbem.locale import SOURCE, normalise, translator
from pbem.service.game_settings import seat_languages
from pbem.service.games import settings_of
from pbem.store.models import Game, Seat


def language_of(game: Game | None, seat: str | None = None, *, own: bool = True) -> str:
    """The language code (`pbem.locale.LANGUAGES`) of `seat`'s mail in `game`; the game's
    language for `seat=None` (public reports, the archive). `own=False`: what the seat
    reads without its holder's own choice (the footer's "the game's")."""
    if game is None:
        return SOURCE
    chosen = _holders_choice(game, seat) if seat and own else ""
    if chosen:
        return chosen
    settings = settings_of(game)
    given = seat_languages(settings.get("seat_language")).get(seat or "") if seat else None
    return normalise(given) or normalise(settings.get("language")) or SOURCE


def _holders_choice(game: Game, seat: str) -> str:
    """The `language` in the seat holder's own settings ('' if none): read through the
    game's session, so a choice made in this transaction counts at once."""
    session = object_session(game)
    if session is None or game.id is None:
        return ""
    stored = session.execute(select(Seat.settings_json).where(
        Seat.game_id == game.id, Seat.seat == seat, Seat.active == True)).scalars().first()  # noqa: E712
    try:
        return normalise(json.loads(stored or "{}").get("language"))
    except (ValueError, AttributeError):
        return ""  # a damaged row must not stop the mail


def language_of_address(session: Session, address: str) -> str:
    """The language to answer an address in when no game is known (a mail with no order
    file): its seats' language if they all read one, else English."""
    rows = session.exec(select(Seat.seat, Game).join(Game, col(Seat.game_id) == Game.id).where(
        func.lower(Seat.email) == address.lower(), Seat.active == True))  # noqa: E712
    found = {language_of(game, seat) for seat, game in rows}
    return found.pop() if len(found) == 1 else SOURCE


def translator_of(game: Game | None, seat: str | None = None) -> Translator | None:
    """The translator of `seat`'s language (None: English as written), for the game's own
    texts and the platform's."""
    return translator(language_of(game, seat), game.ruleset if game is not None else None)
