"""The agents' start-up check, run as a plain script: standard library only, no package import.

Why a script of its own: an agent runs the hook at every session start, and importing the
``bootstrap_app`` package (its ``__init__`` imports the whole engine, by design) costs far more
than the check. So ``memseed hook install`` writes a command that runs this file by its path
with memseed's own Python (``python -I -S …/hookcheck.py --home H --format F``: isolated, and
without ``site``, whose start-up — the installed packages' path hooks — costs more than the
check; the full check below turns it on when it needs the packages). It reads the store
read-only and a summary of what to look at again (the ``hook_watch`` row that
:func:`bootstrap_app.memory.freshness.refresh_watch` keeps; every write and undo refreshes it
through :func:`bootstrap_app.memory.write.after_write`, and ``verify``, ``reseed`` and the hook
itself do too), and then only stats
files and compares dates:

- each written entry's memory file, the local sources it came from and the paths it names must
  still exist; a deadline it gives must not have passed;
- a runner command it names (``make lint``) was judged when the summary was made, against the
  repository's task files; the summary keeps their stat, and while none changed the verdict
  holds. When one did (or the summary is missing, or marked stale by the store's triggers
  because something was written, undone or edited since), the full check runs instead — the
  package is imported after all, once, and the summary refreshed.

It prints nothing when all is fresh, one line otherwise, and exits 0 whatever happens: a
missing, locked or corrupt store is silence, never a stalled or failed session start.
"""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
import sys
from datetime import UTC, date, datetime
from pathlib import Path

TYPE_CHECKING = False  # the typing module is not imported at run time: every millisecond is a session start's
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

__all__ = ["WATCH_VERSION", "Changed", "fast_line", "findings", "main", "render", "signature", "summary_line"]

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


def _full_line(db_path: Path) -> str:
    """The full check (imports the package; refreshes the summary for the next start)."""
    if sys.flags.no_site:  # started with -S (site costs more than the check): memseed's packages now
        site = importlib.import_module("site")
        site.main()
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    # by name, at run time: this file sits in the bottom layer for the modules that import it, and
    # only as a script, when the summary cannot answer, does it load the engine above it
    agenthooks = importlib.import_module("bootstrap_app.memory.hooks")
    return str(agenthooks.hook_line(db_path))


def main(argv: Sequence[str] | None = None) -> int:
    """``hookcheck.py --home APP_HOME [--format text|codex|gemini|hermes]``: print the line; exit 0."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = ""
    try:
        opts = dict(zip(args[::2], args[1::2], strict=False))
        db_path = Path(opts["--home"]).expanduser() / "state.db"
        stdin = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read(65536)
        try:
            line = fast_line(db_path, datetime.now(UTC).date())
        except Changed:
            line = _full_line(db_path)
        out = render(line, opts.get("--format", "text"), stdin)
    except Exception:  # whatever went wrong, the agent's session starts as usual
        out = ""
    if out:
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
