"""Safe file operations for writing into another program's memory folder.

Why this module exists: a harness memory folder is shared with a running agent and with the
person's own edits. A torn write, a followed symlink or a name that climbs out of the folder
would corrupt or leak data that memseed does not own. Every writer goes through these few
functions, which (after reference/safety.md §7):

- refuse symlinks: the root, every parent of a target that lies inside the home directory
  (or inside the harness root), and the target itself (``os.lstat``; reads use ``O_NOFOLLOW``);
- keep names inside the root (``resolved.is_relative_to(root)``) and restrict them to
  ``[a-z0-9-]``;
- write atomically: temp file in the same folder, ``fsync``, ``os.replace`` (or ``os.link``
  for create-new), then ``fsync`` of the folder so the rename is durable.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from pathlib import Path

from bootstrap_app.errors import UnsafePath, WriteError

__all__ = [
    "atomic_write",
    "check_name",
    "contained",
    "ensure_dirs",
    "fsync_dir",
    "read_bytes",
    "refuse_symlinks",
    "remove_file",
]

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,127}$")


def check_name(slug: str) -> str:
    """Return ``slug`` if it is a safe file-name stem (``[a-z0-9-]``, no dots), else raise."""
    if not _NAME_RE.match(slug or ""):
        raise UnsafePath(f"unsafe memory name {slug!r}",
                         hint="names may only contain a-z, 0-9 and '-', and must not start with '-'")
    return slug


def contained(root: Path, path: Path) -> Path:
    """``path`` resolved, refusing anything that resolves outside ``root``."""
    root_resolved = root.resolve()
    resolved = path.resolve()
    if not resolved.is_relative_to(root_resolved):
        raise UnsafePath(f"{path} would be written outside {root}",
                         hint="memory names must not contain path separators or '..'")
    return resolved


def _home() -> Path:
    return Path(os.path.expanduser("~")).absolute()


def refuse_symlinks(path: Path, anchor: Path | None = None) -> None:
    """Raise :class:`UnsafePath` if ``path`` or a parent of it is a symlink.

    Parents are checked while they lie inside the home directory or inside ``anchor`` (the
    harness root); system folders above those (``/tmp`` on macOS, say) are not ours to judge.
    """
    path = Path(os.path.abspath(path))
    home = _home()
    limits = [home]
    if anchor is not None:
        limits.append(Path(os.path.abspath(anchor)))
    candidates = [path, *path.parents]
    for candidate in candidates:
        inside = any(candidate == lim or candidate.is_relative_to(lim) for lim in limits)
        if candidate != path and not inside:
            continue
        if candidate == home and candidate != path:
            break
        try:
            st = os.lstat(candidate)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise UnsafePath(f"cannot inspect {candidate}: {exc.strerror}") from exc
        if stat.S_ISLNK(st.st_mode):
            raise UnsafePath(f"{candidate} is a symbolic link; memseed never writes through links",
                             hint="point the harness at the real folder (or set its *_HOME variable) "
                                  "and run again")


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, ``None`` if it does not exist. Never follows a symlink."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePath(f"{path} is a symbolic link; memseed never reads through links") from exc
        if exc.errno == errno.EISDIR or path.is_dir():
            raise UnsafePath(f"{path} is a folder where a memory file belongs") from exc
        raise WriteError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafePath(f"{path} is not a regular file")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def ensure_dirs(folder: Path, anchor: Path | None = None) -> list[Path]:
    """Create ``folder`` and missing parents (mode 0700); return the folders created.

    The list lets a failed write remove exactly the folders it made.
    """
    created: list[Path] = []
    missing: list[Path] = []
    current = Path(os.path.abspath(folder))
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    refuse_symlinks(current, anchor)
    for item in reversed(missing):
        try:
            os.mkdir(item, 0o700)
        except FileExistsError:
            pass
        else:
            created.append(item)
    refuse_symlinks(folder, anchor)
    return created


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX); a no-op where folders cannot be opened."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: Path, data: bytes, *, create_new: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temp in the same folder, fsync, rename, dir fsync).

    ``create_new`` refuses (``ConflictError``-worthy :class:`WriteError`) when the file appeared
    in the meantime: the temp file is hard-linked into place, which fails if the name exists.
    An existing file keeps its permission bits.
    """
    folder = path.parent
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise UnsafePath(f"{path} is a symbolic link; memseed never writes through links")
    mode = stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".memseed-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if create_new:
            try:
                os.link(tmp, path)
            except FileExistsError as exc:
                raise WriteError(f"{path} appeared while memseed was writing; nothing was overwritten",
                                 hint="run the write again to see the new plan") from exc
            except OSError:  # filesystems without hard links: check, then rename
                if os.path.lexists(path):
                    raise WriteError(f"{path} appeared while memseed was writing") from None
                os.replace(tmp, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)


def remove_file(path: Path) -> None:
    """Delete a file memseed created (used by rollback and undo); missing is fine."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise UnsafePath(f"{path} is a folder; memseed only removes files it created")
    os.unlink(path)
    fsync_dir(path.parent)
