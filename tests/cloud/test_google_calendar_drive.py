"""google-calendar:, google-drive: and google: end to end: shapes, sync tokens, change feeds."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.types import Document, Event
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google.calendar import GoogleCalendarSource
from connectors.google.drive import GoogleDriveSource
from connectors.registry import detect

from .conftest import MAYA
from .google_standin import GoogleStandIn


def _ctx(**kw: object) -> ReadContext:
    home = load_settings(None).home
    return ReadContext(credentials=lambda _p: auth.credentials(home), home=home, sleep=lambda _s: None,
                       **kw)  # type: ignore[arg-type]


def test_calendar_occurrences_like_the_ics_reader(google: GoogleStandIn) -> None:
    events = list(GoogleCalendarSource("gcal:").read(ctx := _ctx()))
    assert all(isinstance(e, Event) for e in events)
    series = [e for e in events if e.series_uid == "series1@google.com"]
    assert len(series) == 4  # five weekly instances, one cancelled
    assert all(e.ref == f"series1@google.com@{e.start.isoformat()}" for e in series)  # type: ignore[union-attr]
    assert all(e.tzid == "Europe/Berlin" and e.calendar_owner == MAYA for e in series)
    assert {p.address for p in series[0].attendees} == {MAYA, "priya@example.com"}
    offsite = next(e for e in events if e.summary == "Offsite")
    assert offsite.all_day and offsite.tzid == ""
    focus = next(e for e in events if e.summary == "Focus time")
    assert focus.calendar_owner == "" and focus.source == "google-calendar:"  # a colleague's: not the owner's
    assert ctx.new_cursor and set(ctx.new_cursor["tokens"]) == {MAYA, "priya@example.com"}

    google.reset_stats()
    again = list(GoogleCalendarSource("gcal:").read(ctx2 := _ctx(cursor=ctx.new_cursor)))
    assert again == [] and google.stats["events.list.sync"] == 2 and google.stats["events.list"] == 0
    google.world.add_event(MAYA, {"id": "new1", "iCalUID": "new1@google.com", "summary": "Design review",
                                  "start": {"dateTime": "2026-11-20T10:00:00+01:00"},
                                  "end": {"dateTime": "2026-11-20T11:00:00+01:00"}})
    third = list(GoogleCalendarSource("gcal:").read(ctx3 := _ctx(cursor=ctx2.new_cursor)))
    assert [e.summary for e in third] == ["Design review"]  # type: ignore[attr-defined]
    google.world.sync_expired = True
    fourth = list(GoogleCalendarSource("gcal:").read(ctx4 := _ctx(cursor=ctx3.new_cursor)))
    assert len(fourth) > len(series)  # 410 fullSyncRequired: each calendar read again in full
    assert any("full re-read" in s.reason for s in ctx4.skips)


def test_drive_exports_downloads_and_changes(google: GoogleStandIn) -> None:
    docs = list(GoogleDriveSource("gdrive:").read(ctx := _ctx()))
    assert all(isinstance(d, Document) for d in docs)
    by_ref = {d.ref: d for d in docs}
    # owned or edited by Maya; not a colleague's doc she never touched, not trashed, not over the cap
    assert set(by_ref) == {"doc1", "sheet1", "slides1", "docx1", "shared1"}
    assert by_ref["shared1"].authored_by_owner is None and by_ref["shared1"].people[0].address == "priya@example.com"
    assert "event sourcing" in by_ref["doc1"].text and by_ref["doc1"].title == "Ledger design notes"
    assert by_ref["doc1"].path == "https://docs.example/doc1"  # where it lives: what a reference memory cites
    assert by_ref["doc1"].doc_format == "md" and by_ref["sheet1"].doc_format == "csv"
    assert "on-call" in by_ref["docx1"].text and by_ref["docx1"].doc_format == "docx"
    assert by_ref["doc1"].authored_by_owner and by_ref["doc1"].people[0].address == MAYA
    assert any(s.ref == "big1" and "cap" in s.reason for s in ctx.skips)
    assert google.stats["files.export"] == 4 and google.stats["files.media"] == 1
    assert ctx.new_cursor and ctx.new_cursor["page_token"]

    google.reset_stats()
    ctx2 = _ctx(cursor=ctx.new_cursor)
    assert list(GoogleDriveSource("gdrive:").read(ctx2)) == []
    assert google.stats["changes.list"] == 1 and google.stats["files.list"] == 0
    meta = dict(google.world.files["doc1"])
    google.world.add_file(meta, {"text/markdown": b"# Ledger design notes\n\nNow with snapshots.\n"})
    changed = list(GoogleDriveSource("gdrive:").read(_ctx(cursor=ctx2.new_cursor)))
    assert [d.ref for d in changed] == ["doc1"] and "snapshots" in changed[0].text  # type: ignore[attr-defined]


def test_google_uri_is_three_sources_each_scanned_and_remembered(google: GoogleStandIn) -> None:
    assert [s.id for s in detect("google:")] == ["gmail:", "google-calendar:", "google-drive:"]
    settings = load_settings(None)
    result = scan(["google:"], settings=settings)
    kinds = {r.kind: r for r in result.reports}
    assert set(kinds) == {"gmail", "google-calendar", "google-drive"}
    assert all(r.error is None and r.items > 0 for r in kinds.values())
    assert result.owner is not None and MAYA in result.owner.addresses


def test_memseed_scan_and_sources_on_the_command_line(google: GoogleStandIn, tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["scan", "gmail:", "gcal:", "gdrive:", "--out", str(tmp_path / "p.jsonl")])
    assert out.exit_code == 0, out.output
    listing = runner.invoke(main, ["sources", "--json"])
    assert listing.exit_code == 0, listing.output
    catalog = json.loads(listing.output)
    gmail = next(u for u in catalog["uris"] if u["uri"].startswith("gmail:"))
    assert gmail["available"] and gmail["scopes"]
    remembered = {r["location"]: r for r in catalog["remembered"]}
    assert {"gmail:", "gcal:", "gdrive:"} <= set(remembered)  # remembered as typed, for reseed
    assert all(remembered[u]["items"] > 0 for u in ("gmail:", "gcal:", "gdrive:")), remembered


def test_drive_of_a_different_signed_in_account_is_listed_afresh(google: GoogleStandIn) -> None:
    list(GoogleDriveSource("gdrive:").read(ctx := _ctx()))
    google.world.account = "sam@example.com"  # signed in as someone else since
    google.reset_stats()
    again = list(GoogleDriveSource("gdrive:").read(ctx2 := _ctx(cursor=ctx.new_cursor)))
    assert google.stats["files.list"] == 1 and google.stats["changes.list"] == 0  # not the old change feed
    assert again and ctx2.new_cursor and ctx2.new_cursor["account"] == "sam@example.com"


def test_a_meeting_on_two_calendars_is_kept_as_the_owners_whatever_the_list_order(google: GoogleStandIn) -> None:
    """calendarList has no promised order; the copy kept must be the primary calendar's, the
    one that names the owner."""
    meeting = {"id": "m1", "iCalUID": "m1@google.com", "summary": "Planning",
               "start": {"dateTime": "2026-11-20T10:00:00+00:00"}, "end": {"dateTime": "2026-11-20T11:00:00+00:00"},
               "organizer": {"email": "priya@example.com"}, "attendees": [{"email": MAYA}, {"email": "priya@example.com"}]}
    google.world.add_event(MAYA, dict(meeting))
    google.world.add_event("priya@example.com", dict(meeting))
    google.world.calendars.reverse()  # the colleague's calendar listed first
    events = [e for e in GoogleCalendarSource("gcal:").read(_ctx()) if e.summary == "Planning"]  # type: ignore[attr-defined]
    assert len(events) == 1 and events[0].calendar_owner == MAYA  # type: ignore[attr-defined]


def test_shared_drive_documents_the_owner_edited_are_read(google: GoogleStandIn) -> None:
    """A team's shared drive owns its files (no 'me' in owners): each drive the owner is a member
    of is listed with corpora=drive, files she modified are read (downloads say
    supportsAllDrives), the rest are passed over, and the change feed covers shared drives."""
    from datetime import UTC, datetime, timedelta

    from .google_demo import _docx

    stamp = (datetime.now(UTC) - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    google.world.drives["0AEngTeam"] = "Engineering"
    team = {"modifiedTime": stamp, "trashed": False, "driveId": "0AEngTeam", "ownedByMe": False,
            "_me_owners": False, "_me_writers": False}
    google.world.add_file({**team, "id": "team-doc", "name": "Release process", "modifiedByMe": True,
                           "mimeType": "application/vnd.google-apps.document",
                           "webViewLink": "https://docs.example/team-doc"},
                          {"text/markdown": b"# Release process\n\nWe cut releases on Tuesdays.\n"})
    charter = _docx("The platform team reviews every schema change.")
    google.world.add_file({**team, "id": "team-docx", "name": "review.docx", "modifiedByMe": True,
                           "size": str(len(charter)),
                           "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
                          {"media": charter})
    google.world.add_file({**team, "id": "team-other", "name": "Budget", "modifiedByMe": False,
                           "mimeType": "application/vnd.google-apps.document"}, {"text/markdown": b"# Budget\n"})
    docs = list(GoogleDriveSource("gdrive:").read(ctx := _ctx()))
    by_ref = {d.ref: d for d in docs}
    assert {"doc1", "shared1", "team-doc", "team-docx"} <= set(by_ref) and "team-other" not in by_ref
    assert "Tuesdays" in by_ref["team-doc"].text and "schema change" in by_ref["team-docx"].text  # type: ignore[attr-defined]
    assert by_ref["team-doc"].authored_by_owner is None  # edited, not owned: as a file shared with her
    assert google.stats["drives.list"] == 1 and google.stats["files.list"] == 2  # My Drive + one shared drive
    assert not [s for s in ctx.skips if s.ref.startswith("team-")]

    google.reset_stats()
    google.world.add_file({**google.world.files["team-doc"], "modifiedTime": datetime.now(UTC).strftime(
        "%Y-%m-%dT%H:%M:%S.000Z")}, {"text/markdown": b"# Release process\n\nWe cut releases on Wednesdays.\n"})
    changed = list(GoogleDriveSource("gdrive:").read(_ctx(cursor=ctx.new_cursor)))
    assert [d.ref for d in changed] == ["team-doc"] and "Wednesdays" in changed[0].text  # type: ignore[attr-defined]
    assert google.stats["files.list"] == 0 and google.stats["drives.list"] == 0


def test_a_failing_shared_drives_listing_costs_only_that_part(google: GoogleStandIn) -> None:
    """drives.list answering 404 used to lose the whole Drive read ("0 items, ERROR ... 404"): now
    My Drive and Shared with me are read, and the shared drives are a skip with the reason."""
    whole = {d.ref for d in GoogleDriveSource("gdrive:").read(_ctx())}
    google.world.drives_error = 404
    docs = list(GoogleDriveSource("gdrive:").read(ctx := _ctx()))
    assert {d.ref for d in docs} == whole and whole  # everything outside shared drives is still read
    skips = [(s.ref, s.reason) for s in ctx.skips if s.ref == "shared drives"]
    assert len(skips) == 1 and ("404" in skips[0][1] or "Not Found" in skips[0][1]), skips
    assert ctx.new_cursor is not None  # a complete read of what could be read: the next one resumes
