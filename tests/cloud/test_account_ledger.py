"""Signed-in accounts keep a ledger (issue 29): each message, event series and file the provider
listed ends as an item, a skip with its reason (a failure: the scan is partial) or passed over.

Faults are injected through the stand-ins' own knobs (a 404 for one message or one download,
a shared-drives listing that fails), so the real clients meet them on the wire.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult, SourceReport
from connectors.local.folder import OVER_CAP
from connectors.series import CANCELLED

from .google_standin import GoogleStandIn
from .ms_standin import MSStandIn


def _scan(uri: str, home: Path | None = None, **kw: object) -> tuple[SourceReport, ScanResult]:
    result = scan([uri], settings=load_settings(home), **kw)  # type: ignore[arg-type]
    (report,) = result.reports
    assert report.error is None and report.counted and report.ledger is not None, report.error
    assert report.ledger.balanced, (report.ledger.to_json(), report.skipped[:5])
    return report, result


def test_gmail_counts_every_listed_message_and_a_refused_one_makes_the_scan_partial(google: GoogleStandIn) -> None:
    clean, result = _scan("gmail:")
    assert clean.ledger is not None and clean.ledger.found == clean.items > 0
    assert result.status == "complete" and not clean.partial
    listed = clean.ledger.found
    refused = next(p.rsplit("/", 1)[1] for p in google.paths if "/messages/" in p)  # one it fetched
    google.fault(404, 1, match=f"/messages/{refused}")  # Google will not hand that one out
    report, result = _scan("gmail:", incremental=False)
    assert report.ledger is not None and report.ledger.found == listed
    assert report.ledger.failed_units == 1 and report.ledger.read == listed - 1
    assert any(s.ref == refused for s in report.skipped)
    assert report.partial and result.status == "partial"


def test_google_calendar_counts_event_series_and_an_unreadable_one_fails(google: GoogleStandIn) -> None:
    clean, result = _scan("gcal:")
    assert clean.ledger is not None and 0 < clean.ledger.found <= clean.items and result.status == "complete"
    cal = str(google.world.calendars[0]["id"])
    google.world.add_event(cal, {"id": "broken1", "iCalUID": "broken1@example.org", "summary": "Broken",
                                 "start": {"dateTime": "2026-13-45T10:00:00Z"},  # no such month
                                 "end": {"dateTime": "2026-13-45T11:00:00Z"}})
    report, result = _scan("gcal:", incremental=False)
    assert report.ledger is not None and report.ledger.found == clean.ledger.found + 1
    assert report.ledger.failed_units == 1 and report.partial and result.status == "partial"


def test_google_drive_counts_files_passes_over_others_and_a_failed_listing_is_a_unit(
        google: GoogleStandIn) -> None:
    clean, _ = _scan("gdrive:")
    assert clean.ledger is not None and clean.ledger.read == clean.items
    # the demo Drive: one file shared with the owner and never edited by them, one 50 MB dump over the cap
    # (a cap is a choice the person can change: passed over, named in the skips, not a failure)
    assert clean.ledger.passed == {"shared with you, neither owned nor edited by you": 1, OVER_CAP: 1}
    assert clean.ledger.failed_units == 0 and not clean.partial and any(s.ref == "big1" for s in clean.skipped)
    google.world.drives_error = 404
    report, result = _scan("gdrive:", incremental=False)
    assert report.ledger is not None and report.ledger.found == clean.ledger.found + 1
    assert report.ledger.failed_units == 1 and any(s.ref == "shared drives" for s in report.skipped)
    assert report.partial and result.status == "partial"


def test_outlook_mail_counts_every_message_and_a_lost_one_is_a_failure(account: Path, ms: MSStandIn) -> None:
    clean, result = _scan("outlook:", account)
    assert clean.ledger is not None and clean.ledger.found == clean.items == 27 and result.status == "complete"
    ms.world.headers_on_delta = False  # each received message's headers take a GET of their own
    ms.world.fail_next(1, 404, match="/me/messages/")  # one of them answers 404 (deleted meanwhile)
    report, result = _scan("outlook:", account, incremental=False)
    assert report.ledger is not None and report.ledger.found == 27 and report.ledger.read == 26
    assert report.ledger.failed_units == 1 and report.partial and result.status == "partial"


def test_outlook_calendar_counts_series_and_passes_over_cancelled_ones(account: Path, ms: MSStandIn) -> None:
    clean, _ = _scan("outlook-calendar:", account)
    # four weekly occurrences of one series: one unit read, four items
    assert clean.ledger is not None and (clean.ledger.found, clean.ledger.read, clean.items) == (1, 1, 4)
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    ms.world.add_event(subject="Dropped review", start=(now - dt.timedelta(days=3)).replace(hour=9), minutes=30,
                       zone="GMT Standard Time", attendees=[], cancelled=True)
    report, result = _scan("outlook-calendar:", account, incremental=False)
    assert report.ledger is not None and report.ledger.found == 2 and report.ledger.passed == {CANCELLED: 1}
    assert not report.partial and result.status == "complete"


def test_onedrive_passes_over_what_it_does_not_read_and_a_failed_download_fails(account: Path,
                                                                                ms: MSStandIn) -> None:
    ms.world.add_file("Photos/team.png", b"\x89PNG\r\n\x1a\n" + bytes(64))
    ms.world.add_file("Shared/their-notes.md", b"# Theirs\n", by={"id": "someone-else", "displayName": "Sam"})
    clean, result = _scan("onedrive:", account)
    assert clean.ledger is not None and (clean.ledger.found, clean.ledger.read) == (3, 1)
    assert clean.ledger.passed == {"not a kind of file memseed reads (.png)": 1,
                                   "shared with you, neither owned nor edited by you": 1}
    assert result.status == "complete"
    ms.world.fail_next(1, 404, match="/content")
    report, result = _scan("onedrive:", account, incremental=False)
    assert report.ledger is not None and report.ledger.found == 3 and report.ledger.failed_units == 1
    assert report.partial and result.status == "partial"
