"""Evidence is what happened: calendar occurrences expanded ahead of the data are not cited.

The ics connector expands recurring series up to 120 days ahead, so a naive "newest ref"
picks a meeting that has not taken place. Rituals, the manager and collaborators must cite
the newest occurrences on or before the owner's last activity (or now); a series that exists
only ahead is a plan, cited by its first occurrence.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bootstrap_app.extract.heuristic import heuristic_proposals
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.signals import Ref, SignalBuilder
from bootstrap_app.signals.base import prefer_past
from bootstrap_app.types import Event, Item

from .synth import OWNER, PRIYA, TOM, at, mailbox, standup_series

NOW = datetime(2026, 5, 15, 12, tzinfo=UTC)


def _build(items: list[Item], now: datetime = NOW):
    collector = IdentityCollector(explicit=(OWNER.address,))
    builder = SignalBuilder(known_owners=(OWNER.address,))
    for item in items:
        collector.observe(item)
        builder.observe(item)
    owner = collector.resolve()
    signals = builder.build(owner, now=now)
    return signals, {p.name: p for p in heuristic_proposals(signals)}


def test_prefer_past_orders_and_falls_back() -> None:
    d = [datetime(2026, 1, day, tzinfo=UTC) for day in (1, 5, 9, 20)]
    refs = [Ref("s", f"r{i}", when) for i, when in enumerate(d)]
    cut = datetime(2026, 1, 10, tzinfo=UTC)
    assert [r.ref for r in prefer_past(refs, (cut,))] == ["r2", "r1", "r0"]
    assert [r.ref for r in prefer_past(refs, (datetime(2025, 1, 1, tzinfo=UTC),))] == ["r0", "r1", "r2", "r3"]
    assert [r.ref for r in prefer_past(refs)] == ["r3", "r2", "r1", "r0"]


def test_rituals_and_manager_cite_past_occurrences() -> None:
    # mail runs Mar 2 - Apr 24 2026; the calendar runs 24 weeks from March, far past NOW
    items = mailbox() + standup_series(weeks=24)
    signals, by_name = _build(items)
    last_mail = max(i.timestamp for i in items if i.timestamp and getattr(i, "sender", None) == OWNER)
    for name in ("ritual-team-standup", "ritual-ada-daniel", "manager", "closest-collaborators"):
        dates = [e.date for e in by_name[name].evidence if e.date]
        assert dates, name
        assert max(dates) <= last_mail, (name, dates)
    standup = next(r for r in signals.rhythms.rituals if r.title == "Team standup")
    # the newest cited occurrence is the last one on or before the owner's last mail
    cited = max(e.date for e in by_name["ritual-team-standup"].evidence if e.date)
    assert last_mail - cited < timedelta(days=4)
    assert not standup.planned and standup.occurrences < 24 * 5  # only what happened is counted
    assert "so far" in by_name["ritual-team-standup"].body


def test_series_only_in_the_future_is_a_plan_cited_by_its_first_occurrence() -> None:
    start = date(2026, 9, 7)  # a Monday, months after NOW and after the owner's last mail
    items: list[Item] = list(mailbox())
    for i in range(10):
        begin = at(start + timedelta(days=7 * i), 11)
        items.append(Event(source="ics:/synthetic", ref=f"retro-{i}", timestamp=begin, summary="Quarterly retro",
                           start=begin, end=begin + timedelta(minutes=45), tzid="Europe/Berlin",
                           organizer=PRIYA, attendees=(OWNER, PRIYA, TOM), series_uid="retro-uid",
                           calendar_owner=OWNER.address))
    signals, by_name = _build(items)
    retro = next(r for r in signals.rhythms.rituals if r.title == "Quarterly retro")
    assert retro.planned
    proposal = by_name["ritual-quarterly-retro"]
    assert [e.date.date() for e in proposal.evidence if e.date] == [start]
    assert "Planned" in proposal.body
