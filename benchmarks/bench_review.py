"""Review page render time at 50 vs 500 proposals, measured side by side in one run.

Why: the Review page must stay quick when a scan of a real footprint proposes hundreds of
memories. Pagination (25 per page) should make the render time nearly independent of the
number of proposals; only loading and filtering the rows grows with it. The ratio printed at
the end is the number to watch (close to 1 is good; 10 would mean the page renders them all).

Run: ``.venv/bin/python -m benchmarks.bench_review`` (or ``make bench``).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["main", "render_seconds"]

REPEATS = 7


def _proposals(n: int) -> list:  # type: ignore[type-arg]
    from bootstrap_app.types import Evidence, MemoryType, Proposal

    kinds = list(MemoryType)
    return [Proposal(type=kinds[i % 4], name=f"fact {i:04d} topic {i % 17}", description=f"Generated fact {i}",
                     body=f"The person prefers option {i} for topic {i % 17}. " * 3, subject=f"bench:{i}",
                     key=str(i), confidence=0.5, flags=("sensitive",) if i % 9 == 4 else (),
                     evidence=tuple(Evidence(f"mbox:/bench/{j}.mbox", f"<{i}.{j}@bench.example>",
                                             datetime(2026, 1, 1 + j, tzinfo=UTC), j == 0, f"excerpt {i} {j}")
                                    for j in range(3)))
            for i in range(n)]


def _review_app(root: Path, n: int):  # type: ignore[no-untyped-def]
    """An AppTest session on the Review page of a fresh home holding ``n`` proposals."""
    from streamlit.testing.v1 import AppTest

    from bootstrap_app.store import Store
    from bootstrap_app.ui import APP_FILE

    os.environ["MEMSEED_HOME"] = str(root / f"home-{n}")
    with Store(root / f"home-{n}" / "state.db") as store:
        run = store.start_run("scan", ["bench"])
        store.save_proposals(run, _proposals(n))
        store.finish_run(run, "finished", {})
    at = AppTest.from_file(str(APP_FILE), default_timeout=120)
    at.run()  # the session reads MEMSEED_HOME once, here, and keeps its settings
    at.switch_page("views/review.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert len([b for b in at.button if (b.key or "").startswith("approve_")]) == min(n, 25)
    return at


def render_seconds(sizes: tuple[int, ...] = (50, 500), repeats: int = REPEATS) -> dict[int, list[float]]:
    """Seconds per full rerun of the Review page for each size, runs interleaved size by size."""
    saved = {name: os.environ.get(name) for name in ("MEMSEED_HOME", "HERMES_HOME")}
    try:
        return _measure(sizes, repeats)
    finally:  # other benchmarks run in this process after us (python -m benchmarks)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _measure(sizes: tuple[int, ...], repeats: int) -> dict[int, list[float]]:
    with tempfile.TemporaryDirectory(prefix="memseed-bench-") as tmp:
        os.environ["HERMES_HOME"] = str(Path(tmp) / "hermes")
        apps = {n: _review_app(Path(tmp), n) for n in sizes}
        for at in apps.values():  # warm-up: imports, caches
            at.run()
        times: dict[int, list[float]] = {n: [] for n in sizes}
        for _ in range(repeats):
            for n, at in apps.items():
                start = time.perf_counter()
                at.run()
                times[n].append(time.perf_counter() - start)
                assert not at.exception
        return times


def main() -> None:
    times = render_seconds()
    medians = {n: statistics.median(t) for n, t in times.items()}
    for n, median in medians.items():
        print(f"review page, {n:>3} proposals: median {median:.3f} s per render ({REPEATS} runs, interleaved)")
    print(f"ratio 500/50: {medians[500] / medians[50]:.2f}x  (25 cards per page either way; the rest is "
          "loading and filtering every row from the store)")


if __name__ == "__main__":
    main()
