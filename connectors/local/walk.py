"""A bounded, iterative directory walk that reports what it leaves out.

Why not ``os.walk``: on Python 3.11 it recurses (a tree a few thousand levels deep raises
``RecursionError`` and loses the whole folder), it silently ignores folders it cannot list,
and it hands out names that are not valid UTF-8 as strings that break the first write. This
walk keeps its own stack, never follows symlinked folders (so a link loop cannot trap it),
stops descending below :data:`MAX_DEPTH` levels, and reports every folder or file it leaves
out through ``on_skip(path, reason)``, so the scan can list it and go on.

:class:`ChangeCursor` is the incremental-read rule of the readers that keep one item per file
(``.eml``/maildir/``.emlx`` folders, document folders).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bootstrap_app.text.paths import is_text, printable

__all__ = ["MAX_DEPTH", "ChangeCursor", "files_named", "holds_files_named", "not_read", "skips_under", "walk_files"]

MAX_DEPTH = 40
"""Folders below this many levels are not entered (a real document tree is rarely over 15)."""


def skips_under(root: Path, source_id: str, skip: Callable[[str, str, str], None],
                find: Callable[[int], None] | None = None) -> Callable[[Path, str], None]:
    """An ``on_skip`` for :func:`walk_files` that reports what it leaves out through ``skip``
    (``ctx.skip``), named by its place under ``root`` as the source's refs are; ``find``
    (``ctx.find``): each one is also a unit the source's ledger found."""
    def on_skip(path: Path, reason: str) -> None:
        if find is not None:
            find(1)
        skip(source_id, printable(path.relative_to(root)), reason)
    return on_skip


def not_read(find: Callable[[int], None], pass_over: Callable[[str, int], None]) -> Callable[[Path], None]:
    """An ``on_other`` for :func:`walk_files`: a file of a kind the reader does not read is found
    and passed over with that reason, by extension (``ctx.find``, ``ctx.pass_over``: a choice,
    not a failure). Not even a file another reader could read is read by another source here:
    the registry gave this folder to this reader, so the ledger counts it."""
    def other(path: Path) -> None:
        find(1)
        pass_over(f"not a kind of file memseed reads here ({path.suffix.lower() or 'no extension'})", 1)
    return other


def walk_files(root: Path, on_skip: Callable[[Path, str], None], *,
               keep_dir: Callable[[Path], bool] = lambda p: True,
               keep_file: Callable[[str], bool] = lambda n: True,
               max_depth: int = MAX_DEPTH, on_other: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """Regular-looking files under ``root`` in sorted order, depth-first.

    ``keep_dir(path)`` decides whether to enter a sub-folder, ``keep_file(name)`` whether a
    file is of interest; only kept items that cannot be used are reported to ``on_skip``.
    ``on_other`` gets every visible file *not* of interest (a reader's ledger reports it as a
    kind of file it does not read); hidden files (``.name``) are not looked at.
    """
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            on_skip(folder, f"{printable(folder)}: folder cannot be listed ({exc.strerror or exc})")
            continue
        subdirs: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                if not keep_dir(path):
                    continue
                if not is_text(entry.name):
                    on_skip(path, f"{printable(path)}: folder name is not valid UTF-8; rename it to have it read")
                elif depth + 1 > max_depth:
                    on_skip(path, f"{printable(path)}: more than {max_depth} folders deep, not entered")
                else:
                    subdirs.append(path)
                continue
            if not keep_file(entry.name):
                if on_other is not None and not entry.name.startswith("."):
                    on_other(path)
                continue
            if not is_text(entry.name):
                on_skip(path, f"{printable(path)}: file name is not valid UTF-8; rename it to have it read")
                continue
            yield path
        stack.extend((d, depth + 1) for d in reversed(subdirs))


@dataclass
class ChangeCursor:
    """Which files a folder read has not seen: modification time *and* inode-change time.

    Why not the modification time alone: ``cp -p``, ``rsync -t``, ``unzip`` and most backup
    restores keep a file's old mtime, so a file copied in after the last read can be older than
    the cursor and was passed over for good. Placing a file anywhere sets its ``st_ctime``
    (inode change on POSIX; creation on Windows) to the time it arrived, and nothing a user
    copies can set it back. A file is passed over only when *both* times are before the
    cursor's; an equal time is read again (it does not prove the file was seen). Only the two
    newest times are kept, so the cursor stays two numbers however large the folder is.

    The new ctime mark is never later than the moment the read began: a file placed while the
    read walks the folder (possibly behind the walk) is read next time. A cursor from before
    ctime was kept reads the folder once in full, to pick up whatever the old rule missed.
    A chmod or rename also moves ctime: such a file is read again, which is harmless.
    """

    mtime: float = 0.0
    ctime: float = 0.0
    newest_mtime: float = 0.0
    newest_ctime: float = 0.0
    started: float = field(default_factory=time.time)

    @classmethod
    def load(cls, cursor: Mapping[str, object] | None) -> ChangeCursor:
        def num(key: str) -> float:
            value = (cursor or {}).get(key, 0)
            return float(value) if isinstance(value, int | float) else 0.0
        mtime, ctime = num("mtime"), num("ctime")
        return cls(mtime, ctime, mtime, ctime)

    def seen(self, st: os.stat_result) -> bool:
        """True when the last read already covered a file with this stat (pass it over)."""
        return bool(self.mtime and self.ctime) and st.st_mtime < self.mtime and st.st_ctime < self.ctime

    def note(self, st: os.stat_result) -> None:
        """Count a file this read covers."""
        self.newest_mtime = max(self.newest_mtime, st.st_mtime)  # exact float, not a rounded datetime
        self.newest_ctime = max(self.newest_ctime, st.st_ctime)

    def cursor(self) -> dict[str, float]:
        """The cursor to store after a read that went through the whole folder."""
        return {"mtime": self.newest_mtime, "ctime": min(self.newest_ctime, self.started)}


def files_named(root: Path, suffix: str, on_skip: Callable[[Path, str], None],
                on_other: Callable[[Path], None] | None = None) -> Iterable[Path]:
    """``root`` itself when it is a file, else the visible files named ``*suffix`` (any case)
    below it, hidden folders not entered: what a one-message-per-file source reads. ``on_other``:
    see :func:`walk_files` (the other files, for the reader's ledger)."""
    if root.is_file():
        return [root]
    return walk_files(root, on_skip, keep_dir=lambda d: not d.name.startswith("."),
                      keep_file=lambda n: n.lower().endswith(suffix) and not n.startswith("."), on_other=on_other)


def holds_files_named(path: Path, suffix: str) -> bool:
    """Whether ``path`` is a file named ``*suffix`` (any case) or a folder of them: at least half
    its visible files so named, and no sub-folder a git repository (a project folder that
    happens to hold one saved message is a document folder, not a mail export).

    Cheap (one listing) and quiet: a missing or unlistable path is simply not one."""
    if path.is_file():
        return path.name.lower().endswith(suffix)
    try:
        entries = [p for p in path.iterdir() if not p.name.startswith(".")]
        files = [p for p in entries if p.is_file()]
        named = [p for p in files if p.name.lower().endswith(suffix)]
        return bool(named) and len(named) * 2 >= len(files) and not any(
            p.is_dir() and (p / ".git").exists() for p in entries)
    except OSError:
        return False
