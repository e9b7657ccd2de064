"""File-time helpers for the incremental-read tests (a file copied in late with an old mtime)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["later_ctime"]


def later_ctime(path: Path, than: Path) -> Path:
    """``path`` with an inode-change time after ``than``'s: the file system stamps ctime from a
    clock that ticks every few milliseconds, so two files written at once may share one. Setting
    the same times again moves ctime on without touching the content or the mtime."""
    st = path.stat()
    while path.stat().st_ctime_ns <= than.stat().st_ctime_ns:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return path
