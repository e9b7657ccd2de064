"""Crash safety of the parallel mbox read: ``memseed scan --jobs 2`` killed with SIGKILL mid-read.

The mbox is over the size at which worker processes parse it (:data:`connectors.local.mboxpool.MIN_BYTES`),
so the kill lands while workers are busy. Afterwards no worker is left running (they die with the
scan), the store passes SQLite's integrity check, and the next scan proposes what an uninterrupted
one-process scan does.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from benchmarks.bench_mbox import generate_mbox
from bootstrap_app.store import Store
from connectors.local import mboxpool

from .test_crash_safety import _cli, _store_ok


def _readers_of(path: Path) -> list[int]:
    """Processes whose command line names ``path`` (the scan and its forked workers)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if str(path).encode() in (proc / "cmdline").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def test_parallel_scan_killed_mid_read_leaves_no_worker_and_recovers(tmp_path: Path) -> None:
    mbox = tmp_path / "large.mbox"
    size = generate_mbox(mbox, 6_000)
    assert size > mboxpool.MIN_BYTES  # the workers start
    owner = "priya.natarajan@example.com"
    reference = tmp_path / "reference"
    assert _cli(reference, "scan", str(mbox), "--owner", owner, "--jobs", "1").returncode == 0
    with Store(reference / ".memseed" / "state.db") as store:
        expected = sorted(p.proposal.fingerprint for p in store.proposals())
    home = tmp_path / "killed"
    killed = _cli(home, "scan", str(mbox), "--owner", owner, "--jobs", "2",
                  kill=("bootstrap_app.store:Store.record_items", 2, "after"))
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-500:]
    deadline = time.monotonic() + 20
    while _readers_of(mbox) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _readers_of(mbox) == []  # the workers died with the scan
    _store_ok(home)
    again = _cli(home, "scan", str(mbox), "--owner", owner, "--jobs", "2")
    assert again.returncode == 0, again.stderr[-500:]
    with Store(home / ".memseed" / "state.db") as store:
        assert expected and sorted(p.proposal.fingerprint for p in store.proposals()) == expected
