"""Plan, apply, undo and list writes of approved entries into a harness's memory.

Why this layer over the harness writers: it is where the store meets the files. ``plan_write``
takes only what the person approved (with their edits), adds the entries memseed already wrote
to the target so a re-run recognises them and changes nothing, and tells the writer which files
memseed wrote (``Store.last_after``) so the person's own files are never overwritten.
``undo_write`` restores every touched file byte for byte from the journal.

Crashes: every file a write touches is journaled (before and after bytes) *before* the first
file changes, and files are replaced atomically, so a write killed half-way leaves each file
either as it was or as the write meant it, and a ``pending`` journal entry.
:func:`recover_interrupted` (run before any plan or undo, under the lock writes hold) puts such
files back, so the next ``memseed write`` does the whole job again and its undo goes back to the
bytes from before the crash.

Facts that change: an approved proposal whose ``supersedes`` names an entry memseed wrote to
the target (by fingerprint when the proposal carries ``supersedes_fingerprint``, else by name)
is handed to the harness as a replacement (``WriteOptions.replaces``), and the superseded
proposal is no longer written on its own; the harness puts the new entry in the old one's
place and the journal keeps the old text with the date it stopped being true. An approved
proposal flagged ``remove`` (``extract.verify``: what the entry names no longer exists) goes the
same way, except that the harness deletes the old entry instead of writing the removal note;
the ``superseded`` journal row (old text, date) is what ``memseed history`` shows and what
``memseed undo`` brings back byte for byte.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bootstrap_app.errors import BlockedContent, MemseedError, TargetNotFound, UnknownProposal
from bootstrap_app.harnesses import Harness, Plan, WriteOptions, WriteOutcome, get_harness
from bootstrap_app.harnesses.base import is_removal, pick_write, write_lock
from bootstrap_app.harnesses.doctor import Finding, doctor_files
from bootstrap_app.store import Store, nearest_ids
from bootstrap_app.types import Proposal, slugify

__all__ = ["USER_FACTS", "AfterWrite", "after_write", "apply_write", "check_ids", "check_write", "describe", "history", "plan_write", "recover_interrupted",
           "replacements", "undo_write"]

USER_FACTS: dict[str, str] = {
    "claude-md": "every session: a block in the user-level CLAUDE.md (loaded in every project)",
    "project": "the home folder's auto memory (loaded only when Claude Code starts in the home folder)",
}
"""Claude Code's choices for facts about the person (``--user-facts``), default first, with what each means."""


AfterWrite = Callable[[Store], object]
"""Work to do once a write or an undo has landed, given the store it was journaled in."""

_AFTER_WRITE: list[AfterWrite] = []
_log = logging.getLogger(__name__)


def after_write(callback: AfterWrite) -> AfterWrite:
    """Run ``callback(store)`` after every write and every undo that landed; registering the same
    callback twice keeps one. Returns ``callback`` (usable as a decorator).

    Why a callback that writing owns: the agents' start-up hook answers from a summary of what
    memseed wrote (:mod:`bootstrap_app.memory.freshness`), so every change to those files must
    rebuild it. Writing sits below the hook and the staleness check, so it offers the moment and
    they bring the work: :mod:`bootstrap_app.memory` wires it once, and the CLI, the app, imports
    and notebooks get it without each remembering to call it (five call sites did, before)."""
    if callback not in _AFTER_WRITE:
        _AFTER_WRITE.append(callback)
    return callback


def _landed(store: Store) -> None:
    """The write is on disk and journaled: a failing callback costs only its own work."""
    for callback in tuple(_AFTER_WRITE):
        try:
            callback(store)
        except Exception:  # the files are written; never turn a landed write into an error
            _log.warning("after-write callback %r failed", callback, exc_info=True)


def replacements(store: Store, target: str, entries: Sequence[Proposal]) -> dict[str, Proposal]:
    """new fingerprint -> the entry memseed wrote to ``target`` that it supersedes (as it was written).

    Matched by ``supersedes_fingerprint`` when the proposal has one, else by the superseded
    entry's name (and subject, when names repeat). Only entries memseed itself wrote count: an
    update never replaces a memory someone else put there.
    """
    wanted = [p for p in entries if p.supersedes]
    if not wanted:
        return {}
    replaced = {row["old_fingerprint"] for row in store.superseded(target)}
    by_fp: dict[str, Proposal] = {}
    for fp in store.written(target):
        if fp in replaced:  # already replaced by a later entry: that one is what holds now
            continue
        try:
            by_fp[fp] = store.get(fp).effective
        except UnknownProposal:
            continue
    out: dict[str, Proposal] = {}
    for p in wanted:
        old = by_fp.get(p.supersedes_fingerprint) if p.supersedes_fingerprint else _by_name(p, by_fp.values())
        if old is not None and old.fingerprint != p.fingerprint:
            out[p.fingerprint] = old
    return out


