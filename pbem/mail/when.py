"""Deadlines as a player reads them: in the player's time zone, with the UTC time and how
long is left ("Fri 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, in 2 days 3 hours").

Pure: the moment to count from (`now`) is handed in, nothing reads a clock. The texts are
messages (`pbem.core.i18n`): English as strings, rendered in the reader's language in mail;
the duration is built of pieces with plural forms ("{n} day"/"{n} days").
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.core.i18n import Msg, _, join, n_

UTC_NAMES = ("UTC", "Etc/UTC", "GMT", "Z")
# datetime's %a is the C locale's English: the weekdays are messages (Monday first).
WEEKDAYS = (_("Mon"), _("Tue"), _("Wed"), _("Thu"), _("Fri"), _("Sat"), _("Sun"))


def zone_of(name: str | None) -> ZoneInfo | None:
    """The zone named, or None when the name is empty or unknown."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _units(days: int, hours: int, minutes: int) -> list[Msg]:
    return [n_("{n} day", "{n} days", days), n_("{n} hour", "{n} hours", hours),
            n_("{n} minute", "{n} minutes", minutes)]


def span(delta: timedelta) -> Msg:
    """A duration in its two largest units, rounded down to the minute: "2 days 3 hours",
    "5 hours 20 minutes", "45 minutes", "less than a minute"."""
    minutes = int(abs(delta).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    counts = [days, hours, minutes]
    units = list(zip(counts, _units(days, hours, minutes), strict=True))
    while units and units[0][0] == 0:
        units.pop(0)
    if not units:
        return _("less than a minute")
    return join([unit for n, unit in units[:2] if n], " ")


def time_left(deadline: datetime, now: datetime) -> Msg:
    """"in 2 days 3 hours", or "passed 1 hour 5 minutes ago"."""
    delta = deadline - now
    if delta >= timedelta(0):
        return _("in {span}", span=span(delta))
    return _("passed {span} ago", span=span(delta))


def _stamp(moment: datetime, rest: str) -> Msg:
    """The weekday (a message) and the rest of a time as it is."""
    return join([WEEKDAYS[moment.weekday()], rest], " ")


def local_time(moment: datetime, zone: str | None) -> Msg:
    """The moment in the zone, with weekday and the zone's abbreviation:
    "Fri 2026-12-04 20:00 CET (Europe/Budapest)"; UTC when the zone is unknown."""
    tz = zone_of(zone)
    if tz is None or zone in UTC_NAMES:
        utc = moment.astimezone(ZoneInfo("UTC"))
        return _stamp(utc, f"{utc:%Y-%m-%d %H:%M} UTC")
    local = moment.astimezone(tz)
    return _stamp(local, f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({zone})")


def describe_deadline(deadline: datetime, zone: str | None, now: datetime | None) -> Msg:
    """The deadline in the player's zone, its UTC time and how long is left (when `now` is
    known)."""
    utc = deadline.astimezone(ZoneInfo("UTC"))
    parts: list[str | Msg] = [local_time(deadline, zone)]
    if not parts[0].endswith(" UTC"):
        same_day = utc.date() == deadline.astimezone(zone_of(zone)).date()
        parts.append(f" = {utc:%H:%M} UTC" if same_day else
                     join([" =", _stamp(utc, f"{utc:%Y-%m-%d %H:%M} UTC")], " "))
    if now is not None:
        parts.append(join(["", time_left(deadline, now)], ", "))
    return join(parts, "")
