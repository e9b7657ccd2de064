"""Local-machine helpers for the Sources page: uploads, harness folders, what a path is.

Why here and not in the view: these touch the file system (permissions, the user's home)
and must be testable without Streamlit. Uploaded exports hold a person's mail and chat, so
they are saved under the app home in an ``uploads`` folder only the owner can read (0700
folder, 0600 files), never in the current directory or a world-readable temp dir.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError, SourceError
from bootstrap_app.harnesses import HARNESS_CLASSES, LocalMemory
from connectors.registry import detect
from connectors.sessions.sources import ClaudeCodeSessions, CodexSessions, GeminiSessions

__all__ = [
    "UPLOAD_TYPES",
    "HarnessFolder",
    "describe_location",
    "find_harness_folders",
    "find_session_folders",
    "normalize_location",
    "safe_describe",
    "save_upload",
    "uploads_dir",
]

UPLOAD_TYPES = ("mbox", "ics", "zip")
"""What the uploader accepts: a mailbox, a calendar, a Google Takeout or Slack export zip."""

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def uploads_dir(settings: Settings) -> Path:
    """``<app home>/uploads``, created 0700 (and tightened if it already existed)."""
    path = settings.home / "uploads"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def save_upload(settings: Settings, filename: str, data: bytes) -> Path:
    """Save an uploaded export under the uploads folder (0600) and return its path.

    The name is reduced to ``[A-Za-z0-9._-]`` so an upload can never escape the folder, and an
    existing file with the same name is not overwritten (a counter is added instead).
    """
    base = _SAFE_NAME.sub("-", Path(filename).name).strip(".-") or "upload"
    suffix = Path(base).suffix.lower().lstrip(".")
    if suffix not in UPLOAD_TYPES:
        raise SourceError(f"{filename}: not an upload memseed can read",
                          hint="upload a .mbox mailbox, an .ics calendar, or a Takeout / Slack export .zip")
    folder = uploads_dir(settings)
    target = folder / base
    stem, ext = Path(base).stem, Path(base).suffix
    counter = 1
    while target.exists():
        counter += 1
        target = folder / f"{stem}-{counter}{ext}"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return target


def normalize_location(location: str) -> str:
    """The form a source is remembered under: an absolute path, or the URI as typed.

    The pipeline remembers scanned paths resolved, so the Sources page must too, or one
    folder would be listed twice (``~/mail`` and ``/home/me/mail``).
    """
    text = location.strip()
    path = Path(text).expanduser()
    if path.exists():
        return str(path.resolve())
    return text


def describe_location(location: str) -> list[tuple[str, str]]:
    """What memseed would read at ``location``: (kind, where) per detected source.

    Raises the registry's :class:`~bootstrap_app.errors.SourceError` (with a hint) when the path
    does not exist or holds nothing readable.
    """
    found = detect(location)
    return [(src.label or type(src).__name__, src.location) for src in found]


def safe_describe(location: str) -> tuple[list[tuple[str, str]], str | None]:
    """:func:`describe_location` that returns the error's message (without its hint) instead."""
    try:
        return describe_location(location), None
    except MemseedError as exc:
        return [], str(exc.args[0]) if exc.args else type(exc).__name__


HarnessFolder = LocalMemory
"""An agent harness's memory found on this machine (the harness contract's :class:`LocalMemory`)."""


def find_harness_folders() -> list[HarnessFolder]:
    """Existing memory of every registered harness on this machine.

    Each harness looks where it would write (its env vars, e.g. ``CLAUDE_CONFIG_DIR``,
    ``CODEX_HOME``, ``HERMES_HOME``, ``GEMINI_DIR``, or its default under ``~``). Only folders
    that exist and hold something are returned.
    """
    return [found for cls in HARNESS_CLASSES for found in cls().find_local()]


@dataclass(frozen=True)
class SessionFolder:
    """An agent's saved conversations found on this machine (what the Sources page offers)."""

    label: str
    location: str
    """The URI that reads them (``claude-code-sessions:``, ``codex-sessions:``)."""
    path: str
    files: int
    megabytes: float


def find_session_folders() -> list[SessionFolder]:
    """Claude Code transcripts, Codex rollouts and Gemini CLI sessions where each agent keeps them
    (``CLAUDE_CONFIG_DIR`` / ``CODEX_HOME`` / ``GEMINI_DIR`` or the default homes); only folders holding sessions.
    Counting stats the files, it never opens them."""
    out: list[SessionFolder] = []
    for cls, label in ((ClaudeCodeSessions, "Claude Code sessions"), (CodexSessions, "Codex rollouts"),
                       (GeminiSessions, "Gemini CLI sessions")):
        source = cls("")
        root = source.root()
        if not root.is_dir() or not cls.sniff(root):
            continue
        files = [p for p in root.rglob(source.pattern) if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        out.append(SessionFolder(label, f"{cls.uri_schemes[0]}:", str(root), len(files), size / 1e6))
    return out