def _by_name(p: Proposal, written: Iterable[Proposal]) -> Proposal | None:
    """The written entry ``p.supersedes`` names. Two entries may share a name (two repositories'
    ``commands``): then only the one about the same subject counts, and none when that does not
    settle it either — replacing a fact about another repository is worse than adding one."""
    named = [old for old in written if old.name == slugify(p.supersedes or "")]
    if len(named) > 1:
        named = [old for old in named if old.subject == p.subject]
    return named[0] if len(named) == 1 else None


def recover_interrupted(store: Store) -> list[int]:
    """Put back the files of every write a crash cut short (``pending``); returns their ids.
    Holding :func:`~bootstrap_app.harnesses.base.write_lock` proves their writers are gone."""
    if not any(r.status == "pending" for r in store.writes(limit=10_000)):
        return []
    done: list[int] = []
    with write_lock(store):
        for record in store.writes(limit=10_000):  # read again under the lock
            if record.status != "pending":
                continue
            try:
                harness = get_harness(record.target)
            except MemseedError:  # a target this version does not know: leave its journal alone
                continue
            harness.recover(store, record.id)
            done.append(record.id)
    return done


def plan_write(store: Store, target: str, project: Path | str | None = None, **opts: Any) -> Plan:
    """The plan for writing every approved entry to ``target`` (nothing is written, except that
    a write a crash cut short is first put back: see :func:`recover_interrupted`).

    ``opts`` are :class:`WriteOptions` fields: ``only``, ``exclude``, ``user_facts``,
    ``profile``, ``root``, ``now``.
    """
    harness = get_harness(target)
    recover_interrupted(store)
    written = store.written(harness.name)
    entries = [sp.effective for sp in store.proposals(status="approved")]
    check_ids(store, entries, only=opts.get("only") or (), exclude=opts.get("exclude") or ())
    superseded = replacements(store, harness.name, entries)
    # a superseded fact is not written on its own again (nor reported as "removed since")
    done = store.superseded(harness.name)
    gone = {old.fingerprint for old in superseded.values()} | {row["old_fingerprint"] for row in done}
    # an applied removal is never written itself: once its entry is deleted there is nothing left to do
    removed = {row["new_fingerprint"] for row in done}
    entries = [p for p in entries if p.fingerprint not in gone
               and not (is_removal(p) and p.fingerprint in removed)]
    replaces = {fp: old for fp, old in superseded.items() if fp not in written}
    for key in ("only", "exclude"):
        if key in opts and opts[key] is not None:
            opts[key] = tuple(opts[key])
    if opts.get("root") is not None:
        opts["root"] = Path(opts["root"])
    options = WriteOptions(project=Path(project).expanduser() if project else None,
                           written=frozenset(written), last_after=store.last_after, replaces=replaces,
                           renamed_ids=store.renamed_ids(),
                           **{k: v for k, v in opts.items() if v is not None})
    plan = _plan_around_blocked(harness, entries, options)
    for p in entries:
        if p.supersedes and p.fingerprint not in superseded and p.fingerprint not in written and not is_removal(p):
            plan.notes.append(f"{p.name}: the entry it updates ({p.supersedes}) is not one memseed wrote to "
                              f"{harness.name} (or its name is ambiguous); written as a new entry, the old one "
                              "is left as it is")
    if not entries:
        plan.notes.insert(0, "nothing approved yet: run `memseed review` (or `memseed approve ID...`)")
    return plan


def check_ids(store: Store, approved: Sequence[Proposal], *, only: Iterable[str] = (),
              exclude: Iterable[str] = ()) -> None:
    """Raise :class:`UnknownProposal` for an ``--only``/``--exclude`` id that names no approved
    entry: a typo or a rejected entry must not read as "everything is already there".

    Each bad id is named with what it is instead (rejected, waiting for review) or the nearest
    approved ids, all in one error so one run shows every mistake.
    """
    keys = [(flag, key.strip()) for flag, given in (("--only", only), ("--exclude", exclude)) for key in given]
    if not keys:
        return
    lengths = {len(key) for _, key in keys}
    ok = {n: {p.fingerprint[:n] for p in approved} for n in lengths}  # every id prefix once, not per key
    bad = [(flag, key) for flag, key in keys if not key or key.lower() not in ok[len(key)]]
    if not bad:
        return
    others = {sp.fingerprint: sp for sp in store.proposals()}
    ids = sorted({p.id for p in approved})
    problems: list[str] = []
    for flag, key in bad:
        low = key.lower()
        decided = next((sp for fp, sp in others.items() if low and fp.startswith(low)), None)
        if decided is not None:
            status = str(decided.decision.status) if decided.decision else "waiting for review"
            problems.append(f"{flag} {key}: {decided.proposal.name!r} is {status}, not approved")
            continue
        near = nearest_ids(low, ids)
        problems.append(f"{flag} {key}: no proposal has this id" + (f" (nearest: {', '.join(near)})" if near else ""))
    raise UnknownProposal("; ".join(problems),
                          hint="give ids of approved entries as `memseed review --list` shows them "
                               "(approve one first with `memseed approve ID`)")


