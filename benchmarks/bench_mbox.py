"""A large mailbox, side by side in one run on the same mbox: the stdlib reader, the header-only
read, the connector's items, and ``memseed scan`` end to end three ways — as it was before
issue 23 (every body decoded, every message's text parsed, one process: a benchmark-only
switch, :func:`_baseline`), with ``--jobs 1``, and on every core — and, last, the whole
``memseed scan`` command as a person runs it (:func:`_whole_process`: timed from spawn to exit,
so the interpreter's start and every import count too; the other scan rows time the library's
``scan`` call alone).

Why side by side in one run: absolute numbers depend on the machine (and on what else runs on
it); the ratios between methods on the same file, in the same run, are what we claim. Each
method runs in its own subprocess so its peak RSS (``ru_maxrss``, the largest of the process
and its workers) is its own, not a leftover of another. CPU time is printed beside wall time:
on a shared machine the wall clock says more about the neighbours than about the code. The
same messages as a folder of ``.eml`` files (one file each; sizes up to 100,000 messages) are
scanned with ``--jobs 1`` and on every core (:mod:`connectors.local.filepool`).

A second table reads an mbox of real text (:mod:`.realmail`: the real mail corpora's bodies,
cycled, re-addressed, a third sent by the owner, scanned with ``--owner``) with the stdlib
parse, the header-only read, the scan and the whole command: real bodies reach costs the generated ones never do
(issue 32). It is skipped when the real data is absent. ``--corpus notmuch`` makes it of list
mail only (the costliest text per message; the default mixes every corpus, mostly Enron).

``--base TREE`` runs every method also with the code of another checkout (``git worktree add
/tmp/base main``), interleaved with this tree's runs, and ``--repeat N`` runs each N times and
prints the medians: before/after figures measured side by side in one run, on a shared machine.

Run: ``python -m benchmarks.bench_mbox [--messages 30000,300000] [--real 30000] [--corpus NAME] [--methods ...]
[--crlf] [--keep DIR] [--repeat N] [--base TREE] [--profile-workers DIR]`` (the last: every worker task under
cProfile, the merged top printed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

__all__ = ["generate_mbox", "main", "run_method", "write_eml_folder"]

_ENVELOPE = re.compile(rb"From \d+@xxx ")
_NAMES = ["Maya Okafor", "Jon Reyes", "Priya Natarajan", "Lena Fischer", "Tomás García", "Ana Lima",
          "Wei Zhang", "Sam O'Neill", "Chidi Eze", "Grace Kim"]
_WORDS = ["ledger", "api", "deploy", "review", "quarterly", "budget", "meeting", "design", "draft", "invoice", "release", "notes", "migration", "schema", "hotfix", "roadmap", "offsite", "hiring", "standup", "retro", "sprint", "incident"]


def _addr(name: str) -> str:
    return name.lower().replace(" ", ".").replace("'", "").replace("á", "a") + "@example.com"


def generate_mbox(path: Path, messages: int, *, crlf: bool = False, seed: int = 7) -> int:
    """Write a Takeout-like mbox of ``messages`` messages; returns its size in bytes."""
    rng = random.Random(seed)
    nl = "\r\n" if crlf else "\n"
    start = datetime(2023, 1, 1, tzinfo=UTC)
    with open(path, "w", encoding="utf-8", newline="") as f:
        for i in range(messages):
            when = start + timedelta(minutes=7 * i)
            sender, rcpt, cc = rng.sample(_NAMES, 3)
            subject = " ".join(rng.choices(_WORDS, k=rng.randint(3, 8))).capitalize()
            labels = rng.choice(["Inbox,Important", "Sent", "Archived,Category Updates", "Inbox", "Opened"])
            body_lines = [" ".join(rng.choices(_WORDS, k=rng.randint(6, 14))) for _ in range(rng.randint(3, 12))]
            if i % 50 == 0:
                body_lines.append(">From the archive: quoted separator-looking line")
            h = f"{i:016x}"
            date = format_datetime(when)
            headers = [
                f"X-GM-THRID: {1600000000000000000 + i // 3}",
                f"X-Gmail-Labels: {labels}",
                f"Delivered-To: {_addr(rcpt)}",
                f"Received: by 2002:a05:6a10:{i % 9999:x} with SMTP id {h};",
                f"        {date}",
                f"X-Google-Smtp-Source: AGHT+IF{h}{h}{h}",
                f"X-Received: by 2002:a17:906:{i % 999:x} with SMTP id {h}.{i}; {date}",
                f"ARC-Seal: i=1; a=rsa-sha256; t={int(when.timestamp())}; cv=none; d=google.com; s=arc-20160816;",
                f"        b={h * 4}",
                f"         {h * 4}",
                "ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=google.com; s=arc-20160816;",
                "        h=to:subject:message-id:date:from:mime-version:dkim-signature;",
                f"        bh={h}{h}=; b={h * 4}",
                "ARC-Authentication-Results: i=1; mx.google.com; dkim=pass header.i=@example.com",
                f"Return-Path: <{_addr(sender)}>",
                f"Received: from mail{i % 7}.example.com (mail{i % 7}.example.com. [10.0.0.{i % 250}])",
                f"        by mx.google.com with SMTPS id {h}.{i}",
                f"        for <{_addr(rcpt)}>; {date}",
                f"Received-SPF: pass (google.com: domain of {_addr(sender)} designates 10.0.0.1 as permitted sender)",
                "Authentication-Results: mx.google.com;",
                "       dkim=pass header.i=@example.com header.s=s1 header.b=abc;",
                "       spf=pass smtp.mailfrom=example.com; dmarc=pass (p=NONE) header.from=example.com",
                "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.com; s=s1; t=1;",
                "        h=to:subject:message-id:date:from:mime-version:from:to:cc:subject:date;",
                f"        bh={h}{h}=;",
                f"        b={h * 4}",
                f"         {h * 4}",
                f"X-Gm-Message-State: AOJu0Y{h}{h}",
                "MIME-Version: 1.0",
                f"From: {sender} <{_addr(sender)}>",
                f"Date: {date}",
                f"Message-ID: <{i}.{seed}@mail.example.com>",
                f"Subject: {subject}",
                f"To: {rcpt} <{_addr(rcpt)}>",
                f"Cc: {cc} <{_addr(cc)}>",
            ]
            if i % 3:
                headers.append(f"In-Reply-To: <{i - 1}.{seed}@mail.example.com>")
            if i % 3 == 0:  # a third is multipart/alternative with an HTML part, as real mail is
                b = f"000000000000{h}"
                headers.append(f'Content-Type: multipart/alternative; boundary="{b}"')
                text = list(body_lines)
                body_lines = ["", f"--{b}", 'Content-Type: text/plain; charset="UTF-8"', "", *text, "",
                              f"--{b}", 'Content-Type: text/html; charset="UTF-8"',
                              "Content-Transfer-Encoding: quoted-printable", "",
                              *(f"<div dir=3D\"ltr\">{line}</div>" for line in text), "", f"--{b}--"]
            else:
                headers.append('Content-Type: text/plain; charset="UTF-8"')
            envelope = f"From {1600000000000000000 + i}@xxx {when.strftime('%a %b %d %H:%M:%S +0000 %Y')}"
            f.write(nl.join([envelope, *headers, "", *body_lines, "", ""]))
    return path.stat().st_size


def write_eml_folder(mbox: Path, folder: Path) -> int:
    """The generated mbox's messages as a folder of ``.eml`` files (envelope lines dropped, ``>From``
    unquoted), for the same scan over one file per message; returns how many were written.
    Streamed line by line: the benchmark's own process must stay small, since each method's
    subprocess starts with its parent's peak RSS as its own."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    out = None
    with open(mbox, "rb") as f:
        for line in f:
            if _ENVELOPE.match(line):
                if out is not None:
                    out.close()
                out = open(folder / f"{count:07d}.eml", "wb")  # noqa: SIM115 (one file per message)
                count += 1
            elif out is not None:
                out.write(line[1:] if line.startswith(b">From ") else line)
    if out is not None:
        out.close()
    return count


