"""The start-up hook and `memseed verify` on the 100x demo store, next to a full scan of it.

Why: the hook runs every time the agent starts a session, so it must cost a small fraction of
what a scan costs; `memseed verify` is the same check with every finding listed. Measured in
one run on one store: the 100x demo persona scanned, every proposal approved and written to
a markdown folder, then a handful of proposals left undecided so the hook has something to
say. Ratios (check / scan) are the numbers to watch; the in-process time and the time of the
whole hook process (Python start included) are both printed: the command `memseed hook install`
writes (``python -I -S …/hookcheck.py``, the summary alone, no package import), its first run
after a write (the full check, which leaves the summary), the older ``memseed hook run``
command, and ``python -c pass`` with and without ``-I -S`` — the floor any Python hook pays.

Run: ``.venv/bin/python -m benchmarks.bench_hook [--scale 100]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]

REPEATS = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=100)
    args = parser.parse_args()
    from bootstrap_app.config import load_settings
    from bootstrap_app.memory import hooks as agenthooks
    from bootstrap_app.memory import write as writing
    from bootstrap_app.memory.freshness import check_written
    from bootstrap_app.pipeline import scan_demo
    from bootstrap_app.review import decisions
    from bootstrap_app.store import Store

    saved = os.environ.get("MEMSEED_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "app"
        os.environ["MEMSEED_HOME"] = str(home)
        try:
            settings = load_settings(None)
            with Store(settings.db_path) as store:
                start = time.perf_counter()
                result = scan_demo(settings, store, scale=args.scale)
                scan_s = time.perf_counter() - start
                ids = [p.id for p in result.proposals]
                decisions.approve(store, ids[:-5])  # five left undecided: the hook has something to say
                writing.apply_write(store, writing.plan_write(store, "markdown", project=Path(tmp) / "project"))
                verify_s = statistics.median(_timed(lambda: check_written(store)) for _ in range(REPEATS))
                checked, stale = check_written(store)
            hook_s = statistics.median(_timed(lambda: agenthooks.hook_line(settings.db_path)) for _ in range(REPEATS))
            line = agenthooks.hook_line(settings.db_path)
            old = [str(Path(sys.executable).with_name("memseed")), "--home", str(home), "hook", "run"]
            new = shlex.split(agenthooks.command_for("claude-code", home))
            with Store(settings.db_path) as store:  # as after a write: a summary the script cannot use
                store.save_watch(lambda: "{}")
            first_s = _timed(lambda: subprocess.run(new, capture_output=True, check=False))
            said = subprocess.run(new, capture_output=True, check=False, text=True).stdout.strip()
            runs = {name: statistics.median(_timed(lambda c=c: subprocess.run(c, capture_output=True, check=False))
                                            for _ in range(REPEATS))
                    for name, c in (("new", new), ("old", old), ("pass", [sys.executable, "-c", "pass"]),
                                    ("pass -I -S", [sys.executable, "-I", "-S", "-c", "pass"]))}
        finally:
            if saved is None:
                os.environ.pop("MEMSEED_HOME", None)
            else:
                os.environ["MEMSEED_HOME"] = saved
    print(f"{args.scale}x demo: {result.items} items, {len(ids)} proposals, {checked} written entries checked, "
          f"{len(stale)} stale finding(s)")
    print(f"  full scan                 {scan_s * 1000:8.0f} ms")
    print(f"  verify (in process)       {verify_s * 1000:8.1f} ms   x{verify_s / scan_s:.4f} of the scan")
    print(f"  hook check (in process)   {hook_s * 1000:8.1f} ms   x{hook_s / scan_s:.4f} of the scan")
    print("  hook process (median of 5)        ms   x old  x of the scan")
    for label, key in (("installed hook (hookcheck.py)", "new"), ("`memseed hook run` (older hooks)", "old"),
                       ("python -c pass", "pass"), ("python -I -S -c pass", "pass -I -S")):
        print(f"    {label:33}{runs[key] * 1000:6.0f}  {runs[key] / runs['old']:5.2f}  {runs[key] / scan_s:.4f}")
    print(f"    {'first run after a write (full)':33}{first_s * 1000:6.0f}  {first_s / runs['old']:5.2f}  "
          f"{first_s / scan_s:.4f}")
    print(f"  hook says: {line or '(nothing)'}")
    print(f"  installed hook says the same: {said == line}")
    for finding in stale[:10]:
        print(f"    {finding.line()}")
    return 0


def _timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
