"""A small analyzer shipped for tests, docs and notebooks: it counts what it is shown.

Why ship a fake: the analyzer contract (:mod:`.analyzer`) is easiest to learn from an analyzer
with nothing else in it, and tests of the routing need one that records exactly which items
reached it. ``FakeAnalyzer`` is a real analyzer in every respect: it declares its kinds (every
kind, unless a subclass narrows ``consumes``), keeps only (kind, author key) counts, never
the items, and decides what is the owner's only in ``result``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import ITEM_KINDS, Item

from .analyzer import Analyzer
from .base import is_owner_key, person_key

__all__ = ["FakeAnalyzer", "KindCounts"]


@dataclass(frozen=True)
class KindCounts:
    """Items seen per kind, and how many of them the owner is on (as author or participant)."""

    seen: dict[str, int]
    owner: dict[str, int]


@dataclass
class FakeAnalyzer(Analyzer):
    signal = "fake"
    consumes = ITEM_KINDS

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(kind, person key) -> items; ``""`` as key counts items with nobody on them."""

    def observe(self, item: Item) -> None:
        keys = {k for p in item.people if (k := person_key(p))} or {""}
        for key in keys:
            self.counts[(item.kind, key)] += 1
        self.counts[(item.kind, "*")] += 1

    def result(self, owner: OwnerIdentity) -> KindCounts:
        seen = {kind: n for (kind, key), n in self.counts.items() if key == "*"}
        mine: Counter[str] = Counter()
        for (kind, key), n in self.counts.items():
            if key not in ("", "*") and is_owner_key(key, owner):
                mine[kind] += n
        return KindCounts(seen=dict(sorted(seen.items())), owner=dict(sorted(mine.items())))