def _scan(path: str, jobs: int) -> int:
    """One ``pipeline.scan`` of the mbox in a fresh app home; the number of items it read. The
    real-text mbox is scanned as its owner's (``--owner``), as a new user's mailbox would be."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan

    owners = [os.environ["MEMSEED_BENCH_OWNER"]] if os.environ.get("MEMSEED_BENCH_OWNER") else []
    with tempfile.TemporaryDirectory(prefix="memseed-bench-home-") as home:
        result = scan([path], settings=load_settings(home, jobs=jobs), owners=owners)
    return sum(r.items for r in result.reports)


def _whole_process(path: str) -> int:
    """``memseed scan PATH`` as a person runs it, timed from spawn to exit: the interpreter's
    start, every import, the scan on every core, the summary and the proposals written. The
    owner of the real-text mbox is given with ``--owner``. Returns the items read, from the
    ``--json-summary``."""
    owner = os.environ.get("MEMSEED_BENCH_OWNER", "")
    with tempfile.TemporaryDirectory(prefix="memseed-bench-home-") as home:
        env = dict(os.environ, HOME=home, MEMSEED_HOME=str(Path(home) / "app"))
        command = [sys.executable, "-c", "from bootstrap_app.cli import main; main(prog_name='memseed')",
                   "scan", path, "-q", "--json-summary", "--out", os.devnull, *(["--owner", owner] if owner else [])]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 3):
        raise SystemExit(f"memseed scan exited {done.returncode}: {done.stderr[-2000:]}")
    summary = json.loads(done.stderr.strip().splitlines()[-1])
    return int(summary["items"])


def _baseline() -> None:
    """Benchmark-only switch: the scan as it was before issue 23, in this process — every body
    decoded while reading, every received message's text parsed, no memo of delivery verdicts."""
    import functools

    from bootstrap_app.signals.profile import ProfileAccumulator
    from connectors.local import delivery, mbox

    mbox.read_mbox = functools.partial(mbox.read_mbox, lazy=False)  # type: ignore[assignment]
    ProfileAccumulator._defer = lambda self, *_args: False  # type: ignore[method-assign]
    delivery._hop_shape = lambda value, start=None: value  # type: ignore[assignment]
    delivery._hop_verdict = delivery._hop_verdict.__wrapped__  # type: ignore[assignment]
    delivery._auth_verdict = delivery._auth_verdict.__wrapped__  # type: ignore[assignment]