def _plan_around_blocked(harness: Harness, entries: list[Proposal], options: WriteOptions) -> Plan:
    """``harness.plan`` for every entry its safety check lets through, the refused ones in
    ``Plan.blocked`` with their reason.

    Why plan again instead of asking each entry first: the check runs on the exact text the
    harness is about to write (each harness renders an entry its own way), so only the harness
    knows. It names the entry it refuses (``entry <id> (...)``); that entry is set aside and the
    plan made again, so each blocked entry costs one more plan and the others are never lost.
    """
    blocked: dict[str, str] = {}
    by_id = {p.id: p for p in entries}
    while True:
        try:
            plan = harness.plan([p for p in entries if p.fingerprint not in blocked], options)
        except BlockedContent as exc:
            message = str(exc.args[0]) if exc.args else str(exc)
            head = message.removeprefix("entry ").split(" ", 1)[0]
            refused = by_id.get(head) if message.startswith("entry ") else None
            if refused is None or refused.fingerprint in blocked:
                raise  # not one entry's fault: the write as a whole cannot go on
            blocked[refused.fingerprint] = message.split(": ", 1)[-1]
            continue
        plan.blocked.update(blocked)
        for fp, why in blocked.items():
            p = next(e for e in entries if e.fingerprint == fp)
            plan.notes.append(f"{p.name} ({p.id}): blocked, not written: {why}")
        return plan


def apply_write(store: Store, plan: Plan) -> WriteOutcome:
    """Apply ``plan`` (atomic, journaled, rolled back on failure), then run the
    :func:`after_write` callbacks."""
    outcome = get_harness(plan.target).apply(plan, store)
    _landed(store)
    return outcome


def undo_write(store: Store, write_id: int | None = None, *, force: bool = False) -> list[str]:
    """Put every file of a write back as it was (new files are deleted); returns the paths.

    Refuses with :class:`~bootstrap_app.errors.UndoError` when a file changed since the write,
    unless ``force`` (see :meth:`Harness.undo`).
    """
    recover_interrupted(store)
    record = pick_write(store, write_id)
    restored = get_harness(record.target).undo(store, record.id, force=force)
    _landed(store)
    return restored


def check_write(store: Store, write_id: int | None = None) -> tuple[str, list[Path], list[Finding]]:
    """Run the target's doctor on exactly what a write (default: the last) put on disk: the
    same places, whatever inputs the write was given. Returns (target, places, findings)."""
    record = next((r for r in store.writes(limit=10_000) if (r.id == write_id if write_id is not None
                                                               else r.status == "applied")), None)
    if record is None:
        raise TargetNotFound("no write to check yet" if write_id is None else f"no write with id {write_id}",
                             hint="write approved entries first (Write page or `memseed write`)")
    places, findings = doctor_files(record.target, record.files)
    return record.target, places, findings


def history(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """Past writes, newest first: id, target, time, status, note, the files touched, and the facts
    each applied write replaced or removed (old text, the date it stopped being true, ``kind``)."""
    replaced: dict[int, list[dict[str, Any]]] = {}
    for row in store.superseded():
        try:
            removal = is_removal(store.get(row["new_fingerprint"]).effective)
        except UnknownProposal:
            removal = False
        replaced.setdefault(row["write_id"], []).append({**row, "kind": "removed" if removal else "replaced"})
    return [{"id": r.id, "target": r.target, "at": r.at, "status": r.status, "note": r.note,
             "files": list(r.files), "replaced": replaced.get(r.id, [])} for r in store.writes(limit)]


def describe(plan: Plan) -> Sequence[str]:
    """Human lines for a plan (CLI and app): notes, budget, files."""
    lines = list(plan.notes)
    for budget in plan.budget:
        lines.append("budget: " + ", ".join(f"{k}={v}" for k, v in budget.items() if k != "entries"))
    if plan.empty:
        lines.append("no change: every approved entry is already there")
    return lines

