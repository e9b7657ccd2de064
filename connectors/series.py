"""An account calendar's ledger in event series, as the ics reader keeps it (issue 29).

Why series and not occurrences: Google and Graph hand a recurring meeting out as its
occurrences, and a weekly meeting read over a year is one thing the person knows, not 52. A
series is *read* when one of its occurrences became an item, *failed* when none did and one
could not be read (the scan is then partial), and *passed over* when all its occurrences in the
window were cancelled. The ledger then counts these units instead of items (``ctx.units_read``).
"""

from __future__ import annotations

from .base import ReadContext

__all__ = ["CANCELLED", "SeriesTally"]

CANCELLED = "event series whose occurrences are all cancelled"


class SeriesTally:
    """Outcomes of a read's occurrences, grouped by their series key (the provider's series id)."""

    def __init__(self) -> None:
        self.read: set[str] = set()
        self.failed: set[str] = set()
        self.cancelled: set[str] = set()

    def item(self, key: str) -> None:
        self.read.add(key)

    def fail(self, key: str) -> None:
        self.failed.add(key)

    def cancel(self, key: str) -> None:
        self.cancelled.add(key)

    def finish(self, ctx: ReadContext) -> None:
        """Count every series once: read beats failed (one odd occurrence of a series read is a
        remark), failed beats cancelled."""
        failed = self.failed - self.read
        cancelled = self.cancelled - self.read - failed
        ctx.find(len(self.read) + len(failed) + len(cancelled))
        ctx.units_read = (ctx.units_read or 0) + len(self.read)
        ctx.units_failed += len(failed)
        ctx.pass_over(CANCELLED, len(cancelled))
