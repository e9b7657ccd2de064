"""Numbered, one-way steps that bring a store written by an older memseed up to date.

Why steps and not just ``CREATE TABLE IF NOT EXISTS``: a new *table* needs nothing more, but a
new column in an existing table, or a change in how existing rows are keyed, does. Each step
is numbered with the ``PRAGMA user_version`` it leads to and runs once, inside one
``BEGIN IMMEDIATE`` transaction together with the version bump: a crash mid-step leaves the
store exactly as it was, and two processes opening an old store at once (the app and a cron
reseed) cannot both run it (the second sees the new version once it gets the lock).

Every step is idempotent on a store that already has its change (a fresh store is created with
the newest tables and then walked through every step), so the order "create, then migrate"
is always safe.

Steps:

2. ``sources.parts``: the source ids and kinds a remembered location resolved to at its last
   scan, so ``memseed sources`` can count its items without walking the folder again.
3. repository subjects: proposals about a repository were keyed ``repo:<folder name>:<topic>``,
   which made two checkouts with the same folder name one question. They are re-keyed to the
   checkout's path (:func:`~bootstrap_app.types.repo_subject`), and the decision, the write
   journal and any proposal superseding them follow, so nothing decided is asked again.
   ``fingerprint_renames`` keeps old -> new, so an old short id still finds its proposal.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from ..types import fingerprint_of, legacy_repo_subject

__all__ = ["LATEST", "STEPS", "migrate"]


def _add_column(db: sqlite3.Connection, table: str, column: str, declaration: str) -> None:
    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    if column not in columns:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def _source_parts(db: sqlite3.Connection) -> None:
    """Step 2: ``sources.parts`` (JSON list of [source id, kind]; NULL until the next scan)."""
    _add_column(db, "sources", "parts", "TEXT")


def _rename(db: sqlite3.Connection, old: str, new: str) -> None:
    """Move everything recorded under fingerprint ``old`` to ``new`` (the proposal row is done)."""
    db.execute("UPDATE decisions SET fingerprint=? WHERE fingerprint=?", (new, old))
    db.execute("UPDATE written SET fingerprint=? WHERE fingerprint=?", (new, old))
    db.execute("UPDATE superseded SET old_fingerprint=? WHERE old_fingerprint=?", (new, old))
    db.execute("UPDATE superseded SET new_fingerprint=? WHERE new_fingerprint=?", (new, old))
    db.execute("INSERT OR REPLACE INTO fingerprint_renames(old, new) VALUES (?, ?)", (old, new))


def _repo_subjects(db: sqlite3.Connection) -> None:
    """Step 3: re-key proposals whose subject names a repository by folder name only."""
    renames: dict[str, str] = {}
    rows = db.execute("SELECT fingerprint, data FROM proposals WHERE data LIKE '%\"repo:%'").fetchall()
    for old, data in rows:
        record = json.loads(data)
        subject = legacy_repo_subject(str(record.get("subject", "")), str(record.get("scope", "")))
        if subject is None:
            continue
        new = fingerprint_of(str(record["type"]), subject, str(record.get("key", "")))
        if new == old or db.execute("SELECT 1 FROM proposals WHERE fingerprint=?", (new,)).fetchone():
            continue
        record.update(subject=subject, fingerprint=new, id=new[:8])
        db.execute("UPDATE proposals SET fingerprint=?, id=?, data=? WHERE fingerprint=?",
                   (new, new[:8], json.dumps(record), old))
        renames[old] = new
    for old, new in renames.items():
        _rename(db, old, new)
    if not renames:
        return
    # an update names the entry it replaces by that entry's fingerprint: follow the rename
    for fingerprint, data in db.execute("SELECT fingerprint, data FROM proposals "
                                        "WHERE data LIKE '%supersedes_fingerprint%'").fetchall():
        record = json.loads(data)
        if record.get("supersedes_fingerprint") in renames:
            record["supersedes_fingerprint"] = renames[record["supersedes_fingerprint"]]
            db.execute("UPDATE proposals SET data=? WHERE fingerprint=?", (json.dumps(record), fingerprint))


STEPS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (2, _source_parts),
    (3, _repo_subjects),
)
"""(the ``user_version`` a step leads to, the step), oldest first."""

LATEST = STEPS[-1][0]


def migrate(db: sqlite3.Connection) -> None:
    """Run every step newer than the store's ``user_version``, each in its own transaction."""
    if db.execute("PRAGMA user_version").fetchone()[0] >= LATEST:
        return  # up to date: no write lock taken (the app opens the store on every page)
    for version, step in STEPS:
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] < version:
                step(db)
                db.execute(f"PRAGMA user_version={version}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
