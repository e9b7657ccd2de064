"""One huge message (a 1 GiB attachment, a sparse or corrupt tail) keeps memory flat.

The separator search used to run over the whole message at once, so every page of it stayed
mapped: scanning a 2 GiB mbox peaked at 1.8 GB RSS (see ``benchmarks/bench_hostile.py``).
Measured in a subprocess so the peak is this read's own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_CHILD = """
import json, resource, sys
from connectors.base import ReadContext
from connectors.local.mbox import read_mbox
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ctx = ReadContext()
items = list(read_mbox(__import__("pathlib").Path(sys.argv[1]), "mbox:x", ctx))
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
print(json.dumps({"items": len(items), "grown_mb": grown, "skips": [s.reason for s in ctx.skips]}))
"""


def test_one_gib_message_reads_in_flat_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.mbox"
    with open(path, "wb") as f:
        f.write(b"From a@x.example Mon Mar  2 09:00:00 2026\nFrom: A <a@x.example>\nTo: b@x.example\n"
                b"Subject: small\nDate: Mon, 02 Mar 2026 09:00:00 +0000\n\nhi\n\n"
                b"From a@x.example Mon Mar  2 10:00:00 2026\nFrom: A <a@x.example>\nTo: b@x.example\n"
                b"Subject: huge\nDate: Mon, 02 Mar 2026 10:00:00 +0000\n\nstart\n")
        f.truncate(1 << 30)  # a 1 GiB hole: no disk used, every page still walked
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT), "HOME": str(tmp_path)})
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["items"] == 2
    assert any("read partially" in s for s in result["skips"])
    assert result["grown_mb"] < 160, result  # 1 GiB walked; was ~1 GB before the windowed search


_SHRINK_CHILD = """
import json, os, sys
from pathlib import Path
from connectors.base import ReadContext
from connectors.local.mbox import read_mbox
path = Path(sys.argv[1])
ctx = ReadContext()
seen = []
for item in read_mbox(path, "mbox:x", ctx):
    seen.append(item.subject)
    if len(seen) == 1:
        os.truncate(path, 4096)  # another program rewrites the mailbox in place, shorter
print(json.dumps({"seen": seen, "skips": [s.reason for s in ctx.skips]}))
"""


def test_mailbox_shrinking_while_read_stops_cleanly(tmp_path: Path) -> None:
    """Without the check, the next read of a page past the new end kills the process (SIGBUS)."""
    path = tmp_path / "inbox.mbox"
    with open(path, "wb") as f:
        for n in range(4):
            f.write(b"From a@x.example Mon Mar  2 09:00:00 2026\nFrom: A <a@x.example>\nTo: b@x.example\n"
                    + f"Subject: m{n}\nDate: Mon, 02 Mar 2026 09:00:00 +0000\n\n".encode()
                    + b"line of body text\n" * 20000 + b"\n")
    out = subprocess.run([sys.executable, "-c", _SHRINK_CHILD, str(path)], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "HOME": str(tmp_path)})
    assert out.returncode == 0, (out.returncode, out.stderr[-300:])
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["seen"] == ["m0"]
    assert any("shrank while being read" in s for s in result["skips"])
