"""Plan, apply, undo and list writes of approved entries into a harness's memory.

Why this layer over the harness writers: it is where the store meets the files. ``plan_write``
takes only what the person approved (with their edits), adds the entries memseed already wrote
to the target so a re-run recognises them and changes nothing, and tells the writer which files
memseed wrote (``Store.last_after``) so the person's own files are never overwritten.
``undo_write`` restores every touched file byte for byte from the journal.

Crashes: every file a write touches is journaled (before and after bytes) *before* the first
file changes, and files are replaced atomically, so a write killed half-way leaves each file
either as it was or as the write meant it, and a ``pending`` journal entry.
:func:`recover_interrupted` (run before any plan or undo, under the same lock writes hold)
puts such files back as they were, removes the temp files the dead writer left, and marks
the write ``interrupted``: the next ``memseed write`` then does the whole job again, and its
undo goes back to the bytes from before the crash.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import UndoError
from .fsutil import read_bytes, refuse_symlinks, remove_file
from .harnesses import FileChange, Plan, WriteOptions, WriteOutcome, get_harness
from .harnesses.base import apply_changes, locked, write_lock
from .store import JournalFile, Store, WriteRecord

__all__ = ["apply_write", "describe", "history", "plan_write", "recover_interrupted", "undo_write"]

_TEMP_GLOB = ".memseed-*.tmp"
"""The temp files :func:`bootstrap_app.fsutil.atomic_write` writes before its rename."""


def recover_interrupted(store: Store) -> list[int]:
    """Undo what writes killed half-way (``pending`` in the journal) did; returns their ids.

    Holding :func:`write_lock` proves the writer is gone (a live one holds it throughout). A
    file whose bytes are the write's "after" is put back to "before" (or deleted if the write
    created it); a file at "before" was not reached; a file with other bytes was changed by
    somebody since, and is left alone.
    """
    pending = [r for r in store.writes(limit=10_000) if r.status == "pending"]
    if not pending:
        return []
    recovered: list[int] = []
    with write_lock(store):
        for record in pending:
            current = next((r for r in store.writes(limit=10_000) if r.id == record.id), None)
            if current is None or current.status != "pending":
                continue  # finished while we waited for the lock
            journal = store.write_files(record.id)
            rewrites: list[FileChange] = []
            for item in journal:
                path = Path(item.path)
                refuse_symlinks(path)
                now = read_bytes(path)
                if now != item.after_content or now == item.before_content:
                    continue
                if item.before_content is None:
                    remove_file(path)
                else:
                    rewrites.append(FileChange(path, now, item.before_content))
            apply_changes(rewrites, None)
            for folder in {Path(item.path).parent for item in journal}:
                for temp in folder.glob(_TEMP_GLOB) if folder.is_dir() else ():
                    temp.unlink(missing_ok=True)
            store.finish_write(record.id, "interrupted")
            recovered.append(record.id)
    return recovered


def plan_write(store: Store, target: str, project: Path | str | None = None, **opts: Any) -> Plan:
    """The plan for writing every approved entry to ``target`` (nothing is written, except that
    a write a crash cut short is first put back, see :func:`recover_interrupted`).

    ``opts`` are :class:`WriteOptions` fields: ``only``, ``exclude``, ``user_facts``,
    ``profile``, ``root``, ``now``.
    """
    harness = get_harness(target)
    recover_interrupted(store)
    written = store.written(harness.name)
    entries = [sp.effective for sp in store.proposals(status="approved")]
    for key in ("only", "exclude"):
        if key in opts and opts[key] is not None:
            opts[key] = tuple(opts[key])
    if opts.get("root") is not None:
        opts["root"] = Path(opts["root"])
    options = WriteOptions(project=Path(project).expanduser() if project else None,
                           written=frozenset(written), last_after=store.last_after,
                           **{k: v for k, v in opts.items() if v is not None})
    plan = harness.plan(entries, options)
    for key in options.only:
        if not any(p.fingerprint.startswith(key.strip().lower()) for p in entries):
            plan.notes.append(f"--only {key}: no approved proposal has this id (see `memseed review --list`)")
    if not entries:
        plan.notes.insert(0, "nothing approved yet: run `memseed review` (or `memseed approve ID...`)")
    return plan


def apply_write(store: Store, plan: Plan) -> WriteOutcome:
    """Apply ``plan`` (atomic, journaled, rolled back on failure)."""
    return get_harness(plan.target).apply(plan, store)


def _pick(store: Store, write_id: int | None) -> WriteRecord:
    records = store.writes(limit=10_000)
    if write_id is None:
        for record in records:
            if record.status == "applied":
                return record
        raise UndoError("there is no write to undo", hint="`memseed history` lists past writes")
    for record in records:
        if record.id == write_id:
            if record.status != "applied":
                raise UndoError(f"write {write_id} is {record.status}, not applied; nothing to undo")
            return record
    raise UndoError(f"no write with id {write_id}", hint="`memseed history` lists past writes")


def undo_write(store: Store, write_id: int | None = None, *, force: bool = False) -> list[str]:
    """Put every file of a write back as it was (new files are deleted); returns the paths.

    Refuses with :class:`UndoError` when a file changed since the write (someone — the agent,
    the person, a later write — touched it), unless ``force``.
    """
    recover_interrupted(store)
    record = _pick(store, write_id)
    journal = store.write_files(record.id)
    locks = [Path(item.path + ".lock") for item in journal if os.path.lexists(item.path + ".lock")]
    with write_lock(store), locked(locks, None):
        return _undo(store, record, journal, force)


def _undo(store: Store, record: WriteRecord, journal: list[JournalFile], force: bool) -> list[str]:
    rewrites: list[FileChange] = []
    deletions: list[Path] = []
    drifted: list[str] = []
    for item in journal:
        path = Path(item.path)
        refuse_symlinks(path)
        current = read_bytes(path)
        if current == item.before_content:
            continue  # already as it was (an undo cut short by a crash got this far)
        if current != item.after_content:
            drifted.append(item.path)
        if item.before_content is None:
            deletions.append(path)
        else:
            rewrites.append(FileChange(path, current, item.before_content))
    if drifted and not force:
        raise UndoError(f"write {record.id}: {len(drifted)} file(s) changed since memseed wrote them: "
                        + ", ".join(drifted),
                        hint="look at the changes first; `memseed undo --force` restores the old bytes anyway")
    try:  # rewrites all-or-nothing first; deletions only once every rewrite succeeded
        apply_changes(rewrites, None)
        for path in deletions:
            remove_file(path)
    except OSError as exc:
        raise UndoError(f"undo of write {record.id} failed ({exc})",
                        hint="check permissions on the memory folder and run `memseed undo` again") from exc
    store.finish_write(record.id, "undone")
    return [item.path for item in journal]


def history(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """Past writes, newest first: id, target, time, status, note and the files touched."""
    return [{"id": r.id, "target": r.target, "at": r.at, "status": r.status, "note": r.note,
             "files": list(r.files)} for r in store.writes(limit)]


def describe(plan: Plan) -> Sequence[str]:
    """Human lines for a plan (CLI and app): notes, budget, files."""
    lines = list(plan.notes)
    for budget in plan.budget:
        lines.append("budget: " + ", ".join(f"{k}={v}" for k, v in budget.items() if k != "entries"))
    if plan.empty:
        lines.append("no change: every approved entry is already there")
    return lines

