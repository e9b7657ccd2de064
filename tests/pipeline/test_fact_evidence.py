"""Facts about the user stand on the user's own evidence (issue 30), on every real corpus and on
generated footprints.

The invariants, checked by :mod:`tests.pipeline.fact_audit` (which reads every cited item back
through the connectors and asks the item's own fields whether the owner is on it):

- no user fact cites an item in which the owner does not appear (a calendar event they neither
  organised nor attend, mail they neither sent nor received);
- every user fact cites an item of the kind its text names ("from the calendar" cites the
  owner's events, "Slack profile" a chat message, "sent mail" a message);
- a calendar marked not-mine or shared changes no user fact: the facts are those of the other
  sources alone, whether or not the owner is on the calendar's events.

Real calendars are scanned alone and beside a generated owner's mail (a zone no real calendar
uses); a corpus that proves no owner is scanned again with each of its first three owner candidates picked, as
the wizard lets the person do. The real-data folder is found through MEMSEED_REALDATA (skipped
cleanly when absent).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan_demo
from bootstrap_app.store import Store
from tests.conftest import REALDATA

from .fact_audit import OWNER, audit, corpora, owner_calendar, owner_mail, scan_with, user_facts

_CORPORA = corpora(REALDATA) if REALDATA.is_dir() else {}


def _facts(result: object) -> list[tuple[str, str, str]]:
    return [(p.name, p.description, p.body) for p in user_facts(result)]  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return owner_mail(tmp_path_factory.mktemp("owner") / "mail")


@pytest.mark.realdata
@pytest.mark.parametrize("label", sorted(_CORPORA) or ["(real data absent)"])
def test_every_user_fact_stands_on_the_owners_evidence(label: str, mail: Path, tmp_path: Path,
                                                       realdata: Path) -> None:
    locations = [str(p) for p in _CORPORA[label]]
    runs = [(label, locations)]
    if label.startswith("ics/"):
        runs.append((f"{label} + owner mail", [str(mail), *locations]))
    checked = 0
    for n, (name, locs) in enumerate(runs):
        result = scan_with(locs, tmp_path / f"home{n}")
        audits = [audit(name, result, locs, tmp_path)]
        for k, cand in enumerate(result.owner.candidates[:3]):  # each owner the person could pick
            picked = scan_with(locs, tmp_path / f"home{n}-{k}", owners=(cand.owner,))
            audits.append(audit(f"{name} (picked {cand.kind} candidate)", picked, locs, tmp_path))
        for a in audits:
            assert a.violations() == []
            checked += len(a.facts)
    if label.startswith("ics/"):
        assert checked >= 3, "beside the owner's mail, the owner has facts of their own"


@pytest.mark.realdata
@pytest.mark.parametrize("label", sorted(k for k in _CORPORA if k.startswith("ics/")) or ["(real data absent)"])
def test_a_calendar_marked_not_mine_or_shared_changes_no_user_fact(label: str, mail: Path, tmp_path: Path,
                                                                   realdata: Path) -> None:
    calendar = str(_CORPORA[label][0])
    alone = _facts(scan_with([str(mail)], tmp_path / "alone"))
    assert alone
    for said in ("not-mine", "shared"):
        marked = scan_with([str(mail), calendar], tmp_path / said, ownership={calendar: said})
        assert _facts(marked) == alone, said


def test_the_owners_own_calendar_gives_zone_and_ritual_until_marked(mail: Path, tmp_path: Path) -> None:
    """A calendar the owner organises in Lisbon time gives the zone and the ritual, citing its
    events; marked shared or not-mine it gives nothing about them (their mail's clock remains)."""
    cal = owner_calendar(tmp_path / "own.ics")
    result = scan_with([str(mail), str(cal)], tmp_path / "mine")
    by_name = {p.name: p for p in result.proposals}
    hours = by_name["timezone-and-working-hours"]
    assert "Europe/Lisbon timezone (from the calendar)" in hours.body
    assert any(e.source.startswith("ics:") for e in hours.evidence)
    assert "ritual-roadmap-review" in by_name
    assert audit("own calendar", result, [str(mail), str(cal)], tmp_path).violations() == []
    alone = _facts(scan_with([str(mail)], tmp_path / "alone"))
    for said in ("not-mine", "shared"):
        marked = scan_with([str(mail), str(cal)], tmp_path / said, ownership={str(cal): said})
        assert _facts(marked) == alone, said


def test_a_colleagues_calendar_gives_no_fact_about_the_owner(mail: Path, tmp_path: Path) -> None:
    """Someone else's export — every event organised by a colleague the owner writes to, none with
    the owner on it — gives the owner no zone, no ritual, no meeting with a collaborator."""
    cal = owner_calendar(tmp_path / "colleague.ics", organizer="kit.moss@owner-mail.example", zone="America/Denver")
    result = scan_with([str(mail), str(cal)], tmp_path / "both")
    assert result.owner.addresses == {OWNER}
    assert _facts(result) == _facts(scan_with([str(mail)], tmp_path / "alone"))
    assert audit("colleague", result, [str(mail), str(cal)], tmp_path).violations() == []


def test_the_demo_persona_facts_stand_on_its_own_evidence(tmp_path: Path) -> None:
    """The generated footprint (mail, calendar, Slack, documents, repositories)."""
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        result = scan_demo(settings, store)
    root = settings.home / "demo"
    a = audit("demo", result, [str(root)], tmp_path)
    assert len(a.facts) >= 4
    assert a.violations() == []


def test_marking_a_calendar_not_mine_takes_its_facts_out_of_the_review(mail: Path, tmp_path: Path) -> None:
    """The same store, scanned again after the person said the calendar is not theirs: the zone
    and ritual it gave are no longer waiting for review; a decided one is kept, and so is a
    proposal whose sources this run did not read."""
    from bootstrap_app.identity.review import set_source_ownership
    from bootstrap_app.pipeline import scan
    from bootstrap_app.types import DecisionStatus

    cal = owner_calendar(tmp_path / "own.ics", zone="Pacific/Auckland")
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        first = scan([str(mail), str(cal)], settings=settings, store=store)
        names = {p.name for p in first.proposals}
        assert "ritual-roadmap-review" in names
        collaborators = next(p for p in first.proposals if p.name == "closest-collaborators")
        store.decide(collaborators.fingerprint, DecisionStatus.APPROVED)
        other = tmp_path / "other"
        other_mail = owner_mail(other, n=12)
        kept = scan([str(other_mail)], settings=settings, store=store)
        kept_fps = {p.fingerprint for p in kept.proposals}
        set_source_ownership(store, str(cal), "not-mine")
        second = scan([str(mail), str(cal)], settings=settings, store=store)
        waiting = {sp.proposal.name: sp.proposal for sp in store.proposals(status="undecided")}
        assert "ritual-roadmap-review" not in waiting
        assert all("Auckland" not in p.body for p in waiting.values())
        assert any("no longer follow" in n for n in second.notes)
        assert store.get(collaborators.fingerprint).decision is not None  # decided: kept
        assert kept_fps <= {sp.fingerprint for sp in store.proposals()} | {collaborators.fingerprint}


def test_a_series_the_owner_declined_is_not_their_ritual(mail: Path, tmp_path: Path) -> None:
    """On the attendee list with PARTSTAT=DECLINED: not at the meeting, so no ritual of theirs;
    the same series accepted is one (the control)."""
    base = owner_calendar(tmp_path / "base.ics", organizer="kit.moss@owner-mail.example").read_bytes()
    marker = b"ATTENDEE:mailto:ines.hale@partner.example"
    assert marker in base
    rituals = {}
    for partstat in ("DECLINED", "ACCEPTED"):
        cal = tmp_path / f"{partstat}.ics"
        cal.write_bytes(base.replace(marker, f"ATTENDEE;PARTSTAT={partstat}:mailto:{OWNER}\r\n".encode() + marker))
        result = scan_with([str(mail), str(cal)], tmp_path / partstat)
        rituals[partstat] = [p.name for p in result.proposals if p.name.startswith("ritual-")]
    assert rituals == {"DECLINED": [], "ACCEPTED": ["ritual-roadmap-review"]}


def test_every_calendar_reader_says_who_declined() -> None:
    """Google's ``responseStatus`` and Graph's ``status.response`` give the same ``declined`` list."""
    from connectors.base import ReadContext
    from connectors.google.calendar import to_event
    from connectors.microsoft.calendar import event_from_graph

    ctx = ReadContext()
    google = to_event({"id": "e1", "start": {"dateTime": "2026-03-03T10:00:00+01:00"},
                       "end": {"dateTime": "2026-03-03T10:30:00+01:00"},
                       "organizer": {"email": "kit@x.example"},
                       "attendees": [{"email": "Rowan@x.example", "responseStatus": "declined"},
                                     {"email": "ines@x.example", "responseStatus": "accepted"}]},
                      {"id": "rowan@x.example", "primary": True}, "google-calendar:rowan", ctx)
    graph = event_from_graph({"id": "e2", "start": {"dateTime": "2026-03-03T10:00:00", "timeZone": "UTC"},
                              "end": {"dateTime": "2026-03-03T10:30:00", "timeZone": "UTC"},
                              "organizer": {"emailAddress": {"address": "kit@x.example"}},
                              "attendees": [{"emailAddress": {"address": "rowan@x.example"},
                                             "status": {"response": "declined"}},
                                            {"emailAddress": {"address": "ines@x.example"},
                                             "status": {"response": "accepted"}}]},
                             source="outlook-calendar:rowan", owner="rowan@x.example", ctx=ctx)
    assert google is not None and graph is not None
    assert google.declined == graph.declined == ("rowan@x.example",)
