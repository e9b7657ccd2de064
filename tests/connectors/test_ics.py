"""Calendars: recurrence in a bounded window, timezones, people, owner, and broken files."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import Event
from connectors.base import ReadContext
from connectors.local.ics import IcsSource, read_calendar
from connectors.registry import detect
from tests.conftest import realdata_file

BERLIN = ZoneInfo("Europe/Berlin")


def _calendar(path: Path, *, calname: str = "Work", tz: str = "Europe/Berlin") -> Path:
    base = (datetime.now(UTC) - timedelta(days=60)).replace(hour=0, minute=0, second=0, microsecond=0)
    day = base.date()
    cal = icalendar.Calendar()
    cal.add("prodid", "-//memseed tests//")
    cal.add("version", "2.0")
    cal.add("X-WR-CALNAME", calname)
    cal.add("X-WR-TIMEZONE", tz)
    weekly = icalendar.Event()
    weekly.add("uid", "standup@example.com")
    weekly.add("summary", "Ledger standup")
    weekly.add("dtstart", datetime(day.year, day.month, day.day, 9, 30, tzinfo=BERLIN))
    weekly.add("dtend", datetime(day.year, day.month, day.day, 9, 45, tzinfo=BERLIN))
    weekly.add("rrule", {"freq": "weekly", "count": 6})
    weekly.add("exdate", datetime(day.year, day.month, day.day, 9, 30, tzinfo=BERLIN) + timedelta(days=7))
    org = icalendar.vCalAddress("mailto:maya@example.com")
    org.params["cn"] = icalendar.vText("Maya Okafor")
    weekly.add("organizer", org)
    for who, name in (("jon@example.com", "Jon Reyes"), ("priya@example.com", "Priya N")):
        att = icalendar.vCalAddress(f"mailto:{who}")
        att.params["cn"] = icalendar.vText(name)
        weekly.add("attendee", att, encode=False)
    cal.add_component(weekly)
    moved = icalendar.Event()  # the third occurrence moved one hour later
    moved.add("uid", "standup@example.com")
    moved.add("recurrence-id", datetime(day.year, day.month, day.day, 9, 30, tzinfo=BERLIN) + timedelta(days=14))
    moved.add("summary", "Ledger standup (moved)")
    moved.add("dtstart", datetime(day.year, day.month, day.day, 10, 30, tzinfo=BERLIN) + timedelta(days=14))
    moved.add("dtend", datetime(day.year, day.month, day.day, 10, 45, tzinfo=BERLIN) + timedelta(days=14))
    cal.add_component(moved)
    allday = icalendar.Event()
    allday.add("uid", "offsite@example.com")
    allday.add("summary", "Team offsite")
    allday.add("dtstart", day + timedelta(days=3))
    allday.add("dtend", day + timedelta(days=4))
    cal.add_component(allday)
    floating = icalendar.Event()
    floating.add("uid", "dentist@example.com")
    floating.add("summary", "Dentist")
    floating.add("dtstart", datetime(day.year, day.month, day.day, 15, 0) + timedelta(days=5))
    cal.add_component(floating)
    cancelled = icalendar.Event()
    cancelled.add("uid", "cancelled@example.com")
    cancelled.add("summary", "Cancelled sync")
    cancelled.add("status", "CANCELLED")
    cancelled.add("dtstart", datetime(day.year, day.month, day.day, 12, 0, tzinfo=UTC) + timedelta(days=2))
    cal.add_component(cancelled)
    old = icalendar.Event()
    old.add("uid", "old@example.com")
    old.add("summary", "Long ago")
    old.add("dtstart", datetime(2001, 1, 1, 12, 0, tzinfo=UTC))
    cal.add_component(old)
    path.write_bytes(cal.to_ical())
    return path


def test_recurrence_overrides_people_and_timezones(tmp_path: Path) -> None:
    path = _calendar(tmp_path / "maya@example.com.ics")
    [src] = detect(path)
    assert isinstance(src, IcsSource)
    ctx = ReadContext()
    events = [e for e in src.read(ctx) if isinstance(e, Event)]
    standups = sorted((e for e in events if e.series_uid == "standup@example.com"), key=lambda e: e.start or 0)
    assert len(standups) == 5  # 6 occurrences minus one EXDATE
    assert standups[1].summary == "Ledger standup (moved)"
    assert standups[1].start is not None and standups[1].start.astimezone(BERLIN).hour == 10
    first = standups[0]
    assert first.rrule.startswith("FREQ=WEEKLY") and first.tzid == "Europe/Berlin"
    assert first.start is not None and first.start.tzinfo is UTC and first.start.astimezone(BERLIN).hour == 9
    assert first.organizer is not None and first.organizer.label == "Maya Okafor <maya@example.com>"
    assert {p.address for p in first.attendees} == {"jon@example.com", "priya@example.com"}
    assert first.calendar_owner == "maya@example.com"  # Takeout names the primary calendar <email>.ics
    offsite = next(e for e in events if e.summary == "Team offsite")
    assert offsite.all_day and isinstance(offsite.start, datetime) and offsite.start.tzinfo is UTC
    dentist = next(e for e in events if e.summary == "Dentist")  # floating: X-WR-TIMEZONE applies
    assert dentist.start is not None and dentist.start.astimezone(BERLIN).hour == 15
    assert not any(e.summary in ("Cancelled sync", "Long ago") for e in events)
    assert any("1 cancelled" in s.reason for s in ctx.skips)
    assert ctx.new_cursor and list(IcsSource(path).read(ReadContext(cursor=ctx.new_cursor))) == []


def test_since_narrows_the_window(tmp_path: Path) -> None:
    path = _calendar(tmp_path / "work.ics", calname="maya@example.com")
    since = datetime.now(UTC) - timedelta(days=40)
    events = [e for e in IcsSource(path).read(ReadContext(since=since)) if isinstance(e, Event)]
    assert events and all(e.start is not None and e.start >= since - timedelta(days=1) for e in events)
    assert all(e.calendar_owner == "maya@example.com" for e in events)


def test_stale_export_is_anchored_on_its_own_activity(tmp_path: Path) -> None:
    cal = icalendar.Calendar()
    for i in range(10):
        ev = icalendar.Event()
        ev.add("uid", f"e{i}@x")
        ev.add("summary", f"Review {i}")
        ev.add("dtstart", datetime(2015, 3, 1 + i, 14, 0, tzinfo=UTC))
        cal.add_component(ev)
    path = tmp_path / "old.ics"
    path.write_bytes(cal.to_ical())
    assert len(list(IcsSource(path).read(ReadContext()))) == 10


def test_unparseable_calendar_is_a_source_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.ics"
    path.write_text("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2024011\nUID:x\nDTSTART;TZID=Nope:garbage\n"
                    "END:VCALENDAR\n")
    with pytest.raises(SourceError, match=r"broken\.ics"):
        list(IcsSource(path).read(ReadContext()))
    with pytest.raises(SourceNotFound):
        list(IcsSource(tmp_path / "missing.ics").read(ReadContext()))


def test_one_bad_event_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    now = datetime.now(UTC) - timedelta(days=3)
    good = f"BEGIN:VEVENT\nUID:good\nSUMMARY:Good\nDTSTART:{now:%Y%m%dT%H%M%SZ}\nEND:VEVENT\n"
    bad = "BEGIN:VEVENT\nUID:bad\nSUMMARY:Bad\nDTSTART:20240230T990000Z\nEND:VEVENT\n"
    path = tmp_path / "mixed.ics"
    path.write_text(f"BEGIN:VCALENDAR\nVERSION:2.0\n{good}{bad}END:VCALENDAR\n")
    ctx = ReadContext()
    events = list(read_calendar(path.read_bytes(), "ics:t", ctx, label=str(path),
                                window=(now - timedelta(days=1), now + timedelta(days=1))))
    assert [e.summary for e in events] == ["Good"]
    assert any(s.ref == "bad" and "mixed.ics" in s.reason for s in ctx.skips)


@pytest.mark.realdata
def test_real_icloud_calendar_with_impossible_offset_reads_event_by_event() -> None:
    path = realdata_file("ics", "icalevents", "icloud.ics")
    ctx = ReadContext()
    window = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC))
    events = list(read_calendar(path.read_bytes(), "ics:icloud", ctx, label=str(path), window=window))
    assert events
    assert any("does not parse as a whole" in s.reason and "+5328" in s.reason and "icloud.ics" in s.reason
               for s in ctx.skips)


@pytest.mark.realdata
def test_real_google_personal_export() -> None:
    path = realdata_file("ics", "recurring-ical-events", "google-personal-export-issue42.ics")
    ctx = ReadContext()
    window = (datetime(2017, 1, 1, tzinfo=UTC), datetime(2018, 1, 1, tzinfo=UTC))
    events = list(read_calendar(path.read_bytes(), "ics:personal", ctx, label=str(path), file_stem=path.stem,
                                window=window))
    assert len(events) > 200
    named = re.search(rb"^X-WR-CALNAME:(.+?)\r?$", path.read_bytes(), re.M)  # the calendar names its owner
    assert named and {e.calendar_owner for e in events} == {named.group(1).decode().strip().lower()}
    assert Counter(e.tzid for e in events).most_common(1)[0][0] == "Europe/London"
    assert all(e.start is not None and e.start <= window[1] and (e.end or e.start) >= window[0] for e in events)
    assert any(e.rrule for e in events) and any(e.attendees for e in events)
    default = list(IcsSource(path).read(ReadContext()))  # stale export: anchored on its own activity
    assert len(default) > 100


@pytest.mark.realdata
def test_real_holiday_calendar_is_all_day() -> None:
    path = realdata_file("ics", "recurring-ical-events", "Germany.ics")
    window = (datetime(2019, 1, 1, tzinfo=UTC), datetime(2020, 1, 1, tzinfo=UTC))
    events = list(read_calendar(path.read_bytes(), "ics:de", ReadContext(), label="de", window=window))
    assert events and all(e.all_day and not e.attendees for e in events)
    assert date(2019, 12, 25) in {e.start.date() for e in events if e.start}
