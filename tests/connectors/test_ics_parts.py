"""Calendars read event by event: broken parts, huge recurrences, the analysis window, zone names."""

from __future__ import annotations

import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bootstrap_app.types import Event
from connectors.base import ReadContext
from connectors.local import ics
from connectors.local.calzones import iana_name
from connectors.local.ics import IcsSource, read_calendar

NOW = datetime.now(UTC).replace(microsecond=0)


def _stamp(when: datetime) -> str:
    return when.strftime("%Y%m%dT%H%M%SZ")


def _event(uid: str, *lines: str) -> str:
    return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nSUMMARY:Event " + uid + "\r\n" + "".join(f"{x}\r\n" for x in lines) \
        + "END:VEVENT\r\n"


def _calendar(*events: str, head: str = "") -> bytes:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//memseed tests//\r\n" + head + "".join(events)
            + "END:VCALENDAR\r\n").encode()


def _read(data: bytes, ctx: ReadContext | None = None) -> tuple[list[Event], ReadContext]:
    ctx = ctx or ReadContext()
    return list(read_calendar(data, "ics:t", ctx, label="t.ics")), ctx


def test_broken_events_properties_and_rules_are_skipped_and_the_rest_kept() -> None:
    day = NOW - timedelta(days=20)
    good = [_event(f"good{i}", f"DTSTART:{_stamp(day + timedelta(days=i))}") for i in range(5)]
    broken = [
        _event("bad-start", "DTSTART:not-a-date"),
        _event("bad-end", f"DTSTART:{_stamp(day)}", "DTEND:garbage"),
        _event("bad-rule", f"DTSTART:{_stamp(day)}", "RRULE:FREQ=WEEKLY;BYDAY=XX"),
        _event("bad-exdate", f"DTSTART:{_stamp(day)}", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE:nonsense"),
    ]
    events, ctx = _read(_calendar(*good[:2], *broken, *good[2:]))
    uids = {e.series_uid for e in events}
    assert {f"good{i}" for i in range(5)} <= uids  # every readable event survives the broken ones
    assert "bad-start" not in uids
    assert {"bad-end", "bad-rule", "bad-exdate"} <= uids  # a broken property costs the property, not the event
    assert len([e for e in events if e.series_uid == "bad-exdate"]) == 3  # the rule kept, its bad EXDATE gone
    assert len([e for e in events if e.series_uid == "bad-rule"]) == 1  # read as one occurrence
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "DTSTART is not a date" in reasons["bad-start"]
    assert "DTEND" in reasons["bad-end"] and "RRULE" in reasons["bad-rule"] and "EXDATE" in reasons["bad-exdate"]


def test_a_hundred_thousand_occurrences_give_a_clear_message() -> None:
    minutely = _event("every-minute", f"DTSTART:{_stamp(NOW - timedelta(days=30))}", "RRULE:FREQ=MINUTELY;COUNT=100000")
    events, ctx = _read(_calendar(minutely))
    assert len(events) == 1
    assert any("minutely" in s.reason and s.ref == "every-minute" for s in ctx.skips)


def test_the_occurrence_cap_reports_what_it_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ics, "MAX_OCCURRENCES", 300)
    start = NOW - timedelta(days=100)
    daily = [_event(f"daily{i}", f"DTSTART:{_stamp(start + timedelta(minutes=i))}", "RRULE:FREQ=DAILY")
             for i in range(10)]
    events, ctx = _read(_calendar(*daily))
    assert len(events) == 300
    assert ctx.left_out >= 1 and any("more than 300 occurrences" in r and "--since" in r for r in ctx.left_out_reasons)


def _daily_for(days: int) -> bytes:
    return _calendar(_event("standup", f"DTSTART:{_stamp(NOW - timedelta(days=days))}", "RRULE:FREQ=DAILY"))


def _peak(data: bytes, since: datetime) -> int:
    tracemalloc.start()
    try:
        n = sum(1 for _ in read_calendar(data, "ics:t", ReadContext(since=since), label="t.ics"))
        assert n > 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_however_long_the_window() -> None:
    short = _peak(_daily_for(90), NOW - timedelta(days=90))
    long = _peak(_daily_for(900), NOW - timedelta(days=900))  # ten times the occurrences
    assert long < 2.5 * short, (short, long)


