"""The write journal: every file a harness write touches, its bytes before and after, which
entries landed where, and which old facts a write replaced in place (superseded rows).

Why its own module: this is the part that makes a write undoable and an outside edit detectable
(:meth:`JournalMixin.last_after`), so its invariant is strict — a file is journaled *before* it is
touched, and ``written`` rows of an undone write are dropped in the same transaction.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .schema import StoreBase, now

__all__ = ["JournalFile", "JournalMixin", "WriteRecord"]


@dataclass(frozen=True)
class WriteRecord:
    id: int
    target: str
    at: str
    status: str
    note: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class JournalFile:
    path: str
    before_hash: str | None
    before_content: bytes | None
    after_hash: str | None
    after_content: bytes | None



class JournalMixin(StoreBase):
    """Writes, their journaled files, ``written`` locations and superseded facts."""

    # -- write journal -----------------------------------------------------------------
    def begin_write(self, target: str, note: str = "") -> int:
        cur = self._db.execute("INSERT INTO writes(target, at, status, note) VALUES (?, ?, 'pending', ?)",
                               (target, now(), note))
        return int(cur.lastrowid or 0)

    def journal_file(self, write_id: int, path: str, before: bytes | None, after: bytes | None) -> None:
        """Record a file's bytes before and after a write. Called *before* the file is touched."""
        def digest(b: bytes | None) -> str | None:
            return hashlib.sha256(b).hexdigest() if b is not None else None

        self._db.execute(
            "INSERT OR REPLACE INTO write_files(write_id, path, before_hash, before_content, after_hash, "
            "after_content) VALUES (?, ?, ?, ?, ?, ?)",
            (write_id, path, digest(before), before, digest(after), after))

    def finish_write(self, write_id: int, status: str,
                     written: Iterable[tuple[str, str]] = (), target: str | None = None) -> None:
        """Mark a write applied/failed/undone; ``written`` = (fingerprint, location) pairs."""
        with self.transaction() as db:
            db.execute("UPDATE writes SET status=? WHERE id=?", (status, write_id))
            if target is None:
                row = db.execute("SELECT target FROM writes WHERE id=?", (write_id,)).fetchone()
                target = row[0] if row else ""
            db.executemany(
                "INSERT INTO written(fingerprint, target, location, write_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(fingerprint, target) DO UPDATE SET location=excluded.location, "
                "write_id=excluded.write_id",
                ((fp, target, loc, write_id) for fp, loc in written))
            if status == "undone":
                db.execute("DELETE FROM written WHERE write_id=?", (write_id,))

    def writes(self, limit: int = 50) -> list[WriteRecord]:
        """The latest ``limit`` writes, newest first, each with the paths it journaled."""
        rows = self._db.execute("SELECT id, target, at, status, note FROM writes ORDER BY id DESC LIMIT ?",
                                (limit,)).fetchall()
        files: dict[int, list[str]] = defaultdict(list)
        if rows:  # one query for all of them (undo asks for the whole history): ids >= the oldest listed
            for write_id, path in self._db.execute(
                    "SELECT write_id, path FROM write_files WHERE write_id >= ? ORDER BY write_id, path",
                    (rows[-1][0],)):
                files[write_id].append(path)
        return [WriteRecord(r[0], r[1], r[2], r[3], r[4], tuple(files[r[0]])) for r in rows]

    def write_files(self, write_id: int) -> list[JournalFile]:
        rows = self._db.execute(
            "SELECT path, before_hash, before_content, after_hash, after_content FROM write_files "
            "WHERE write_id=? ORDER BY path", (write_id,)).fetchall()
        return [JournalFile(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def last_after(self, path: str) -> bytes | None:
        """What memseed last wrote to ``path`` (from an applied write), to detect outside edits."""
        row = self._db.execute(
            "SELECT wf.after_content FROM write_files wf JOIN writes w ON w.id = wf.write_id "
            "WHERE wf.path=? AND w.status='applied' ORDER BY w.id DESC LIMIT 1", (path,)).fetchone()
        return row[0] if row else None

    def record_superseded(self, write_id: int, target: str,
                          rows: Iterable[tuple[str, str, str, str, str]]) -> None:
        """Journal entries a write replaces in place: (old fp, new fp, location, old text, until date)."""
        self._db.executemany(
            "INSERT OR REPLACE INTO superseded(write_id, target, old_fingerprint, new_fingerprint, location, "
            "old_text, until) VALUES (?, ?, ?, ?, ?, ?, ?)", ((write_id, target, *row) for row in rows))

    def superseded(self, target: str | None = None) -> list[dict[str, Any]]:
        """Facts memseed replaced (applied writes only): the old text and the date it stopped being true."""
        sql = ("SELECT s.write_id, s.target, s.old_fingerprint, s.new_fingerprint, s.location, s.old_text, "
               "s.until, w.at FROM superseded s JOIN writes w ON w.id = s.write_id WHERE w.status='applied'")
        rows = (self._db.execute(sql + " AND s.target=? ORDER BY s.write_id", (target,)) if target
                else self._db.execute(sql + " ORDER BY s.write_id")).fetchall()
        keys = ("write_id", "target", "old_fingerprint", "new_fingerprint", "location", "old_text", "until", "at")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def written(self, target: str | None = None) -> dict[str, str]:
        """fingerprint -> location of entries memseed wrote (and did not undo) to ``target``."""
        if target is None:
            rows = self._db.execute("SELECT fingerprint, location FROM written").fetchall()
        else:
            rows = self._db.execute("SELECT fingerprint, location FROM written WHERE target=?",
                                    (target,)).fetchall()
        return dict(rows)

    # -- the start-up hook's summary (see bootstrap_app.hookcheck) ---------------------------
    def save_watch(self, build: Callable[[], str], wait: float | None = None) -> None:
        """Store ``build()`` as the hook's summary, marked fresh. ``build`` runs inside the write
        transaction, so a write cannot land between what it read and the fresh mark; ``wait``
        (seconds) bounds the wait for the write lock (a hook must not stall)."""
        if wait is not None:
            self._db.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
        try:
            with self.transaction() as db:
                db.execute("INSERT OR REPLACE INTO hook_watch(id, stale, data, at) VALUES (1, 0, ?, ?)",
                           (build(), now()))
        finally:
            if wait is not None:
                self._db.execute("PRAGMA busy_timeout=30000")
