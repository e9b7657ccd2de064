"""What a re-analysis after an identity correction costs: read every source again, or replay the item cache.

Why: the wizard's "Who you are" page re-runs the analysis after each correction. Path sources
(mbox, ``.ics``, Slack export, repositories, folders) used to be read again for it; now their last
full read is replayed from the state database (:mod:`bootstrap_app.cache.snapshots`) while their
files are unchanged. Measured side by side in one run, after one full scan of the same footprint:

- read (before) — ``scan(...)``: every source read again, as each re-analysis did;
- replay (now) — ``scan(..., cached=True)``: what the wizard's re-analysis runs.

Both must give the same proposals. Footprints: the demo persona, and (when ``MEMSEED_REALDATA``
is set) a real Enron inbox, a real calendar export, a real Slack export layout and a real
repository.

A second table is about mailboxes (issue 29): an mbox body the first read never decoded used to
be kept as a byte span and read back from the mbox when the re-analysis asked for it — one open
of the mailbox per message. Now the snapshot keeps as text every body an analysis can ask for
whoever the owner is (:func:`bootstrap_app.signals.newest.body_demand`). Each mailbox is scanned
without an owner, then re-analysed with its owner given, three ways in one run (benchmark-only
switches): *spans* (before: every unread body kept as its span, the mailbox opened per body read
back), *handle* (the same spans read through one handle per mailbox, the fallback a re-analysis
keeps for a span it still meets) and *bodies* (now). Printed: the
first scan's time and state database size, the re-analysis's time and opens of the mailbox
(``sys.addaudithook``), and whether its proposals equal a full read's. Mailboxes: the real ones
under ``$MEMSEED_REALDATA/email`` and the real-text mbox of :mod:`.realmail` (``--real N``).

Run: ``python -m benchmarks.bench_reanalyse [--repeat 3] [--real 30000] [--mailboxes-only]``.
"""

from __future__ import annotations

import argparse
import contextlib
import mailbox
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from bootstrap_app import pipeline
from bootstrap_app.cache import snapshots
from bootstrap_app.config import load_settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.signals.newest import NEWEST_PER_SENDER

__all__ = ["main"]

_WATCH: list[tuple[str, list[str]]] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _WATCH and args and isinstance(args[0], str | bytes):
        path = os.fsdecode(args[0])
        for root, seen in _WATCH:
            if path.startswith(root):
                seen.append(path)


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
    first = pipeline.scan(locations, settings=settings, owners=owners)  # the scan before any correction
    read, full = _median(lambda: pipeline.scan(locations, settings=settings, owners=owners), repeat)
    replay, kept = _median(lambda: pipeline.scan(locations, settings=settings, owners=owners, cached=True), repeat)
    same = sorted((p.fingerprint, p.body) for p in full.proposals) == sorted((p.fingerprint, p.body)
                                                                             for p in kept.proposals)
    items = sum(r.items for r in first.reports)
    print(f"{label:<44} {items:>7} items  read {read:6.2f} s  replay {replay:6.2f} s  "
          f"x{read / max(replay, 1e-9):5.1f}  same proposals: {same}")


@contextlib.contextmanager
def _way(way: str) -> Iterator[None]:
    """``spans``: before issue 29's fix — every body still unread when its message is kept stays a
    span, read back by opening the mailbox each time; ``handle``: the same spans read through one
    handle per mailbox (:func:`connectors.local.lazybody.shared_files`); ``bodies``: now."""
    defer, settle, shared = snapshots._NewestBodies.defer, snapshots._NewestBodies.settle, pipeline.shared_files
    if way in ("spans", "handle"):
        snapshots._NewestBodies.defer = lambda self, item, key: True  # type: ignore[method-assign]
        snapshots._NewestBodies.settle = lambda self: []  # type: ignore[method-assign]
    if way == "spans":
        pipeline.shared_files = contextlib.nullcontext  # type: ignore[assignment]
    try:
        yield
    finally:
        snapshots._NewestBodies.defer, snapshots._NewestBodies.settle = defer, settle  # type: ignore[method-assign]
        pipeline.shared_files = shared


