"""Deadline rules: a duration ("72h", "3d", "90m") or a fixed time of day in a time zone
("20:00 Europe/Budapest", optionally "+36h": at least that long after the step opens)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.service.errors import ServiceError

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*([hdm]?)$")
_AT = re.compile(r"^(\d{1,2}):(\d{2})(?:\s+([A-Za-z_/+\-0-9]+))?(?:\s+\+(\d+(?:\.\d+)?)h)?$")


@dataclass(frozen=True)
class DeadlineRule:
    hours: float | None = None  # a duration after the step opens
    at: str | None = None  # "HH:MM" local time
    tz: str = "UTC"
    min_hours: float = 12.0  # a time-of-day deadline is at least this long after opening

    def to_json(self) -> dict[str, object]:
        return {"hours": self.hours, "at": self.at, "tz": self.tz, "min_hours": self.min_hours}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> DeadlineRule:
        return cls(d.get("hours"), d.get("at"), str(d.get("tz", "UTC")),  # type: ignore[arg-type]
                   float(d.get("min_hours", 12.0)))  # type: ignore[arg-type]

    def next(self, now: datetime) -> datetime:
        if self.hours is not None:
            return now + timedelta(hours=self.hours)
        assert self.at is not None
        zone = ZoneInfo(self.tz)
        hh, mm = map(int, self.at.split(":"))
        local = now.astimezone(zone)
        earliest = now + timedelta(hours=self.min_hours)
        day = local.date()
        while True:
            candidate = datetime.combine(day, time(hh, mm), tzinfo=zone)
            if candidate >= earliest:
                return candidate.astimezone(now.tzinfo)
            day += timedelta(days=1)


def parse_deadline(text: str) -> DeadlineRule:
    t = " ".join(text.strip().split())
    m = _DURATION.match(t.lower())
    if m:
        value = float(m.group(1))
        unit = {"": 1.0, "h": 1.0, "d": 24.0, "m": 1 / 60}[m.group(2)]
        return DeadlineRule(hours=value * unit)
    if t.startswith("+"):
        raise ServiceError(f'"{text}" alone is not a deadline: "+{t[1:]}" is the least time a '
                           f'time-of-day deadline leaves, e.g. "20:00 Europe/Budapest {t}"; '
                           f"for a plain step length write {t[1:]}")
    m = _AT.match(t)
    if m:
        hh, mm = int(m.group(1)), int(m.group(2))
        if hh > 23 or mm > 59:
            raise ServiceError(f'"{text}": {hh:02d}:{mm:02d} is not a time of day')
        tz = m.group(3) or "UTC"
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            raise ServiceError(f'"{tz}" is not a time zone; write e.g. Europe/Budapest') from None
        return DeadlineRule(at=f"{hh:02d}:{mm:02d}", tz=tz,
                            min_hours=float(m.group(4)) if m.group(4) else 12.0)
    raise ServiceError(f'"{text}" is not a deadline; write e.g. 72h, 3d, 90m or '
                       '"20:00 Europe/Budapest" (optionally "+36h": at least that long)')
