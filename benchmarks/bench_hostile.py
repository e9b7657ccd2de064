"""Peak memory of a whole scan on hostile sizes: a 2 GiB mbox and a 2 GiB zip bomb.

Why: memory must stay flat however big the input is; a reader that loads a file, a member or a
message whole would need gigabytes here. Each case runs ``memseed``'s own :func:`scan` (the
pipeline, not just a reader) in a fresh subprocess, so its peak RSS (``ru_maxrss``) is its
own; the baseline is the same subprocess scanning a tiny mbox, printed side by side.

Inputs are generated on the fly in a temp folder and deleted afterwards:

- ``mbox-2g``: 16 MiB of generated mail, then one message whose body is a 2 GiB sparse hole
  (no disk used for it; the reader still maps and walks every byte).
- ``zip-bomb-2g``: a Takeout ``.zip`` of about 2 MiB whose mbox member inflates to 2 GiB
  (two real messages, then 2 GiB of one repeated line). The Takeout reader unpacks it into the
  app folder's scratch space (2 GiB of disk while it runs), then reads it like any mbox.
- ``slack-bomb-2g``: a Slack export whose day file inflates to 2 GiB, refused before inflating.

Run: ``python -m benchmarks.bench_hostile [--gib 2] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from benchmarks.bench_mbox import generate_mbox

__all__ = ["main", "make_mbox", "make_slack_bomb", "make_takeout_bomb", "run_case"]

_MIB = 1 << 20
_MSG = (b"From jon@example.com Mon Mar  2 09:00:00 2026\nFrom: Jon Reyes <jon@example.com>\n"
        b"To: maya.okafor@example.com\nSubject: %s\nDate: Mon, 02 Mar 2026 09:00:00 +0000\n"
        b"Message-ID: <%s@example.com>\n\n")


def make_mbox(path: Path, gib: float) -> int:
    """16 MiB of generated mail, then a message with a sparse body up to ``gib`` GiB."""
    generate_mbox(path, 16 * _MIB // 700)
    with open(path, "ab") as f:
        f.write(_MSG % (b"Huge", b"huge") + b"start of a very long body\n")
        f.truncate(int(gib * 1024 * _MIB))
    return path.stat().st_size


def _bomb_member(zf: zipfile.ZipFile, name: str, size: int, head: bytes, line: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 3, 2, 9, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    chunk = line * (4 * _MIB // len(line))
    with zf.open(info, "w", force_zip64=True) as out:
        out.write(head)
        written = len(head)
        while written < size:
            piece = chunk[: size - written]
            out.write(piece)
            written += len(piece)


def make_takeout_bomb(path: Path, gib: float) -> int:
    head = _MSG % (b"Hello", b"m1") + b"Hi Maya\n\n" + _MSG % (b"Bomb", b"m2")
    with zipfile.ZipFile(path, "w", compresslevel=9) as zf:
        zf.writestr("Takeout/archive_browser.html", "<html></html>")
        _bomb_member(zf, "Takeout/Mail/All mail Including Spam and Trash.mbox", int(gib * 1024 * _MIB), head,
                     b"all work and no play makes a very long line\n")
    return path.stat().st_size


def make_slack_bomb(path: Path, gib: float) -> int:
    with zipfile.ZipFile(path, "w", compresslevel=9) as zf:
        zf.writestr("users.json", json.dumps([{"id": "U1", "real_name": "Maya Okafor"}]))
        zf.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        zf.writestr("general/2026-03-01.json", json.dumps(
            [{"type": "message", "user": "U1", "text": "hello", "ts": "1772355600.000100"}]))
        _bomb_member(zf, "general/2026-03-02.json", int(gib * 1024 * _MIB), b"[", b" " * 63 + b"\n")
    return path.stat().st_size


def run_case(path: str, home: str) -> dict[str, float]:
    """In the subprocess: one full scan of ``path``; peak RSS growth over the post-import baseline."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.errors import NoSourceReadable
    from bootstrap_app.pipeline import scan

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    try:
        result = scan([path], settings=load_settings(Path(home)), owners=["maya.okafor@example.com"])
        items = sum(r.items for r in result.reports)
        skips = sum(len(r.skipped) for r in result.reports)
    except NoSourceReadable:
        items, skips = 0, -1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": time.perf_counter() - start, "items": items, "skips": skips,
            "peak_mb": peak / 1024, "growth_mb": (peak - base) / 1024}


def _subprocess(path: Path, home: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_hostile", "--run", str(path), str(home)],
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=2.0, help="size of each hostile input (GiB)")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument("--run", nargs=2, metavar=("PATH", "HOME"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(json.dumps(run_case(*args.run)))
        return 0
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="memseed-bench-hostile-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        small = tmp / "small.mbox"
        generate_mbox(small, 50)
        cases = [("baseline (50-message mbox)", small, small.stat().st_size)]
        mbox = tmp / "big.mbox"
        cases.append((f"mbox {args.gib:g} GiB (sparse tail)", mbox, make_mbox(mbox, args.gib)))
        bomb = tmp / "takeout-bomb.zip"
        cases.append((f"Takeout zip bomb -> {args.gib:g} GiB", bomb, make_takeout_bomb(bomb, args.gib)))
        slack = tmp / "slack-bomb.zip"
        cases.append((f"Slack zip bomb -> {args.gib:g} GiB", slack, make_slack_bomb(slack, args.gib)))
        print(f"{'case':34} {'on disk':>10} {'items':>7} {'skips':>6} {'peak RSS':>9} {'growth':>8} {'time':>7}")
        base_peak = 0.0
        for n, (label, path, size) in enumerate(cases):
            home = tmp / f"home{n}"
            r = _subprocess(path, home)
            base_peak = base_peak or r["peak_mb"]
            print(f"{label:34} {size / _MIB:8.1f}MB {r['items']:7.0f} {r['skips']:6.0f} {r['peak_mb']:7.0f}MB "
                  f"{r['growth_mb']:6.0f}MB {r['seconds']:6.1f}s  (x{r['peak_mb'] / base_peak:.2f} of baseline)",
                  flush=True)
            shutil.rmtree(home, ignore_errors=True)
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
