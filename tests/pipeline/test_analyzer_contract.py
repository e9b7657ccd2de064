"""Every analyzer keeps the analyzer contract (bootstrap_app/signals/analyzer.py), checked the same way.

The matrix: every class in ``ANALYZERS``, the shipped :class:`FakeAnalyzer`, the pipeline's own
stream consumers (the LLM sample, the memory already held) and the meeting-load example of
docs/extending.md ("Add an analyzer"), loaded from the doc itself.

Each must: declare a signal name and only known item kinds; give a result before it saw
anything; be handed only the kinds it declared; and keep third-party free text (bodies,
chat text, document text, event descriptions) out of its result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bootstrap_app.extract.collect import HeldMemory, LlmSample
from bootstrap_app.identity.resolve import OwnerIdentity
from bootstrap_app.signals import ANALYZERS, Analyzer, KindRouter, SignalBuilder
from bootstrap_app.signals.fake import FakeAnalyzer, KindCounts
from bootstrap_app.types import (
    ITEM_KINDS,
    ChatMessage,
    Document,
    Event,
    Item,
    MemoryEntry,
    MemoryType,
    Message,
    Person,
    Repo,
)
from tests.doc_examples import load_example

EXAMPLE = load_example("Add an analyzer")
MeetingLoadAnalyzer = EXAMPLE.MeetingLoadAnalyzer

MATRIX: list[type[Analyzer]] = [*ANALYZERS, FakeAnalyzer, LlmSample, HeldMemory, MeetingLoadAnalyzer]

OWNER = Person("Maya Okafor", "maya@northwind.example")
PEER = Person("Daniel Reyes", "daniel@northwind.example")
OTHER = Person("Mallory Vendor", "mallory@vendor.example")
SECRET_TEXT = "TPMARKER7731 zebra quartz"  # third-party free text: must never reach a result
IDENTITY = OwnerIdentity(names=("Maya Okafor",), addresses=frozenset({OWNER.address}))


def _t(day: int, hour: int = 10) -> datetime:
    return datetime(2026, 3, day, hour, tzinfo=UTC)


def footprint() -> list[Item]:
    """One or more items of every kind, from the owner and from third parties (with marked text)."""
    items: list[Item] = []
    for day in range(2, 20):
        items.append(Message(source="mbox:/x", ref=f"o{day}", timestamp=_t(day), people=(OWNER, PEER),
                             sender=OWNER, to=(PEER,), subject="ledger plan", body="We never push to main.",
                             labels=("Sent",)))
        items.append(Message(source="mbox:/x", ref=f"t{day}", timestamp=_t(day, 11), people=(OTHER, OWNER),
                             sender=OTHER, to=(OWNER,), subject="offer", body=SECRET_TEXT))
        items.append(ChatMessage(source="slack:/x", ref=f"c{day}", timestamp=_t(day, 12), people=(OTHER,),
                                 workspace="w", channel="general", user=OTHER, text=SECRET_TEXT, thread_ts="1"))
        items.append(Event(source="ics:/x", ref=f"e{day}", timestamp=_t(day, 9), start=_t(day, 9),
                           end=_t(day, 9) + timedelta(minutes=30), summary="Standup", series_uid="s1",
                           organizer=PEER, attendees=(OWNER, PEER), people=(OWNER, PEER), description=SECRET_TEXT))
    items.append(Document(source="folder:/x", ref="d1", timestamp=_t(3), path="/docs/runbook-ledger.md",
                          title="Ledger runbook", text=SECRET_TEXT, people=(OTHER,)))
    items.append(Repo(source="git:/x", ref="r1", timestamp=_t(4), path="/src/ledger", name="ledger",
                      files={"Makefile": "test:\n\tpytest\n"}, commit_count=3,
                      authors=(("Maya Okafor", OWNER.address, 3),)))
    items.append(MemoryEntry(source="claude-code:/x", ref="m1", name="uses-uv", description="uv",
                             memory_type=MemoryType.FEEDBACK, body="Use uv."))
    return items


@pytest.mark.parametrize("cls", MATRIX, ids=lambda c: c.__name__)
def test_declarations(cls: type[Analyzer]) -> None:
    assert cls.signal and cls.signal == cls.signal.lower() and " " not in cls.signal
    assert cls.consumes and set(cls.consumes) <= ITEM_KINDS, cls.consumes


def test_signal_names_are_unique_in_the_registry() -> None:
    names = [cls.signal for cls in ANALYZERS]
    assert len(names) == len(set(names)), names


@pytest.mark.parametrize("cls", MATRIX, ids=lambda c: c.__name__)
def test_result_before_anything_was_seen(cls: type[Analyzer]) -> None:
    for owner in (OwnerIdentity(), IDENTITY):
        cls().result(owner)
        cls(known_owners=frozenset({OWNER.address})).result(owner)


@dataclass
class _Spy(FakeAnalyzer):
    """Records every kind it was handed (the fake counts; this keeps the order too)."""

    def __post_init__(self) -> None:
        self.handed: list[str] = []

    def observe(self, item: Item) -> None:
        self.handed.append(item.kind)
        super().observe(item)


@pytest.mark.parametrize("cls", MATRIX, ids=lambda c: c.__name__)
def test_only_declared_kinds_arrive_and_no_third_party_text_leaves(cls: type[Analyzer]) -> None:
    spy_cls = type(f"Spy{cls.__name__}", (_Spy,), {"consumes": cls.consumes, "signal": "spy"})
    analyzer, spy = cls(known_owners=frozenset({OWNER.address})), spy_cls()
    router = KindRouter([analyzer, spy])
    items = footprint()
    for item in items:
        router.observe(item)
    assert set(spy.handed) == {i.kind for i in items} & set(cls.consumes)
    assert len(spy.handed) == sum(1 for i in items if i.kind in cls.consumes)
    result = analyzer.result(IDENTITY)
    assert SECRET_TEXT.split()[0] not in repr(result), f"{cls.__name__} let third-party text into its result"


def test_an_undeclared_or_unknown_kind_is_refused() -> None:
    class Typo(FakeAnalyzer):
        consumes = frozenset({"messages"})

    with pytest.raises(ValueError, match="messages"):
        KindRouter([Typo()])


def test_fake_analyzer_counts_kinds_and_the_owners_share() -> None:
    fake = FakeAnalyzer()
    items = footprint()
    for item in items:
        fake.observe(item)
    counts = fake.result(IDENTITY)
    assert isinstance(counts, KindCounts)
    assert counts.seen == {"chatmessage": 18, "document": 1, "event": 18, "memoryentry": 1, "message": 36,
                           "repo": 1}
    assert counts.owner == {"event": 18, "message": 36}  # on every mail (as sender or recipient) and event


def test_builder_routes_and_reports_an_added_analyzer_in_extra() -> None:
    builder = SignalBuilder(known_owners=(OWNER.address,), analyzers=(*ANALYZERS, MeetingLoadAnalyzer, FakeAnalyzer))
    for item in footprint():
        builder.observe(item)
    signals = builder.build(IDENTITY, now=_t(28))
    load = signals.extra["meeting_load"]
    # 18 half-hour standups from 2 to 19 March 2026: ISO weeks 10, 11 and 12 hold 5, 7 and 6 of them
    assert (load.meetings, load.weeks) == (18, 3)
    assert load.hours_per_week == round(18 * 30 / 60 / 3, 1)
    assert signals.extra["fake"].seen["repo"] == 1
    assert [r.text for r in signals.rules] == ["We never push to main."]
    data: dict[str, Any] = signals.to_dict()
    assert data["meeting_load"] == {"hours_per_week": 3.0, "weeks": 3, "meetings": 18}
    json.dumps(data)  # plain data for the digest and notebooks


def test_meeting_load_leaves_out_meetings_without_the_owner() -> None:
    analyzer = MeetingLoadAnalyzer()
    for day in (2, 3):
        analyzer.observe(Event(source="ics:/x", ref=f"x{day}", start=_t(day), end=_t(day, 12), summary="Offsite",
                               attendees=(PEER, OTHER)))
    analyzer.observe(Event(source="ics:/x", ref="y", start=_t(4), end=_t(4, 11), summary="1:1",
                           attendees=(OWNER, PEER)))
    analyzer.observe(Event(source="ics:/x", ref="z", start=_t(5), end=_t(5, 11), summary="Cancelled",
                           attendees=(OWNER, PEER), status="CANCELLED"))
    assert analyzer.result(IDENTITY) == EXAMPLE.MeetingLoad(hours_per_week=1.0, weeks=1, meetings=1)