def run_method(method: str, path: str) -> dict[str, float]:
    """Read ``path`` with one method (in this process) and return count, seconds and peak RSS."""
    import mailbox

    from connectors.base import ReadContext, available_cores
    from connectors.local.mbox import iter_mbox, read_mbox

    if method == "scan-baseline":
        _baseline()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # after imports: growth = reading only
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    count = 0
    if method == "stdlib":
        for msg in mailbox.mbox(path, create=False):
            _ = (msg["From"], msg["To"], msg["Subject"], msg["Date"])
            count += 1
    elif method == "iter_mbox":
        for raw in iter_mbox(path, headers_only=True):
            _ = (raw.header("from"), raw.header("to"), raw.header("subject"), raw.header("date"))
            count += 1
    elif method == "connector":
        ctx = ReadContext()
        for _item in read_mbox(Path(path), "mbox:bench", ctx):
            count += 1
    elif method in ("scan-baseline", "scan-j1"):
        count = _scan(path, 1)
    elif method == "scan-jall":
        count = _scan(path, available_cores())
    elif method == "cli":
        count = _whole_process(path)
    elif method in ("eml-j1", "eml-jall"):
        count = _scan(path + ".eml.d", 1 if method == "eml-j1" else available_cores())
    else:
        raise SystemExit(f"unknown method {method}")
    seconds = time.perf_counter() - t0
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"count": count, "seconds": seconds, "peak_rss_kib": max(own.ru_maxrss, kids.ru_maxrss),
            "growth_kib": own.ru_maxrss - base, "cpu": time.process_time() - cpu0,
            "child_cpu": kids.ru_utime + kids.ru_stime}


