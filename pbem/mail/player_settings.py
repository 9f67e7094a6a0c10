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
    language  en | hu | default            the language of your mail

Pure: parsing, the quiet-hours and away arithmetic and when a digest is due take the
moment they are about (`now`) as an argument; nothing here reads a clock or a database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pbem.core.i18n import Msg, _, join
from pbem.mail.when import UTC_NAMES, zone_of

FORMATS = ("both", "text", "html")
ATTACHMENTS = ("board", "json")
KEYS = ("zone", "format", "attach", "digest", "quiet", "away", "language")
DIGEST_EVERY = timedelta(days=1)
MAX_AWAY = timedelta(days=92)
EXAMPLES = ("SETTINGS zone Europe/Budapest", "SETTINGS format text",
            "SETTINGS attach board,json", "SETTINGS digest on", "SETTINGS quiet 22:00-07:00",
            "SETTINGS away 2026-12-24 2027-01-02")
LANGUAGE_EXAMPLE = "SETTINGS language hu"

_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_ON = ("on", "yes", "true", "1")
_OFF = ("off", "no", "false", "0", "none")


class SettingError(ValueError):
    """A setting line that cannot be used; the message (a `Msg`, `.message`) is one line
    for the player."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class PlayerSettings:
    zone: str | None = None  # None: the game's zone
    format: str = "both"
    attach: tuple[str, ...] | None = None  # None: the game's defaults
    digest: bool = False
    quiet: tuple[str, str] | None = None  # ("22:00", "07:00"), the player's zone
    away: tuple[str, str] | None = None  # ("2026-12-24", "2027-01-02"), inclusive
    language: str | None = None  # None: the game's (pbem.service.language)

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
                   away=pair(data.get("away")),
                   language=_language_code(data.get("language")) or None)


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
        raise SettingError(_('"{text}" is not a time of day; write e.g. 22:00', text=text[:20]))
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SettingError(_('"{text}" is not a date; write e.g. 2026-12-24',
                             text=text[:20])) from None


def _pair(value: str) -> list[str]:
    return [p for p in re.split(r"\s*(?:\.\.|\s|-(?=\d{1,2}[:.]\d)|\bto\b)\s*", value) if p]


def _zone(current: PlayerSettings, value: str, low: str, today: date | None
          ) -> tuple[PlayerSettings, Msg]:
    if low in ("default", "game", ""):
        return replace(current, zone=None), _("time zone: the game's")
    if zone_of(value) is None:
        raise SettingError(_('"{value}" is not a time zone; write a name such as '
                             "Europe/Budapest, America/New_York or UTC", value=value[:40]))
    return replace(current, zone=value), _("time zone: {zone}", zone=value)


def _format(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, Msg]:
    if low not in FORMATS:
        raise SettingError(_('format is text, html or both, not "{value}"', value=value[:20]))
    return replace(current, format=low), _("format: {format}", format=_FORMAT_WORDS[low])


def _attach(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, Msg]:
    if low == "default":
        return replace(current, attach=None), _("attachments: the game's defaults")
    words = [w for w in re.split(r"[\s,;+]+", low) if w]
    if words in (["none"], ["off"], ["no"]):
        return replace(current, attach=()), _("attachments: none")
    if not words or any(w not in ATTACHMENTS for w in words):
        raise SettingError(_('attach takes board, json, none or default, not "{value}"',
                             value=value[:30]))
    chosen = tuple(a for a in ATTACHMENTS if a in words)
    return replace(current, attach=chosen), _("attachments: {files}", files=", ".join(chosen))


def _digest(current: PlayerSettings, value: str, low: str, today: date | None
            ) -> tuple[PlayerSettings, Msg]:
    if low not in _ON + _OFF:
        raise SettingError(_('digest is on or off, not "{value}"', value=value[:20]))
    on = low in _ON
    return replace(current, digest=on), (
        _("digest: on (one mail a day unless you are awaited)") if on else _("digest: off"))


def _quiet(current: PlayerSettings, value: str, low: str, today: date | None
           ) -> tuple[PlayerSettings, Msg]:
    if low in _OFF:
        return replace(current, quiet=None), _("quiet hours: off")
    parts = _pair(value)
    if len(parts) != 2:
        raise SettingError(_('quiet takes two times, e.g. "quiet 22:00-07:00", or off; '
                             'not "{value}"', value=value[:30]))
    start, end = _clock(parts[0]), _clock(parts[1])
    if start == end:
        raise SettingError(_("quiet hours need a start and an end that differ"))
    return replace(current, quiet=(start, end)), _("quiet hours: {start}-{end}", start=start,
                                                   end=end)


def _away(current: PlayerSettings, value: str, low: str, today: date | None
          ) -> tuple[PlayerSettings, Msg]:
    if low in _OFF:
        return replace(current, away=None), _("away: off")
    parts = _pair(value)
    if len(parts) != 2:
        raise SettingError(_('away takes two dates, e.g. "away 2026-12-24 2027-01-02", or '
                             'off; not "{value}"', value=value[:30]))
    first, last = _day(parts[0]), _day(parts[1])
    if last < first:
        raise SettingError(_("away: {last} is before {first}", last=last, first=first))
    if last - first >= MAX_AWAY:
        raise SettingError(_("away is at most {n} days; tell the GM of a longer absence",
                             n=MAX_AWAY.days))
    if today is not None and last < today:
        raise SettingError(_("away: {last} is already past", last=last))
    return (replace(current, away=(first.isoformat(), last.isoformat())),
            _("away: {first} to {last} (inclusive)", first=first, last=last))


def _language(current: PlayerSettings, value: str, low: str, today: date | None
              ) -> tuple[PlayerSettings, Msg]:
    if low in ("default", "game", ""):
        return replace(current, language=None), _("language: the game's")
    code = _language_code(_LANGUAGE_ALIASES.get(low, low))
    if not code:
        raise SettingError(_('language is one of {languages} or default, not "{value}"',
                             languages=", ".join(LANGUAGE_NAMES), value=value[:20]))
    return replace(current, language=code), _("language: {language}",
                                               language=LANGUAGE_NAMES[code])


# What players may write for a language besides its code.
_LANGUAGE_ALIASES = {"english": "en", "angol": "en", "hungarian": "hu", "magyar": "hu"}
# The languages with a catalog (pbem.locale.LANGUAGES, which a test holds this to: this
# module reads no catalog), by name.
LANGUAGE_NAMES = {"en": _("English"), "hu": _("Hungarian")}


def _language_code(value: object) -> str:
    """"HU", "hu_HU" -> "hu"; '' when it is no language with a catalog."""
    code = str(value or "").strip().lower().replace("-", "_").split("_")[0]
    return code if code in LANGUAGE_NAMES else ""


_APPLY = {"zone": _zone, "timezone": _zone, "tz": _zone, "format": _format, "attach": _attach,
          "attachments": _attach, "digest": _digest, "quiet": _quiet, "away": _away,
          "language": _language, "lang": _language}


def apply(current: PlayerSettings, key: str, value: str, *,
          today: date | None = None) -> tuple[PlayerSettings, Msg]:
    """The settings with one changed, and a line saying what it is now. `today` (in the
    player's zone) refuses an away period that is already over. Raises SettingError."""
    change = _APPLY.get(key.lower())
    if change is None:
        raise SettingError(_('unknown setting "{key}"; settings: {keys}', key=key[:20],
                             keys=", ".join(KEYS)))
    return change(current, value.strip(), value.strip().lower(), today)


_FORMAT_WORDS = {"both": _("text and HTML"), "text": _("text only"), "html": _("HTML only")}
_ATTACH_WORDS = {"board": _("board picture"), "json": _("view as JSON")}


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
             json_attached: bool, language: str = "en") -> list[Msg]:
    """The footer lines of a report: the player's settings as they apply (`language`: the
    one they read), and how to change them."""
    attached = [_ATTACH_WORDS[name] for name, on in (("board", board_attached),
                                                     ("json", json_attached)) if on]
    files = join(attached) if attached else _("none")
    mail = {"format": _FORMAT_WORDS[settings.format], "files": files}
    off = _("off")
    return [
        join([_("time zone {zone}", zone=zone) if settings.zone else
              _("time zone {zone} (the game's)", zone=zone),
              _("mail: {format}; attachments: {files}", **mail) if settings.attach is not None
              else _("mail: {format}; attachments: {files} (the game's defaults)", **mail)],
             "; "),
        join([_("digest {digest}; quiet hours {quiet}; away {away}",
                digest=_("on") if settings.digest else off,
                quiet="-".join(settings.quiet) if settings.quiet else off,
                away=(_("{first} to {last}", first=settings.away[0], last=settings.away[1])
                      if settings.away else off)),
              _("language {language}", language=LANGUAGE_NAMES.get(language, language))
              if settings.language else
              _("language {language} (the game's)",
                language=LANGUAGE_NAMES.get(language, language))], "; "),
        _("To change them, send (or reply with) lines such as: {examples}.",
          examples="; ".join(EXAMPLES[:3])),
        _("Also: {examples} (or off); {language} (or default). A line SETTINGS alone shows "
          "them.", examples="; ".join(EXAMPLES[3:]), language=LANGUAGE_EXAMPLE),
    ]


def zone_is_utc(zone: str) -> bool:
    return zone in UTC_NAMES
