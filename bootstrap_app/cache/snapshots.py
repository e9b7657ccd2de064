"""Path sources' parsed items, kept so a re-analysis replays them instead of reading the files again.

Why: after the person corrects who they are (the wizard's "Who you are" page: an alias confirmed or
rejected, a source marked not theirs) the whole analysis runs again, since the owner decides what
every signal means. Reading a 100 MB mbox, a calendar and a Slack export again for that costs most
of a first scan, although not one byte of them changed. So every full read of a source with a local
path (mbox, ``.ics``, Slack export, Takeout, repositories, document folders …) also keeps the items
it yielded, as JSON (:mod:`bootstrap_app.cache.codec`), in the state database's item cache tables
(:mod:`bootstrap_app.store.cache`), together with a *key*:

* the source's :meth:`~connectors.base.Source.stamp` — size, modification and inode-change time and
  inode number of every file under the path (a git working copy: HEAD, index, config and the stats
  of changed tracked files), taken *before* the read, so a file written during it is read again;
* the reader's version: its class, its ``reader_version`` declaration and memseed's own version;
* the cache's JSON :data:`~bootstrap_app.cache.codec.FORMAT`.

A scan with ``cached=True`` (the wizard's re-analysis, ``memseed reseed``) replays a source whose
key still matches (:func:`serves`) and reads any other in full, which rebuilds its entry. What the
read reported besides items (skipped files, the window read, items left out, an account's own
addresses) is kept beside the rows and reported again by the replay, so the per-source accounting
is the same. Bounded like the mailbox cache (:data:`~bootstrap_app.cache.rows.MAX_ITEMS` items or
:data:`~bootstrap_app.cache.rows.MAX_BYTES` of JSON per source; a larger source is read every time).
Sources that declare ``cache="append"`` (Gmail, Outlook) keep using :mod:`bootstrap_app.cache.append`.

An mbox message whose body no analysis has read yet is kept as the byte span of its message
(:func:`_body_ref`), unless an analysis can ever ask for that body whoever the owner turns out to
be: those are kept as text (:class:`_NewestBodies`), so a re-analysis after an identity
correction opens no mailbox either (issue 29).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any, cast

from bootstrap_app.cache.append import account_attrs, restore_account
from bootstrap_app.cache.codec import FORMAT, item_from_json, item_to_json
from bootstrap_app.cache.rows import MAX_BYTES, RowWriter, read_rows
from bootstrap_app.signals import person_key
from bootstrap_app.signals.newest import BODY_NEVER, BODY_NEWEST, NewestPerSender, body_demand
from bootstrap_app.store import Store
from bootstrap_app.text import redact_secrets
from bootstrap_app.types import Item, Message
from connectors.base import ReadContext, Source
from connectors.local.lazybody import FileBody, LazyMessage

__all__ = ["SnapshotWriter", "replay", "serves", "snapshot_key"]

_LAYOUT = 3
"""Part of every key: 2 keeps an unread mbox body as a reference to its bytes (:func:`_body_ref`),
which a memseed that wrote layout 1 would read back as an empty body; 3 keeps as text every body
an analysis can ask for (:class:`_NewestBodies`), so an entry of layout 2, which would open the
mailbox for them, is read again once."""


def _memseed_version() -> str:
    try:
        return metadata.version("memseed")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def snapshot_key(source: Source) -> str | None:
    """The key a kept read of ``source`` must carry to be replayed; None: not kept (no local path,
    an ``append`` source, or too many files to stat)."""
    if source.cache or not Path(source.location).expanduser().exists():
        return None
    if not _storable(source.location):  # a path that is not valid UTF-8 cannot be a store key: read it each time
        return None
    stamp = source.stamp()
    if stamp is None:
        return None
    reader = f"{type(source).__module__}.{type(source).__qualname__}/{source.reader_version}/{_memseed_version()}"
    return hashlib.sha256(f"{FORMAT}\x1f{_LAYOUT}\x1f{reader}\x1f{stamp}".encode("utf-8", "surrogateescape")).hexdigest()


def serves(store: Store, source: Source, key: str | None) -> bool:
    """True when ``source``'s kept items were made from what ``key`` (:func:`snapshot_key`, taken now) names."""
    return key is not None and store.snapshot_ready(source.id, FORMAT, key)


