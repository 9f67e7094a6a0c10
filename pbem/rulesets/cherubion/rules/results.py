"""What became of one order line when it was reached: a (status, why) pair with the kit's
outcome statuses (carried out, not needed, changed, refused), for the line's outcome.

Not here: logging the outcome (phases.py does, once per line).
"""

from __future__ import annotations

from pbem.core.i18n import _
from pbem.core.kit import CHANGED, DONE, NOT_NEEDED, REFUSED

Result = tuple[str, str]


def done(why: str = "") -> Result:
    return DONE, why


def changed(why: str) -> Result:
    return CHANGED, why


def refused(why: str) -> Result:
    return REFUSED, why


def not_needed(why: str) -> Result:
    return NOT_NEEDED, why


LEFT_THE_GAME = _("your turn ended: you left the game")
# why a game ended (the state keeps the English text; the ruleset's result reads them back)


LAST_PLAYER = _("last player standing")
ALL_FELL = _("all remaining players fell at once: a draw")
LAST_TEAM = _("last team standing (joined teams count as one)")
ROUND_LIMIT = _("round limit reached; score")
END_REASONS = {str(m): m for m in (LAST_PLAYER, ALL_FELL, LAST_TEAM, ROUND_LIMIT)}