def _mailbox(label: str, paths: list[Path], home: Path, owner: str, repeat: int) -> None:
    """One mailbox footprint, spans (before) and bodies (now) side by side, taking turns
    ``repeat`` times (medians: the machine is shared)."""
    locations = [str(p) for p in paths]
    runs: dict[str, list[tuple[float, int, float, int, list[tuple[str, str]]]]] = {
        "spans": [], "handle": [], "bodies": []}
    for turn in range(repeat):
        for way in runs:
            settings = load_settings(home / f"{way}-{turn}")
            with _way(way):
                start = time.perf_counter()
                first = pipeline.scan(locations, settings=settings)
                first_s = time.perf_counter() - start
                db = settings.db_path.stat().st_size
                seen: list[str] = []
                _WATCH.append((str(paths[0].parent), seen))
                try:
                    start = time.perf_counter()
                    again = pipeline.scan(locations, settings=settings, owners=(owner,), cached=True)
                    again_s = time.perf_counter() - start
                finally:
                    _WATCH.pop()
            runs[way].append((first_s, db, again_s, len(seen), sorted((p.fingerprint, p.body) for p in again.proposals)))
    figures = {way: (statistics.median(r[0] for r in rs), rs[-1][1], statistics.median(r[2] for r in rs),
                     max(r[3] for r in rs), rs[-1][4]) for way, rs in runs.items()}
    full = pipeline.scan(locations, settings=load_settings(home / "full"), owners=(owner,))
    want = sorted((p.fingerprint, p.body) for p in full.proposals)
    print(f"{label}: {first.items:,} messages, owner given on re-analysis: {owner}")
    for way, (first_s, db, again_s, opens, got) in figures.items():
        print(f"  {way:<7} first scan {first_s:6.2f} s  state.db {db / 2**20:6.1f} MiB  "
              f"re-analysis {again_s:6.2f} s  opens of the mailbox {opens:>6}  same proposals as a full read: "
              f"{got == want}")
    (a_first, a_db, a_again, _, _), (b_first, b_db, b_again, _, _) = figures["spans"], figures["bodies"]
    print(f"  bodies/spans: first scan x{b_first / max(a_first, 1e-9):.2f}, state.db x{b_db / max(a_db, 1):.2f}, "
          f"re-analysis x{b_again / max(a_again, 1e-9):.2f}; handle/spans: re-analysis "
          f"x{figures['handle'][2] / max(a_again, 1e-9):.2f}")


_FROM = re.compile(rb"^From: (\S+)$", re.MULTILINE)


def _as_inbox(path: Path, out: Path, owner: str) -> None:
    """``path``'s messages as a Takeout inbox (labelled: every message not from ``owner`` is
    received) from a new sender every :data:`NEWEST_PER_SENDER` received messages: the most
    received bodies an analysis reads, so the most the snapshot keeps as text (the worst case)."""
    count = 0

    def sender(match: re.Match[bytes]) -> bytes:
        nonlocal count
        if match.group(1) == owner.encode():
            return match.group(0) + b"\nX-Gmail-Labels: Sent"
        count += 1
        return f"From: sender{count // NEWEST_PER_SENDER}@example.net\nX-Gmail-Labels: Inbox".encode()

    out.write_bytes(_FROM.sub(sender, path.read_bytes()))


def _busiest_sender(path: Path) -> str:
    """A list archive has no owner: the correction tried is "I am its busiest sender"."""
    senders = Counter(parseaddr(str(m.get("From", "")))[1].lower() for m in mailbox.mbox(str(path)))
    senders.pop("", None)
    return senders.most_common(1)[0][0]


def _mailboxes(tmp: Path, real: int, repeat: int) -> None:
    base = os.environ.get("MEMSEED_REALDATA", "")
    email = Path(base) / "email" if base else None
    if email is None or not email.is_dir():
        print("mailboxes: skipped (set MEMSEED_REALDATA to the shared corpora)")
        return
    for folder in sorted(p for p in email.iterdir() if p.is_dir()):
        paths = sorted(folder.glob("*.mbox"))
        if paths:
            probe = pipeline.scan([str(paths[0])], settings=load_settings(tmp / f"probe-{folder.name}")).owner
            owner = min(probe.addresses) if probe.addresses else _busiest_sender(paths[0])
            _mailbox(f"{folder.name} ({len(paths)} mbox)", paths, tmp / f"home-{folder.name}", owner, repeat)
    if real:
        from benchmarks.realmail import OWNER

        path = tmp / "realtext" / f"real-{real}.mbox"
        path.parent.mkdir()
        subprocess.run([sys.executable, "-m", "benchmarks.realmail", str(path), str(real)], check=True,
                       capture_output=True, cwd=Path(__file__).resolve().parents[1])
        _mailbox(f"real-text mbox ({path.stat().st_size / 2**20:.0f} MiB)", [path], tmp / "home-realtext", OWNER, repeat)
        inbox = path.with_name(f"inbox-{real}.mbox")
        _as_inbox(path, inbox, OWNER)
        _mailbox(f"the same as a Takeout inbox, one sender per {NEWEST_PER_SENDER} received messages", [inbox],
                 tmp / "home-inbox", OWNER, repeat)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mailboxes-only", action="store_true", help="print the mailbox table only")
    parser.add_argument("--real", type=int, default=30000,
                        help="messages of the real-text mbox (benchmarks.realmail) in the mailbox table; 0: none")
    args = parser.parse_args(argv)
    sys.addaudithook(_hook)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if args.mailboxes_only:
            _mailboxes(tmp, args.real, args.repeat)
            return
        demo = build_demo(tmp / "demo")
        _measure("demo persona", [str(demo)], tmp / "home-demo", demo_owner_addresses(), args.repeat)
        real = _realdata(tmp)
        if real is None:
            print("real footprint: skipped (set MEMSEED_REALDATA to the shared corpora)")
        else:
            _measure("Enron inbox + calendar + Slack export + pdm", real, tmp / "home-real", (), args.repeat)
        _mailboxes(tmp, args.real, args.repeat)


if __name__ == "__main__":
    main()