class SnapshotWriter:
    """Keeps what one full read of a path source yields; :meth:`finish` after the read completed.

    Nothing is kept for a read that is not full (``--since``, from a cursor) or that stopped, failed
    or grew past the bounds: the source's entry then stays unusable until a full read finishes.
    """

    def __init__(self, store: Store, source: Source, location: str, key: str) -> None:
        self.store, self.source, self.key = store, source, key
        path = Path(location).expanduser()
        self.location = str(path.resolve()) if path.exists() else location  # as `memseed sources` remembers it
        self.writer = RowWriter(store, source.id, errors=(sqlite3.Error, OSError, UnicodeError),
                                on_stop=lambda _why: self.refs.clear())  # too large or not writable: read it each time
        self.refs: set[str] = set()
        self.bodies = _NewestBodies()
        self.absolute: dict[str, str] = {}
        """A body's file name -> its absolute path (a mailbox's bodies share one or a few files)."""
        store.snapshot_begin(source.id)

    @property
    def enabled(self) -> bool:
        """Still keeping what this read yields."""
        return self.writer.enabled

    @classmethod
    def open(cls, store: Store, source: Source, location: str, key: str | None, ctx: ReadContext,
             since: datetime | None) -> SnapshotWriter | None:
        """A writer when this read is a full one of a source with a key; None otherwise."""
        if key is None or since is not None or ctx.cursor is not None:
            return None
        try:
            return cls(store, source, location, key)
        except (sqlite3.Error, OSError):
            return None

    def add(self, item: Item, digest: str) -> None:
        """Keep ``item`` (``digest``: its :func:`~bootstrap_app.cache.append.item_digest`)."""
        if not self.writer.enabled:
            return
        # the row's key; the item keeps its own ref in ``data``. Two items under one ref (a memory
        # entry and its index line, occurrences of a moved event) are kept as two rows: dropping the
        # whole snapshot for it made re-analysis read those sources again
        key = item.ref if item.ref not in self.refs else f"{item.ref}\x1f#{self.writer.count + 1}"
        ref = _body_ref(item, self.absolute)
        if ref is not None and not self.bodies.defer(cast(Message, item), key):
            ref = None  # an analysis can ask for it whoever the owner is: kept as text (read now if unread)
        data = item_to_json(item, "body", {"fb": ref}) if ref is not None else item_to_json(item)
        if self.writer.add(key, digest, data):
            self.refs.add(key)
            if ref is not None:
                self.bodies.sized(key, len(data))

    def flush(self) -> None:
        """Write the rows held so far (they serve nothing until :meth:`finish`)."""
        self.writer.flush()

    def finish(self, ctx: ReadContext) -> bool:
        """The read completed: the rows, what the read reported and the key in one transaction.
        False when nothing was kept (too large, a failed write); the source is then read next time."""
        if not self.writer.enabled:
            return False
        updates = self.bodies.settle()
        self.writer.bytes += sum(len(data) - before for _key, data, before in updates)
        if self.writer.bytes > MAX_BYTES:
            self.writer.stop("too large to keep with the bodies a re-analysis reads")
            return False
        attrs = account_attrs(self.source)
        attrs["report"] = {
            "skips": [[s.source, s.ref, s.reason] for s in ctx.skips],
            "window": [ctx.window_from.isoformat() if ctx.window_from else "",
                       ctx.window_to.isoformat() if ctx.window_to else ""],
            "left_out": ctx.left_out, "left_out_reasons": list(ctx.left_out_reasons),
            "ledger": {"found": ctx.found, "counted": ctx.counted, "passed": dict(ctx.passed),
                       "notes": sorted(ctx.notes), "units": None if ctx.units_read is None
                       else [ctx.units_read, ctx.units_failed]}}
        try:
            self.store.snapshot_finish(self.source.id, location=self.location, fmt=FORMAT, gen=self.writer.gen,
                                       key=self.key, attrs=attrs, rows=self.writer.take(),
                                       updates=[(key, data) for key, data, _before in updates])
        except (sqlite3.Error, OSError, UnicodeError):
            return False
        return True


