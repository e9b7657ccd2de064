"""The local item cache's tables: items an ``append`` source delivered, and what they are complete up to.

Why in the state database: the cache is only usable together with the source's cursor (the
cache holds every item up to the cursor, the provider is asked for everything after it), and
SQLite lets both change in one transaction. That is the whole crash-safety argument: items are
written *before* the cursor that covers them, and :meth:`CacheMixin.cache_finish` moves the
cursor and the cache's own record of it together, so a read that dies half-way leaves the old
cursor, and the retry delivers the same items again (they replace their rows by ref).

``cache_state.cursor`` is the JSON text of the cursor the cache is complete up to. The cache is
*ready* only while that text equals the stored cursor, so anything that moves the cursor without
filling the cache (an older memseed, a read with ``--since``) makes it unusable, never wrong.
Rows hold the JSON of :mod:`bootstrap_app.cache.codec`; the row codec and the policy (when to
write, when to read back) live in :mod:`bootstrap_app.cache.append`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .schema import StoreBase, now

__all__ = ["CacheMixin"]

_CHUNK = 1000


class CacheMixin(StoreBase):
    """``cached_items`` and ``cache_state`` (see the module docstring)."""

    def cache_ready(self, source: str, fmt: int) -> bool:
        """True when ``source``'s cache is complete up to its stored cursor, in format ``fmt``."""
        row = self._db.execute(
            "SELECT 1 FROM cache_state s JOIN cursors c ON c.source = s.source "
            "WHERE s.source=? AND s.format=? AND s.cursor = c.cursor", (source, fmt)).fetchone()
        return row is not None

    def cache_generation(self) -> int:
        """A number no earlier cache write used: the rows one read writes carry it."""
        row = self._db.execute("SELECT COALESCE(MAX(gen), 0) + 1 FROM cached_items").fetchone()
        return int(row[0])

    def cache_put(self, source: str, gen: int, rows: Iterable[tuple[str, str, str]]) -> None:
        """Add or replace (ref, digest, JSON) rows; a replaced row moves to the end of the order."""
        with self.transaction() as db:
            self._put(db, source, gen, rows)

    @staticmethod
    def _put(db: Any, source: str, gen: int, rows: Iterable[tuple[str, str, str]]) -> None:
        seq = int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM cached_items WHERE source=?",
                             (source,)).fetchone()[0])
        db.executemany(
            "INSERT INTO cached_items(source, ref, seq, digest, gen, size, data) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(source, ref) DO UPDATE SET seq=excluded.seq, digest=excluded.digest, gen=excluded.gen, "
            "size=excluded.size, data=excluded.data",
            ((source, ref, seq + n, digest, gen, len(data), data) for n, (ref, digest, data) in enumerate(rows, 1)))

    def cache_finish(self, source: str, *, location: str, fmt: int, gen: int, cursor: dict[str, Any],
                     attrs: dict[str, Any], rows: Iterable[tuple[str, str, str]], rebuilt: bool,
                     keep: bool) -> int:
        """One transaction: the last rows, the cursor, and the cache's record of it.

        ``rebuilt``: this read was full, so rows an earlier read wrote (``gen`` differs) are gone
        from the source and dropped. ``keep`` False: the cache cannot serve (too large, read with
        ``--since``) and is dropped whole; the cursor still moves. Returns how many rows were dropped.
        """
        text = json.dumps(cursor, default=str)
        with self.transaction() as db:
            self._put(db, source, gen, rows)
            dropped = 0
            if not keep:
                dropped = db.execute("DELETE FROM cached_items WHERE source=?", (source,)).rowcount
                db.execute("DELETE FROM cache_state WHERE source=?", (source,))
            else:
                if rebuilt:
                    dropped = db.execute("DELETE FROM cached_items WHERE source=? AND gen != ?",
                                         (source, gen)).rowcount
                db.execute(
                    "INSERT INTO cache_state(source, location, format, cursor, attrs, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(source) DO UPDATE SET location=excluded.location, "
                    "format=excluded.format, cursor=excluded.cursor, attrs=excluded.attrs, updated=excluded.updated",
                    (source, location, fmt, text, json.dumps(attrs, default=str), now()))
            db.execute(
                "INSERT INTO cursors(source, cursor, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(source) DO UPDATE SET cursor=excluded.cursor, updated=excluded.updated",
                (source, text, now()))
        return int(dropped)

    def snapshot_ready(self, source: str, fmt: int, key: str) -> bool:
        """True when ``source``'s kept items were made from the input ``key`` names, in format ``fmt``
        (:mod:`bootstrap_app.cache.snapshots`: the key is the source's stamp and reader version)."""
        row = self._db.execute("SELECT 1 FROM cache_state WHERE source=? AND format=? AND cursor=?",
                               (source, fmt, json.dumps({"snapshot": key}))).fetchone()
        return row is not None

    def snapshot_begin(self, source: str) -> None:
        """A full read of ``source`` starts: its kept items stop serving until :meth:`snapshot_finish`."""
        with self.transaction() as db:
            db.execute("DELETE FROM cache_state WHERE source=?", (source,))

    def snapshot_finish(self, source: str, *, location: str, fmt: int, gen: int, key: str,
                        attrs: dict[str, Any], rows: Iterable[tuple[str, str, str]],
                        updates: Iterable[tuple[str, str]] = ()) -> None:
        """One transaction: the last rows of a complete read, rows earlier reads wrote dropped, and the key
        they serve (no cursor moves: a path source's cursor is its own business). ``updates``: (row key,
        JSON) of rows this read wrote already whose JSON is replaced in place (their order stays)."""
        with self.transaction() as db:
            self._put(db, source, gen, rows)
            db.executemany("UPDATE cached_items SET data=?, size=? WHERE source=? AND ref=? AND gen=?",
                           ((data, len(data), source, ref, gen) for ref, data in updates))
            db.execute("DELETE FROM cached_items WHERE source=? AND gen != ?", (source, gen))
            db.execute(
                "INSERT INTO cache_state(source, location, format, cursor, attrs, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(source) DO UPDATE SET location=excluded.location, "
                "format=excluded.format, cursor=excluded.cursor, attrs=excluded.attrs, updated=excluded.updated",
                (source, location, fmt, json.dumps({"snapshot": key}), json.dumps(attrs, default=str), now()))

    def cache_rows(self, source: str) -> Iterator[str]:
        """The cached items' JSON in delivery order, a chunk at a time (never the whole cache at once)."""
        last = -1
        while True:
            chunk = self._db.execute("SELECT seq, data FROM cached_items WHERE source=? AND seq > ? "
                                     "ORDER BY seq LIMIT ?", (source, last, _CHUNK)).fetchall()
            if not chunk:
                return
            for seq, data in chunk:
                last = seq
                yield data

    def cache_attrs(self, source: str) -> dict[str, Any]:
        """What the source knew of its account after its last read (owner addresses ...)."""
        row = self._db.execute("SELECT attrs FROM cache_state WHERE source=?", (source,)).fetchone()
        return dict(json.loads(row[0])) if row else {}

    def cache_unanalysed(self, source: str) -> int:
        """Cached items no finished scan has analysed: not in ``items``, with another digest there,
        or recorded by a run that failed or was killed before its proposals were saved."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM cached_items c LEFT JOIN items i ON i.source = c.source AND i.ref = c.ref "
            "LEFT JOIN runs r ON r.id = i.run_id WHERE c.source=? AND (i.digest IS NULL OR i.digest != c.digest "
            "OR r.status IS NOT 'finished')", (source,)).fetchone()
        return int(row[0])

    def cache_size(self, source: str) -> tuple[int, int]:
        """(rows, characters of JSON) cached for ``source`` (from ``size``: the JSON itself is not read)."""
        row = self._db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM cached_items WHERE source=?",
                               (source,)).fetchone()
        return int(row[0]), int(row[1])

    def cache_drop(self, source: str | None = None, *, location: str | None = None) -> None:
        """Forget the cache of ``source`` (an id), or of every source read from ``location``."""
        with self.transaction() as db:
            if location is not None:
                ids = [r[0] for r in db.execute("SELECT source FROM cache_state WHERE location=?", (location,))]
            else:
                ids = [source] if source is not None else []
            for sid in ids:
                db.execute("DELETE FROM cached_items WHERE source=?", (sid,))
                db.execute("DELETE FROM cache_state WHERE source=?", (sid,))
