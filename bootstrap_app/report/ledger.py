"""The ledger of one source's read: everything the reader found ends as an item or a skip.

Why: a Maildir holding only ``cur/`` once lost 6 of 13 messages without a word, and a folder's
files of a kind memseed does not read vanished from its table ("left out: nothing"). Counting
items and skips separately cannot notice that; only a count of what the reader *found*, taken
where it lists its files, splits its mbox or walks its export, can. A reader calls
``ctx.find()`` for each unit it finds (:class:`connectors.base.ReadContext`); each unit must then
end as an item, as a skip naming it (``ref``) with its reason, or as passed over by choice
(``ctx.pass_over``: older than ``--since``, unchanged since the last read). The scan checks

    found = read + skipped

per source (``skipped`` = units skipped with a reason + units passed over) and reports a
mismatch in the summary as a reader fault, rather than assuming the sum holds.

Which skips count as units: a skip's ``ref`` names the unit; a skip whose ref is also an item's
(a message read partially) is a remark on that item, and notes (``ctx.skip(..., note=True)``)
speak of the source as a whole. A unit skipped twice (two reasons) counts once.

What is *partial*: a unit skipped because it could not be read (unreadable, broken, truncated,
binary where text was expected, a folder that cannot be listed). A unit passed over by choice or
of a kind memseed does not read (:data:`EXPECTED`) is not a failure. ``memseed scan`` exits with
status 3 (``EXIT_PARTIAL``) when any source was partial or failed while others were read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.types import Skip

__all__ = ["EXPECTED", "Ledger", "RefWatch", "expected_skip", "ledger_of"]

EXPECTED = ("not a kind of file memseed reads", "not entered", "passed over")
"""Heads of skip reasons that are a choice, not a failure (a scan with only these is complete)."""


def expected_skip(reason: str) -> bool:
    """True for a skip that reports a choice (a file type memseed does not read), not a failure."""
    return any(head in reason for head in EXPECTED)


class RefWatch:
    """Which items of a read were also named by a unit skip (read with a remark, not lost).

    The scan shows it each item as it streams; the work per item is one length comparison
    while the read has no skips, and one set lookup when it has some."""

    __slots__ = ("ctx_skips", "notes", "refs", "seen", "with_skip")

    def __init__(self, skips: list[Skip], notes: set[int]) -> None:
        self.ctx_skips, self.notes = skips, notes
        self.seen = 0
        self.refs: set[str] = set()
        self.with_skip: set[str] = set()

    def item(self, ref: str) -> None:
        skips = self.ctx_skips
        if len(skips) != self.seen:
            self.refs.update(s.ref for i, s in enumerate(skips[self.seen:], self.seen) if i not in self.notes)
            self.seen = len(skips)
        if self.refs and ref in self.refs:
            self.with_skip.add(ref)


@dataclass
class Ledger:
    """found = read + skipped for one source (``skipped`` = unit skips + passed over)."""

    found: int
    read: int
    skipped_units: int
    passed: dict[str, int] = field(default_factory=dict)
    failed_units: int = 0
    """Unit skips that are failures (not :data:`EXPECTED`): what makes a scan partial."""

    @property
    def skipped(self) -> int:
        return self.skipped_units + sum(self.passed.values())

    @property
    def balanced(self) -> bool:
        return self.found == self.read + self.skipped

    def to_json(self) -> dict[str, Any]:
        return {"found": self.found, "read": self.read, "skipped": self.skipped,
                "skipped_with_reason": self.skipped_units, "passed_over": dict(self.passed),
                "failed": self.failed_units, "balanced": self.balanced}


def ledger_of(found: int, read: int, skips: Iterable[Skip], notes: set[int], read_refs: set[str],
              passed: dict[str, int], units: tuple[int, int] | None = None) -> Ledger:
    """The ledger of a finished read: ``read`` items, the unit skips among ``skips`` (not notes,
    not naming an item in ``read_refs``; one per ref), ``passed`` over by reason. ``units``: a
    reader whose items are not its units counted (read, failed) itself (``ctx.units_read``)."""
    if units is not None:
        return Ledger(found, units[0], units[1], dict(passed), units[1])
    units_by_ref: dict[str, bool] = {}
    for i, skip in enumerate(skips):
        if i in notes or skip.ref in read_refs:
            continue
        units_by_ref[skip.ref] = units_by_ref.get(skip.ref, False) or not expected_skip(skip.reason)
    return Ledger(found, read, len(units_by_ref), dict(passed), sum(units_by_ref.values()))