class _NewestBodies:
    """Which unread mbox bodies a re-analysis can ask for, so the snapshot keeps them as text.

    Why: a body kept only as a span (:func:`_body_ref`) is read back from the mbox when an
    analyzer asks, so the wizard's re-analysis after an identity correction opened the mailbox
    once per such message (693 times for two Enron inboxes). What the analyzers read does not
    depend on who the owner is (:func:`~bootstrap_app.signals.newest.body_demand`): every
    message not judged received, and each received sender's newest few. The first are kept as
    text at once (most were decoded for the analysis already); the newest of each sender of this
    source are known only at its end, so their rows are written with the span and their text
    replaces it when the read completes (:meth:`settle`) — the same bodies the first analysis
    reads a moment later, so it decodes none twice. A sender past
    :data:`~bootstrap_app.signals.newest.MAX_DEFERRED_SENDERS` has every message read by the
    profile, so every one is kept as text here too.
    """

    def __init__(self) -> None:
        self.newest: NewestPerSender[tuple[str, LazyMessage]] = NewestPerSender()
        self.size: dict[str, int] = {}

    def defer(self, item: Message, key: str) -> bool:
        """True: keep ``item``'s body as a span for now (never read, or maybe among its sender's
        newest); False: keep it as text now."""
        demand = body_demand(item)
        if demand != BODY_NEWEST:
            return demand == BODY_NEVER
        value = (key, cast(LazyMessage, item))
        when = item.timestamp.timestamp() if item.timestamp else float("-inf")  # as the profile dates it
        held, dropped = self.newest.offer(person_key(item.sender), when, value)
        if not held:
            return False  # past the sender bound: the profile reads it at once, so keep it as text
        if dropped is value:
            return True  # older than the sender's newest: never read, kept as its span
        if dropped is not None:
            self.size.pop(dropped[0], None)  # no longer among the newest: stays a span
        self.size[key] = -1
        return True

    def sized(self, key: str, size: int) -> None:
        """The row ``key`` holding a span was written, ``size`` characters long."""
        if key in self.size:
            self.size[key] = size

    def settle(self) -> list[tuple[str, str, int]]:
        """(row key, JSON with the body as text, the row's size before) of each sender's newest."""
        out = [(key, item_to_json(item), self.size[key])
               for key, item in self.newest.take() if self.size.get(key, -1) >= 0]
        self.size.clear()
        return out


def _body_ref(item: Item, absolute: dict[str, str]) -> list[Any] | None:
    """A message whose body is still unread, as (path, span, cap) of the file it will be read from.

    Why: decoding every body only to keep it would undo what lazy bodies save (a large mailbox's
    bodies were most of the scanning process's work), and the kept rows serve only while the
    key says the file is unchanged, so the span still names the same bytes. Only with the default
    cleaner (secret redaction), the one a replay can name without running code named by the row.
    ``absolute`` memoizes the absolute file names for one read."""
    body = item.unread_body() if isinstance(item, LazyMessage) else None
    if body is None or body.cleaner is not redact_secrets:
        return None
    # absolute: a re-analysis may run from another working directory than the read did
    path = absolute.get(body.path)
    if path is None:
        path = absolute[body.path] = os.path.abspath(body.path)
    return [path, body.start, body.header_end, body.body_start, body.body_end, body.cap]


def _build(cls: type[Any], values: dict[str, Any], row: dict[str, Any]) -> Item:
    """A kept item; a message kept with a body reference (:func:`_body_ref`) reads it on first use."""
    ref = row.get("fb")
    if ref is None:
        return cls(**values)
    if cls is not Message or len(ref) != 6:
        raise ValueError("a body reference on something that is not a message")
    path, start, header_end, body_start, body_end, cap = ref
    body = FileBody(str(path), int(start), int(header_end), int(body_start), int(body_end), int(cap), redact_secrets)
    return LazyMessage.with_loader(body, **values)


def _storable(text: str) -> bool:
    """True when ``text`` can go into SQLite as UTF-8 (a path read from a non-UTF-8 file name holds
    lone surrogates, which SQLite refuses)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def replay(store: Store, source: Source, ctx: ReadContext) -> Iterator[Item]:
    """The kept items of ``source`` in read order; the read's skips, window and left-out count are
    reported to ``ctx`` again. A row that cannot be read back drops the entry (reported as a skip)."""
    attrs = store.cache_attrs(source.id)
    restore_account(source, attrs)
    report = attrs.get("report") or {}
    for src, ref, reason in report.get("skips", []):
        ctx.skip(src, ref, reason)
    start, end = (report.get("window") or ["", ""])[:2]
    if start and end:
        ctx.window_from, ctx.window_to = datetime.fromisoformat(start), datetime.fromisoformat(end)
    ctx.left_out = int(report.get("left_out", 0))
    ctx.left_out_reasons = list(report.get("left_out_reasons", []))
    ledger = report.get("ledger") or {}  # the read's ledger, so a replay is accounted as the read was
    ctx.found, ctx.counted = int(ledger.get("found", 0)), bool(ledger.get("counted", False))
    ctx.passed = {str(k): int(v) for k, v in (ledger.get("passed") or {}).items()}
    ctx.notes = {int(i) for i in ledger.get("notes", [])}
    if ledger.get("units"):
        ctx.units_read, ctx.units_failed = (int(n) for n in ledger["units"])
    yield from read_rows(store, source.id, ctx, lambda data: item_from_json(data, _build),
                         f"the next analysis reads {source.id} again")

