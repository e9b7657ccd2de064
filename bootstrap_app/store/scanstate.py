"""What scanning remembers between runs: runs, item refs and digests, cursors, remembered
sources, the owner's address aliases, and quarantined items.

Why together: these are the bookkeeping of *reading* (what was seen, where to resume, what was
set aside and why), written by the scan and reseed paths and never by a harness writer. None of
it holds an item body: items are (source, ref, digest) only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from ..errors import StoreError
from .schema import StoreBase, now

__all__ = ["ScanStateMixin"]


class ScanStateMixin(StoreBase):
    """Runs, items, cursors, sources, aliases and quarantine (see the module docstring)."""

    # -- runs --------------------------------------------------------------------------
    def start_run(self, kind: str, sources: Iterable[str]) -> int:
        cur = self._db.execute("INSERT INTO runs(kind, started, sources) VALUES (?, ?, ?)",
                               (kind, now(), json.dumps(list(sources))))
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, status: str, summary: dict[str, Any]) -> None:
        self._db.execute("UPDATE runs SET finished=?, status=?, summary=? WHERE id=?",
                         (now(), status, json.dumps(summary, default=str), run_id))

    def runs(self, limit: int = 20) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT id, kind, started, finished, status, sources, summary FROM runs ORDER BY id DESC LIMIT ?",
            (limit,)).fetchall()
        return [{"id": r[0], "kind": r[1], "started": r[2], "finished": r[3], "status": r[4],
                 "sources": json.loads(r[5]), "summary": json.loads(r[6])} for r in rows]

    # -- items (refs + digests only) ---------------------------------------------------
    def record_items(self, run_id: int, refs: Iterable[tuple[str, str, str]]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO items(source, ref, digest, run_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(source, ref) DO UPDATE SET digest=excluded.digest, run_id=excluded.run_id",
                ((s, r, d, run_id) for s, r, d in refs))

    def item_digests(self, source: str) -> dict[str, str]:
        """ref -> digest of every item recorded for ``source`` (reseed's "anything changed?")."""
        return dict(self._db.execute("SELECT ref, digest FROM items WHERE source=?", (source,)).fetchall())

    def item_count(self, source: str | None = None) -> int:
        if source is None:
            return int(self._db.execute("SELECT COUNT(*) FROM items").fetchone()[0])
        return int(self._db.execute("SELECT COUNT(*) FROM items WHERE source=?", (source,)).fetchone()[0])

    def items_under(self, source_ids: Iterable[str]) -> int:
        """Items recorded for these sources and their parts (an archive's ``id!part`` sources):
        what ``memseed sources`` shows, from the primary-key index, without touching the disk."""
        total = 0
        for source in dict.fromkeys(source_ids):
            total += int(self._db.execute(
                "SELECT (SELECT COUNT(*) FROM items WHERE source=?) + "
                "(SELECT COUNT(*) FROM items WHERE source > ? AND source < ?)",
                (source, source + "!", source + "!\U0010ffff")).fetchone()[0])
        return total

    def item_sources(self) -> list[str]:
        """Every source id items were recorded under (distinct; read from the index)."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT source FROM items")]

    # -- cursors and remembered sources ------------------------------------------------
    def set_cursor(self, source: str, cursor: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO cursors(source, cursor, updated) VALUES (?, ?, ?) "
            "ON CONFLICT(source) DO UPDATE SET cursor=excluded.cursor, updated=excluded.updated",
            (source, json.dumps(cursor, default=str), now()))

    def cursor(self, source: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT cursor FROM cursors WHERE source=?", (source,)).fetchone()
        return json.loads(row[0]) if row else None

    def remember_source(self, location: str, scanned: bool = False,
                        parts: Iterable[tuple[str, str]] | None = None) -> None:
        """Remember ``location`` for reseed; ``scanned``: it was just read, and ``parts`` the
        (source id, kind) it resolved to, kept so listing it later needs no walk of the disk."""
        data = json.dumps([list(p) for p in parts]) if parts is not None else None
        self._db.execute(
            "INSERT INTO sources(location, added, last_scanned, parts) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(location) DO UPDATE SET last_scanned=COALESCE(excluded.last_scanned, last_scanned), "
            "parts=COALESCE(excluded.parts, parts)",
            (_stored(location), now(), now() if scanned else None, data))

    def forget_source(self, location: str) -> None:
        """Stop re-seeding ``location``, and drop the item cache of what was read from it."""
        with self.transaction() as db:
            db.execute("DELETE FROM sources WHERE location=?", (_stored(location),))
            db.execute("DELETE FROM cached_items WHERE source IN (SELECT source FROM cache_state WHERE location=?)",
                       (location,))
            db.execute("DELETE FROM cache_state WHERE location=?", (location,))

    def sources(self) -> list[dict[str, Any]]:
        """Remembered locations: ``location``, ``added``, ``last_scanned`` and ``parts`` (a list of
        (source id, kind) from the last scan, or None when it was never scanned since schema 2)."""
        rows = self._db.execute("SELECT location, added, last_scanned, parts FROM sources ORDER BY added").fetchall()
        return [{"location": os.fsdecode(r[0]) if isinstance(r[0], bytes) else r[0], "added": r[1], "last_scanned": r[2],
                 "parts": [tuple(p) for p in json.loads(r[3])] if r[3] else None} for r in rows]

    # -- owner aliases -----------------------------------------------------------------
    def suggest_aliases(self, suggestions: dict[str, str]) -> None:
        """Record addresses a scan found that only *look* like the owner's (address -> evidence).
        A confirmed or rejected address keeps its decision; a pending one gets the new evidence."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO aliases(address, status, evidence, seen) VALUES (?, 'suggested', ?, ?) "
                "ON CONFLICT(address) DO UPDATE SET evidence=CASE WHEN status='suggested' "
                "THEN excluded.evidence ELSE evidence END, seen=excluded.seen",
                ((a.strip().lower(), why, now()) for a, why in suggestions.items()))

    def decide_alias(self, address: str, status: str) -> None:
        """``status``: ``confirmed`` (the owner's: counts as strong evidence from the next scan on),
        ``rejected`` (never suggested again) or ``suggested`` (undo a decision)."""
        if status not in ("confirmed", "rejected", "suggested"):
            raise StoreError(f"unknown alias status {status!r}", hint="use confirmed, rejected or suggested")
        self._db.execute(
            "INSERT INTO aliases(address, status, evidence, seen, decided) VALUES (?, ?, '', ?, ?) "
            "ON CONFLICT(address) DO UPDATE SET status=excluded.status, decided=excluded.decided",
            (address.strip().lower(), status, now(), now()))

    def aliases(self, status: str | None = None) -> list[dict[str, Any]]:
        """Alias rows (address, status, evidence, seen, decided), pending ones first."""
        sql = "SELECT address, status, evidence, seen, decided FROM aliases"
        rows = (self._db.execute(sql + " WHERE status=? ORDER BY address", (status,)) if status
                else self._db.execute(sql + " ORDER BY status != 'suggested', address")).fetchall()
        return [{"address": r[0], "status": r[1], "evidence": r[2], "seen": r[3], "decided": r[4]} for r in rows]

    # -- quarantine --------------------------------------------------------------------
    def add_quarantine(self, run_id: int, entries: Iterable[tuple[str, str, str, str]]) -> None:
        """``entries``: (reason, source, ref, redacted excerpt)."""
        with self.transaction() as db:
            db.executemany("INSERT INTO quarantine(run_id, reason, source, ref, excerpt) VALUES (?, ?, ?, ?, ?)",
                           ((run_id, *e) for e in entries))

    def quarantine(self, run_id: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT run_id, reason, source, ref, excerpt FROM quarantine"
        rows = (self._db.execute(sql + " WHERE run_id=?", (run_id,)) if run_id is not None
                else self._db.execute(sql)).fetchall()
        return [{"run_id": r[0], "reason": r[1], "source": r[2], "ref": r[3], "excerpt": r[4]} for r in rows]


def _stored(location: str) -> str | bytes:
    """A location as the ``sources`` table keeps it: text, or — for a path whose name is not valid
    UTF-8, which SQLite cannot hold as text — the file system's own bytes (a BLOB in the same
    column; :meth:`ScanStateMixin.sources` decodes it back), so such a path is remembered and re-read."""
    try:
        location.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(location)
    return location
