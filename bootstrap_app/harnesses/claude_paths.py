"""Where Claude Code keeps a project's memory: the project key and the folder (formats doc §3.1).

Why the project folder is *found* before it is computed: the key Claude Code uses is the
project's git root with every character outside ``[A-Za-z0-9]`` turned into ``-``, but keys
longer than 200 characters carry an unreproducible hash suffix and Windows drive letters vary
in case. So an existing folder is matched exactly, then case-insensitively, then by the
200-character prefix, then by the ``cwd`` recorded in the folder's session ``*.jsonl`` files;
only when nothing matches is a new key computed. ``memory_override`` applies the env variable
and ``autoMemoryDirectory`` setting that relocate the folder.
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

from bootstrap_app.fsutil import read_bytes

__all__ = ["find_project_dir", "git_root", "memory_override", "project_key", "session_cwd"]


def git_root(path: Path) -> Path:
    """The canonical git root at or above ``path`` (worktrees map to their main repository).

    Claude Code keys memory by the canonical root, so every worktree of a repository shares one
    memory folder. A ``.git`` *file* (worktree) points at ``<main>/.git/worktrees/<name>``.
    """
    start = Path(os.path.abspath(path.expanduser()))
    for candidate in (start, *start.parents):
        marker = candidate / ".git"
        if marker.is_file():
            try:
                text = marker.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                return candidate
            if text.startswith("gitdir:"):
                gitdir = (candidate / text[7:].strip()).resolve()
                common = gitdir / "commondir"
                if common.is_file():
                    main = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
                    return main.parent
            return candidate
        if marker.exists():
            return candidate
    return start


def project_key(path: Path) -> str:
    """``sanitizePath``: NFC, then every UTF-16 code unit outside ``[A-Za-z0-9]`` becomes ``-``."""
    text = unicodedata.normalize("NFC", str(path))
    out = []
    for ch in text:
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        else:
            out.append("--" if ord(ch) > 0xFFFF else "-")
    return "".join(out)


def session_cwd(folder: Path) -> str | None:
    """The ``cwd`` recorded in the newest session transcript of a project folder."""
    try:
        sessions = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for session in sessions[:3]:
        try:
            with session.open(encoding="utf-8", errors="replace") as handle:
                for _, line in zip(range(50), handle, strict=False):
                    try:
                        record = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(record, dict) and isinstance(record.get("cwd"), str):
                        return str(record["cwd"])
        except OSError:
            continue
    return None


def _djb2_base36(text: str) -> str:
    """Suffix for keys over 200 chars when no folder exists yet (Node builds use djb2 [I]).

    The shipped binary uses another hash, so existing folders are always matched by prefix first.
    """
    value = 5381
    for unit in text.encode("utf-16-le"):
        value = ((value << 5) + value + unit) & 0xFFFFFFFF
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rem = divmod(value, 36)
        out = digits[rem] + out
        if not value:
            return out


def find_project_dir(projects: Path, project: Path) -> Path:
    """The existing ``projects/<key>`` folder for ``project``, or the computed one."""
    root = git_root(project)
    key = project_key(root)
    exact = projects / (key if len(key) <= 200 else f"{key[:200]}-{_djb2_base36(key)}")
    if exact.is_dir() or not projects.is_dir():
        return exact
    folders = [p for p in projects.iterdir() if p.is_dir() and not p.is_symlink()]
    for folder in folders:
        if folder.name.lower() == key.lower():
            return folder
    if len(key) > 200:
        for folder in folders:
            if folder.name.startswith(key[:200] + "-"):
                return folder
    for folder in folders:
        cwd = session_cwd(folder)
        if cwd and (os.path.normcase(cwd) == os.path.normcase(str(root))
                    or os.path.normcase(str(git_root(Path(cwd)))) == os.path.normcase(str(root))):
            return folder
    return exact


def memory_override(home: Path) -> tuple[Path | None, list[str]]:
    """A relocated memory folder (env or ``autoMemoryDirectory``) and warnings about disabled memory.

    Order as in the formats doc §3.1: ``CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`` > user settings
    ``autoMemoryDirectory`` (absolute or ``~/``; relative paths are rejected by Claude Code too).
    """
    notes: list[str] = []
    settings: dict[str, Any] = {}
    for name in ("settings.json", "settings.local.json"):
        raw = read_bytes(home / name)
        if raw:
            try:
                data = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                notes.append(f"{home / name} is not valid JSON; ignored")
                continue
            if isinstance(data, dict):
                settings.update(data)
    if os.environ.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY") == "1" or settings.get("autoMemoryEnabled") is False:
        notes.append("warning: Claude Code auto memory is disabled (autoMemoryEnabled / "
                     "CLAUDE_CODE_DISABLE_AUTO_MEMORY); it will not load these files until it is on")
    env = os.environ.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
    if env:
        notes.append(f"memory folder relocated by CLAUDE_COWORK_MEMORY_PATH_OVERRIDE to {env}")
        return Path(env).expanduser(), notes
    custom = settings.get("autoMemoryDirectory")
    if isinstance(custom, str) and custom.strip():
        path = Path(custom.strip()).expanduser()
        if path.is_absolute() and len(path.parts) > 2:
            notes.append(f"memory folder relocated by autoMemoryDirectory to {path}")
            return path, notes
        notes.append(f"autoMemoryDirectory {custom!r} is not an absolute folder; Claude Code ignores it too")
    return None, notes
