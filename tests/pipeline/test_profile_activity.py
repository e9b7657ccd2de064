"""The profile keeps each author's three newest activities exactly as a sort per item would.

Why: :class:`~bootstrap_app.signals.profile.ProfileAccumulator` used to append every item's
evidence pointer and stable-sort the author's pointers newest first, keeping three; on a large
mailbox that sort (and a ``Ref`` per message) ran 30,000 times. It now finds the place among the
three kept and builds the pointers at the end. The order matters (the first pointers are
cited), so this compares it with the plain append-and-sort on shuffled mail and chat with equal
and missing times, which is where a place search and a stable sort could part.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bootstrap_app.signals.profile import ProfileAccumulator
from bootstrap_app.types import ChatMessage, Item, Message, Person

ADA = Person("Ada Quist", "ada@tidewater.example")
BEN = Person("Ben Ortiz", "ben@harbor.example")
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _items(rng: random.Random, n: int) -> list[Item]:
    items: list[Item] = []
    for i in range(n):
        # few distinct times, so equal times are common; some undated items
        when = None if rng.random() < 0.1 else START + timedelta(hours=rng.randrange(6))
        if rng.random() < 0.3:
            items.append(ChatMessage(source="slack:/x", ref=f"c{i}", timestamp=when, channel="eng", user=ADA,
                                     people=(ADA,), text="hi"))
        else:
            items.append(Message(source="mbox:/x", ref=f"m{i}", timestamp=when, sender=ADA, to=(BEN,),
                                 people=(ADA, BEN), subject="notes", body="hi", labels=("Sent",)))
    return items


def _plain(items: list[Item]) -> list[tuple[str, str]]:
    """(ref, note) of the three newest, as the append-and-stable-sort reading kept them."""
    kept: list[tuple[float, str, str]] = []
    for item in items:
        when = item.timestamp.date().isoformat() if item.timestamp else "undated"
        note = f"chat message in #eng, {when}" if isinstance(item, ChatMessage) else f"mail sent {when}"
        kept.append((item.timestamp.timestamp() if item.timestamp else float("-inf"), item.ref, note))
        if len(kept) > 3:
            kept.sort(key=lambda k: k[0], reverse=True)
            del kept[3:]
    return [(ref, note) for _, ref, note in kept]


def test_kept_activities_equal_append_and_sort() -> None:
    rng = random.Random(23)
    for n in (1, 2, 3, 4, 5, 9, 40):
        for _ in range(60):
            items = _items(rng, n)
            acc = ProfileAccumulator()
            for item in items:
                acc.observe(item)
            got = [(r.ref, r.note) for r in acc._activity_refs(ADA.address)]
            assert got == _plain(items), [(i.ref, i.timestamp) for i in items]
            assert all(r.author == ADA.address for r in acc._activity_refs(ADA.address))
