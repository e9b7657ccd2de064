"""The demo calendar is a Google-style .ics that icalendar parses and recurring-ical-events expands."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events

from bootstrap_app.demo import DEMO_ANCHOR, PERSONA

BERLIN = ZoneInfo("Europe/Berlin")
WINDOW = (DEMO_ANCHOR.date() - timedelta(days=90), DEMO_ANCHOR.date())


@pytest.fixture(scope="module")
def cal(where: dict[str, Path]) -> icalendar.Calendar:
    assert where["calendar"].name == f"{PERSONA['work_email']}.ics"
    return icalendar.Calendar.from_ical(where["calendar"].read_bytes())


def _expanded(cal: icalendar.Calendar, start: date, end: date) -> list[Any]:
    return list(recurring_ical_events.of(cal).between(start, end))


def _emails(values: Any) -> set[str]:
    if values is None:
        return set()
    items = values if isinstance(values, list) else [values]
    return {str(v).lower().removeprefix("mailto:") for v in items}


def test_google_calendar_headers(cal: icalendar.Calendar, where: dict[str, Path]) -> None:
    assert str(cal["X-WR-CALNAME"]) == PERSONA["work_email"]
    assert str(cal["X-WR-TIMEZONE"]) == PERSONA["timezone"]
    assert not cal.walk("VTIMEZONE"), "Google Takeout writes no VTIMEZONE"
    assert b"TZID=Europe/Berlin" in where["calendar"].read_bytes()


def test_standup_expands_to_five_a_week(cal: icalendar.Calendar) -> None:
    standups = [e for e in _expanded(cal, *WINDOW) if str(e["SUMMARY"]) == "Platform standup"]
    weeks = (WINDOW[1] - WINDOW[0]).days / 7
    assert 4.5 <= len(standups) / weeks <= 5.1
    monday = next(d for d in (WINDOW[0] + timedelta(days=i) for i in range(7, 14)) if d.weekday() == 0)
    week = [e for e in _expanded(cal, monday, monday + timedelta(days=7)) if str(e["SUMMARY"]) == "Platform standup"]
    assert len(week) == 5


@pytest.mark.parametrize("ritual", PERSONA["rituals"], ids=lambda r: r["summary"])
def test_rituals_keep_their_local_time_across_the_window(cal: icalendar.Calendar, ritual: dict) -> None:
    occurrences = [e for e in _expanded(cal, *WINDOW) if str(e["SUMMARY"]) == ritual["summary"]]
    assert occurrences
    usual = time.fromisoformat(ritual["time"])
    at_usual = [e for e in occurrences if e["DTSTART"].dt.astimezone(BERLIN).time() == usual]
    assert len(at_usual) >= len(occurrences) - 1, "at most one moved instance"
    for e in occurrences:
        assert (e["DTEND"].dt - e["DTSTART"].dt) == timedelta(minutes=ritual["minutes"])


def test_ritual_people(cal: icalendar.Calendar) -> None:
    series = {str(e["SUMMARY"]): e for e in cal.walk("VEVENT") if e.get("RRULE")}
    assert set(series) == {r["summary"] for r in PERSONA["rituals"]}
    maya, daniel = PERSONA["work_email"], PERSONA["manager"]["email"]
    team = {maya, daniel, *(c["email"] for c in PERSONA["collaborators"])}
    assert _emails(series["Platform standup"].get("ATTENDEE")) == team
    one_on_one = series["1:1 Maya / Daniel"]
    assert _emails(one_on_one.get("ORGANIZER")) == {daniel}
    assert _emails(one_on_one.get("ATTENDEE")) == {maya, daniel}
    assert maya in _emails(series["Sprint planning"].get("ATTENDEE"))


def test_sprint_planning_is_biweekly(cal: icalendar.Calendar) -> None:
    starts = sorted(e["DTSTART"].dt for e in _expanded(cal, *WINDOW) if str(e["SUMMARY"]) == "Sprint planning")
    assert len(starts) >= 5
    assert {b - a for a, b in pairwise(starts)} == {timedelta(days=14)}


def test_one_standup_is_moved(cal: icalendar.Calendar) -> None:
    overrides = [e for e in cal.walk("VEVENT") if e.get("RECURRENCE-ID")]
    assert len(overrides) == 1
    moved_from = overrides[0]["RECURRENCE-ID"].dt
    day = [e for e in _expanded(cal, moved_from.date(), moved_from.date() + timedelta(days=1))
           if str(e["SUMMARY"]) == "Platform standup"]
    assert len(day) == 1 and day[0]["DTSTART"].dt.astimezone(BERLIN).time() != moved_from.time()


def test_all_day_declined_and_one_off_events(cal: icalendar.Calendar) -> None:
    events = list(cal.walk("VEVENT"))
    all_day = [e for e in events if not isinstance(e["DTSTART"].dt, datetime)]
    assert len(all_day) >= 2
    declined = [e for e in events for a in (e.get("ATTENDEE") or [])
                if isinstance(e.get("ATTENDEE"), list) and str(a).lower().endswith(PERSONA["work_email"])
                and a.params.get("PARTSTAT") == "DECLINED"]
    assert len(declined) == 1
    one_offs = [e for e in events if not e.get("RRULE") and not e.get("RECURRENCE-ID")
                and isinstance(e["DTSTART"].dt, datetime)]
    assert len(one_offs) >= 10
    assert Counter(str(e["DTSTART"].dt.tzinfo) for e in one_offs) == Counter({"UTC": len(one_offs)})
