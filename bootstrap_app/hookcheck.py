"""The agents' start-up check, run as a plain script: standard library only, no package import.

This file is an entry point, like the CLI: installed hooks name it by its path (so it stays at
this path), and nothing imports it. What it reads and prints — the summary's format, the checks,
the line — is :mod:`bootstrap_app.memory.watch`, loaded here by its file path (no package import)
and by the engine by name.

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
import importlib.util
import sys
from datetime import UTC, datetime
from pathlib import Path

TYPE_CHECKING = False  # the typing module is not imported at run time: every millisecond is a session start's
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

__all__ = ["main"]

_WATCH = Path(__file__).resolve().parent / "memory" / "watch.py"


def _watch() -> ModuleType:
    """:mod:`bootstrap_app.memory.watch`, loaded from its file: standard library only, no package import."""
    spec = importlib.util.spec_from_file_location("memseed_hook_watch", _WATCH)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {_WATCH}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _full_line(db_path: Path) -> str:
    """The full check (imports the package; refreshes the summary for the next start)."""
    if sys.flags.no_site:  # started with -S (site costs more than the check): memseed's packages now
        site = importlib.import_module("site")
        site.main()
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    # the engine, by name and only now: the summary could not answer
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
        watch = _watch()
        try:
            line = watch.fast_line(db_path, datetime.now(UTC).date())
        except watch.Changed:
            line = _full_line(db_path)
        out = watch.render(line, opts.get("--format", "text"), stdin)
    except Exception:  # whatever went wrong, the agent's session starts as usual
        out = ""
    if out:
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
