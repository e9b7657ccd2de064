"""mbox throughput and peak memory: stdlib ``mailbox.mbox`` vs ``iter_mbox`` vs the full connector.

Why side by side in one run: absolute numbers depend on the machine; the ratio between the
stdlib reader and ours on the same file, in the same run, is what we claim. Each method runs in
its own subprocess so its peak RSS (``ru_maxrss``) is its own, not a leftover of another.

Run: ``python -m benchmarks.bench_mbox [--messages 100000] [--crlf] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

__all__ = ["generate_mbox", "main", "run_method"]

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


def run_method(method: str, path: str) -> dict[str, float]:
    """Read ``path`` with one method (in this process) and return count, seconds and peak RSS."""
    import mailbox

    from connectors.base import ReadContext
    from connectors.local.mbox import iter_mbox, read_mbox

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # after imports: growth = reading only
    t0 = time.perf_counter()
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
    else:
        raise SystemExit(f"unknown method {method}")
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"count": count, "seconds": seconds, "peak_rss_kib": peak, "growth_kib": peak - base}


def _in_subprocess(method: str, path: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_mbox", "--run", method, str(path)],
                         check=True, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--crlf", action="store_true", help="write CRLF line endings as Takeout does")
    parser.add_argument("--keep", type=Path, help="write the mbox here instead of a temp dir")
    parser.add_argument("--run", nargs=2, metavar=("METHOD", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(json.dumps(run_method(args.run[0], args.run[1])))
        return 0
    with tempfile.TemporaryDirectory(prefix="memseed-bench-") as tmp:
        path = (args.keep or Path(tmp)) / "bench.mbox"
        size = generate_mbox(path, args.messages, crlf=args.crlf)
        print(f"mbox: {args.messages:,} messages, {size / 2**20:.1f} MiB{' (CRLF)' if args.crlf else ''}")
        results = {m: _in_subprocess(m, path) for m in ("stdlib", "iter_mbox", "connector")}
        for method, r in results.items():
            rate = r["count"] / r["seconds"] if r["seconds"] else 0.0
            print(f"  {method:<10} {int(r['count']):>8,} msgs  {r['seconds']:7.2f} s  {rate:>10,.0f} msg/s  "
                  f"peak RSS {r['peak_rss_kib'] / 1024:7.1f} MiB (growth {r['growth_kib'] / 1024:6.1f} MiB)")
        base = results["stdlib"]["seconds"]
        print(f"  ratio iter_mbox(headers) / stdlib: {base / results['iter_mbox']['seconds']:.1f}x faster")
        print(f"  ratio connector(full items) / stdlib(headers): {base / results['connector']['seconds']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
