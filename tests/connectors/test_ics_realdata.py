"""The real .ics suites in ../shared/realdata/ics: nothing lost silently, the window said, the owner stable.

Expectations are worked out here from each file's own text (its UIDs, its X-WR-CALNAME), never typed in.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import icalendar
import pytest

from bootstrap_app.identity.resolve import IdentityCollector
from connectors.base import ReadContext
from connectors.local.ics import DATELESS_ANSWERS, read_calendar
from connectors.local.ics_checks import is_published
from tests.conftest import realdata_file

pytestmark = pytest.mark.realdata

_UID = re.compile(r"^BEGIN:VEVENT\r?$.*?^UID:([^\r\n]*)", re.MULTILINE | re.DOTALL)


def _files() -> list[Path]:
    return sorted(realdata_file("ics").rglob("*.ics"))


def test_every_event_is_read_skipped_with_a_reason_or_counted_outside_the_window() -> None:
    checked = 0
    for path in _files():
        data = path.read_bytes()
        text = re.sub(r"\r?\n[ \t]", "", data.decode("utf-8", "replace"))  # RFC 5545 line unfolding
        uids = {u.strip() for u in _UID.findall(text)}
        ctx = ReadContext()
        try:
            seen = {e.series_uid for e in read_calendar(data, "ics:real", ctx, label=path.name)}
        except Exception as exc:  # only a file with no readable event may fail, and it names itself
            assert path.name in str(exc)
            continue
        reported = {s.ref for s in ctx.skips}
        cancelled = sum(int(m.group(1)) for s in ctx.skips if (m := re.match(r".*?(\d+) cancelled", s.reason)))
        unaccounted = uids - seen - reported
        answers = ctx.passed.get(DATELESS_ANSWERS, 0)  # iTIP replies without a date: passed over by name
        assert len(unaccounted) <= ctx.left_out + cancelled + answers, (path.name, sorted(unaccounted)[:5], ctx.left_out)
        assert ctx.window_from is not None and ctx.window_to is not None
        checked += 1
    assert checked >= 30


def _google_export() -> Path:
    return realdata_file("ics", "recurring-ical-events", "google-personal-export-issue42.ics")


def test_a_large_export_says_what_fell_outside_the_window() -> None:
    data = _google_export().read_bytes()
    ctx = ReadContext()
    read = sum(1 for _ in read_calendar(data, "ics:real", ctx, label="export"))
    events = data.count(b"BEGIN:VEVENT")
    assert read < events and ctx.left_out > 0
    assert any("--since" in r for r in ctx.left_out_reasons)


def _owner(data: bytes, since: datetime | None) -> tuple[frozenset[str], tuple[str, ...]]:
    collector = IdentityCollector()
    for event in read_calendar(data, "ics:real", ReadContext(since=since), label="export"):
        collector.observe(event)
    owner = collector.resolve()
    # A calendar's account that no other source shows is a suggestion (issue 24), whatever the window.
    return owner.addresses | frozenset(owner.suggested), owner.names


def test_the_owner_of_an_own_export_is_stable_whatever_the_window() -> None:
    data = _google_export().read_bytes()
    calname = str(icalendar.Calendar.from_ical(data).get("X-WR-CALNAME"))
    assert "@" in calname
    assert not is_published([icalendar.Calendar.from_ical(data)])  # METHOD:PUBLISH, yet the person's own
    owners = {_owner(data, since) for since in (None, datetime(2014, 1, 1, tzinfo=UTC), datetime(2017, 1, 1, tzinfo=UTC))}
    assert len(owners) == 1, owners
    [(addresses, _names)] = owners
    assert calname.lower() in addresses


@pytest.mark.parametrize("name", ["fablab_cottbus.ics", "machbar_16_feb_2019.ics"])
def test_public_feeds_give_no_owner_and_no_ritual(name: str, tmp_path: Path) -> None:
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan

    path = realdata_file("ics", "recurring-ical-events", name)
    result = scan([str(path)], settings=load_settings(tmp_path / "home"))
    assert not [p.name for p in result.proposals if p.name.startswith("ritual-")]
    assert not result.owner.addresses and not result.owner.names
