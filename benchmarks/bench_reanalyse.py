"""What a re-analysis after an identity correction costs: read every source again, or replay the item cache.

Why: the wizard's "Who you are" page re-runs the analysis after each correction. Path sources
(mbox, ``.ics``, Slack export, repositories, folders) used to be read again for it; now their last
full read is replayed from the state database (:mod:`bootstrap_app.cache.snapshots`) while their
files are unchanged. Measured side by side in one run, after one full scan of the same footprint:

- read (before) — ``scan(...)``: every source read again, as each re-analysis did;
- replay (now) — ``scan(..., cached=True)``: what the wizard's re-analysis runs.

Both must give the same proposals. Footprints: the demo persona, and (when ``MEMSEED_REALDATA``
is set) a real Enron inbox, a real calendar export, a real Slack export layout and a real
repository. Run: ``python -m benchmarks.bench_reanalyse [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bootstrap_app.config import load_settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.pipeline import scan

__all__ = ["main"]


def _median(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _realdata(tmp: Path) -> list[str] | None:
    base = os.environ.get("MEMSEED_REALDATA", "")
    root = Path(base) if base else None
    if root is None or not (root / "email" / "enron").is_dir():
        return None
    repo = tmp / "pdm"
    subprocess.run(["git", "clone", "-q", str(root / "repos" / "pdm.bundle"), str(repo)], check=True,
                   env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    return [str(root / "email" / "enron" / "enron-kaminski-v-inbox.mbox"),
            str(root / "ics" / "recurring-ical-events" / "google-personal-export-issue42.ics"),
            str(root / "slack" / "julialang-subset-export-layout"), str(repo)]


def _measure(label: str, locations: list[str], home: Path, owners: tuple[str, ...], repeat: int) -> None:
    settings = load_settings(home)
    first = scan(locations, settings=settings, owners=owners)  # the scan before any correction
    read, full = _median(lambda: scan(locations, settings=settings, owners=owners), repeat)
    replay, kept = _median(lambda: scan(locations, settings=settings, owners=owners, cached=True), repeat)
    same = sorted((p.fingerprint, p.body) for p in full.proposals) == sorted((p.fingerprint, p.body)
                                                                             for p in kept.proposals)
    items = sum(r.items for r in first.reports)
    print(f"{label:<44} {items:>7} items  read {read:6.2f} s  replay {replay:6.2f} s  "
          f"x{read / max(replay, 1e-9):5.1f}  same proposals: {same}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        demo = build_demo(tmp / "demo")
        _measure("demo persona", [str(demo)], tmp / "home-demo", demo_owner_addresses(), args.repeat)
        real = _realdata(tmp)
        if real is None:
            print("real footprint: skipped (set MEMSEED_REALDATA to the shared corpora)")
        else:
            _measure("Enron inbox + calendar + Slack export + pdm", real, tmp / "home-real", (), args.repeat)


if __name__ == "__main__":
    main()
