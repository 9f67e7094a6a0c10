"""Deadlines as a player reads them: in the player's time zone, with the UTC time and how
long is left ("Fri 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, in 2 days 3 hours").

Pure: the moment to count from (`now`) is handed in, nothing reads a clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC_NAMES = ("UTC", "Etc/UTC", "GMT", "Z")


def zone_of(name: str | None) -> ZoneInfo | None:
    """The zone named, or None when the name is empty or unknown."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def span(delta: timedelta) -> str:
    """A duration in its two largest units, rounded down to the minute: "2 days 3 hours",
    "5 hours 20 minutes", "45 minutes", "less than a minute"."""
    minutes = int(abs(delta).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    units = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    while units and units[0][0] == 0:
        units.pop(0)
    if not units:
        return "less than a minute"
    shown = [_plural(n, w) for n, w in units[:2] if n]
    return " ".join(shown)


def time_left(deadline: datetime, now: datetime) -> str:
    """"in 2 days 3 hours", or "passed 1 hour 5 minutes ago"."""
    delta = deadline - now
    if delta >= timedelta(0):
        return f"in {span(delta)}"
    return f"passed {span(delta)} ago"


def local_time(moment: datetime, zone: str | None) -> str:
    """The moment in the zone, with weekday and the zone's abbreviation:
    "Fri 2026-12-04 20:00 CET (Europe/Budapest)"; UTC when the zone is unknown."""
    tz = zone_of(zone)
    if tz is None or zone in UTC_NAMES:
        return f"{moment.astimezone(ZoneInfo('UTC')):%a %Y-%m-%d %H:%M} UTC"
    local = moment.astimezone(tz)
    return f"{local:%a %Y-%m-%d %H:%M} {local.tzname()} ({zone})"


def describe_deadline(deadline: datetime, zone: str | None, now: datetime | None) -> str:
    """The deadline in the player's zone, its UTC time and how long is left (when `now` is
    known)."""
    utc = deadline.astimezone(ZoneInfo("UTC"))
    text = local_time(deadline, zone)
    if not text.endswith(" UTC"):
        same_day = utc.date() == deadline.astimezone(zone_of(zone)).date()  # type: ignore[arg-type]
        text += f" = {utc:%H:%M} UTC" if same_day else f" = {utc:%a %Y-%m-%d %H:%M} UTC"
    if now is not None:
        text += f", {time_left(deadline, now)}"
    return text
