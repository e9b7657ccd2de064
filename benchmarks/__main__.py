"""``python -m benchmarks [NAME ...]`` (``make bench``): run every ``benchmarks/bench_*.py`` in turn.

Why one runner: each benchmark measures ratios side by side inside its own run; the runner
only finds them, gives each a clean ``sys.argv`` (so one benchmark's options never leak
into another's parser), prints its output under a header with its wall time, and keeps
going when one fails, exiting non-zero at the end if any did. ``NAME`` filters by module
name (``scan`` runs ``bench_scan``).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path

__all__ = ["discover", "main"]


def discover() -> list[str]:
    """Module names of the benchmarks, sorted (``bench_gate``, ``bench_mbox``, ...)."""
    here = Path(__file__).resolve().parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


def main(argv: list[str] | None = None) -> int:
    wanted = list(sys.argv[1:] if argv is None else argv)
    names = [n for n in discover() if not wanted or any(w in n for w in wanted)]
    if not names:
        print(f"no benchmark matches {wanted}; available: {', '.join(discover())}")
        return 2
    failed = []
    saved_argv = sys.argv
    for name in names:
        print(f"== {name} " + "=" * max(0, 60 - len(name)), flush=True)
        start = time.perf_counter()
        sys.argv = [f"benchmarks.{name}"]
        try:
            module = importlib.import_module(f"benchmarks.{name}")
            status = module.main()
            if isinstance(status, int) and status != 0:
                failed.append(name)
        except SystemExit as exc:
            if exc.code not in (0, None):
                failed.append(name)
        except Exception:
            traceback.print_exc()
            failed.append(name)
        finally:
            sys.argv = saved_argv
        print(f"-- {name}: {time.perf_counter() - start:.1f} s wall\n", flush=True)
    if failed:
        print(f"benchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
