"""The one row writer (and reader) under both item caches: batches, bounds, what stops them.

Why one: the append cache of account sources (:mod:`bootstrap_app.cache.append`) and the
snapshots of path sources (:mod:`bootstrap_app.cache.snapshots`) keep rows of the same shape in
the same tables (:mod:`bootstrap_app.store.cache`), under the same bounds, written in batches of
the same size. What differs is policy — when a read may be kept, how an item becomes a row, what
a stop means to the person — and that stays with each cache. Counting, bounding and batching
were two copies of one idea, and so was reading the rows back; here each is one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator

from bootstrap_app.errors import StoreError
from bootstrap_app.store import Store
from bootstrap_app.types import Item
from connectors.base import ReadContext

__all__ = ["FLUSH_ROWS", "MAX_BYTES", "MAX_ITEMS", "Row", "RowWriter", "read_rows"]

MAX_ITEMS = 50_000
"""Items cached per source at most (a mailbox's received mail is headers only: ~1 KB each)."""
MAX_BYTES = 256 * 1024 * 1024
"""Characters of JSON (about bytes) cached per source at most (bodies are capped at ``max_text_chars`` already)."""
FLUSH_ROWS = 2000
"""Rows written per batch, and items per progress report on replay (both caches)."""

Row = tuple[str, str, str]
"""(row key, item digest, item JSON)."""


class RowWriter:
    """Counts, bounds and batches the rows one read of one source delivers.

    ``count``/``size``: what the cache already holds when a read appends to it. ``errors``: the
    write failures that stop keeping rows (the read itself goes on). ``on_stop(why)`` is told
    once, the first time the writer stops (past the bounds, a failed write, or :meth:`stop`)."""

    def __init__(self, store: Store, source_id: str, *, count: int = 0, size: int = 0,
                 errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError),
                 on_stop: Callable[[str], None] | None = None) -> None:
        self.store, self.source_id, self.errors, self.on_stop = store, source_id, errors, on_stop
        self.gen = store.cache_generation()
        self.count, self.bytes = count, size
        self.rows: list[Row] = []
        self.enabled = True

    def add(self, key: str, digest: str, data: str) -> bool:
        """Hold one row (writing a batch when :data:`FLUSH_ROWS` are held); False when the writer
        is stopped or this row took it past :data:`MAX_ITEMS` / :data:`MAX_BYTES`."""
        if not self.enabled:
            return False
        self.count += 1
        self.bytes += len(data)
        if self.count > MAX_ITEMS or self.bytes > MAX_BYTES:
            self.stop(f"more than {MAX_ITEMS} items or {MAX_BYTES // 2**20} MB: too large to keep")
            return False
        self.rows.append((key, digest, data))
        if len(self.rows) >= FLUSH_ROWS:
            self.flush()
        return True

    def flush(self) -> None:
        """Write the rows held so far, as one transaction of their own."""
        if not (self.rows and self.enabled):
            return
        try:
            self.store.cache_put(self.source_id, self.gen, self.rows)
        except self.errors as exc:
            self.stop(f"not written ({exc})")
        self.rows = []

    def take(self) -> list[Row]:
        """The rows still held (for the cache's final transaction), and none held after."""
        rows, self.rows = self.rows, []
        return rows

    def stop(self, why: str) -> None:
        """Keep nothing more from this read; ``on_stop`` hears ``why`` the first time."""
        if self.enabled and self.on_stop is not None:
            self.on_stop(why)
        self.enabled = False
        self.rows = []


def read_rows(store: Store, source_id: str, ctx: ReadContext, decode: Callable[[str], Item],
              broken: str) -> Iterator[Item]:
    """The rows kept for ``source_id`` as items, in the order they were kept, with a progress event
    every :data:`FLUSH_ROWS`. A row ``decode`` cannot read back (:class:`StoreError`) drops all of
    the source's rows — the next read of it is a full one — and is reported as a remark, ``broken``
    said after the reason; the replay ends there."""
    for count, data in enumerate(store.cache_rows(source_id), 1):
        try:
            item = decode(data)
        except StoreError as exc:
            store.cache_drop(source_id)
            ctx.skip(source_id, "(item cache)", f"{exc}; {broken}", note=True)
            return
        if count % FLUSH_ROWS == 0:
            ctx.progress(source_id, count)
        yield item
