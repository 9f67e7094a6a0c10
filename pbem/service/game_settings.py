"""A game's settings (`pbem game new --setting KEY=VALUE`, `pbem gm setting`): the names, the
defaults and what a value may be. Stored in `Game.settings_json` next to the tick's own
bookkeeping (misses, extensions used, a held step), which is not a setting.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.locale import LANGUAGES, SOURCE
from pbem.mail.when import zone_of

DEFAULTS: dict[str, Any] = {
    "extensions": 1,  # automatic extensions per seat per game
    "extension_hours": 24.0,
    "civil_disorder_after": 3,  # steps missed in a row
    "early": True,  # process once every awaited seat has orders
    "hold": True,  # hold the step when most seats miss a deadline
    # Days a sent mail keeps its body; None: until the finished game's archive is exported.
    "mail_retention_days": None,
    # Attach the seat's whole view as JSON to its reports: true (every seat), false, or a
    # comma-separated list of seats.
    "view_json": False,
    # The players' time zone unless they set their own (None: the zone of a time-of-day
    # deadline, else UTC).
    "zone": None,
    # A player away (their `away` setting) when a step awaiting them reaches its deadline:
    # "nmr" (their standing orders and the NMR ladder cover it) or "extend" (the deadline
    # moves to `extension_hours` after their return, once per step).
    "away_policy": "nmr",
    # The language of the players' mail (reports, confirmations, notices): en or hu.
    "language": SOURCE,
    # Seats that read another language than the game's: "north=hu, south=en".
    "seat_language": "",
}
_NUMBERS = {"extensions": 0, "extension_hours": 0, "civil_disorder_after": 1,
            "mail_retention_days": 0}  # key -> smallest value
_FLAGS = ("early", "hold")


def problems(values: dict[str, Any], seats: Iterable[str]) -> list[str]:
    """What is wrong with these settings, one line each (empty: all fine)."""
    out = []
    seat_ids = set(seats)
    for key, value in values.items():
        if key not in DEFAULTS:
            out.append(f"unknown setting {key!r}; settings: {', '.join(DEFAULTS)}")
        elif key in _NUMBERS:
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or value < _NUMBERS[key]:
                if not (key == "mail_retention_days" and value is None):
                    out.append(f"{key} is a number of at least {_NUMBERS[key]}, not {value!r}")
        elif key in _FLAGS and not isinstance(value, bool):
            out.append(f"{key} is true or false, not {value!r}")
        elif key == "zone" and value is not None and not _is_zone(value):
            out.append(f"zone is a time zone such as Europe/Budapest, not {value!r}")
        elif key == "away_policy" and value not in ("nmr", "extend"):
            out.append(f"away_policy is nmr or extend, not {value!r}")
        elif key == "view_json" and not isinstance(value, bool):
            unknown = sorted(set(_seat_list(value)) - seat_ids)
            if unknown:
                out.append(f"view_json is true, false or seats ({', '.join(sorted(seat_ids))}); "
                           f"no seat {', '.join(unknown)}")
        elif key == "language" and value not in LANGUAGES:
            out.append(f"language is one of {', '.join(LANGUAGES)}, not {value!r}")
        elif key == "seat_language":
            out += _seat_language_problems(value, seat_ids)
    return out


def _is_zone(value: Any) -> bool:
    return isinstance(value, str) and zone_of(value) is not None


def _seat_language_problems(value: Any, seat_ids: set[str]) -> list[str]:
    pairs = _seat_list(value)
    wrong = [p for p in pairs if "=" not in p]
    if wrong:
        return [f'seat_language is "SEAT=LANG, ...", not {wrong[0]!r}']
    table = seat_languages(value)
    return ([f"seat_language: no seat {s} (seats: {', '.join(sorted(seat_ids))})"
             for s in sorted(set(table) - seat_ids)]
            + [f"seat_language: {s}={lang}: the languages are {', '.join(LANGUAGES)}"
               for s, lang in sorted(table.items()) if lang not in LANGUAGES])


def seat_languages(value: Any) -> dict[str, str]:
    """The `seat_language` setting as {seat: language}."""
    return {s.strip(): lang.strip().lower()
            for s, _, lang in (p.partition("=") for p in _seat_list(value or ""))}


def _seat_list(value: Any) -> list[str]:
    return [s.strip() for s in str(value).split(",") if s.strip()]


def wants_view_json(settings: dict[str, Any], seat: str) -> bool:
    """Does this seat get its view as a JSON attachment (opt-in: it is as big as the rest of
    the mail)?"""
    value = settings.get("view_json", DEFAULTS["view_json"])
    return value if isinstance(value, bool) else seat in _seat_list(value)
