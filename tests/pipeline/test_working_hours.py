"""Working hours only from enough evidence per weekday, named by their sources (issue 20)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bootstrap_app.signals.clock import ActivityClock

ME = "me@acme.example"
MONDAY = datetime(2026, 3, 2, tzinfo=UTC)


def _active(clock: ActivityClock, weeks: int, days: range, hours: tuple[int, ...], kind: str = "sent mails") -> None:
    for w in range(weeks):
        for d in days:
            for h in hours:
                clock.stamp(ME, MONDAY + timedelta(weeks=w, days=d, hours=h), 0, kind=kind)


def test_weekday_mail_is_monday_to_friday_and_says_how_much() -> None:
    clock = ActivityClock()
    _active(clock, 6, range(5), (9, 11, 14, 17))
    clock.stamp(ME, MONDAY + timedelta(days=5, hours=10), 0)  # one stray Saturday mail names no Saturday
    hours = clock.hours([ME], "UTC")
    assert hours is not None and hours.window == ("09:00", "17:00") and hours.days_text == "Monday to Friday"
    assert hours.evidence == ("from 121 sent mails; each day named has at least 24 of them, "
                              "on 6 or more different dates")


def test_weekend_chat_is_named_with_its_source() -> None:
    clock = ActivityClock()
    _active(clock, 5, range(7), (10, 13, 16), kind="chat messages")
    _active(clock, 5, range(5), (11,))
    hours = clock.hours([ME], "UTC")
    assert hours is not None and hours.days_text == "every day"
    assert hours.evidence.startswith("from 105 chat messages and 25 sent mails;")
    clock = ActivityClock()
    _active(clock, 4, (0, 1, 5, 6), (10, 15), kind="chat messages")
    hours = clock.hours([ME], "UTC")
    assert hours is not None and hours.days_text == "Monday, Tuesday, Saturday and Sunday"


def test_activity_at_every_hour_or_on_too_few_dates_gives_no_hours() -> None:
    clock = ActivityClock()
    _active(clock, 4, range(7), tuple(range(0, 24, 2)))  # seen at every hour: no working day
    assert clock.hours([ME], "UTC") is None and "no working day shows" in clock.no_hours
    clock = ActivityClock()
    _active(clock, 2, range(7), (9, 10, 11, 12, 13, 14))  # plenty of messages, but two weeks only
    assert clock.hours([ME], "UTC") is None and "3 or more different dates" in clock.no_hours


def test_a_night_owls_window_wraps_midnight() -> None:
    clock = ActivityClock()
    _active(clock, 5, range(5), (22, 23, 0, 1))
    hours = clock.hours([ME], "UTC")
    assert hours is not None and hours.window == ("22:00", "01:00")
