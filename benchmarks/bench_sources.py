"""What listing the remembered sources costs: a walk of every folder against the store's counts.

Why: ``memseed sources`` (and the app's Sources page) used to detect every remembered location
again to count its items — a walk of the whole folder, per listing. Now the counts and the last
sync are the ones the last scan recorded; only ``--check`` looks at the disk. Measured side by
side in one run on one generated folder of ``--files`` documents, scanned once beforehand:

- walk (``--check``, what every listing did before) — ``source_catalog(check=True)``;
- store (every listing now) — ``source_catalog()``.

Both must report the same item count. Run: ``python -m benchmarks.bench_sources [--files 5000]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

__all__ = ["main"]


def _folder(root: Path, files: int) -> Path:
    """``files`` small Markdown notes in 50 sub-folders (a notes folder, as a person keeps one)."""
    folder = root / "notes"
    for i in range(files):
        sub = folder / f"topic-{i % 50:02}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note-{i:05}.md").write_text(f"# Note {i}\n\nReview item {i} of the ledger before Friday.\n")
    return folder


def _best(fn: object, repeat: int) -> tuple[float, float]:
    """(median, best) seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memseed-bench-sources-") as tmp:
        root = Path(tmp)
        os.environ["MEMSEED_HOME"] = str(root / "home")
        from bootstrap_app.config import load_settings
        from bootstrap_app.pipeline import scan
        from bootstrap_app.report.sources import source_catalog
        from bootstrap_app.store import Store

        folder = _folder(root, args.files)
        settings = load_settings(root / "home")
        start = time.perf_counter()
        with Store(settings.db_path) as store:
            scan([str(folder)], settings=settings, store=store)
            scanned = time.perf_counter() - start
            walked = source_catalog(settings, store, check=True).remembered
            stored = source_catalog(settings, store).remembered
            assert [r.items for r in walked] == [r.items for r in stored], (walked, stored)
            walk = _best(lambda: source_catalog(settings, store, check=True), args.repeat)
            table = _best(lambda: source_catalog(settings, store), args.repeat)
    print(f"folder of {args.files} files, scanned once in {scanned:.1f} s; {stored[0].items} items remembered")
    print(f"{'listing':28} {'median ms':>10} {'best ms':>10}")
    print(f"{'walk (--check, as before)':28} {walk[0] * 1000:10.1f} {walk[1] * 1000:10.1f}")
    print(f"{'store (now)':28} {table[0] * 1000:10.1f} {table[1] * 1000:10.1f}")
    print(f"store is {walk[0] / table[0]:.0f}x faster (median)" if table[0] else "store: below timer resolution")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
