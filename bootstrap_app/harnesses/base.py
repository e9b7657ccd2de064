"""The one small interface every harness writer implements, and the shared apply step.

Why split plan and apply: ``plan`` is pure (it reads the disk, never writes), so the CLI's
``--dry-run``, the app's preview and the real write all show the same bytes. ``apply`` is the
only place that touches files and it is shared by every harness, so atomicity, journaling,
locking and rollback are implemented once:

1. take the plan's lock files (Hermes's ``<file>.lock``), re-read every target and refuse if
   it changed since the plan was made;
2. journal before/after bytes of every file in the store *first*;
3. write each file atomically (temp + fsync + rename + folder fsync);
4. if any file fails, put back the ones already written so every existing file is
   byte-identical and every new file is gone, and mark the write failed.
"""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from filelock import FileLock

from bootstrap_app.errors import ConflictError, MemseedError, WriteError
from bootstrap_app.fsutil import atomic_write, ensure_dirs, read_bytes, refuse_symlinks, remove_file
from bootstrap_app.types import MemoryEntry, Proposal

if TYPE_CHECKING:
    from bootstrap_app.store import Store

__all__ = [
    "FileChange",
    "Harness",
    "Plan",
    "WriteOptions",
    "WriteOutcome",
    "apply_changes",
    "home_or",
    "locked",
    "new_entries",
    "select_entries",
    "write_lock",
]


def _no_record(_path: str) -> bytes | None:
    return None


@dataclass(frozen=True)
class WriteOptions:
    """Everything a writer may be told. Library callers can leave all of it at the defaults."""

    project: Path | None = None
    """The project the entries are about (Claude Code project folder); ``None`` = home folder."""
    root: Path | None = None
    """Override of the harness home (tests, the markdown folder target)."""
    only: tuple[str, ...] = ()
    """Proposal ids / fingerprint prefixes to write (others are left for later)."""
    exclude: tuple[str, ...] = ()
    user_facts: str = "project"
    """Claude Code: ``project`` (home directory's project folder) or ``claude-md``."""
    profile: str | None = None
    """Hermes profile name (``profiles/<name>/memories``)."""
    now: datetime | None = None
    """Clock for Codex note names (tests pin it)."""
    written: frozenset[str] = frozenset()
    """Fingerprints memseed already wrote to this target: kept if present, never re-added."""
    last_after: Callable[[str], bytes | None] = _no_record
    """What memseed last wrote to a path (``Store.last_after``): tells our files from others'."""


@dataclass(frozen=True)
class FileChange:
    path: Path
    before: bytes | None
    after: bytes


