"""The harness contract: one class holds everything about one agent's memory.

Why one class per harness: the app, ``memseed doctor``, ``memseed sources``, the CLI choices,
the budget meters and the writers all ask the registry (``registry.HARNESSES``) and the class
answers; none of them keeps its own list of harnesses or imports a harness's constants. A
harness declares its name, label, aliases, home (env vars, default folder), source URI and
entry format, and implements:

- ``plan`` — pure (it reads, never writes): the exact bytes per file and why, so the CLI's
  ``--dry-run``, the app's preview and the real write show the same diff;
- ``read`` — its files back into :class:`MemoryEntry` items (one parser per format, shared by
  the writer and the ``harness_memory`` connector);
- ``capacity`` — what the approved entries would use of each capped file (budget meters);
- ``doctor`` — findings on an existing memory folder;
- ``sniff`` / ``find_local`` — recognise its folders by shape, find them on this machine.

``apply`` and ``undo`` are shared and written once: take the plan's lock files, re-read every
target and refuse if it changed since the plan, journal before/after bytes *first*, write each
file atomically, and on any failure put back what was written so every existing file stays
byte-identical. They go through ``self.files`` (the disk, or a dict for the shipped fake).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from filelock import FileLock

from bootstrap_app.errors import ConflictError, MemseedError, TargetNotFound, UndoError, WriteError
from bootstrap_app.fsutil import refuse_symlinks
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, Proposal

from .files import DiskFiles, FileChange, Files, apply_changes, locked
from .plan import (
    Capacity,
    LocalMemory,
    Plan,
    Supersession,
    WriteOptions,
    WriteOutcome,
    home_or,
    is_removal,
    new_entries,
    placement,
    select_entries,
)

if TYPE_CHECKING:
    from bootstrap_app.store import Store, WriteRecord

__all__ = [
    "DECLARATIONS",
    "Capacity",
    "FileChange",
    "Harness",
    "LocalMemory",
    "Plan",
    "Supersession",
    "WriteOptions",
    "WriteOutcome",
    "apply_changes",
    "home_or",
    "is_removal",
    "locked",
    "new_entries",
    "pick_write",
    "placement",
    "select_entries",
    "write_lock",
]

_TEMP_GLOB = ".memseed-*.tmp"
"""The temp files :func:`bootstrap_app.fsutil.atomic_write` writes before its rename."""


def write_lock(store: Store) -> contextlib.AbstractContextManager[object]:
    """One write (or undo, or crash recovery) at a time per app folder. Held for the whole
    apply, so a write still ``pending`` while somebody holds this lock is alive, and one found
    ``pending`` by whoever holds it was cut short by a crash (see :meth:`Harness.recover`)."""
    path = Path(store.path)
    if not path.parent.is_dir() or str(path) == ":memory:":
        return contextlib.nullcontext()
    return FileLock(str(path.with_name("write.lock")), timeout=120)


def pick_write(store: Store, write_id: int | None) -> WriteRecord:
    """The applied write ``write_id`` (default: the latest applied one), or :class:`UndoError`."""
    records = store.writes(limit=10_000)
    for record in records:
        if (write_id is None and record.status == "applied") or record.id == write_id:
            if record.status != "applied":
                raise UndoError(f"write {write_id} is {record.status}, not applied; nothing to undo")
            return record
    applied = sorted((r.id for r in records if r.status == "applied"), key=lambda i: (abs(i - (write_id or 0)), -i))
    raise UndoError("there is no write to undo" if write_id is None else f"no write with id {write_id}"
                    + (f" (nearest applied: {', '.join(map(str, applied[:3]))})" if write_id and applied else ""),
                    hint="`memseed history` lists past writes")


DECLARATIONS = ("name", "label", "aliases", "home_env", "default_home", "entry_format",
                "source_uri", "source_description", "file_per_entry")
"""What a harness may declare as a class keyword (documented on :class:`Harness`)."""


class Harness:
    """Base class of every harness; subclasses declare the class attributes and implement ``plan``/``read``.

    The declarations are given as class keywords (``class ToyHarness(Harness, name="toy",
    label="Toy agent", ...)``), so a harness's whole declaration is its one ``class`` statement;
    plain class attributes still work (a subclass may override one).
    """

    name: ClassVar[str] = ""
    """Registry key, ``--target`` value and (for readable harnesses) the source URI scheme."""
    label: ClassVar[str] = ""
    """Display name in the app and the CLI."""
    aliases: ClassVar[tuple[str, ...]] = ()
    home_env: ClassVar[tuple[str, ...]] = ()
    """Environment variables that relocate the home, first non-empty one wins."""
    default_home: ClassVar[str] = ""
    """The home under ``~`` when no variable is set (``""``: the harness needs a folder given)."""
    entry_format: ClassVar[str] = ""
    """One line: what an entry looks like on disk."""
    source_uri: ClassVar[str | None] = None
    """``memseed sources`` URI form when its memory can be read as a source (``None``: not one)."""
    source_description: ClassVar[str] = ""
    file_per_entry: ClassVar[bool] = False
    """One file per entry, named after it (``<name>.md``): a read-back entry's name is its file's stem."""

    def __init_subclass__(cls, **declared: Any) -> None:
        """Set the declarations given as class keywords (``class X(Harness, name="x", ...)``).

        Why check the names here: a misspelt one (``home=``) fails when the module is imported,
        naming what is allowed, instead of leaving a harness that silently lacks a declaration.
        """
        unknown = sorted(set(declared) - set(DECLARATIONS))
        if unknown:
            raise TypeError(f"{cls.__name__}: unknown harness declaration(s) {', '.join(unknown)}; "
                            f"a harness declares {', '.join(DECLARATIONS)}")
        super().__init_subclass__()
        for key, value in declared.items():
            setattr(cls, key, value)

    def __init__(self, files: Files | None = None) -> None:
        self.files: Files = files or DiskFiles()

    # -- where memory lives ------------------------------------------------------------------
    @classmethod
    def home(cls) -> Path:
        """The harness home from its environment variables, else ``~/<default_home>``."""
        for var in cls.home_env:
            if os.environ.get(var):
                return Path(os.environ[var]).expanduser()
        if not cls.default_home:
            raise TargetNotFound(f"{cls.name} has no default folder", hint="give the folder to use")
        return (Path.home() / cls.default_home).expanduser()

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        return home_or(options, self.home)

    @classmethod
    def locate(cls, location: str) -> Path:
        """The memory folder a source location names (``kind:WHERE``, or a path): the path itself
        unless the harness gives locations another meaning (a project, a profile)."""
        return Path(location).expanduser()

    def doctor_root(self, project: Path | None = None) -> Path:
        """What ``memseed doctor --target NAME`` audits without ``--path``."""
        return self.memory_root(project)

    def doctor_roots(self, project: Path | None = None) -> list[Path]:
        """Every place :meth:`doctor` audits for ``project`` — where a write with the same inputs
        puts entries (a harness that splits them over two places names both)."""
        return [self.doctor_root(project)]

    def doctor_path(self, written: Path) -> Path:
        """What :meth:`doctor` is given to audit a file a write touched: its folder by default."""
        return written.parent

    @classmethod
    def sniff(cls, path: Path) -> bool:
        """True when ``path`` is a memory folder of this harness's shape (cheap, no full reads)."""
        return False

    @classmethod
    def owns(cls, path: Path) -> bool:
        """True when ``path`` is this harness's home or memory folder (``doctor --target auto``)."""
        return cls.sniff(path)

    def find_local(self) -> list[LocalMemory]:
        """This harness's memory on this machine, when it holds something (the app's Sources page).

        A harness with one home only counts its memory files (:meth:`memory_count`); one whose
        memory is spread over several folders (Claude Code's projects) overrides this instead.
        """
        try:
            home = self.home()
        except TargetNotFound:  # no default folder: nothing to find without being told where
            return []
        count = self.memory_count(home) if home.is_dir() else 0
        return [LocalMemory(self.name, home, f"{self.name}:", count)] if count else []

    def memory_count(self, home: Path) -> int:
        """How many memory files (entries' files, instruction files) ``home`` holds; 0: none found."""
        return 0

    # -- reading, planning, auditing (per harness) -------------------------------------------
    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        raise NotImplementedError  # pragma: no cover - overridden

    def start_plan(self, entries: Sequence[Proposal],
                   options: WriteOptions | None) -> tuple[WriteOptions, Path, list[Proposal], Plan]:
        """What every single-home ``plan`` starts with: options, the home (no symlink), the chosen entries, an empty plan."""
        options = options or WriteOptions()
        root = self.memory_root(options.project, options)
        refuse_symlinks(root)
        return options, root, select_entries(entries, options), Plan(target=self.name, root=root, anchor=root)

    def read(self, root: Path | None = None) -> list[MemoryEntry]:
        return self.read_with_skips(root)[0]

    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        """Entries and the files passed over as (file, reason)."""
        raise NotImplementedError  # pragma: no cover - overridden

    def capacity(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[Capacity]:
        """Each capped file's use now and after ``entries`` (never raises for capacity). Uncapped: ``[]``."""
        return []

    def fit_in_order(self, entries: Sequence[Proposal],
                     options: WriteOptions | None = None) -> list[tuple[Proposal, Capacity | None]]:
        """Fill the capped files in ``entries``' order, keeping each entry that still fits: every
        entry with the cap it would overflow, added to those kept before it (``None``: kept).

        This asks :meth:`capacity` again per entry, which plans everything kept so far each time
        (quadratic); a writer that can plan one entry at a time answers in one pass instead."""
        out: list[tuple[Proposal, Capacity | None]] = []
        fitting: list[Proposal] = []
        for p in entries:
            over = [c for c in self.capacity([*fitting, p], options) if c.overflow > 0]
            out.append((p, over[0] if over else None))
            if not over:
                fitting.append(p)
        return out

    def capacity_files(self, options: WriteOptions | None = None) -> list[Path]:
        """The files :meth:`capacity` depends on (the app re-computes a meter when one changes)."""
        return []

    def doctor(self, root: Path) -> list[Finding]:
        raise NotImplementedError  # pragma: no cover - overridden

    # -- shared: apply and undo ----------------------------------------------------------------
    def apply(self, plan: Plan, store: Store) -> WriteOutcome:
        """Write ``plan`` atomically and journaled (see the module docstring)."""
        if plan.empty:
            return WriteOutcome(None, [])
        with write_lock(store), self.files.lock(plan.locks, plan.anchor):
            for change in plan.files:
                if self.files.read(change.path, plan.anchor) != change.before:
                    raise ConflictError(f"{change.path} changed after the plan was made; nothing was written",
                                        hint="run the write again to see a fresh plan")
            write_id = store.begin_write(plan.target, note="; ".join(plan.notes)[:500])
            for change in plan.files:
                store.journal_file(write_id, str(change.path), change.before, change.after)
            if plan.superseded:
                store.record_superseded(write_id, plan.target, [
                    (s.old_fingerprint, s.new_fingerprint, s.location, s.old_text, s.until)
                    for s in plan.superseded])
            try:
                self.files.write_all(plan.files, plan.anchor)
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

    def undo(self, store: Store, write_id: int | None = None, *, force: bool = False) -> list[str]:
        """Put every file of a write back as it was (new files are deleted); returns the paths.

        Refuses with :class:`UndoError` when a file changed since the write (the agent, the
        person, a later write touched it), unless ``force``.
        """
        record = pick_write(store, write_id)
        journal = store.write_files(record.id)
        locks = [Path(item.path + ".lock") for item in journal if os.path.lexists(item.path + ".lock")]
        rewrites: list[FileChange] = []
        deletions: list[Path] = []
        drifted: list[str] = []
        with write_lock(store), self.files.lock(locks, None):
            for item in journal:
                path = Path(item.path)
                current = self.files.read(path)
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
                self.files.write_all(rewrites, None)
                for path in deletions:
                    self.files.remove(path)
            except OSError as exc:
                raise UndoError(f"undo of write {record.id} failed ({exc})",
                                hint="check permissions on the memory folder and run `memseed undo` again") from exc
            # still under the lock: a write planned meanwhile would take the entries for ones the
            # person removed (memseed wrote them, they are gone) and never put them back
            store.finish_write(record.id, "undone")
        return [item.path for item in journal]

    def recover(self, store: Store, write_id: int) -> None:
        """Put back what write ``write_id``, killed half-way (still ``pending``), did.

        Call with :func:`write_lock` held: then its writer is gone. Every file it would touch
        was journaled before the first one changed, and files are replaced atomically, so each
        is at its "before" bytes (not reached), its "after" bytes (written: put back, or
        deleted if the write created it), or other bytes (changed by somebody since: left).
        Temp files the dead writer left beside them are removed; the write becomes
        ``interrupted``.
        """
        journal = store.write_files(write_id)
        locks = [Path(item.path + ".lock") for item in journal if os.path.lexists(item.path + ".lock")]
        with self.files.lock(locks, None):
            rewrites: list[FileChange] = []
            for item in journal:
                path = Path(item.path)
                now = self.files.read(path)
                if now != item.after_content or now == item.before_content:
                    continue
                if item.before_content is None:
                    self.files.remove(path)
                else:
                    rewrites.append(FileChange(path, now, item.before_content))
            self.files.write_all(rewrites, None)
            for folder in {Path(item.path).parent for item in journal}:
                if isinstance(self.files, DiskFiles) and folder.is_dir():
                    for temp in folder.glob(_TEMP_GLOB):
                        temp.unlink(missing_ok=True)
        store.finish_write(write_id, "interrupted")
