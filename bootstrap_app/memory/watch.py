"""The start-up hook's summary, read: its format, the checks it replays, the one line it gives.

Standard library only, and no import of memseed's own modules: the agents' start-up script
(:mod:`bootstrap_app.hookcheck`) loads this file *by its path*, without importing the package
(whose ``__init__`` loads the whole engine), so a session start costs about one Python start.
The engine imports it by name like any module: :mod:`bootstrap_app.memory.freshness` writes the
summary (``refresh_watch``) from the same :func:`findings` and :func:`signature`, and
:mod:`bootstrap_app.memory.hooks` answers ``memseed hook run`` from :func:`fast_line`.

Why apart from the script: the script is an entry point (it falls back to the full check, which
needs the engine), while this is a leaf everything may use. Kept in one file, the two made the
engine import its own entry script and the script import the engine back: a circle.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import date
from pathlib import Path

TYPE_CHECKING = False  # the typing module is not imported at run time: every millisecond is a session start's
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

__all__ = ["WATCH_VERSION", "Changed", "fast_line", "findings", "render", "signature", "summary_line"]

WATCH_VERSION = 1
"""The shape of the summary this file reads; another version is treated as no summary."""

_WAITING = ("SELECT count(*) FROM proposals p LEFT JOIN decisions d ON d.fingerprint = p.fingerprint "
            "WHERE d.status IS NULL")


class Changed(Exception):
    """The summary cannot answer (missing, marked stale, or a repository's task files changed)."""


def signature(paths: Iterable[str | Path]) -> list[list[Any]]:
    """[path, mtime_ns, size] per path ([path, None, None] when absent): what a task file's verdict rests on."""
    out: list[list[Any]] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            out.append([str(path), None, None])
            continue
        out.append([str(path), st.st_mtime_ns, st.st_size])
    return out


def findings(record: dict[str, Any], today: date, *, recheck: bool = True) -> list[tuple[str, str]]:
    """(what, detail) of every check of one summary record that no longer holds, in order.

    ``recheck``: compare the record's task-file signature with the files now, and raise
    :class:`Changed` when they differ (the command verdicts were made on other files).
    """
    location = record["file"]
    if location and not os.path.exists(location):
        return [("file", "is gone (removed since memseed wrote it)")]
    sig = record.get("sig")
    if recheck and sig and signature(s[0] for s in sig) != sig:
        raise Changed(record["n"])
    out = []
    for kind, value, what, detail in record["checks"]:
        if (kind == "path" and not os.path.exists(value)) or (kind == "held" and value) \
                or (kind == "date" and date.fromisoformat(value) < today):
            out.append((what, detail))
    return out


def summary_line(stale: Sequence[tuple[str, str, str, str]], waiting: int) -> str:
    """The hook's line from (fingerprint, name, what, detail) findings and the undecided count."""
    parts = []
    if stale:
        entries = len({s[0] for s in stale})
        parts.append(f"{entries} memor{'y' if entries == 1 else 'ies'} written by memseed may be stale "
                     f"(e.g. {stale[0][1]}: {stale[0][2]} {stale[0][3]}) — `memseed verify`")
    if waiting:
        parts.append(f"{waiting} proposal{'' if waiting == 1 else 's'} wait{'s' if waiting == 1 else ''} "
                     "for review — `memseed review`")
    return ("memseed: " + "; ".join(parts)) if parts else ""


def fast_line(db_path: Path, today: date) -> str:
    """The line from the summary alone; "" for a missing store. Raises :class:`Changed` when the
    summary cannot answer, and ``sqlite3.Error`` when the store cannot be read."""
    if not db_path.is_file():
        return ""
    db = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.2)
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='hook_watch'").fetchone() is None:
            raise Changed("a store from before the summary")
        waiting = db.execute(_WAITING).fetchone()[0]
        row = db.execute("SELECT stale, data FROM hook_watch WHERE id = 1").fetchone()
    finally:
        db.close()
    if row is None or row[0]:
        raise Changed("no summary, or written to since")
    data = json.loads(row[1])
    if data.get("v") != WATCH_VERSION:
        raise Changed("another summary version")
    stale = [(r["fp"], r["n"], what, detail) for r in data["entries"] for what, detail in findings(r, today)]
    return summary_line(stale, waiting)


def render(line: str, fmt: str, stdin_text: str = "") -> str:
    """What to print for agent format ``fmt`` ("" when ``line`` is)."""
    if fmt == "hermes":  # pre_llm_call fires every turn: speak on the first only
        try:
            first = bool(json.loads(stdin_text or "{}").get("extra", {}).get("is_first_turn", True))
        except (ValueError, AttributeError):
            first = True
        return json.dumps({"context": line}) if line and first else ""
    if not line:
        return ""
    if fmt in ("codex", "gemini"):
        out: dict[str, Any] = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": line}}
        if fmt == "gemini":
            out["systemMessage"] = line
        return json.dumps(out, ensure_ascii=False)
    return line
