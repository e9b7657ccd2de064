"""A bounded, iterative directory walk that reports what it leaves out.

Why not ``os.walk``: on Python 3.11 it recurses (a tree a few thousand levels deep raises
``RecursionError`` and loses the whole folder), it silently ignores folders it cannot list,
and it hands out names that are not valid UTF-8 as strings that break the first write. This
walk keeps its own stack, never follows symlinked folders (so a link loop cannot trap it),
stops descending below :data:`MAX_DEPTH` levels, and reports every folder or file it leaves
out through ``on_skip(path, reason)``, so the scan can list it and go on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from bootstrap_app.text.paths import is_text, printable

__all__ = ["MAX_DEPTH", "files_named", "holds_files_named", "skips_under", "walk_files"]

MAX_DEPTH = 40
"""Folders below this many levels are not entered (a real document tree is rarely over 15)."""


def skips_under(root: Path, source_id: str,
                skip: Callable[[str, str, str], None]) -> Callable[[Path, str], None]:
    """An ``on_skip`` for :func:`walk_files` that reports what it leaves out through ``skip``
    (``ctx.skip``), named by its place under ``root`` as the source's refs are."""
    return lambda path, reason: skip(source_id, printable(path.relative_to(root)), reason)


def walk_files(root: Path, on_skip: Callable[[Path, str], None], *,
               keep_dir: Callable[[Path], bool] = lambda p: True,
               keep_file: Callable[[str], bool] = lambda n: True,
               max_depth: int = MAX_DEPTH) -> Iterator[Path]:
    """Regular-looking files under ``root`` in sorted order, depth-first.

    ``keep_dir(path)`` decides whether to enter a sub-folder, ``keep_file(name)`` whether a
    file is of interest; only kept items that cannot be used are reported to ``on_skip``.
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
                continue
            if not is_text(entry.name):
                on_skip(path, f"{printable(path)}: file name is not valid UTF-8; rename it to have it read")
                continue
            yield path
        stack.extend((d, depth + 1) for d in reversed(subdirs))


def files_named(root: Path, suffix: str, on_skip: Callable[[Path, str], None]) -> Iterable[Path]:
    """``root`` itself when it is a file, else the visible files named ``*suffix`` (any case)
    below it, hidden folders not entered: what a one-message-per-file source reads."""
    if root.is_file():
        return [root]
    return walk_files(root, on_skip, keep_dir=lambda d: not d.name.startswith("."),
                      keep_file=lambda n: n.lower().endswith(suffix) and not n.startswith("."))


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
