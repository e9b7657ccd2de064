"""Scan cost at 1x, 10x and 100x the demo persona, measured side by side in one run.

Why ratios: absolute seconds depend on the machine; what we claim is that ``scan()`` grows
near-linearly with the footprint. The demo generator scales every source kind (mail,
calendar, chat, commits, meeting notes) by the same factor while keeping the facts, so
``time(10x) / time(1x)`` close to the item ratio (~10) is the goal, and a clearly larger
number means something in the pipeline is super-linear. Generation time per scale is
reported too, since ``memseed scan --demo`` pays it once.

Each scale scans into its own fresh app home (no decisions, no cursors), after one
discarded warm-up scan at 1x so imports and first-use caches do not count against 1x.

Run: ``python -m benchmarks.bench_scan [--scales 1,10,100] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

__all__ = ["generate", "main", "scan_once"]


def generate(root: Path, scales: list[int]) -> dict[int, tuple[Path, float]]:
    """Build the demo at each scale; return its root and the seconds generation took."""
    from bootstrap_app.demo import build_demo

    built = {}
    for scale in scales:
        start = time.perf_counter()
        path = build_demo(root / f"demo-x{scale}", scale)
        built[scale] = (path, time.perf_counter() - start)
    return built


def scan_once(scan: Any, demo: Path, home: Path) -> dict[str, Any]:
    """One full scan of ``demo`` with a fresh app home; seconds, items and counts."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.demo import demo_owner_addresses

    settings = load_settings(home)
    start = time.perf_counter()
    result = scan([str(demo)], settings=settings, owners=demo_owner_addresses())
    seconds = time.perf_counter() - start
    items = sum(r.items for r in result.reports)
    return {"seconds": seconds, "items": items, "proposals": len(result.proposals),
            "quarantined": len(result.quarantined), "skipped": sum(len(r.skipped) for r in result.reports),
            "errors": [f"{r.source}: {r.error}" for r in result.reports if r.error]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", default="1,10,100", help="comma-separated demo scales (first is the base)")
    parser.add_argument("--repeats", type=int, default=3, help="scans of the base scale (median is used)")
    parser.add_argument("--keep", type=Path, help="build the demos here (reused on the next run)")
    args = parser.parse_args(argv)
    scales = [int(s) for s in args.scales.split(",")]
    with tempfile.TemporaryDirectory(prefix="memseed-bench-scan-") as tmp:
        work = Path(tmp)
        built = generate(args.keep or work, scales)
        base = scales[0]
        print("demo generation (seconds; 0 means an existing demo was reused):")
        for scale, (_path, seconds) in built.items():
            print(f"  {scale:>4}x  {seconds:7.2f} s")
        from bootstrap_app.errors import MemseedError
        from bootstrap_app.pipeline import scan

        runs: dict[int, dict[str, Any]] = {}
        try:
            scan_once(scan, built[base][0], work / "home-warmup")
            base_runs = [scan_once(scan, built[base][0], work / f"home-{base}-{i}") for i in range(args.repeats)]
            runs[base] = dict(base_runs[0], seconds=statistics.median(r["seconds"] for r in base_runs))
            for scale in scales[1:]:
                runs[scale] = scan_once(scan, built[scale][0], work / f"home-{scale}")
        except MemseedError as exc:
            print(f"bench_scan: scan failed, nothing to compare: {exc}")
            return 1
        print("scan (pipeline.scan on the whole demo folder, fresh app home per run):")
        print(f"  {'scale':>5}  {'seconds':>8}  {'items':>8}  {'items/s':>9}  {'proposals':>9}  "
              f"{'quarant.':>8}  {'skipped':>7}")
        for scale, r in runs.items():
            rate = r["items"] / r["seconds"] if r["seconds"] else float("inf")
            print(f"  {scale:>4}x  {r['seconds']:8.2f}  {r['items']:8d}  {rate:9.0f}  {r['proposals']:9d}  "
                  f"{r['quarantined']:8d}  {r['skipped']:7d}")
            for error in r["errors"]:
                print(f"         error: {error}")
        pairs = [(base, s) for s in scales[1:]] + list(pairwise(scales[1:]))
        for low, high in pairs:
            print("  " + _ratio_line(low, high, runs, built))
    return 0


def _ratio_line(low: int, high: int, runs: dict[int, dict[str, Any]], built: dict[int, tuple[Path, float]]) -> str:
    """``high``/``low`` time and item ratios; per-item cost 1.00 means linear growth.

    Against 1x the fixed start-up cost of a scan flatters the larger scales (per-item cost
    below 1), so the ratio between the two largest scales is printed as well.
    """
    a, b = runs[low], runs[high]
    t_ratio = b["seconds"] / a["seconds"] if a["seconds"] else float("nan")
    i_ratio = b["items"] / a["items"] if a["items"] else float("nan")
    g_ratio = built[high][1] / built[low][1] if built[low][1] else float("nan")
    return (f"ratio {high}x/{low}x: time {t_ratio:.1f}x for {i_ratio:.1f}x the items "
            f"(per-item cost {t_ratio / i_ratio:.2f}x; 1.00 = linear); generation {g_ratio:.1f}x")


if __name__ == "__main__":
    raise SystemExit(main())
