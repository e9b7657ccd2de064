"""The state database's schema and its connection: opening, version check, transactions.

Why a module of its own: every other part of the store (review state, sources, the write
journal) is a mixin that only needs ``self._db`` and :meth:`StoreBase.transaction`; keeping the
tables and the "is this file from a newer memseed?" check in one place means a schema change is
one diff, and a mixin can never open the database differently from the rest.

Tables are created with ``IF NOT EXISTS``; changes to existing tables are numbered steps in
:mod:`.migrations`, and ``PRAGMA user_version`` records the last step run
(:data:`SCHEMA_VERSION`): an older store is brought up to date when opened, a newer one is
refused with a hint.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from ..errors import StoreError
from .migrations import LATEST, migrate

__all__ = ["SCHEMA_VERSION", "StoreBase", "now"]

SCHEMA_VERSION = LATEST

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
    last_scanned TEXT,
    parts TEXT
);
CREATE TABLE IF NOT EXISTS fingerprint_renames (
    old TEXT PRIMARY KEY,
    new TEXT NOT NULL
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
CREATE TABLE IF NOT EXISTS cached_items (
    source TEXT NOT NULL,
    ref TEXT NOT NULL,
    seq INTEGER NOT NULL,
    digest TEXT NOT NULL,
    gen INTEGER NOT NULL,
    size INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (source, ref)
);
CREATE TABLE IF NOT EXISTS hook_watch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    stale INTEGER NOT NULL DEFAULT 0,
    data TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS cached_items_seq ON cached_items(source, seq);
CREATE TABLE IF NOT EXISTS cache_state (
    source TEXT PRIMARY KEY,
    location TEXT NOT NULL,
    format INTEGER NOT NULL,
    cursor TEXT NOT NULL,
    attrs TEXT NOT NULL DEFAULT '{}',
    updated TEXT NOT NULL
);
"""

_WATCHED = (("written", "INSERT", ""), ("written", "UPDATE", ""), ("written", "DELETE", ""),
            ("superseded", "INSERT", ""), ("superseded", "UPDATE", ""), ("superseded", "DELETE", ""),
            ("writes", "UPDATE OF status", ""),
            ("decisions", "INSERT", "NEW"), ("decisions", "UPDATE", "NEW"), ("decisions", "DELETE", "OLD"),
            ("proposals", "UPDATE OF data", "NEW"), ("proposals", "DELETE", "OLD"))
"""(table, event, row) whose change can change what a written entry says: each marks the start-up
hook's summary (``hook_watch``) stale, whoever writes — so the hook never trusts an old summary.
``row``: only when that row's fingerprint is a written entry's (a scan touches many proposals)."""

_TRIGGERS = "".join(
    f"CREATE TRIGGER IF NOT EXISTS hook_watch_{table}_{event.split()[0].lower()} AFTER {event} ON {table} "
    + (f"WHEN EXISTS (SELECT 1 FROM written WHERE fingerprint = {row}.fingerprint) " if row else "")
    + "BEGIN UPDATE hook_watch SET stale = 1 WHERE stale = 0; END;\n"
    for table, event, row in _WATCHED)


def now() -> str:
    """The current UTC time, to the second, as stored in every ``at`` / ``seen`` column."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _owner_only(path: Path) -> None:
    """Create the database file 0600 (it holds redacted mail and documents in the item cache,
    and decisions), or take group/other access away from one that has it. SQLite gives its
    ``-wal`` / ``-shm`` files the database file's mode."""
    with contextlib.suppress(OSError):  # a read-only or foreign-owned file: SQLite reports what matters
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        elif path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)


class StoreBase:
    """The connection every store mixin shares. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _owner_only(self.path)
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
            self._db.executescript(_SCHEMA + _TRIGGERS)
            migrate(self._db)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open state store {self.path}: {exc}",
                             hint="move the file aside; memseed will start a fresh store") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
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
