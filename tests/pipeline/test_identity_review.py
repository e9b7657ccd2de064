"""The identity step: what the person says about a source changes who the owner is, and every
source of a scan is accounted for (items, left out, proposals, and why none)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from bootstrap_app import pipeline
from bootstrap_app.config import load_settings
from bootstrap_app.identity import review as ir
from bootstrap_app.report.accounting import source_accounting
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal

TOKYO = ZoneInfo("Asia/Tokyo")


def _calendar(path: Path, account: str) -> Path:
    """A calendar export whose account (``X-WR-CALNAME``) is ``account``: 8 weekly meetings in Tokyo time."""
    cal = icalendar.Calendar()
    cal.add("prodid", "-//memseed tests//")
    cal.add("version", "2.0")
    cal.add("X-WR-CALNAME", account)
    cal.add("X-WR-TIMEZONE", "Asia/Tokyo")
    start = (datetime.now(UTC) - timedelta(days=70)).astimezone(TOKYO).replace(hour=10, minute=0, second=0,
                                                                                microsecond=0)
    for week in range(8):
        ev = icalendar.Event()
        ev.add("uid", f"sync-{week}@example.net")
        ev.add("summary", "Design sync")
        ev.add("dtstart", start + timedelta(weeks=week))
        ev.add("dtend", start + timedelta(weeks=week, minutes=30))
        org = icalendar.vCalAddress(f"mailto:{account}")
        ev.add("organizer", org)
        cal.add_component(ev)
    path.write_bytes(cal.to_ical())
    return path


def _scan(store: Store, location: Path) -> pipeline.ScanResult:
    store.remember_source(str(location))
    return pipeline.scan([str(location)], settings=load_settings(), store=store)


@pytest.fixture
def store(hermetic: Path) -> Store:
    return Store(hermetic / ".memseed" / "state.db")


def test_a_source_marked_not_mine_stops_naming_the_owner(hermetic: Path, store: Store) -> None:
    cal = _calendar(hermetic / "family.ics", "pat@example.net")
    first = _scan(store, cal)
    # the calendar's account, shown by no other source, is offered as possibly you ...
    assert "pat@example.net" in first.owner.suggested and not first.owner.addresses
    view = ir.identity_view(store)
    assert [a.address for a in view.suggested] == ["pat@example.net"]
    assert view.sources[0]["ownership"] == "mine"
    ir.set_source_ownership(store, str(cal), "not-mine")  # ... until you say it is not yours
    again = _scan(store, cal)
    assert not again.owner.addresses and "pat@example.net" not in again.owner.suggested
    assert not [p for p in again.proposals if p.type is MemoryType.USER], "nothing about 'you' from it"
    [account] = source_accounting(store)
    assert (account.items, account.proposals) == (8, 0)
    assert account.left_out == {"not analysed: you said this source is not yours": 8}
    assert "not yours" in account.reason and "Identity page" in account.fix
    assert ir.identity_view(store).sources[0]["ownership"] == "not-mine"


def test_a_shared_source_is_analysed_but_proves_nobody(hermetic: Path, store: Store) -> None:
    cal = _calendar(hermetic / "team.ics", "team@example.net")
    ir.set_source_ownership(store, str(cal), "shared")
    result = _scan(store, cal)
    assert not result.owner.addresses
    [report] = result.reports
    assert report.ownership == "shared" and report.item_kinds == {"event": 8}
    # its zone and account describe whoever shares it: nothing about "you" comes from them
    assert not [p for p in result.proposals if p.type is MemoryType.USER]
    [account] = source_accounting(store)
    assert account.left_out == {}, "a shared source is analysed"
    ir.set_source_ownership(store, str(cal), "mine")  # and back: the default is forgotten, not stored
    assert store.source_ownership() == {}
    with pytest.raises(Exception, match="unknown ownership"):
        ir.set_source_ownership(store, str(cal), "maybe")


def _run(store: Store, sources: list[dict[str, object]], owner: dict[str, object],
         proposals: list[Proposal]) -> int:
    run = store.start_run("scan", [])
    store.save_proposals(run, proposals)
    store.finish_run(run, "finished", {"sources": sources, "owner": owner})
    return run


def test_every_source_says_what_it_gave_and_why_not(store: Store) -> None:
    ev = Evidence("mbox:/m/inbox.mbox", "<1@x>", datetime(2026, 1, 2, tzinfo=UTC), True, "")
    fact = Proposal(type=MemoryType.PROJECT, name="p", description="d", body="b", subject="s", evidence=(ev,))
    sources = [
        {"source": "mbox:/m/inbox.mbox", "kind": "mbox", "items": 560, "skipped": 3,
         "skip_reasons": {"not a mail message": 3}, "duplicates": 4, "item_kinds": {"message": 560}},
        {"source": "slack:/s/export", "kind": "slack", "items": 2843, "item_kinds": {"chatmessage": 2843}},
        {"source": "ics:/c/cal.ics", "kind": "ics", "items": 500, "item_kinds": {"event": 500},
         "window": {"newest": 500}, "left_out": {"older than the window": 4278}},
        {"source": "git:/r/app", "kind": "git", "items": 0, "error": "not a git repository"},
        {"source": "ics:/c/big.ics", "kind": "ics", "items": 2000, "item_kinds": {"event": 2000},
         "window_from": "2025-11-27T00:00:00+00:00", "window_to": "2026-11-27T00:00:00+00:00",
         "left_out": 2778, "left_out_reason": "older than the analysis window (read them with --since)"},
    ]
    _run(store, sources, {"addresses": ["me@example.org"], "slack_ids": []}, [fact])
    by = {a.kind: a for a in source_accounting(store)[:4]}
    assert by["mbox"].proposals == 1 and not by["mbox"].reason
    assert by["mbox"].left_out == {"not a mail message": 3, "already read from another source (same message)": 4}
    assert by["slack"].proposals == 0 and "no owner found in this chat export" in by["slack"].reason
    assert "pick yourself" in by["slack"].fix
    assert by["ics"].window == "newest 500" and by["ics"].left_out == {"older than the window": 4278}
    assert "organised by an address" in by["ics"].reason
    assert by["git"].reason.startswith("could not be read: not a git repository")
    big = source_accounting(store)[-1]
    assert big.window == "2025-11-27 to 2026-11-27"
    assert big.left_out == {"older than the analysis window (read them with --since)": 2778}
    # with no owner at all, the reason is the identity, whatever the source
    _run(store, sources[:2], {"addresses": [], "slack_ids": []}, [])
    assert all("does not know who you are" in a.reason for a in source_accounting(store))


def test_identity_view_lists_candidates_and_holds_back_facts_about_you(store: Store) -> None:
    run = store.start_run("scan", [])
    store.finish_run(run, "finished", {
        "owner_reasons": {"pat@example.org": "sender of 4 message(s) in the Sent folder"},
        "owner": {"names": ["Pat Doe"], "addresses": ["pat@example.org"], "unknown_why": "",
                  "owner_candidates": [{"owner": "pd@example.net", "kind": "email", "name": "P D",
                                        "evidence": "most frequent recipient"},
                                       {"owner": "U024BE7LH", "kind": "slack", "name": "",
                                        "evidence": "wrote 40 of 90 messages"},
                                       {"owner": "pat@example.org", "kind": "email", "name": "", "evidence": ""}]}})
    view = ir.identity_view(store)
    assert view.names == ["Pat Doe"] and view.addresses[0].source == "mail (Sent folder)"
    assert view.candidates == [{"address": "pd@example.net", "evidence": "P D — most frequent recipient"},
                               {"address": "U024BE7LH", "evidence": "wrote 40 of 90 messages"}]
    ir.add_address(store, view.candidates[1]["address"])  # "This is me" on a Slack candidate
    assert "u024be7lh" in [a.address for a in ir.identity_view(store).confirmed]
    rows = [Proposal(type=t, name=t.value, description="d", body="b", subject=t.value) for t in MemoryType]
    kept, held = ir.hold_back_about_you(store, rows, type_of=lambda p: p.type)
    assert held == 1 and MemoryType.USER not in {p.type for p in kept}
    ir.mark_identity_shown(store, view.run_id)
    assert ir.hold_back_about_you(store, rows, type_of=lambda p: p.type) == (rows, 0)


def test_aliases_in_bulk_and_undo(store: Store) -> None:
    store.suggest_aliases({"a@example.org": "x", "b@example.org": "y", "c@example.org": "z"})
    ir.decide_aliases(store, ["a@example.org", "b@example.org"], confirm=True)
    ir.decide_aliases(store, ["c@example.org"], confirm=False)
    view = ir.identity_view(store)
    assert [a.address for a in view.confirmed] == ["a@example.org", "b@example.org"]
    assert [a.address for a in view.rejected] == ["c@example.org"] and not view.suggested
    ir.undo_alias(store, "a@example.org")
    assert [a.address for a in ir.identity_view(store).suggested] == ["a@example.org"]
    ir.add_address(store, "Me@Example.org ")
    assert "me@example.org" in [a.address for a in ir.identity_view(store).confirmed]