def _in_subprocess(method: str, path: Path, profile: Path | None = None, owner: str = "",
                   tree: Path | None = None) -> dict[str, float]:
    """One method in a fresh process, with this checkout's code or ``tree``'s (``--base``)."""
    env = dict(os.environ, MEMSEED_BENCH_OWNER=owner)
    cwd = Path(__file__).resolve().parents[1]
    if tree is not None:  # the other checkout's code, its own bench_mbox's ``--run`` included
        env["PYTHONPATH"] = str(tree)
        cwd = tree
    if profile is not None:  # every worker task is profiled into its own folder (connectors.local.mboxpool)
        folder = profile / f"{path.stem}-{method}"
        folder.mkdir(parents=True, exist_ok=True)
        env["MEMSEED_PROFILE_WORKERS"] = str(folder)
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_mbox", "--run", method, str(path)], env=env,
                         check=True, capture_output=True, text=True, cwd=cwd)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _print_profile(folder: Path, top: int = 20) -> None:
    """The workers' profiles of one method, merged: where the workers' CPU went."""
    import pstats

    files = sorted(str(p) for p in folder.glob("*.prof"))
    if not files:
        return
    print(f"  workers' profile ({len(files)} tasks), by own time:")
    pstats.Stats(*files, stream=sys.stdout).sort_stats("tottime").print_stats(top)


_LABELS = {"stdlib": "stdlib mailbox (headers)", "iter_mbox": "header-only read", "connector": "connector items",
           "scan-baseline": "scan, before (1 process)", "scan-j1": "scan --jobs 1", "scan-jall": "scan, all cores",
           "cli": "`memseed scan`, whole process",
           "eml-j1": ".eml folder, --jobs 1", "eml-jall": ".eml folder, all cores"}


