"""The owner's clock (bootstrap_app/signals/clock.py) on its own: timezone order, rewritten
archives, working hours across a summer-time switch, and the bounded reservoir."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from bootstrap_app.signals.clock import ActivityClock

OWNER = "maya@northwind.example"


def _weekday_mails(clock: ActivityClock, key: str, offset_minutes: int, start: datetime, days: int,
                   hours: tuple[int, ...] = (9, 12, 16)) -> None:
    """Mails from ``key`` at ``hours`` local time on each weekday, stamped with their offset."""
    tz = timezone(timedelta(minutes=offset_minutes))
    for day in range(days):
        local = start.astimezone(tz) + timedelta(days=day)
        if local.weekday() >= 5:
            continue
        for hour in hours:
            clock.stamp(key, local.replace(hour=hour, minute=0), offset_minutes)


def test_calendar_then_slack_then_mail_offset() -> None:
    clock = ActivityClock()
    _weekday_mails(clock, OWNER, 60, datetime(2026, 1, 5, tzinfo=UTC), 20)  # Berlin in winter: +01:00
    assert clock.resolve_timezone([OWNER], "America/Chicago", "")[:2] == ("America/Chicago", "calendar")
    assert clock.resolve_timezone([OWNER], "Europe/Berlin", "Europe/Berlin")[:2] == (
        "Europe/Berlin", "calendar, matching the Slack profile")
    assert clock.resolve_timezone([OWNER], "", "Europe/Berlin")[:2] == (
        "Europe/Berlin", "Slack profile, matching the Date headers of sent mail")
    assert clock.resolve_timezone([OWNER], "", "") == ("UTC+01:00", "Date headers of sent mail", "")


def test_slack_zone_that_mail_contradicts_gives_no_zone_and_says_why() -> None:
    clock = ActivityClock()
    _weekday_mails(clock, OWNER, -360, datetime(2026, 1, 5, tzinfo=UTC), 20)
    tz, source, note = clock.resolve_timezone([OWNER], "", "Asia/Tokyo")
    assert (tz, source) == ("", "")
    assert "UTC-06:00" in note and "Asia/Tokyo" in note


def test_archive_that_rewrote_every_date_header_says_nothing() -> None:
    clock = ActivityClock()
    start = datetime(2026, 1, 5, tzinfo=UTC)
    _weekday_mails(clock, OWNER, -480, start, 20)
    for k in range(9):  # nine other domains, every header in the owner's offset
        _weekday_mails(clock, f"peer{k}@org{k}.example", -480, start, 10, hours=(10,))
    offset, why = clock.mail_offset([OWNER])
    assert offset is None and "rewrote the Date headers" in why
    clock.note_offset("news@list.example", 60)  # other clocks exist after all (a newsletter)
    for k in range(9, 12):
        _weekday_mails(clock, f"peer{k}@org{k}.example", 60 * k, start, 10, hours=(10,))
    assert clock.mail_offset([OWNER]) == (-480, "Date headers of sent mail")


def test_working_hours_follow_each_mails_own_offset_across_summer_time() -> None:
    clock = ActivityClock()
    _weekday_mails(clock, OWNER, 60, datetime(2026, 3, 2, tzinfo=UTC), 25, hours=(9, 13, 17))   # +01:00
    _weekday_mails(clock, OWNER, 120, datetime(2026, 3, 30, tzinfo=UTC), 25, hours=(9, 13, 17))  # +02:00
    hours, samples = clock.working_hours([OWNER], "UTC+01:00")
    assert hours == ("09:00", "17:00") and samples > 12


def test_reservoir_is_bounded_but_the_newest_activity_is_kept() -> None:
    clock = ActivityClock()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(5000):
        clock.stamp(OWNER, start + timedelta(minutes=i))
    assert len(clock.stamps[OWNER]) == 4000 and clock.seen[OWNER] == 5000
    assert clock.last_activity([OWNER]) == start + timedelta(minutes=4999)
    assert clock.last_activity(["nobody@x.example"]) is None


def test_calendar_and_slack_disagreeing_is_one_answer_with_its_reason() -> None:
    """Two zones are one question (issue 30): the one the owner's sent mail fits wins, and the
    "where from" names the other; when the mail does not tell, the profile the person typed wins."""
    clock = ActivityClock()
    _weekday_mails(clock, OWNER, 60, datetime(2026, 1, 5, tzinfo=UTC), 20)  # Berlin in winter: +01:00
    tz, source, _ = clock.resolve_timezone([OWNER], "America/Chicago", "Europe/Berlin")
    assert tz == "Europe/Berlin" and "sent mail fit" in source and "America/Chicago" in source
    tz, source, _ = clock.resolve_timezone([OWNER], "Europe/Berlin", "America/Chicago")
    assert tz == "Europe/Berlin" and source.startswith("calendar") and "America/Chicago" in source
    silent = ActivityClock()  # no dated mail: nothing to weigh them by
    tz, source, _ = silent.resolve_timezone([OWNER], "America/Chicago", "Asia/Tokyo")
    assert tz == "Asia/Tokyo" and "as the person typed it" in source and "America/Chicago" in source
