"""``python -m bootstrap_app.demo DEST [--scale N]``: write the demo footprint to look at it.

Why: a newcomer (or a connector author) wants to open the files a demo scan reads — the
mbox, the .ics, the Slack export, the git repositories — without going through a scan.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import MemseedError
from . import build_demo, demo_locations, read_marker

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bootstrap_app.demo", description=__doc__)
    parser.add_argument("dest", type=Path, help="folder to write (created; must be new, empty or a demo)")
    parser.add_argument("--scale", type=int, default=1, help="volume multiplier (facts stay the same)")
    args = parser.parse_args(argv)
    try:
        root = build_demo(args.dest, args.scale)
    except MemseedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    marker = read_marker(root) or {}
    print(f"demo (scale {args.scale}) in {root}")
    for kind, path in demo_locations(root).items():
        print(f"  {kind:<15} {path}")
    for kind, count in marker.get("counts", {}).items():
        print(f"  {count:>7} {kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
