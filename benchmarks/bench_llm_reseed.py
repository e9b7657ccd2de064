"""What the LLM pass costs, and what a quiet reseed costs, at 1x / 10x / 100x the demo.

Two claims, measured side by side in one run:

1. **Digest, not bodies.** The LLM sees one digest (the owner's own words sampled, third-party
   items as metadata lines, the signals) under a fixed character budget, so its size stays
   flat while the footprint grows. The naive alternative — every body the scan read (mail,
   chat, documents, event descriptions, repository files) — grows with the footprint. Both are
   shown in tokens, estimated as characters / 4 (the usual rule of thumb for English text with
   OpenAI tokenisers; the ratio, not the absolute, is the claim). The digest is the exact
   request ``scan(llm_preview=...)`` would send; nothing is sent.
2. **A reseed with nothing new is cheap.** After a full scan, ``count_new_items`` (what
   ``memseed reseed`` runs first) reads each source from its cursor and compares digests; with
   nothing new it stops there. Its time is set against the full scan's at the largest scale
   (goal: under 5%).

Run: ``python -m benchmarks.bench_llm_reseed [--scales 1,10,100] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["main", "naive_chars"]


def naive_chars(root: Path) -> tuple[int, int]:
    """(items, characters of every body a scan of ``root`` reads): what "send it all" would send."""
    from bootstrap_app.types import ChatMessage, Document, Event, Message, Repo
    from connectors.base import ReadContext
    from connectors.registry import detect

    items = chars = 0
    for source in detect(str(root)):
        for item in source.read(ReadContext()):
            items += 1
            if isinstance(item, Message):
                chars += len(item.subject) + len(item.body)
            elif isinstance(item, ChatMessage):
                chars += len(item.text)
            elif isinstance(item, Document):
                chars += len(item.title) + len(item.text)
            elif isinstance(item, Event):
                chars += len(item.summary) + len(item.description)
            elif isinstance(item, Repo):
                chars += sum(len(t) for t in item.files.values()) + sum(len(s) for s in item.recent_subjects)
    return items, chars


def _digest_chars(root: Path, home: Path) -> tuple[int, float]:
    """(characters of the LLM request a scan would send, seconds of that scan)."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.demo import demo_owner_addresses
    from bootstrap_app.pipeline import scan

    captured: list[dict[str, Any]] = []
    start = time.perf_counter()
    scan([str(root)], settings=load_settings(home), owners=demo_owner_addresses(), llm_preview=captured.append)
    seconds = time.perf_counter() - start
    payload = captured[0] if captured else {}
    return len(json.dumps(payload.get("messages", []), ensure_ascii=False)), seconds


def _reseed_check(root: Path, home: Path) -> tuple[int, float]:
    """(new items found, seconds) of reseed's first step right after a full scan."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import count_new_items
    from bootstrap_app.store import Store

    settings = load_settings(home)
    with Store(settings.db_path) as store:
        start = time.perf_counter()
        new, _failed = count_new_items([str(root)], store, settings)
        return new, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", default="1,10,100", help="comma-separated demo scales")
    parser.add_argument("--keep", type=Path, help="build the demos here (reused on the next run)")
    args = parser.parse_args(argv)
    scales = [int(s) for s in args.scales.split(",")]
    from bootstrap_app.demo import build_demo

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memseed-bench-llm-") as tmp:
        work = Path(tmp)
        for scale in scales:
            root = build_demo((args.keep or work) / f"demo-x{scale}", scale)
            items, naive = naive_chars(root)
            digest, scan_seconds = _digest_chars(root, work / f"home-{scale}")
            new, reseed_seconds = _reseed_check(root, work / f"home-{scale}")
            rows.append({"scale": scale, "items": items, "naive": naive // 4, "digest": digest // 4,
                         "scan": scan_seconds, "reseed": reseed_seconds, "new": new})
    print("LLM input per scan (tokens ≈ characters / 4):")
    print(f"  {'scale':>5}  {'items':>8}  {'naive (all bodies)':>19}  {'digest':>8}  {'digest/naive':>12}")
    for r in rows:
        share = r["digest"] / r["naive"] if r["naive"] else float("nan")
        print(f"  {r['scale']:>4}x  {r['items']:8d}  {r['naive']:19,d}  {r['digest']:8,d}  {share:12.2%}")
    first, last = rows[0], rows[-1]
    if len(rows) > 1 and first["digest"] and first["naive"]:
        print(f"  {last['scale']}x/{first['scale']}x: naive grows {last['naive'] / first['naive']:.1f}x, "
              f"digest {last['digest'] / first['digest']:.2f}x")
    print("reseed with nothing new (count_new_items after a full scan) vs the full scan:")
    for r in rows:
        share = r["reseed"] / r["scan"] if r["scan"] else float("nan")
        print(f"  {r['scale']:>4}x  full scan {r['scan']:7.2f} s   reseed check {r['reseed']:6.2f} s "
              f"({share:.1%} of the scan; {r['new']} new items)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
