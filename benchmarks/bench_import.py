"""`memseed import` of the largest real agent-memory folder into every target, next to a plain scan.

Why next to a scan: an import is a scan of the source plus reading the target, planning and a
journaled write. The ratio import / scan (same folder, same run, fresh homes) says what moving
memory costs on top of reading it; the per-target lines say what arrived and what was reported
and why (moved + reported = read), and how much of the import is planning the write (settling
every entry, fitting the target's caps, the writer's plan: ``importing.plan_import``). Also prints, for every real memory folder, what a scan reads
and proposes.

The real folders are read from ``$MEMSEED_REALDATA/memory`` (``make bench`` sets it; see
tests/REALDATA.md for where the corpora come from); without it the benchmark says so and stops.

Run: ``MEMSEED_REALDATA=/path/to/realdata .venv/bin/python -m benchmarks.bench_import``.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

__all__ = ["main"]

REPEATS = 3
TARGETS = ("claude-code", "codex", "hermes", "gemini", "markdown")


def _fresh_home(root: Path, name: str) -> Path:
    home = root / name
    (home / "project").mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = str(home)
    os.environ["MEMSEED_HOME"] = str(home / ".memseed")
    return home


def _scan_seconds(root: Path, folder: Path, i: int) -> tuple[float, int, int]:
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan
    from bootstrap_app.store import Store

    _fresh_home(root, f"scan-{'-'.join(folder.parts[-3:])}-{i}")
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        start = time.perf_counter()
        result = scan([str(folder)], settings=settings, store=store)
        return time.perf_counter() - start, result.items, len(result.proposals)


def _import_seconds(root: Path, folder: Path, target: str, i: int) -> tuple[float, Counter[str], float]:
    from bootstrap_app.config import load_settings
    from bootstrap_app.memory import move as importing
    from bootstrap_app.review import decisions
    from bootstrap_app.store import Store

    home = _fresh_home(root, f"import-{target}-{i}")
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        start = time.perf_counter()
        run = importing.start_import(str(folder), target, settings=settings, store=store, project=home / "project")
        decisions.approve(store, [sp.proposal.id for sp in importing.pending(run, store)])
        planning = time.perf_counter()
        importing.plan_import(run, store)
        planning = time.perf_counter() - planning
        importing.apply_import(run, store)
        return time.perf_counter() - start, run.counts(), planning


def main() -> int:
    realdata = os.environ.get("MEMSEED_REALDATA")
    memory = Path(realdata) / "memory" if realdata else None
    if memory is None or not memory.is_dir():
        print("MEMSEED_REALDATA/memory is absent: nothing to measure (see tests/REALDATA.md)")
        return 0
    # memory/<agent>/<corpus>/: the corpus folder, or its memory/ folder when it keeps one (Claude Code's)
    folders = [c / "memory" if (c / "memory").is_dir() else c for c in sorted(memory.glob("*/*")) if c.is_dir()]
    saved = {k: os.environ.get(k) for k in ("HOME", "MEMSEED_HOME")}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            print(f"{'folder':48} {'read':>5} {'proposed':>8}")
            sizes = []
            for folder in folders:
                _, items, proposed = _scan_seconds(root, folder, 0)
                sizes.append((items, folder))
                print(f"{folder.relative_to(memory)!s:48} {items:>5} {proposed:>8}")
            largest = max(sizes)[1]
            scan_s = statistics.median(_scan_seconds(root, largest, i)[0] for i in range(REPEATS))
            print(f"\nlargest: {largest.relative_to(memory)}; scan alone {scan_s * 1000:.0f} ms (median of {REPEATS})")
            for target in TARGETS:
                runs = [_import_seconds(root, largest, target, i) for i in range(REPEATS)]
                seconds = statistics.median(r[0] for r in runs)
                planning = statistics.median(r[2] for r in runs)
                counts = runs[0][1]
                print(f"  import -> {target:11} {seconds * 1000:6.0f} ms  x{seconds / scan_s:4.1f} of the scan  "
                      f"(planning {planning * 1000:5.0f} ms, x{planning / scan_s:4.2f})  "
                      + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
