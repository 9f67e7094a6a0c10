"""A player's own settings: time zone and how mail reaches them (docs/player-guide.md).

Set by the player with `SETTINGS <key> <value>` lines in a mail (authenticated like orders)
or by the GM (`pbem gm seat-settings GAME SEAT key=value`). Stored per seat holder as JSON
(`Seat.settings_json`): a new player in the seat starts from the defaults.

    zone    Europe/Budapest | default      deadlines are shown in this zone
    format  text | html | both             the parts of each mail
    attach  board,json | none | default    files attached to reports
    digest  on | off                       one mail a day unless you are awaited
    quiet   22:00-07:00 | off              hours (your zone) with no mail but your turn
    away    2026-12-24 2027-01-02 | off    days (your zone, inclusive) you are away

Pure: parsing, the quiet-hours and away arithmetic and when a digest is due take the
moment they are about (`now`) as an argument; nothing here reads a clock or a database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pbem.mail.when import UTC_NAMES, zone_of

FORMATS = ("both", "text", "html")
ATTACHMENTS = ("board", "json")
KEYS = ("zone", "format", "attach", "digest", "quiet", "away")
DIGEST_EVERY = timedelta(days=1)
MAX_AWAY = timedelta(days=92)
EXAMPLES = ("SETTINGS zone Europe/Budapest", "SETTINGS format text",
            "SETTINGS attach board,json", "SETTINGS digest on", "SETTINGS quiet 22:00-07:00",
            "SETTINGS away 2026-12-24 2027-01-02")

_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_ON = ("on", "yes", "true", "1")
_OFF = ("off", "no", "false", "0", "none")


class SettingError(ValueError):
    """A setting line that cannot be used; the message is one line for the player."""


@dataclass(frozen=True)
class PlayerSettings:
    zone: str | None = None  # None: the game's zone
    format: str = "both"
    attach: tuple[str, ...] | None = None  # None: the game's defaults
    digest: bool = False
    quiet: tuple[str, str] | None = None  # ("22:00", "07:00"), the player's zone
    away: tuple[str, str] | None = None  # ("2026-12-24", "2027-01-02"), inclusive

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in KEYS:
            value = getattr(self, key)
            if value != getattr(DEFAULT, key):
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerSettings:
        def pair(v: Any) -> tuple[str, str] | None:
            return (str(v[0]), str(v[1])) if isinstance(v, list | tuple) and len(v) == 2 else None

        attach = data.get("attach")
        return cls(zone=data.get("zone") or None, format=data.get("format", "both"),
                   attach=tuple(attach) if isinstance(attach, list | tuple) else None,
                   digest=bool(data.get("digest", False)), quiet=pair(data.get("quiet")),
                   away=pair(data.get("away")))


DEFAULT = PlayerSettings()


# --- reading a setting ---------------------------------------------------------------------

def split_line(text: str) -> tuple[str, str]:
    """"zone Europe/Budapest" or "zone=Europe/Budapest" -> ("zone", "Europe/Budapest")."""
    text = " ".join(text.split())
    key, sep, value = text.partition("=") if "=" in text.split(" ", 1)[0] else text.partition(" ")
    return key.strip().lower(), value.strip()


def _clock(text: str) -> str:
    m = _TIME.match(text)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise SettingError(f'"{text[:20]}" is not a time of day; write e.g. 22:00')
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SettingError(f'"{text[:20]}" is not a date; write e.g. 2026-12-24') from None


def _pair(value: str) -> list[str]:
    return [p for p in re.split(r"\s*(?:\.\.|\s|-(?=\d{1,2}[:.]\d)|\bto\b)\s*", value) if p]


def _zone(current: PlayerSettings, value: str, low: str, today: date | None
          ) -> tuple[PlayerSettings, str]:
    if low in ("default", "game", ""):
        return replace(current, zone=None), "time zone: the game's"
    if zone_of(value) is None:
        raise SettingError(f'"{value[:40]}" is not a time zone; write a name such as '
                           "Europe/Budapest, America/New_York or UTC")
    return replace(current, zone=value), f"time zone: {value}"


def _format(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, str]:
    if low not in FORMATS:
        raise SettingError(f'format is text, html or both, not "{value[:20]}"')
    return replace(current, format=low), f"format: {_FORMAT_WORDS[low]}"


def _attach(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, str]:
    if low == "default":
        return replace(current, attach=None), "attachments: the game's defaults"
    words = [w for w in re.split(r"[\s,;+]+", low) if w]
    if words in (["none"], ["off"], ["no"]):
        return replace(current, attach=()), "attachments: none"
    if not words or any(w not in ATTACHMENTS for w in words):
        raise SettingError(f'attach takes board, json, none or default, not "{value[:30]}"')
    chosen = tuple(a for a in ATTACHMENTS if a in words)
    return replace(current, attach=chosen), "attachments: " + ", ".join(chosen)


def _digest(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, str]:
    if low not in _ON + _OFF:
        raise SettingError(f'digest is on or off, not "{value[:20]}"')
    on = low in _ON
    return replace(current, digest=on), "digest: " + (
        "on (one mail a day unless you are awaited)" if on else "off")


def _quiet(current: PlayerSettings, value: str, low: str, today: date | None
           ) -> tuple[PlayerSettings, str]:
    if low in _OFF:
        return replace(current, quiet=None), "quiet hours: off"
    parts = _pair(value)
    if len(parts) != 2:
        raise SettingError(f'quiet takes two times, e.g. "quiet 22:00-07:00", or off; '
                           f'not "{value[:30]}"')
    start, end = _clock(parts[0]), _clock(parts[1])
    if start == end:
        raise SettingError("quiet hours need a start and an end that differ")
    return replace(current, quiet=(start, end)), f"quiet hours: {start}-{end}"


def _away(current: PlayerSettings, value: str, low: str, today: date | None
          ) -> tuple[PlayerSettings, str]:
    if low in _OFF:
        return replace(current, away=None), "away: off"
    parts = _pair(value)
    if len(parts) != 2:
        raise SettingError(f'away takes two dates, e.g. "away 2026-12-24 2027-01-02", or '
                           f'off; not "{value[:30]}"')
    first, last = _day(parts[0]), _day(parts[1])
    if last < first:
        raise SettingError(f"away: {last} is before {first}")
    if last - first >= MAX_AWAY:
        raise SettingError(f"away is at most {MAX_AWAY.days} days; tell the GM of a "
                           "longer absence")
    if today is not None and last < today:
        raise SettingError(f"away: {last} is already past")
    return (replace(current, away=(first.isoformat(), last.isoformat())),
            f"away: {first} to {last} (inclusive)")


_APPLY = {"zone": _zone, "timezone": _zone, "tz": _zone, "format": _format, "attach": _attach,
          "attachments": _attach, "digest": _digest, "quiet": _quiet, "away": _away}


def apply(current: PlayerSettings, key: str, value: str, *,
          today: date | None = None) -> tuple[PlayerSettings, str]:
    """The settings with one changed, and a line saying what it is now. `today` (in the
    player's zone) refuses an away period that is already over. Raises SettingError."""
    change = _APPLY.get(key.lower())
    if change is None:
        raise SettingError(f'unknown setting "{key[:20]}"; settings: {", ".join(KEYS)}')
    return change(current, value.strip(), value.strip().lower(), today)


_FORMAT_WORDS = {"both": "text and HTML", "text": "text only", "html": "HTML only"}


# --- the arithmetic ------------------------------------------------------------------------

def effective_zone(settings: PlayerSettings, game_zone: str | None) -> str:
    return settings.zone or game_zone or "UTC"


def quiet_end(now: datetime, zone: str, quiet: tuple[str, str] | None) -> datetime | None:
    """When the quiet hours that `now` falls in end (in `now`'s time zone), or None when
    `now` is not in quiet hours."""
    if quiet is None:
        return None
    tz = zone_of(zone) or ZoneInfo("UTC")
    start, end = (time.fromisoformat(t) for t in quiet)
    local = now.astimezone(tz)
    for day in (local.date() - timedelta(days=1), local.date()):
        begins = datetime.combine(day, start, tzinfo=tz)
        ends = datetime.combine(day + timedelta(days=1) if end <= start else day, end,
                                tzinfo=tz)
        if begins <= local < ends:
            return ends.astimezone(now.tzinfo)
    return None


def away_window(zone: str, away: tuple[str, str]) -> tuple[datetime, datetime]:
    """The away period as [start, end) in UTC: from the first day's midnight to the
    midnight after the last day, in the player's zone."""
    tz = zone_of(zone) or ZoneInfo("UTC")
    first, last = date.fromisoformat(away[0]), date.fromisoformat(away[1])
    utc = ZoneInfo("UTC")
    return (datetime.combine(first, time(0), tzinfo=tz).astimezone(utc),
            datetime.combine(last + timedelta(days=1), time(0), tzinfo=tz).astimezone(utc))


def is_away(now: datetime, zone: str, away: tuple[str, str] | None) -> bool:
    if away is None:
        return False
    start, end = away_window(zone, away)
    return start <= now < end


def digest_due(last_mail: datetime | None, first_held: datetime, zone: str,
               quiet: tuple[str, str] | None) -> datetime:
    """When the held reports go out as one digest: a day after the last mail the player
    got (at once if that was longer ago), and never in their quiet hours."""
    due = first_held if last_mail is None else max(first_held, last_mail + DIGEST_EVERY)
    return quiet_end(due, zone, quiet) or due


def release_time(now: datetime, zone: str, quiet: tuple[str, str] | None, *,
                 urgent: bool) -> datetime:
    """When a mail made now may be sent: at once if it is urgent (the player's own turn, a
    reminder, an answer to their mail), else after their quiet hours."""
    if urgent:
        return now
    return quiet_end(now, zone, quiet) or now


# --- how a report shows them ---------------------------------------------------------------

def describe(settings: PlayerSettings, *, zone: str, board_attached: bool,
             json_attached: bool) -> list[str]:
    """The footer lines of a report: the player's settings as they apply, and how to
    change them."""
    attached = [name for name, on in (("board picture", board_attached),
                                      ("view as JSON", json_attached)) if on]
    lines = [
        f"time zone {zone}" + ("" if settings.zone else " (the game's)")
        + f"; mail: {_FORMAT_WORDS[settings.format]}; attachments: "
        + (", ".join(attached) or "none")
        + ("" if settings.attach is not None else " (the game's defaults)"),
        "digest " + ("on" if settings.digest else "off")
        + "; quiet hours " + ("-".join(settings.quiet) if settings.quiet else "off")
        + "; away " + (f"{settings.away[0]} to {settings.away[1]}" if settings.away else "off"),
        "To change them, send (or reply with) lines such as: " + "; ".join(EXAMPLES[:3]) + ".",
        "Also: " + "; ".join(EXAMPLES[3:]) + " (or off). A line SETTINGS alone shows them.",
    ]
    return lines


def zone_is_utc(zone: str) -> bool:
    return zone in UTC_NAMES