_REAL_METHODS = ("stdlib", "iter_mbox", "scan-j1", "scan-jall", "cli")
"""What the real-text mbox is read with: the stdlib parse, the header-only read, the scan, and the
whole ``memseed scan`` process, start-up and imports included (issue 32)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", default="30000,300000",
                        help="comma-separated mbox sizes in messages (each its own file and table)")
    parser.add_argument("--methods", default=",".join(_LABELS), help=f"comma-separated, of: {', '.join(_LABELS)}")
    parser.add_argument("--real", default="30000",
                        help="comma-separated sizes of the real-text mbox (bodies of $MEMSEED_REALDATA/email, "
                             "scanned with --owner; skipped when the real data is absent); 0: none")
    parser.add_argument("--corpus", default="",
                        help="the real-text mbox's bodies from one corpus folder of $MEMSEED_REALDATA/email "
                             "(e.g. notmuch: list mail only) or a path; default: every corpus")
    parser.add_argument("--repeat", type=int, default=1, help="run each method N times; rows are the medians")
    parser.add_argument("--base", type=Path, metavar="TREE",
                        help="also run every method with the code of this checkout, interleaved (before/after)")
    parser.add_argument("--crlf", action="store_true", help="write CRLF line endings as Takeout does")
    parser.add_argument("--keep", type=Path, help="write the mbox here instead of a temp dir")
    parser.add_argument("--profile-workers", type=Path, metavar="DIR",
                        help="profile every worker task (cProfile) into DIR and print the merged top functions")
    parser.add_argument("--run", nargs=2, metavar=("METHOD", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(json.dumps(run_method(args.run[0], args.run[1])))
        return 0
    from connectors.base import available_cores

    methods = [m for m in args.methods.split(",") if m]
    if unknown := [m for m in methods if m not in _LABELS]:
        parser.error(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(_LABELS)}")
    short: list[str] = []
    for messages in (int(n) for n in args.messages.split(",") if int(n)):
        with tempfile.TemporaryDirectory(prefix="memseed-bench-") as tmp:
            path = (args.keep or Path(tmp)) / f"bench-{messages}.mbox"
            size = generate_mbox(path, messages, crlf=args.crlf)
            print(f"mbox: {messages:,} messages, {size / 2**20:.1f} MiB{' (CRLF)' if args.crlf else ''}; "
                  f"{available_cores()} cores; wall time, CPU time (this process + workers), peak RSS (largest process)")
            short += _measure(path, size, messages, methods, args.profile_workers, runs=_runs(args))
    for messages in (int(n) for n in args.real.split(",") if int(n)):
        short += _measure_real(messages, [m for m in methods if m in _REAL_METHODS], args.keep, args.profile_workers,
                               args.corpus, _runs(args))
    for line in short:
        print(f"FAILED: {line}; its figures above are not comparable", file=sys.stderr)
    return 1 if short else 0


def _runs(args: argparse.Namespace) -> list[tuple[str, Path | None]]:
    """The code each method runs with, in order, ``--repeat`` times: this tree, and the ``--base`` tree."""
    trees: list[tuple[str, Path | None]] = [("", None)]
    if args.base is not None:
        if not (args.base / "benchmarks" / "bench_mbox.py").is_file():
            raise SystemExit(f"--base {args.base}: not a checkout of this project")
        trees.append((" [base]", args.base.resolve()))
    return trees * max(1, args.repeat)


def _measure_real(messages: int, methods: list[str], keep: Path | None, profile: Path | None, corpus: str,
                  runs: list[tuple[str, Path | None]]) -> list[str]:
    """The real-text mbox (:mod:`.realmail`), written in a subprocess and scanned as its owner's."""
    from benchmarks.realmail import OWNER, corpus_folder

    folder = corpus_folder(corpus)
    if folder is None:
        print("real-text mbox: skipped, the real data folder is absent (set MEMSEED_REALDATA)")
        return []
    with tempfile.TemporaryDirectory(prefix="memseed-bench-real-") as tmp:
        path = (keep or Path(tmp)) / f"real-{folder.name}-{messages}.mbox"
        out = subprocess.run([sys.executable, "-m", "benchmarks.realmail", str(path), str(messages), str(folder)],
                             check=True, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
        size = int(out.stdout.strip().splitlines()[-1])
        print(f"real-text mbox: {messages:,} messages, {size / 2**20:.1f} MiB, bodies of {folder}, "
              f"a third sent by the owner (--owner {OWNER}); {os.cpu_count()} cores; load {_load()}")
        return _measure(path, size, messages, methods, profile, owner=OWNER, runs=runs)


def _load() -> str:
    """The 1-minute load average: how busy the shared machine was while these figures were taken."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "unknown"


def _knows(tree: Path, method: str) -> bool:
    """Whether ``tree``'s benchmark has ``method`` (an older checkout may predate it)."""
    return f'"{method}":' in (tree / "benchmarks" / "bench_mbox.py").read_text(encoding="utf-8")


def _median(rows: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the runs of one method (the run count kept)."""
    return {key: statistics.median(r[key] for r in rows) for key in rows[0]}


def _measure(path: Path, size: int, messages: int, methods: list[str], profile: Path | None,
             owner: str = "", runs: list[tuple[str, Path | None]] | None = None) -> list[str]:
    """Every method on one file, one row each (the median of its runs: ``--repeat``, each run with
    this tree's code and the ``--base`` tree's, interleaved), then the ratios; the methods that
    lost messages."""
    from connectors.base import available_cores

    runs = runs or [("", None)]
    short: list[str] = []
    taken: dict[str, list[dict[str, float]]] = {}
    for m in methods:
        if m in ("stdlib", "eml-j1", "eml-jall") and messages > 100_000:
            continue  # minutes of the stdlib's full parse (or 300,000 files) add nothing at this size
        if m.startswith("eml-") and not Path(f"{path}.eml.d").is_dir():
            write_eml_folder(path, Path(f"{path}.eml.d"))
        for tag, tree in runs:
            if tree is not None and not _knows(tree, m):
                continue  # a method added since that checkout: this tree's row only
            taken.setdefault(m + tag, []).append(r := _in_subprocess(m, path, profile, owner, tree))
            if int(r["count"]) != messages:  # a method that lost messages measured something else
                short.append(f"{_LABELS[m]}{tag} read {int(r['count']):,} of {messages:,} messages")
    results = {key: _median(rows) for key, rows in taken.items()}
    for key, r in results.items():
        rate = r["count"] / r["seconds"] if r["seconds"] else 0.0
        label = _LABELS[key.split(" ")[0]] + key[len(key.split(" ")[0]):]
        seconds = ", ".join(f"{x['seconds']:.2f}" for x in taken[key])
        each = f"  (runs: {seconds})" if len(taken[key]) > 1 else ""
        print(f"  {label:<33} {int(r['count']):>8,} msgs  {r['seconds']:7.2f} s  {rate:>8,.0f} msg/s  "
              f"{size / 2**20 / r['seconds']:6.1f} MiB/s  cpu {r['cpu']:6.1f}+{r['child_cpu']:.1f} s  "
              f"peak RSS {r['peak_rss_kib'] / 1024:6.1f} MiB{each}", flush=True)
    _before_after(results)
    _ratios(results)
    _cpu_bound(results, available_cores())
    if profile is not None:
        for m in results:
            _print_profile(profile / f"{path.stem}-{m}")
    return short


def _cpu_bound(results: dict[str, dict[str, float]], cores: int) -> None:
    """What the CPU time says the all-cores scan would reach on an idle machine of ``cores`` cores.

    Why: on a shared machine the wall clock measures the neighbours too; the CPU seconds the scan
    and its workers spent are the work itself. Spread over every core, that is the throughput an
    idle machine would give if the scan kept every core busy — a bound, printed beside the
    measured wall-clock rate, never instead of it."""
    r = results.get("scan-jall")
    if r and (cpu := r["cpu"] + r["child_cpu"]):
        print(f"  scan all cores, CPU-bound: at most {r['count'] / (cpu / cores):,.0f} msg/s on {cores} idle cores "
              f"({cpu:.1f} CPU-s: scanning process {r['cpu']:.1f}, workers {r['child_cpu']:.1f})")
    h = results.get("iter_mbox")
    if r and h and h["cpu"]:
        print(f"  ratio scan all cores vs header-only read, CPU-s (times more work): "
              f"{(r['cpu'] + r['child_cpu']) / h['cpu']:.1f}x")


def _before_after(results: dict[str, dict[str, float]]) -> None:
    """Each method's median with this tree's code against the ``--base`` tree's, wall and CPU."""
    for key, base in results.items():
        if key.endswith(" [base]") and (new := results.get(key[: -len(" [base]")])) and new["seconds"]:
            cpu_new, cpu_base = new["cpu"] + new["child_cpu"], base["cpu"] + base["child_cpu"]
            print(f"  before/after {_LABELS[key.split(' ')[0]]}: wall {base['seconds'] / new['seconds']:.2f}x, "
                  f"CPU-s {cpu_base / cpu_new if cpu_new else 0.0:.2f}x (times faster)")


def _ratios(results: dict[str, dict[str, float]]) -> None:
    def ratio(a: str, b: str, what: str) -> None:
        if a in results and b in results and results[b]["seconds"]:
            print(f"  ratio {what}: {results[a]['seconds'] / results[b]['seconds']:.1f}x")

    ratio("stdlib", "iter_mbox", "header-only read vs stdlib (times faster)")
    ratio("scan-baseline", "scan-j1", "scan --jobs 1 vs before (times faster)")
    ratio("scan-baseline", "scan-jall", "scan all cores vs before (times faster)")
    ratio("scan-jall", "iter_mbox", "scan all cores vs header-only read (times slower; goal <= 5)")
    ratio("scan-jall", "stdlib", "scan all cores vs stdlib mailbox parse, wall (goal <= 1)")
    ratio("cli", "stdlib", "whole `memseed scan` process vs stdlib mailbox parse, wall (goal <= 1)")
    if "scan-jall" in results and "stdlib" in results and results["stdlib"]["cpu"]:
        r, s = results["scan-jall"], results["stdlib"]
        print(f"  ratio scan all cores vs stdlib mailbox parse, CPU-s: {(r['cpu'] + r['child_cpu']) / s['cpu']:.2f}x")
    ratio("eml-j1", "eml-jall", ".eml folder all cores vs --jobs 1 (times faster)")


if __name__ == "__main__":
    raise SystemExit(main())
