"""The local item cache: a reseed asks a mailbox provider only for new mail, yet analyses all of it.

Why: signals such as "closest collaborators" or "working hours" are only right over the whole
history, so a reseed that found something new used to read every remembered source in full
again — for ``gmail:`` / ``outlook:`` that is the whole mailbox, every morning. A source whose
cursor yields exactly the items added since it declares ``cache="append"`` (see
:class:`connectors.base.Source`); for those, the items a read delivers are also kept, as JSON
(:mod:`bootstrap_app.cache.codec`), in the state database (:mod:`bootstrap_app.store.cache`).

How a reseed uses it (``memseed reseed``):

1. :func:`ingest` (called by reseed's "anything new?" check): the source is read from its cursor,
   the new items go into the cache, and the cursor moves *in the same transaction* as the last
   of them. News is the number of cached items no scan has analysed (their digest is not in the
   store's ``items`` yet), so a reseed that dies after this step still finds them next time.
2. The scan (``scan(..., cached=True)``) does not call the provider for that source at all: it
   :func:`replay`\\ s the cache (earlier items and new ones) through identity and the analyzers,
   so the result equals a full re-read.

Every other read of such a source writes through (:class:`CacheWriter`): a full ``memseed scan``
rebuilds the cache (rows it did not see again are dropped), a read from the cursor appends. The
cache is used only while it is complete up to the stored cursor and in this memseed's
:data:`~bootstrap_app.cache.codec.FORMAT`; otherwise (first reseed after an upgrade, a read with
``--since``, a history id Google forgot — the source calls ``ctx.resync()``) the source is read in
full and its cache rebuilt: rows the full read did not deliver again are dropped, unless the
source continued an interrupted read from its own checkpoint (``ctx.continued``: it yields only
the rest, and the interrupted read's rows are kept). Bounded: a source with more than :data:`~bootstrap_app.cache.rows.MAX_ITEMS` items or
:data:`~bootstrap_app.cache.rows.MAX_BYTES` of cached JSON is not cached (its reseeds read it in full).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from bootstrap_app.cache.codec import FORMAT, isoformat, item_from_json, item_to_json
from bootstrap_app.cache.rows import RowWriter, read_rows
from bootstrap_app.store import Store
from bootstrap_app.types import Item
from connectors.base import ReadContext, Source

__all__ = ["CacheWriter", "account_attrs", "ingest", "item_digest", "replay",
           "restore_account", "serves"]

ACCOUNT_ATTRS = ("owner_addresses", "owner_directory")
"""What an account source learns of its owner while reading (send-as aliases, the directory
entry); kept beside the cache, since a replay does not ask the provider."""


def item_digest(item: Item) -> str:
    """sha256 of ref + timestamp + headline (subject/title): enough to notice a changed item, no body."""
    stamp = isoformat(item.timestamp) if item.timestamp else ""
    return hashlib.sha256(f"{item.ref}\x1f{stamp}\x1f{item.headline}".encode()).hexdigest()


def serves(store: Store, source: Source) -> bool:
    """True when ``source``'s earlier items can come from the cache (see the module docstring)."""
    return source.cache == "append" and store.cache_ready(source.id, FORMAT)


