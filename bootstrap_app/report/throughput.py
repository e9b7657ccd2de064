"""How fast a source is being read and how long it has left: items and bytes per second, time left.

Why apart from the reader: a connector only says how far it got (items, and for a file source
bytes done of bytes in all, ``ReadContext.progress_bytes``); the CLI's stderr line and the
wizard's Scan page both turn that into rates and a time left, so the arithmetic lives here once.
The rates are averages since the read began (a large mbox reads at an even pace, and a
steady estimate is easier to read than a jumpy one); the time left is the bytes still to go at
the byte rate so far.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["Throughput"]


@dataclass
class Throughput:
    """One source's read so far; feed it :meth:`update`, read the rates and :meth:`line`."""

    started: float = field(default_factory=time.monotonic)
    items: int = 0
    done_bytes: int = 0
    total_bytes: int = 0
    now: float = 0.0

    def update(self, items: int | None = None, done_bytes: int | None = None, total_bytes: int | None = None,
               now: float | None = None) -> None:
        if items is not None:
            self.items = max(self.items, items)
        if done_bytes is not None:
            self.done_bytes = max(self.done_bytes, done_bytes)
        if total_bytes is not None:
            self.total_bytes = total_bytes
        self.now = time.monotonic() if now is None else now

    @property
    def seconds(self) -> float:
        return max(0.0, (self.now or time.monotonic()) - self.started)

    @property
    def items_per_second(self) -> float:
        return self.items / self.seconds if self.seconds > 0 else 0.0

    @property
    def bytes_per_second(self) -> float:
        return self.done_bytes / self.seconds if self.seconds > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        """Time left at the byte rate so far; None while nothing says how much there is."""
        rate = self.bytes_per_second
        if not self.total_bytes or rate <= 0:
            return None
        return max(0.0, (self.total_bytes - self.done_bytes) / rate)

    def line(self) -> str:
        """``12,000 items · 4,100 items/s · 12.5 MB/s · 38% · 1m05s left`` (bytes parts when known)."""
        parts = [f"{self.items:,} items", f"{self.items_per_second:,.0f} items/s"]
        if self.total_bytes:
            parts += [f"{self.bytes_per_second / 1e6:.1f} MB/s", f"{100 * self.done_bytes / self.total_bytes:.0f}%"]
            if left := self.left_text():
                parts.append(f"{left} left")
        return " · ".join(parts)

    def left_text(self) -> str:
        """The time left as ``1m05s`` or ``38s``; "" while it is unknown."""
        left = self.seconds_left
        if left is None:
            return ""
        minutes, secs = divmod(int(left + 0.5), 60)
        return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
