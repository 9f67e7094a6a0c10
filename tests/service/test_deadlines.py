"""Deadline rules: durations and a time of day in a time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.service.deadlines import DeadlineRule, parse_deadline
from pbem.service.games import ServiceError


def test_durations() -> None:
    now = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    assert parse_deadline("72h").next(now) == now + timedelta(hours=72)
    assert parse_deadline("3d").next(now) == now + timedelta(days=3)
    assert parse_deadline("90m").next(now) == now + timedelta(minutes=90)


def test_time_of_day_in_a_zone_respects_the_minimum_and_summer_time() -> None:
    rule = parse_deadline("20:00 Europe/Budapest")
    assert rule == DeadlineRule(at="20:00", tz="Europe/Budapest", min_hours=12.0)
    # 10:00 UTC = 11:00 in Budapest (winter): 20:00 today is only 9 h away -> tomorrow.
    now = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    assert rule.next(now) == datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
    # Across the switch to summer time (29 March 2026), 20:00 local is 18:00 UTC.
    assert rule.next(datetime(2026, 3, 29, 1, 0, tzinfo=UTC)) == datetime(2026, 3, 29, 18, 0, tzinfo=UTC)
    assert parse_deadline("20:00 Europe/Budapest +36h").next(now) == datetime(2026, 3, 2, 19, 0, tzinfo=UTC) + timedelta(days=1)
    assert DeadlineRule.from_json(rule.to_json()) == rule


@pytest.mark.parametrize("text", ["soon", "25:00 UTC", "20:00 Mars/Olympus", "-3h"])
def test_bad_deadlines_say_what_would_be_right(text: str) -> None:
    with pytest.raises(ServiceError):
        parse_deadline(text)
