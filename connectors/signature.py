"""A cheap "has this source changed at all?" signature, for reseed's first step.

Why: ``memseed reseed`` runs from cron and usually finds nothing new. Reading a 100 MB mbox
again just to learn that is most of a full scan's cost. The size, modification time and
inode-change time (and inode number) of every file under a source's location say the same in milliseconds: when
they are unchanged since the last scan, nothing in the source can be new. (The mtime alone is not
enough: ``cp -p``, ``rsync -t`` and unzip keep a file's old one, so a same-size file copied over
another would look unchanged; copying it in moves its ctime, see ``connectors.local.walk.ChangeCursor``.) Git working copies are left to their own cursor
(the HEAD commit), since a commit need not touch the working tree. Locations with more than
``MAX_FILES`` files get no signature (walking them would cost what it saves) and are read as
before.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["MAX_FILES", "location_signature"]

MAX_FILES = 20_000


def location_signature(location: str) -> str | None:
    """sha256 over (relative path, size, mtime_ns, ctime_ns, inode) of every file at ``location``; None when the
    location is missing, a git working copy, or too large to walk cheaply."""
    path = Path(location).expanduser()
    try:
        if path.is_file():
            st = path.stat()
            return hashlib.sha256(f"{st.st_size}\x1f{st.st_mtime_ns}\x1f{st.st_ctime_ns}\x1f{st.st_ino}".encode()).hexdigest()
        if not path.is_dir() or (path / ".git").exists():
            return None
        h = hashlib.sha256()
        count = 0
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames.sort()
            for name in sorted(filenames):
                count += 1
                if count > MAX_FILES:
                    return None
                full = os.path.join(dirpath, name)
                st = os.stat(full)
                # names as the file system's bytes: a name that is not valid UTF-8 still counts
                h.update(os.fsencode(os.path.relpath(full, path))
                         + f"\x1f{st.st_size}\x1f{st.st_mtime_ns}\x1f{st.st_ctime_ns}\x1f{st.st_ino}\n".encode())
        return h.hexdigest()
    except OSError:
        return None
