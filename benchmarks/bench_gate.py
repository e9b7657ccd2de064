"""What safety costs next to the scan itself: redaction, injection scan and the gate, per 10k.

Why side by side: absolute seconds depend on the machine; the claim is the ratio between the
raw read of a mailbox and what the safety layers add on top of it, measured in the same run
on the same messages:

- raw read       — the mbox connector with redaction switched off (cleaner = identity);
- read + redact  — the same read with the default cleaner (detect-secrets + hand regexes);
- scan_text      — the full injection scan (Hermes set + tripwires + structure) on every body;
- gate           — ``gate()`` on one proposal per message (a third-party contact fact whose
                   excerpt is the body's first 200 chars; every third an owner feedback rule);
- dangerous steps — ``find_dangerous`` (the gate's issue-14 stage) alone on every body;
- delivery       — the ``Received`` chain + ``Authentication-Results`` reading every message now
                   gets (two hops and a verdict per message, as real inbound mail carries).

Also prints redaction alone on the real Enron bodies when ``$MEMSEED_REALDATA`` holds them (tests/REALDATA.md).
Run: ``python -m benchmarks.bench_gate [--messages 10000]``.
"""

from __future__ import annotations

import argparse
import mailbox
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["main"]

_REALDATA = Path(os.environ.get("MEMSEED_REALDATA") or "(MEMSEED_REALDATA is not set)") / "email" / "enron"


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def _read(path: Path, clean: bool) -> list[object]:
    from connectors.base import ReadContext
    from connectors.registry import detect

    [source] = detect(path)
    ctx = ReadContext() if clean else ReadContext(cleaner=lambda text: text)
    return list(source.read(ctx))


def _proposals(items: list[object]) -> list[object]:
    from bootstrap_app.types import Evidence, MemoryType, Message, Proposal

    out = []
    for i, item in enumerate(items):
        assert isinstance(item, Message)
        ev = Evidence(source=item.source, ref=item.ref, date=item.timestamp, authored_by_owner=i % 3 == 0,
                      excerpt=" ".join(item.body.split())[:200])
        if i % 3 == 0:
            out.append(Proposal(type=MemoryType.FEEDBACK, name=f"rule-{i}", subject=f"habit:{i}",
                                description="Runs the tests before pushing",
                                body="Run `uv run pytest` before pushing; never merge to main without review.",
                                evidence=(ev,)))
        else:
            out.append(Proposal(type=MemoryType.REFERENCE, name=f"contact-{i}", subject=f"contact:{i}",
                                description=f"{item.sender.name} — frequent correspondent",
                                body=f"{item.sender.name} <{item.sender.address}>: 12 messages, 2023-01 to 2023-06.",
                                evidence=(ev,)))
    return out


def _row(label: str, seconds: float, n: int, base: float) -> None:
    per10k = seconds * 10_000 / max(n, 1)
    print(f"  {label:<34} {per10k:8.2f} s / 10k   ({seconds:6.2f} s for {n:,})   x{seconds / base:5.2f} of raw read")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.bench_mbox import generate_mbox
    from bootstrap_app.safety.dangerous import find_dangerous
    from bootstrap_app.safety.gate import gate
    from bootstrap_app.safety.injection import scan_text
    from bootstrap_app.text.secrets import redact_secrets
    from connectors.local.delivery import auth_failure, external_hop

    parser = argparse.ArgumentParser(prog="bench_gate")
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.mbox"
        size = generate_mbox(path, args.messages)
        redact_secrets("warm up AKIAIOSFODNN7EXAMPLE")  # load detect-secrets plugins outside the timings
        raw_s, raw = _timed(lambda: _read(path, clean=False))
        red_s, items = _timed(lambda: _read(path, clean=True))
        assert isinstance(items, list) and isinstance(raw, list)
        bodies = [getattr(i, "body", "") for i in items]
        scan_s, _ = _timed(lambda: [scan_text(b) for b in bodies])
        props = _proposals(items)
        gate_s, result = _timed(lambda: gate(props))  # type: ignore[arg-type]
        danger_s, _ = _timed(lambda: [find_dangerous(b) for b in bodies])
        chain = ("from mx.tidewater.io (mx.tidewater.io [10.0.0.1]) by store.tidewater.io with LMTP id a\n"
                 "from out.partner.example (out.partner.example [192.0.2.4]) by mx.tidewater.io with ESMTPS id b")
        verdict = "mx.tidewater.io; dkim=pass header.d=partner.example; dmarc=pass header.from=partner.example"
        deliv_s, _ = _timed(lambda: [(external_hop(chain), auth_failure(verdict, "a@partner.example"))
                                     for _ in items])
    n = len(items)
    print(f"synthetic Takeout-like mbox: {n:,} messages, {size / 1e6:.1f} MB")
    _row("raw read (no redaction)", raw_s, n, raw_s)
    _row("read + redaction", red_s, n, raw_s)
    _row("  = redaction alone", max(red_s - raw_s, 0.0), n, raw_s)
    _row("scan_text (full set) on bodies", scan_s, n, raw_s)
    _row("gate() on one proposal per message", gate_s, n, raw_s)
    _row("  find_dangerous on bodies", danger_s, n, raw_s)
    _row("delivery headers per message", deliv_s, n, raw_s)
    print(f"  gate: {len(result.passed):,} passed, {len(result.quarantined):,} quarantined")  # type: ignore[attr-defined]
    if _REALDATA.is_dir():
        texts: list[str] = []
        for mbox in sorted(_REALDATA.glob("*.mbox")):
            for msg in mailbox.mbox(str(mbox)):
                payload = None if msg.is_multipart() else msg.get_payload(decode=True)
                if isinstance(payload, bytes):
                    texts.append(payload.decode("latin-1"))
        red_real, _ = _timed(lambda: [redact_secrets(t) for t in texts])
        scan_real, _ = _timed(lambda: [scan_text(t) for t in texts])
        print(f"real Enron bodies: {len(texts):,} messages, {sum(map(len, texts)) / 1e6:.1f} M chars")
        print(f"  redact_secrets {red_real * 10_000 / len(texts):8.2f} s / 10k   "
              f"scan_text {scan_real * 10_000 / len(texts):8.2f} s / 10k")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
