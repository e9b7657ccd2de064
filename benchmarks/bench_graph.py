"""Outlook over Microsoft Graph: requests, bytes and wall time for 5,000 messages, side by side.

Why side by side against the loopback stand-in (tests/cloud/ms_standin.py, real TLS, real
``requests``): Graph's cost is requests and bytes under a per-mailbox quota (10,000 requests per
10 minutes), not CPU. The connector's way — a delta round per folder with ``$select``,
``Prefer: odata.maxpagesize=100`` and text bodies — is compared with Graph's defaults (page of
10, every property, HTML bodies) on the same mailbox in the same run, and then a reseed with
nothing new, which should cost one request per folder and fetch no message. The connector also
selects ``internetMessageHeaders`` (delivery evidence: who really sent a received mail), which
Graph's defaults never send, so its bytes include them; the last row is the fallback when a
delta page leaves them out (one GET per received message).

Run: ``python -m benchmarks.bench_graph [--messages 5000]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]

RTT = 0.05


def _mailbox(world: object, n: int) -> None:
    base = dt.datetime(2026, 1, 1, 8, tzinfo=dt.UTC)
    peers = [(f"Peer {i}", f"peer{i}@example.test") for i in range(40)]
    me = ("Maya Okafor", "maya@contoso.test")
    body = "Thanks, agreed on the plan. " * 12
    for i in range(n):
        peer = peers[i % len(peers)]
        folder, sender, to = ("sentitems", me, [peer]) if i % 2 else ("inbox", peer, [me])
        world.add_message(folder, subject=f"Re: topic {i % 97}", sender=sender, to=to,  # type: ignore[attr-defined]
                          body=body, when=base + dt.timedelta(hours=i))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from connectors.base import ReadContext
    from connectors.microsoft import OutlookMailSource, auth
    from connectors.microsoft.graph import GraphClient
    from tests.cloud.ms_standin import MSStandIn

    with tempfile.TemporaryDirectory() as tmp, MSStandIn(Path(tmp) / "tls") as ms:
        os.environ.update(REQUESTS_CA_BUNDLE=str(ms.cert), MEMSEED_MS_AUTHORITY=ms.authority,
                          MEMSEED_GRAPH_API_ROOT=ms.graph_root, MEMSEED_MS_CLIENT_ID=ms.world.client_id,
                          MEMSEED_TOKEN_STORE="file")
        home = Path(tmp) / "home"
        home.mkdir()
        auth.login(home, echo=lambda t: None, sleep=lambda s: None)
        _mailbox(ms.world, args.messages)
        creds = auth.credentials(home)
        rows = []

        def measure(label: str, run: object) -> None:
            req, sent = ms.world.graph_requests(), ms.world.bytes_out
            start = time.perf_counter()
            count = run()  # type: ignore[operator]
            rows.append((label, count, ms.world.graph_requests() - req, ms.world.bytes_out - sent,
                         time.perf_counter() - start))

        def defaults() -> int:
            client = GraphClient(lambda: creds.token())
            total = 0
            for folder in ("sentitems", "inbox"):
                for page, _ in client.delta(f"me/mailFolders/{folder}/messages/delta", None):
                    total += len(page)
            return total

        ctx = ReadContext(credentials=lambda name: auth.credentials(home), home=home)

        def connector() -> int:
            return sum(1 for _ in OutlookMailSource("outlook:").read(ctx))

        def reseed() -> int:
            again = ReadContext(cursor=ctx.new_cursor, credentials=lambda name: auth.credentials(home), home=home)
            return sum(1 for _ in OutlookMailSource("outlook:").read(again))

        def headers_by_get() -> int:
            ms.world.headers_on_delta = False
            try:
                return sum(1 for _ in OutlookMailSource("outlook:").read(
                    ReadContext(credentials=lambda name: auth.credentials(home), home=home)))
            finally:
                ms.world.headers_on_delta = True

        measure("Graph defaults (page 10, all fields, HTML)", defaults)
        measure("connector ($select + headers, page 100)", connector)
        measure("reseed, nothing new (delta links)", reseed)
        measure("connector, delta without headers (GETs)", headers_by_get)
    print(f"{'method':44} {'messages':>8} {'requests':>8} {'KiB':>9} {'seconds':>8} {'msgs/req':>8} "
          f"{'+50ms RTT':>9}")
    for label, count, req, size, secs in rows:
        print(f"{label:44} {count:8d} {req:8d} {size / 1024:9.0f} {secs:8.2f} {count / max(req, 1):8.1f} "
              f"{secs + req * RTT:9.1f}")
    print(f"(+50ms RTT: loopback seconds plus {RTT * 1000:.0f} ms per request, a labelled projection of a "
          "real round trip to Graph, not a measurement)")
    base, ours = rows[0], rows[1]
    print(f"connector vs defaults: {base[2] / max(ours[2], 1):.1f}x fewer requests, "
          f"{base[3] / max(ours[3], 1):.1f}x fewer bytes, {base[4] / max(ours[4], 1e-9):.1f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
