"""Pure rules of the players' settings: deadline wording, quiet hours, away, digest timing,
and reading SETTINGS lines."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from pbem.mail import player_settings as ps
from pbem.mail.when import describe_deadline, span, time_left

NOW = datetime(2026, 12, 2, 16, 0, tzinfo=UTC)  # a Wednesday, CET is UTC+1


def test_span_shows_the_two_largest_units_rounded_down() -> None:
    assert span(timedelta(days=2, hours=3, minutes=59)) == "2 days 3 hours"
    assert span(timedelta(hours=1, minutes=1)) == "1 hour 1 minute"
    assert span(timedelta(minutes=45, seconds=59)) == "45 minutes"
    assert span(timedelta(days=1, minutes=5)) == "1 day"
    assert span(timedelta(seconds=20)) == "less than a minute"


def test_time_left_says_when_the_deadline_has_passed() -> None:
    assert time_left(NOW + timedelta(days=2, hours=3), NOW) == "in 2 days 3 hours"
    assert time_left(NOW - timedelta(hours=2), NOW) == "passed 2 hours ago"


def test_a_deadline_in_the_players_zone_with_utc_and_time_left() -> None:
    deadline = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
    assert describe_deadline(deadline, "Europe/Budapest", NOW) == (
        "Fri 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, in 2 days 3 hours")
    assert describe_deadline(deadline, None, NOW) == "Fri 2026-12-04 19:00 UTC, in 2 days 3 hours"
    # Another day in UTC than in the zone: the UTC date is shown too.
    late = datetime(2026, 12, 4, 23, 30, tzinfo=UTC)
    assert describe_deadline(late, "Asia/Tokyo", None) == (
        "Sat 2026-12-05 08:30 JST (Asia/Tokyo) = Fri 2026-12-04 23:30 UTC")
    # Summer time is the zone's own.
    summer = datetime(2026, 7, 1, 18, 0, tzinfo=UTC)
    assert describe_deadline(summer, "Europe/Budapest", None).startswith("Wed 2026-07-01 20:00 CEST")


def test_quiet_hours_across_midnight_in_the_players_zone() -> None:
    quiet = ("22:00", "07:00")
    # 21:59 UTC is 22:59 in Budapest: quiet until 07:00 there, 06:00 UTC.
    assert ps.quiet_end(datetime(2026, 12, 2, 21, 59, tzinfo=UTC), "Europe/Budapest",
                        quiet) == datetime(2026, 12, 3, 6, 0, tzinfo=UTC)
    # 05:30 UTC is 06:30 there: still the same night.
    assert ps.quiet_end(datetime(2026, 12, 3, 5, 30, tzinfo=UTC), "Europe/Budapest",
                        quiet) == datetime(2026, 12, 3, 6, 0, tzinfo=UTC)
    assert ps.quiet_end(datetime(2026, 12, 3, 6, 0, tzinfo=UTC), "Europe/Budapest", quiet) is None
    assert ps.quiet_end(NOW, "Europe/Budapest", quiet) is None
    # A window within one day.
    assert ps.quiet_end(NOW, "UTC", ("13:00", "17:30")) == NOW.replace(hour=17, minute=30)
    assert ps.quiet_end(NOW, "UTC", None) is None


def test_release_time_holds_only_what_is_not_urgent() -> None:
    night = datetime(2026, 12, 2, 23, 0, tzinfo=UTC)
    assert ps.release_time(night, "UTC", ("22:00", "07:00"), urgent=True) == night
    assert ps.release_time(night, "UTC", ("22:00", "07:00"), urgent=False) == \
        datetime(2026, 12, 3, 7, 0, tzinfo=UTC)


def test_away_days_are_whole_days_in_the_players_zone() -> None:
    away = ("2026-12-24", "2026-12-26")
    start, end = ps.away_window("Europe/Budapest", away)
    assert start == datetime(2026, 12, 23, 23, 0, tzinfo=UTC)
    assert end == datetime(2026, 12, 26, 23, 0, tzinfo=UTC)
    assert ps.is_away(datetime(2026, 12, 26, 22, 59, tzinfo=UTC), "Europe/Budapest", away)
    assert not ps.is_away(datetime(2026, 12, 26, 23, 0, tzinfo=UTC), "Europe/Budapest", away)
    assert not ps.is_away(NOW, "Europe/Budapest", None)


def test_a_digest_is_due_a_day_after_the_last_mail_and_never_in_quiet_hours() -> None:
    held = NOW
    assert ps.digest_due(None, held, "UTC", None) == held
    assert ps.digest_due(NOW - timedelta(hours=3), held, "UTC", None) == NOW + timedelta(hours=21)
    assert ps.digest_due(NOW - timedelta(days=3), held, "UTC", None) == held
    # Due at 13:00 UTC next day; quiet 12:00-14:00 there: at 14:00.
    assert ps.digest_due(NOW - timedelta(hours=3), held, "UTC", ("12:00", "14:00")) == \
        datetime(2026, 12, 3, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize(("line", "key", "value"), [
    ("zone Europe/Budapest", "zone", "Europe/Budapest"),
    ("ZONE=Europe/Budapest", "zone", "Europe/Budapest"),
    ("quiet  22:00 - 07:00", "quiet", "22:00 - 07:00"),
])
def test_split_line(line: str, key: str, value: str) -> None:
    assert ps.split_line(line) == (key, value)


def test_apply_every_setting_and_round_trip() -> None:
    s = ps.DEFAULT
    for key, value, said in [
        ("zone", "Europe/Budapest", "time zone: Europe/Budapest"),
        ("format", "TEXT", "format: text only"),
        ("attach", "json, board", "attachments: board, json"),
        ("digest", "on", "digest: on (one mail a day unless you are awaited)"),
        ("quiet", "22.00-7:00", "quiet hours: 22:00-07:00"),
        ("away", "2026-12-24..2027-01-02", "away: 2026-12-24 to 2027-01-02 (inclusive)"),
    ]:
        s, line = ps.apply(s, key, value, today=date(2026, 12, 2))
        assert line == said
    assert s == ps.PlayerSettings("Europe/Budapest", "text", ("board", "json"), True,
                                  ("22:00", "07:00"), ("2026-12-24", "2027-01-02"))
    assert ps.PlayerSettings.from_json(s.to_json()) == s
    assert ps.DEFAULT.to_json() == {}
    s, _ = ps.apply(s, "attach", "none")
    assert s.attach == () and ps.PlayerSettings.from_json(s.to_json()).attach == ()
    s, _ = ps.apply(s, "away", "off")
    assert s.away is None


@pytest.mark.parametrize(("key", "value", "error"), [
    ("zone", "Mars/Olympus", "is not a time zone"),
    ("format", "pdf", "format is text, html or both"),
    ("attach", "map", "attach takes board, json, none or default"),
    ("digest", "sometimes", "digest is on or off"),
    ("quiet", "22:00", "quiet takes two times"),
    ("quiet", "25:00-07:00", "is not a time of day"),
    ("quiet", "07:00-07:00", "differ"),
    ("away", "2026-12-24", "away takes two dates"),
    ("away", "2026-12-24 2026-12-20", "is before"),
    ("away", "2026-11-01 2026-11-03", "already past"),
    ("away", "2026-12-01 2027-06-01", "at most"),
    ("away", "tomorrow friday", "is not a date"),
    ("colour", "blue", "unknown setting"),
])
def test_apply_refuses_with_one_clear_line(key: str, value: str, error: str) -> None:
    with pytest.raises(ps.SettingError, match=error) as info:
        ps.apply(ps.DEFAULT, key, value, today=date(2026, 12, 2))
    assert "\n" not in str(info.value)


def test_the_deadline_wording_and_the_settings_are_messages_in_the_readers_language() -> None:
    from pbem.core.i18n import render
    from pbem.locale import translator

    hu = translator("hu")
    deadline = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
    # Built of pieces, each with its plural form: no English word is left in Hungarian.
    assert render(describe_deadline(deadline, "Europe/Budapest", NOW - timedelta(hours=1)), hu) \
        == "P 2026-12-04 20:00 CET (Europe/Budapest) = 19:00 UTC, 2 nap 4 óra múlva"
    assert render(describe_deadline(deadline, "Asia/Tokyo", deadline + timedelta(minutes=1)),
                  hu) == "Szo 2026-12-05 04:00 JST (Asia/Tokyo) = P 2026-12-04 19:00 UTC, " \
                         "1 perc ezelőtt lejárt"
    assert render(span(timedelta(seconds=5)), hu) == "kevesebb mint egy perc"
    lines = [render(line, hu) for line in ps.describe(
        ps.DEFAULT, zone="Europe/Budapest", board_attached=True, json_attached=False)]
    assert lines[0] == ("időzóna: Europe/Budapest (a játéké); levél: szöveg és HTML; "
                        "mellékletek: táblakép (a játék alapbeállítása)")
    assert lines[1] == "összesítő: ki; csendes órák: ki; távollét: ki; nyelv: angol (a játéké)"
    _, said = ps.apply(ps.DEFAULT, "away", "2026-12-24 2027-01-02")
    assert render(said, hu) == "távollét: 2026-12-24 – 2027-01-02 (mindkét napot beleértve)"
    with pytest.raises(ps.SettingError) as refused:
        ps.apply(ps.DEFAULT, "digest", "maybe")
    assert str(refused.value) == 'digest is on or off, not "maybe"'
    assert render(refused.value.message, hu) == "a digest értéke on vagy off, nem „maybe”"


def test_the_language_setting_knows_the_languages_with_a_catalog() -> None:
    from pbem.locale import LANGUAGES

    assert tuple(ps.LANGUAGE_NAMES) == LANGUAGES
    for written, code in (("hu", "hu"), ("HU_hu", "hu"), ("magyar", "hu"), ("English", "en")):
        assert ps.apply(ps.DEFAULT, "language", written)[0].language == code
    assert ps.apply(ps.apply(ps.DEFAULT, "language", "hu")[0], "language", "default")[0] \
        == ps.DEFAULT
    with pytest.raises(ps.SettingError, match='language is one of en, hu or default, not "de"'):
        ps.apply(ps.DEFAULT, "language", "de")
    assert ps.PlayerSettings.from_json({"language": "xx"}).language is None
