"""SQLite state: runs, item refs, proposals, decisions, cursors, quarantine, write journal, and the
owner's suggested / confirmed / rejected address aliases.

Why SQLite: decisions must survive a crash the moment they are made (the app reruns the
page, the CLI may be killed), the CLI and the app must see the same state, and re-seeding
must know every fingerprint ever decided. Every mutating method commits before it returns.

What is *not* stored: item bodies. Items are kept as (source, ref, digest) only; proposals
hold redacted text and evidence excerpts of at most 200 characters.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import StoreError, UnknownProposal
from .types import Decision, DecisionStatus, MemoryType, Proposal

__all__ = ["SCHEMA_VERSION", "JournalFile", "Store", "StoredProposal", "WriteRecord"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'running',
    sources TEXT NOT NULL DEFAULT '[]',
    summary TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS items (
    source TEXT NOT NULL,
    ref TEXT NOT NULL,
    digest TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    PRIMARY KEY (source, ref)
);
CREATE TABLE IF NOT EXISTS proposals (
    fingerprint TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS proposals_id ON proposals(id);
CREATE TABLE IF NOT EXISTS decisions (
    fingerprint TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    at TEXT NOT NULL,
    edited TEXT
);
CREATE TABLE IF NOT EXISTS cursors (
    source TEXT PRIMARY KEY,
    cursor TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
    location TEXT PRIMARY KEY,
    added TEXT NOT NULL,
    last_scanned TEXT
);
CREATE TABLE IF NOT EXISTS aliases (
    address TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    evidence TEXT NOT NULL DEFAULT '',
    seen TEXT NOT NULL,
    decided TEXT
);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL,
    reason TEXT NOT NULL,
    source TEXT NOT NULL,
    ref TEXT NOT NULL,
    excerpt TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS writes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    target TEXT NOT NULL,
    at TEXT NOT NULL,
    status TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS write_files (
    write_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    before_hash TEXT,
    before_content BLOB,
    after_hash TEXT,
    after_content BLOB,
    PRIMARY KEY (write_id, path)
);
CREATE TABLE IF NOT EXISTS written (
    fingerprint TEXT NOT NULL,
    target TEXT NOT NULL,
    location TEXT NOT NULL,
    write_id INTEGER NOT NULL,
    PRIMARY KEY (fingerprint, target)
);
CREATE TABLE IF NOT EXISTS superseded (
    write_id INTEGER NOT NULL,
    target TEXT NOT NULL,
    old_fingerprint TEXT NOT NULL,
    new_fingerprint TEXT NOT NULL,
    location TEXT NOT NULL,
    old_text TEXT NOT NULL,
    until TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (write_id, old_fingerprint)
);
"""


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _decision(fingerprint: str, status: str, at: str, edited: str | None) -> Decision:
    """A ``decisions`` row (status, at, edited JSON) as a :class:`Decision`."""
    return Decision(fingerprint, DecisionStatus(status), datetime.fromisoformat(at),
                    json.loads(edited) if edited else None)


@dataclass(frozen=True)
class StoredProposal:
    """A proposal as the store knows it, with the decision made on it (if any)."""

    proposal: Proposal
    run_id: int
    decision: Decision | None
    first_seen: str
    last_seen: str

    @property
    def fingerprint(self) -> str:
        return self.proposal.fingerprint

    @property
    def effective(self) -> Proposal:
        """The proposal with the person's edits applied (what a writer should write)."""
        if self.decision and self.decision.edited:
            from dataclasses import replace

            edited = self.decision.edited
            return replace(self.proposal,
                           name=edited.get("name", self.proposal.name),
                           description=edited.get("description", self.proposal.description),
                           body=edited.get("body", self.proposal.body))
        return self.proposal


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


