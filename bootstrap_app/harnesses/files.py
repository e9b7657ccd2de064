"""Where a harness's bytes live: the disk (every real harness) or a dict (the shipped fake).

Why a seam at all: the apply/undo protocol (lock, re-read, journal, write all-or-nothing, put
back on failure) is the part of a harness that must never differ, so it is written once in
``base.Harness`` against this tiny interface. Real harnesses use :class:`DiskFiles` (atomic
temp+rename, symlinks refused, folders created and removed again on failure); the fake
harness uses :class:`MemoryFiles`, so tests and docs run the very same protocol in memory.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from bootstrap_app.errors import MemseedError
from bootstrap_app.fsutil import atomic_write, ensure_dirs, read_bytes, refuse_symlinks, remove_file

__all__ = ["DiskFiles", "FileChange", "Files", "MemoryFiles", "apply_changes", "locked"]


@dataclass(frozen=True)
class FileChange:
    """One file a plan rewrites: its bytes now and after (``None`` = absent: created / deleted)."""

    path: Path
    before: bytes | None
    after: bytes | None


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
            if change.after is None:  # an entry memseed removes: its file goes (undo brings it back)
                remove_file(change.path)
            else:
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


class Files:
    """The four operations apply and undo need."""

    def read(self, path: Path, anchor: Path | None = None) -> bytes | None:  # pragma: no cover
        raise NotImplementedError

    def write_all(self, changes: Sequence[FileChange], anchor: Path | None) -> None:  # pragma: no cover
        raise NotImplementedError

    def remove(self, path: Path) -> None:  # pragma: no cover
        raise NotImplementedError

    def lock(self, paths: Sequence[Path], anchor: Path | None) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


class DiskFiles(Files):
    """The real file system, through ``fsutil`` (atomic, no symlinks followed)."""

    def read(self, path: Path, anchor: Path | None = None) -> bytes | None:
        refuse_symlinks(path, anchor)
        return read_bytes(path)

    def write_all(self, changes: Sequence[FileChange], anchor: Path | None) -> None:
        apply_changes(changes, anchor)

    def remove(self, path: Path) -> None:
        remove_file(path)

    def lock(self, paths: Sequence[Path], anchor: Path | None) -> contextlib.AbstractContextManager[None]:
        return locked(paths, anchor)


class MemoryFiles(Files):
    """A dict of path -> bytes. ``fail_on`` makes writing that path raise (to test rollback)."""

    def __init__(self) -> None:
        self.data: dict[Path, bytes] = {}
        self.fail_on: set[Path] = set()

    def read(self, path: Path, anchor: Path | None = None) -> bytes | None:
        return self.data.get(path)

    def write_all(self, changes: Sequence[FileChange], anchor: Path | None) -> None:
        staged = dict(self.data)
        for change in changes:
            if change.path in self.fail_on:
                raise OSError(28, "No space left on device (MemoryFiles.fail_on)", str(change.path))
            if change.after is None:
                staged.pop(change.path, None)
            else:
                staged[change.path] = change.after
        self.data = staged  # all or nothing, like apply_changes

    def remove(self, path: Path) -> None:
        self.data.pop(path, None)
