"""Every calendar program's export gives the same local times, in an IANA zone.

The scenario (see ``calendar_exports``) is a weekday 09:45 Berlin stand-up: whatever way the
program names its zone, each occurrence must be 09:45 in Europe/Berlin (also across a DST
switch), the EXDATE day must be missing, the RECURRENCE-ID day moved to 11:00, the all-day
event all-day, and the floating 15:00 event at 15:00 in the calendar's zone.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bootstrap_app.config import load_settings
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.pipeline import scan
from bootstrap_app.signals import SignalBuilder
from bootstrap_app.types import Event
from connectors.base import ReadContext
from connectors.local.calzones import iana_name, zone_of
from connectors.local.ics import read_calendar
from tests.conftest import realdata_file

from .calendar_exports import PROGRAMS, export, first_monday

BERLIN = ZoneInfo("Europe/Berlin")


def _events(program: str) -> list[Event]:
    data = export(program, datetime.now(UTC).date())
    return list(read_calendar(data, f"ics:{program}", ReadContext(), label=program))


@pytest.mark.parametrize("program", PROGRAMS)
def test_each_program_gives_berlin_local_times(program: str) -> None:
    events = _events(program)
    standups = [e for e in events if e.summary == "Payments stand-up"]
    assert len(standups) > 20
    expected_zone = "Europe/Berlin"
    assert {e.tzid for e in standups} == {expected_zone}
    local = [e.start.astimezone(BERLIN) for e in standups if e.start is not None]
    monday = first_monday(datetime.now(UTC).date())
    skipped, moved = monday + timedelta(days=9), monday + timedelta(days=16)
    assert skipped not in {d.date() for d in local}
    by_day = {d.date(): d.time() for d in local}
    assert by_day[moved] == time(11, 0)
    assert {t for d, t in by_day.items() if d != moved} == {time(9, 45)}
    offsets = {d.utcoffset() for d in local}
    if len(offsets) == 2:  # the window crosses a DST switch: the UTC hour moved, not the local one
        assert {e.start.astimezone(UTC).hour for e in standups if e.start and e.start.date() != moved} == {7, 8}
    [offsite] = [e for e in events if e.summary == "Team offsite"]
    assert offsite.all_day and offsite.start is not None
    assert offsite.start.date() == monday + timedelta(days=3)
    [dentist] = [e for e in events if e.summary == "Dentist"]
    assert dentist.start is not None and dentist.start.astimezone(BERLIN).time() == time(15, 0)


def test_outlook_standup_is_proposed_at_0945_berlin(tmp_path: Path) -> None:
    """The issue's case: an Outlook export, stand-up proposed as 09:45 Europe/Berlin (was 07:45 UTC)."""
    path = tmp_path / "calendar.ics"
    path.write_bytes(export("outlook", datetime.now(UTC).date()))
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), owners=["maya@example.org"])
    rituals = [p for p in result.proposals if p.name.startswith("ritual-")]
    assert rituals, [p.name for p in result.proposals]
    body = rituals[0].body
    assert "09:45" in body and "Europe/Berlin" in body and "UTC" not in body
    collector = IdentityCollector(explicit=("maya@example.org",))
    builder = SignalBuilder(known_owners=("maya@example.org",))
    for event in read_calendar(path.read_bytes(), "ics:x", ReadContext(), label="x"):
        collector.observe(event)
        builder.observe(event)
    assert builder.build(collector.resolve()).profile.timezone == "Europe/Berlin"  # was not found at all


@pytest.mark.parametrize(("tzid", "expected"), [
    ("W. Europe Standard Time", "Europe/Berlin"),
    ("Eastern Standard Time", "America/New_York"),
    ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
    ("Europe/Lisbon", "Europe/Lisbon"),
    ("Not A Zone", ""),
])
def test_zone_names(tzid: str, expected: str) -> None:
    assert iana_name(tzid) == expected
    assert (zone_of(tzid) is None) == (not expected)


def test_vtimezone_only_zone_matched_by_offsets() -> None:
    """A zone known only by its VTIMEZONE rules: the IANA zone with the same offsets."""
    cal = icalendar.Calendar.from_ical(export("outlook-custom", datetime.now(UTC).date()))
    [vtz] = cal.walk("VTIMEZONE")
    rules = vtz.to_tz(lookup_tzid=False)  # built from the rules alone, no name to look up
    assert not getattr(rules, "key", "")
    when = datetime(2026, 5, 1)
    assert iana_name("Customized Time Zone", rules, when) == "Europe/Berlin"
    assert iana_name("Romance Time", rules, when) == "Europe/Paris"  # Windows' own name for Paris
    assert iana_name("Rome office", rules, when) == "Europe/Rome"  # a city named in the TZID
    assert iana_name("Mystery", UTC, when) == "UTC"
    assert iana_name("Mystery", None, when) == ""


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["cest.ics", "recurring_override.ics", "multi_exdate_same_line_ms.ics"])
def test_real_outlook_calendars_get_iana_zones(name: str) -> None:
    path = realdata_file("ics", "icalevents", name)
    events = list(read_calendar(path.read_bytes(), "ics:real", ReadContext(), label=name))
    zones = {e.tzid for e in events if not e.all_day}
    assert zones and all(zone_of(z) is not None for z in zones), zones
    assert not any("Standard Time" in z for z in zones)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(max_size=60))
def test_any_zone_name_gives_an_iana_zone_or_nothing(name: str) -> None:
    result = iana_name(name)
    assert result == "" or zone_of(result) is not None


def test_event_zone_wins_over_x_wr_timezone_which_floats_the_rest() -> None:
    """X-WR-TIMEZONE is the calendar's default: it places floating times, never moves an event
    that names its own zone."""
    data = export("google", datetime.now(UTC).date()).replace(b"X-WR-TIMEZONE:Europe/Berlin",
                                                               b"X-WR-TIMEZONE:Eastern Standard Time")
    events = list(read_calendar(data, "ics:g", ReadContext(), label="g"))
    standups = [e for e in events if e.summary == "Payments stand-up"]
    assert {e.tzid for e in standups} == {"Europe/Berlin"}
    [dentist] = [e for e in events if e.summary == "Dentist"]
    assert dentist.start is not None
    assert dentist.start.astimezone(ZoneInfo("America/New_York")).time() == time(15, 0)
    assert dentist.tzid == "America/New_York"


def test_unknown_x_wr_timezone_loses_no_event() -> None:
    data = export("google", datetime.now(UTC).date()).replace(b"X-WR-TIMEZONE:Europe/Berlin",
                                                               b"X-WR-TIMEZONE:Mars/Olympus_Mons")
    ctx = ReadContext()
    events = list(read_calendar(data, "ics:g", ctx, label="g"))
    assert len([e for e in events if e.summary == "Payments stand-up"]) > 20 and not ctx.skips