@dataclass
class Plan:
    """What a write would do: the exact bytes per file, and why."""

    target: str
    root: Path
    files: list[FileChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    budget: list[dict[str, Any]] = field(default_factory=list)
    entries: list[Proposal] = field(default_factory=list)
    """Entries this plan writes for the first time."""
    written: list[tuple[str, str]] = field(default_factory=list)
    """(fingerprint, location) of every entry present after the write (new and kept)."""
    locks: list[Path] = field(default_factory=list)
    anchor: Path | None = None

    @property
    def empty(self) -> bool:
        return not self.files

    def diff(self) -> str:
        """Unified diff of every file (new files diffed against /dev/null)."""
        chunks: list[str] = []
        for change in self.files:
            before = (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
            after = change.after.decode("utf-8", "replace").splitlines(keepends=True)
            old = str(change.path) if change.before is not None else "/dev/null"
            lines = difflib.unified_diff(before, after, fromfile=old, tofile=str(change.path))
            text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                           for line in lines)
            chunks.append(text)
        return "".join(chunks)


@dataclass(frozen=True)
class WriteOutcome:
    write_id: int | None
    paths: list[str]


def select_entries(entries: Sequence[Proposal], options: WriteOptions) -> list[Proposal]:
    """Apply ``--only`` / ``--exclude`` (by short id or fingerprint prefix) and drop duplicates."""

    def matches(p: Proposal, keys: tuple[str, ...]) -> bool:
        return any(p.fingerprint.startswith(k.strip().lower()) for k in keys if k.strip())

    out: list[Proposal] = []
    seen: set[str] = set()
    for p in entries:
        if p.fingerprint in seen:
            continue
        if options.only and not matches(p, options.only) and p.fingerprint not in options.written:
            continue
        if options.exclude and matches(p, options.exclude):
            continue
        seen.add(p.fingerprint)
        out.append(p)
    return out


def new_entries(plan: Plan, chosen: Sequence[Proposal], options: WriteOptions) -> list[Proposal]:
    """``Plan.entries``: the chosen entries present after the write that memseed never wrote before.

    Every writer ends its ``plan`` with this, so "new" means the same for the CLI's count, the
    journal (``apply`` records only these) and undo.
    """
    new = {fp for fp, _ in plan.written} - options.written
    return [p for p in chosen if p.fingerprint in new]


def home_or(options: WriteOptions | None, default: Callable[[], Path]) -> Path:
    """The harness home: ``options.root`` when given, else the harness's default, ``~`` expanded."""
    return (options.root if options and options.root else default()).expanduser()


def write_lock(store: Store) -> FileLock:
    """One write (or undo, or crash recovery) at a time per app folder. Held for the whole
    apply, so a write still marked ``pending`` while somebody holds this lock is alive, and
    one found ``pending`` by whoever holds it was cut short by a crash."""
    return FileLock(str(Path(store.path).with_name("write.lock")), timeout=120)


@contextlib.contextmanager
def locked(paths: Sequence[Path], anchor: Path | None) -> Iterator[None]:
    """Hold every lock file (``filelock``, the same ``flock`` Hermes takes) for the block."""
    with contextlib.ExitStack() as stack:
        for lock_path in sorted(set(paths)):
            ensure_dirs(lock_path.parent, anchor)
            refuse_symlinks(lock_path, anchor)
            stack.enter_context(FileLock(str(lock_path), timeout=30))
        yield


def apply_changes(changes: Sequence[FileChange], anchor: Path | None) -> None:
    """Write every change or none: on failure, restore what was already written and re-raise."""
    done: list[FileChange] = []
    made_dirs: list[Path] = []
    try:
        for change in changes:
            refuse_symlinks(change.path, anchor)
            made_dirs.extend(ensure_dirs(change.path.parent, anchor))
            atomic_write(change.path, change.after, create_new=change.before is None)
            done.append(change)
    except BaseException:
        for change in reversed(done):
            with contextlib.suppress(OSError, MemseedError):
                if change.before is None:
                    remove_file(change.path)
                else:
                    atomic_write(change.path, change.before)
        for folder in reversed(made_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


class Harness:
    """Base class of the harness writers (claude_code, codex, hermes, gemini, markdown_dir)."""

    name: ClassVar[str] = ""

    def memory_root(self, project: Path | None = None) -> Path:  # pragma: no cover - overridden
        raise NotImplementedError

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        raise NotImplementedError  # pragma: no cover - overridden

    def read(self, root: Path | None = None) -> list[MemoryEntry]:  # pragma: no cover - overridden
        raise NotImplementedError

    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        """:meth:`read` plus the files passed over as (file, reason); readers that skip none say so."""
        return self.read(root), []

    def apply(self, plan: Plan, store: Store) -> WriteOutcome:
        """Write ``plan`` atomically and journaled (see the module docstring)."""
        if plan.empty:
            return WriteOutcome(None, [])
        with write_lock(store), locked(plan.locks, plan.anchor):
            for change in plan.files:
                refuse_symlinks(change.path, plan.anchor)
                if read_bytes(change.path) != change.before:
                    raise ConflictError(f"{change.path} changed after the plan was made; nothing was written",
                                        hint="run the write again to see a fresh plan")
            write_id = store.begin_write(plan.target, note="; ".join(plan.notes)[:500])
            for change in plan.files:
                store.journal_file(write_id, str(change.path), change.before, change.after)
            try:
                apply_changes(plan.files, plan.anchor)
            except MemseedError:
                store.finish_write(write_id, "failed")
                raise
            except OSError as exc:
                store.finish_write(write_id, "failed")
                raise WriteError(f"writing {plan.target} memory failed ({exc}); every file was put back "
                                 "as it was", hint="check free space and permissions, then run again") from exc
            # record only entries this write added: entries kept from earlier writes stay tied to
            # the write that put them there, so undoing this write does not forget them
            new = {p.fingerprint for p in plan.entries}
            store.finish_write(write_id, "applied", written=[w for w in plan.written if w[0] in new],
                               target=plan.target)
        return WriteOutcome(write_id, [str(c.path) for c in plan.files])
