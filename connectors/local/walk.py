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
from collections.abc import Callable, Iterator
from pathlib import Path

from bootstrap_app.text.paths import is_text, printable

__all__ = ["MAX_DEPTH", "walk_files"]

MAX_DEPTH = 40
"""Folders below this many levels are not entered (a real document tree is rarely over 15)."""


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