def test_the_window_and_what_fell_outside_it_are_reported(tmp_path: Path) -> None:
    old = [_event(f"old{i}", f"DTSTART:{_stamp(NOW - timedelta(days=2000 + i))}") for i in range(7)]
    recent = [_event(f"new{i}", f"DTSTART:{_stamp(NOW - timedelta(days=3 + i))}") for i in range(40)]
    later = [_event("far", f"DTSTART:{_stamp(NOW + timedelta(days=900))}")]
    path = tmp_path / "cal.ics"
    path.write_bytes(_calendar(*old, *recent, *later))
    ctx = ReadContext()
    events = list(IcsSource(path).read(ctx))
    assert len(events) == 40
    assert ctx.left_out == 8
    assert ctx.window_from is not None and ctx.window_to is not None
    assert ctx.window_from < NOW - timedelta(days=300) and ctx.window_to > NOW
    assert any(r.startswith("7 events") and "--since" in r for r in ctx.left_out_reasons)
    assert any(r.startswith("1 events") and "after" in r for r in ctx.left_out_reasons)
    wider = ReadContext(since=NOW - timedelta(days=2100))
    assert len(list(IcsSource(path).read(wider))) == 47 and wider.left_out == 1


@pytest.mark.parametrize(("tzid", "zone"), [
    ("(UTC+10:00) Canberra, Melbourne, Sydney", "Australia/Sydney"),
    ("Canberra\\, Melbourne\\, Sydney", "Australia/Sydney"),
    ("W. Europe Standard Time", "Europe/Berlin"),
    ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"),
    ("(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi", "Asia/Kolkata"),
    ("(UTC) Coordinated Universal Time", "UTC"),
])
def test_outlook_zone_names_map_to_iana(tzid: str, zone: str) -> None:
    assert iana_name(tzid) == zone


def test_an_unmapped_zone_is_reported_not_read_as_utc() -> None:
    day = NOW - timedelta(days=10)
    data = _calendar(_event("x", f"DTSTART;TZID=Nowhere Standard Time:{day:%Y%m%dT%H%M%S}"))
    events, ctx = _read(data)
    assert events and events[0].tzid != "UTC"
    assert any("Nowhere Standard Time" in s.reason and "no IANA zone" in s.reason for s in ctx.skips)


def test_scan_summary_and_json_state_the_window_and_what_was_left_out(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from bootstrap_app.cli import main

    old = [_event(f"old{i}", f"DTSTART:{_stamp(NOW - timedelta(days=2000 + i))}") for i in range(5)]
    recent = [_event(f"new{i}", f"DTSTART:{_stamp(NOW - timedelta(days=3 + i))}") for i in range(6)]
    path = tmp_path / "cal.ics"
    path.write_bytes(_calendar(*old, *recent))
    env = {"MEMSEED_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    res = CliRunner().invoke(main, ["scan", str(path), "-q", "--json-summary", "--out", str(tmp_path / "p.jsonl")],
                             env=env)
    assert res.exit_code == 0, res.output
    [source] = json.loads(res.stderr.strip().splitlines()[-1])["sources"]
    assert source["left_out"] == 5 and "--since" in source["left_out_reason"]
    assert source["window_from"] < source["window_to"] and source["window_from"][:4].isdigit()
    res = CliRunner().invoke(main, ["scan", str(path), "-q", "--out", str(tmp_path / "p.jsonl")], env=env)
    assert "analysis window" in res.stderr and "5 left out" in res.stderr and "--since" in res.stderr


def test_slicing_the_window_gives_each_occurrence_once() -> None:
    """Occurrences on a slice boundary or spanning it are given once, as one expansion of the whole window would."""
    import icalendar
    import recurring_ical_events

    start = NOW.replace(hour=0, minute=0, second=0) - timedelta(days=200)
    events = [_event("hourly-ish", f"DTSTART:{_stamp(start)}", "DURATION:PT100H", "RRULE:FREQ=DAILY;INTERVAL=7"),
              _event("midnight", f"DTSTART:{_stamp(start)}", "RRULE:FREQ=DAILY")]
    data = _calendar(*events)
    window = (start, NOW)
    got = sorted(e.ref for e in read_calendar(data, "ics:t", ReadContext(), label="t.ics", window=window))
    whole = recurring_ical_events.of(icalendar.Calendar.from_ical(data)).between(*window)
    assert len(got) == len(set(got)) == len(whole)