class Store:
    """The state database. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer memseed (schema {version})",
                    hint="upgrade memseed, or point MEMSEED_HOME at another folder",
                )
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open state store {self.path}: {exc}",
                             hint="move the file aside; memseed will start a fresh store") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- runs --------------------------------------------------------------------------
    def start_run(self, kind: str, sources: Iterable[str]) -> int:
        cur = self._db.execute("INSERT INTO runs(kind, started, sources) VALUES (?, ?, ?)",
                               (kind, _now(), json.dumps(list(sources))))
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, status: str, summary: dict[str, Any]) -> None:
        self._db.execute("UPDATE runs SET finished=?, status=?, summary=? WHERE id=?",
                         (_now(), status, json.dumps(summary, default=str), run_id))

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

    # -- proposals ---------------------------------------------------------------------
    def save_proposals(self, run_id: int, proposals: Iterable[Proposal]) -> int:
        now = _now()
        count = 0
        with self.transaction() as db:
            for p in proposals:
                db.execute(
                    "INSERT INTO proposals(fingerprint, id, run_id, type, name, data, first_seen, last_seen) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(fingerprint) DO UPDATE SET "
                    "run_id=excluded.run_id, data=excluded.data, name=excluded.name, last_seen=excluded.last_seen",
                    (p.fingerprint, p.id, run_id, str(p.type), p.name, json.dumps(p.to_json()), now, now))
                count += 1
        return count

    def proposal_fingerprints(self) -> set[str]:
        """Every fingerprint ever proposed (cheap: no JSON decoding)."""
        return {r[0] for r in self._db.execute("SELECT fingerprint FROM proposals")}

    def _row_to_stored(self, row: tuple[Any, ...]) -> StoredProposal:
        data, run_id, first_seen, last_seen, d_status, d_at, d_edited = row
        proposal = Proposal.from_json(json.loads(data))
        decision = _decision(proposal.fingerprint, d_status, d_at, d_edited) if d_status else None
        return StoredProposal(proposal, run_id, decision, first_seen, last_seen)

    _SELECT = ("SELECT p.data, p.run_id, p.first_seen, p.last_seen, d.status, d.at, d.edited "
               "FROM proposals p LEFT JOIN decisions d ON d.fingerprint = p.fingerprint")

    def proposals(self, *, run_id: int | None = None, status: str | None = None,
                  memory_type: MemoryType | str | None = None) -> list[StoredProposal]:
        """Stored proposals. ``status``: 'undecided', 'approved' (incl. edited), 'rejected'."""
        where: list[str] = []
        args: list[Any] = []
        if run_id is not None:
            where.append("p.run_id = ?")
            args.append(run_id)
        if memory_type is not None:
            where.append("p.type = ?")
            args.append(str(MemoryType(memory_type)))
        if status == "undecided":
            where.append("d.status IS NULL")
        elif status == "approved":
            where.append("d.status IN ('approved', 'edited')")
        elif status == "rejected":
            where.append("d.status = 'rejected'")
        elif status is not None:
            raise StoreError(f"unknown proposal status filter {status!r}",
                             hint="use 'undecided', 'approved' or 'rejected', or no filter")
        sql = self._SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY p.type, p.name"
        return [self._row_to_stored(r) for r in self._db.execute(sql, args).fetchall()]

    def get(self, id_or_fingerprint: str) -> StoredProposal:
        """Look a proposal up by its short id, a fingerprint, or an unambiguous prefix."""
        key = id_or_fingerprint.strip().lower()
        if not key:
            raise UnknownProposal("empty proposal id", hint="run `memseed review --list` to see ids")
        rows = self._db.execute(self._SELECT + " WHERE p.fingerprint LIKE ? LIMIT 3",
                                (key.replace("%", "").replace("_", "") + "%",)).fetchall()
        if not rows:
            raise UnknownProposal(f"no proposal with id {id_or_fingerprint!r}",
                                  hint="run `memseed review --list` to see ids")
        if len(rows) > 1:
            raise UnknownProposal(f"id {id_or_fingerprint!r} matches several proposals",
                                  hint="type more characters of the id")
        return self._row_to_stored(rows[0])

    # -- decisions ---------------------------------------------------------------------
    def decide(self, fingerprint: str, status: DecisionStatus | str,
               edited: dict[str, str] | None = None) -> Decision:
        """Record a decision at once (committed before returning). Kept forever."""
        status = DecisionStatus(status)
        if status is DecisionStatus.EDITED and not edited:
            raise StoreError("an edited decision needs the edited fields",
                             hint="pass the new name, description and/or body, or decide 'approved'")
        at = datetime.now(UTC).replace(microsecond=0)
        self._db.execute(
            "INSERT INTO decisions(fingerprint, status, at, edited) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(fingerprint) DO UPDATE SET status=excluded.status, at=excluded.at, edited=excluded.edited",
            (fingerprint, str(status), at.isoformat(), json.dumps(edited) if edited else None))
        return Decision(fingerprint, status, at, edited)

    def undecide(self, fingerprint: str) -> None:
        self._db.execute("DELETE FROM decisions WHERE fingerprint=?", (fingerprint,))

    def decision(self, fingerprint: str) -> Decision | None:
        row = self._db.execute("SELECT status, at, edited FROM decisions WHERE fingerprint=?",
                               (fingerprint,)).fetchone()
        return _decision(fingerprint, *row) if row else None

    def decided_fingerprints(self) -> set[str]:
        return {r[0] for r in self._db.execute("SELECT fingerprint FROM decisions")}

    # -- cursors and remembered sources ------------------------------------------------
    def set_cursor(self, source: str, cursor: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO cursors(source, cursor, updated) VALUES (?, ?, ?) "
            "ON CONFLICT(source) DO UPDATE SET cursor=excluded.cursor, updated=excluded.updated",
            (source, json.dumps(cursor, default=str), _now()))

    def cursor(self, source: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT cursor FROM cursors WHERE source=?", (source,)).fetchone()
        return json.loads(row[0]) if row else None

    def remember_source(self, location: str, scanned: bool = False) -> None:
        self._db.execute(
            "INSERT INTO sources(location, added, last_scanned) VALUES (?, ?, ?) "
            "ON CONFLICT(location) DO UPDATE SET last_scanned=COALESCE(excluded.last_scanned, last_scanned)",
            (location, _now(), _now() if scanned else None))

    def forget_source(self, location: str) -> None:
        self._db.execute("DELETE FROM sources WHERE location=?", (location,))

    def sources(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT location, added, last_scanned FROM sources ORDER BY added").fetchall()
        return [{"location": r[0], "added": r[1], "last_scanned": r[2]} for r in rows]

    # -- owner aliases -----------------------------------------------------------------
    def suggest_aliases(self, suggestions: dict[str, str]) -> None:
        """Record addresses a scan found that only *look* like the owner's (address -> evidence).
        A confirmed or rejected address keeps its decision; a pending one gets the new evidence."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO aliases(address, status, evidence, seen) VALUES (?, 'suggested', ?, ?) "
                "ON CONFLICT(address) DO UPDATE SET evidence=CASE WHEN status='suggested' "
                "THEN excluded.evidence ELSE evidence END, seen=excluded.seen",
                ((a.strip().lower(), why, _now()) for a, why in suggestions.items()))

    def decide_alias(self, address: str, status: str) -> None:
        """``status``: ``confirmed`` (the owner's: counts as strong evidence from the next scan on),
        ``rejected`` (never suggested again) or ``suggested`` (undo a decision)."""
        if status not in ("confirmed", "rejected", "suggested"):
            raise StoreError(f"unknown alias status {status!r}", hint="use confirmed, rejected or suggested")
        self._db.execute(
            "INSERT INTO aliases(address, status, evidence, seen, decided) VALUES (?, ?, '', ?, ?) "
            "ON CONFLICT(address) DO UPDATE SET status=excluded.status, decided=excluded.decided",
            (address.strip().lower(), status, _now(), _now()))

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

    # -- write journal -----------------------------------------------------------------
    def begin_write(self, target: str, note: str = "") -> int:
        cur = self._db.execute("INSERT INTO writes(target, at, status, note) VALUES (?, ?, 'pending', ?)",
                               (target, _now(), note))
        return int(cur.lastrowid or 0)

    def journal_file(self, write_id: int, path: str, before: bytes | None, after: bytes | None) -> None:
        """Record a file's bytes before and after a write. Called *before* the file is touched."""
        import hashlib

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