class CacheWriter:
    """Keeps what one read of a ``cache="append"`` source delivers; :meth:`finish` instead of ``set_cursor``.

    Writing stops (and :meth:`finish` drops the cache, while the cursor still moves) when the read
    cannot make the cache complete: read with ``since``, from a cursor while the cache was not
    ready, past the bounds, or a write failed (full disk).
    """

    def __init__(self, store: Store, source: Source, location: str, ctx: ReadContext,
                 since: datetime | None = None) -> None:
        self.store, self.source, self.location, self.ctx = store, source, location, ctx
        self.was_ready = serves(store, source)
        count, size = store.cache_size(source.id) if self.was_ready and ctx.cursor is not None else (0, 0)
        self.writer = RowWriter(store, source.id, count=count, size=size, on_stop=self._stopped)
        if not (since is None and (self.was_ready or ctx.cursor is None)):
            self.writer.enabled = False

    @classmethod
    def open(cls, store: Store, source: Source, location: str, ctx: ReadContext,
             since: datetime | None = None) -> CacheWriter | None:
        """A writer for a source that declares ``cache``; None for every other source."""
        return cls(store, source, location, ctx, since) if source.cache else None

    @property
    def enabled(self) -> bool:
        """Still keeping what this read delivers."""
        return self.writer.enabled

    def add(self, item: Item, digest: str) -> None:
        """Keep ``item``; ``digest`` is its :func:`item_digest`, which the scan has already taken."""
        if self.writer.enabled:
            self.writer.add(item.ref, digest, item_to_json(item))

    def flush(self) -> None:
        """Write the rows held so far (each batch its own transaction, before any cursor moves)."""
        self.writer.flush()

    def finish(self, cursor: dict[str, Any]) -> int:
        """Store the read's cursor together with the cache's last rows; returns rows dropped
        because a full read no longer delivered them (or the whole cache, when it cannot serve)."""
        rebuilt = self.ctx.cursor is None or self.ctx.resynced
        keep = self.enabled and (rebuilt or self.was_ready)
        # a full read that continued an interrupted one yields only the rest: prune nothing
        rebuilt = rebuilt and not self.ctx.continued
        attrs = account_attrs(self.source)
        rows = self.writer.take()
        dropped = self.store.cache_finish(self.source.id, location=self.location, fmt=FORMAT, gen=self.writer.gen,
                                          cursor=cursor, attrs=attrs, rows=rows if keep else [],
                                          rebuilt=rebuilt, keep=keep)
        return dropped if keep else max(dropped, 1)

    def _stopped(self, why: str) -> None:
        self.ctx.skip(self.source.id, "(item cache)", f"item cache {why}; reseeds read {self.source.id} in full",
                      note=True)


def account_attrs(source: Source) -> dict[str, Any]:
    """What ``source`` learned of its account while reading (:data:`ACCOUNT_ATTRS`), as JSON values,
    kept beside its cached items so that a replay knows it too (:func:`restore_account`)."""
    return {name: _jsonable(getattr(source, name)) for name in ACCOUNT_ATTRS if hasattr(source, name)}


def restore_account(source: Source, attrs: dict[str, Any]) -> None:
    """Put back on ``source`` what :func:`account_attrs` kept (lists become tuples again)."""
    for name, value in attrs.items():
        if name in ACCOUNT_ATTRS:
            setattr(source, name, tuple(value) if isinstance(value, list) else value)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else dict(value) if hasattr(value, "items") else value


def replay(store: Store, source: Source, ctx: ReadContext) -> Iterator[Item]:
    """The cached items of ``source`` in delivery order, with what it knew of its account restored.

    A row that cannot be read back drops the cache (the next reseed reads the source in full)
    and is reported as a skip; the replay stops there.
    """
    restore_account(source, store.cache_attrs(source.id))
    yield from read_rows(store, source.id, ctx, item_from_json, f"the next reseed reads {source.id} in full")


def ingest(store: Store, source: Source, location: str, ctx: ReadContext) -> int:
    """Read ``source`` from its cursor into its (ready) cache; how many cached items are news.

    The cursor moves only with the last rows (:meth:`CacheWriter.finish`); a read that stops or
    fails leaves it where it was, and rows already written are simply delivered again.
    """
    writer = CacheWriter(store, source, location, ctx)
    try:
        for item in source.read(ctx):
            writer.add(item, item_digest(item))
    finally:
        writer.flush()
    dropped = writer.finish(ctx.new_cursor) if ctx.new_cursor is not None else 0
    return store.cache_unanalysed(source.id) + (1 if dropped else 0)
