"""Gmail against the loopback stand-in: batched + metadata (the connector) vs one-by-one + full.

What it shows, side by side on the same generated mailbox: HTTP requests, inner (batched)
calls, bytes sent by the server and wall time of a first read; then what a no-change reseed
costs, and what a reseed after 50 new messages costs with the item cache (only the new mail is
fetched; the rest is replayed from the cache) against a full re-read of the mailbox (reseed
without a usable cache, as before the cache existed). Goal from the issue: at most 1 HTTP
request per 10 messages on a first scan, and 0 message fetches on a no-change reseed. Waits for the quota are injected away (``ctx.sleep``),
so wall time is HTTP and parsing only; the quota time the pacing would add is printed apart.
On loopback a round trip costs almost nothing, so batching's CPU (multipart encoding) can make
it *slower* there; a projection line adds a 50 ms round trip per request, as to Google.

Run: ``python -m benchmarks.bench_gmail [--messages 5000]`` (``make bench`` runs it too).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parents[1]
_OWNER = "maya@example.com"
_PEOPLE = [f"{n}@example.com" for n in ("jon", "priya", "lena", "tomas", "ana", "wei", "sam", "chidi", "grace")]


def _world(messages: int, bulk: int) -> Any:
    from tests.cloud.google_world import World

    rng = random.Random(5)
    world = World(account=_OWNER)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    threads: list[str] = []
    for i in range(messages + bulk):
        msg = EmailMessage()
        mine = i < messages and rng.random() < 0.25
        other = rng.choice(_PEOPLE)
        msg["From"], msg["To"] = (_OWNER, other) if mine else (other, _OWNER)
        msg["Subject"] = f"Topic {i % 300}: notes"
        msg["Date"] = format_datetime(start + timedelta(minutes=37 * i))
        msg["Message-ID"] = f"<m{i}@example.com>"
        msg.set_content(("Some words about the ledger and the rota. " * rng.randint(5, 60)) + "\n")
        if i % 7 == 0:
            msg.add_attachment(b"%PDF-1.4 " + os.urandom(20_000), maintype="application", subtype="pdf",
                               filename="spec.pdf")
        labels = ["SENT"] if mine else ["INBOX"] + (["CATEGORY_UPDATES"] if i >= messages else [])
        thread = rng.choice(threads) if threads and rng.random() < 0.5 else ""
        mail = world.add_mail(msg.as_bytes(), labels=labels, thread_id=thread)
        threads.append(mail.thread_id)
    return world


def _naive(standin: Any, home: Path) -> int:
    """The obvious client: the same listing (same bulk-free query, same page size, so both
    sides read the same messages), then ``messages.get(format=full)`` one by one."""
    from connectors.google import auth
    from connectors.google.client import GoogleSession
    from connectors.google.gmail import BULK_QUERY, PAGE_SIZE

    session = GoogleSession(auth.credentials(home), sleep=lambda _s: None, rate=1e9)
    messages = session.gmail().users().messages()
    page, ids = None, []
    while True:
        answer = session.call(messages.list(userId="me", q=BULK_QUERY, pageToken=page, maxResults=PAGE_SIZE))
        ids += [m["id"] for m in answer.get("messages", [])]
        page = answer.get("nextPageToken")
        if not page:
            break
    for mid in ids:
        session.call(messages.get(userId="me", id=mid, format="full"))
    return len(ids)


def _connector(home: Path, cursor: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
    from connectors.base import ReadContext
    from connectors.google import auth
    from connectors.google.gmail import GmailSource

    ctx = ReadContext(credentials=lambda _p: auth.credentials(home), home=home, cursor=cursor,
                      sleep=lambda _s: None)
    n = sum(1 for _ in GmailSource("gmail:").read(ctx))
    return n, ctx.new_cursor


def _reseed(home: Path, *, with_cache: bool) -> int:
    """What ``memseed reseed`` runs: the check, then the scan; ``with_cache`` False drops the item
    cache first, so the check reads from the cursor and the scan re-reads the whole mailbox."""
    from bootstrap_app.cache.changes import count_new_items
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan
    from bootstrap_app.store import Store

    settings = load_settings(home)
    with Store(settings.db_path) as store:
        if not with_cache:
            store.cache_drop("gmail:")
        new, _ = count_new_items(["gmail:"], store, settings)
        scan(["gmail:"], settings=settings, store=store, run_kind="reseed", cached=True)
    return new


def _no_quota_waits() -> None:
    """The scans below build their own read context (with ``time.sleep``): take the quota waits
    out there too, as for the direct reads above; the quota time is printed apart."""
    from connectors.google.client import GoogleSession
    from connectors.google.source import GoogleSource

    def session(self: Any, ctx: Any) -> GoogleSession:
        return GoogleSession(ctx.credentials(self.auth), label=self.id.rstrip(":"), sleep=lambda _s: None)

    GoogleSource.session = session  # type: ignore[method-assign]


def _first_scan(home: Path) -> None:
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan

    scan(["gmail:"], settings=load_settings(home))


def _add(world: Any, count: int) -> None:
    start = datetime(2026, 6, 1, tzinfo=UTC)
    for i in range(count):
        msg = EmailMessage()
        msg["From"], msg["To"] = (_OWNER, _PEOPLE[i % 9]) if i % 4 == 0 else (_PEOPLE[i % 9], _OWNER)
        msg["Subject"], msg["Date"] = f"New topic {i}", format_datetime(start + timedelta(minutes=11 * i))
        msg["Message-ID"] = f"<new{i}@example.com>"
        msg.set_content("A new note about the rota.\n")
        world.add_mail(msg.as_bytes(), labels=["SENT"] if i % 4 == 0 else ["INBOX"])


def _measure(standin: Any, fn: Any) -> tuple[Any, dict[str, float]]:
    standin.reset_stats()
    t0 = time.perf_counter()
    result = fn()
    wall = time.perf_counter() - t0
    s = standin.stats
    gets = sum(v for k, v in s.items() if k.startswith("messages.get"))
    return result, {"requests": s["requests"], "inner": s["inner"], "bytes": s["bytes"], "gets": gets,
                    "wall": wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--bulk", type=int, default=500, help="promotions/updates the query must leave out")
    parser.add_argument("--new", type=int, default=50, help="messages that arrive before the reseed")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(_ROOT))
    from tests.cloud.google_standin import GoogleStandIn

    with tempfile.TemporaryDirectory(prefix="bench-gmail-") as tmp:
        home = Path(tmp)
        os.environ.update(MEMSEED_HOME=str(home), MEMSEED_TOKEN_STORE="file")
        world = _world(args.messages, args.bulk)
        with GoogleStandIn(world) as standin:
            creds = home / "authorized_user.json"
            creds.write_text(json.dumps(standin.authorized_user()), encoding="utf-8")
            os.environ.update(MEMSEED_GOOGLE_API_ROOT=standin.root, MEMSEED_GOOGLE_CREDENTIALS=str(creds))
            (n_fast, cursor), fast = _measure(standin, lambda: _connector(home, None))
            n_slow, slow = _measure(standin, lambda: _naive(standin, home))
            (n_again, _), again = _measure(standin, lambda: _connector(home, cursor))
            _no_quota_waits()
            homes = {name: home / name for name in ("cached", "full")}
            for app in homes.values():  # two app dirs, each after a first `memseed scan gmail:`
                os.environ["MEMSEED_HOME"] = str(app)
                _first_scan(app)
            _add(world, args.new)
            reseeds = {}
            for name, app in homes.items():
                os.environ["MEMSEED_HOME"] = str(app)
                reseeds[name] = _measure(standin, lambda app=app, name=name: _reseed(app, with_cache=name == "cached"))
    print(f"mailbox: {args.messages} messages (+{args.bulk} bulk in Updates, excluded by the query)")
    print(f"{'':26}{'batched+metadata':>18}{'one-by-one+full':>18}{'ratio':>8}")
    rows = [("messages read", n_fast, n_slow), ("HTTP requests", fast["requests"], slow["requests"]),
            ("inner batched calls", fast["inner"], slow["inner"]), ("message fetches", fast["gets"], slow["gets"]),
            ("bytes from server", fast["bytes"], slow["bytes"])]
    for label, a, b in rows:
        print(f"{label:26}{a:>18,.0f}{b:>18,.0f}{(b / a if a else 0):>7.1f}x")
    print(f"{'wall time (s)':26}{fast['wall']:>18.2f}{slow['wall']:>18.2f}{slow['wall'] / fast['wall']:>7.1f}x")
    rtt = 0.05  # a typical round trip to Google's API; loopback has none, so batching's win is not in the wall time
    print(f"{'+ 50 ms per round trip (s)':26}{fast['wall'] + fast['requests'] * rtt:>18.1f}"
          f"{slow['wall'] + slow['requests'] * rtt:>18.1f}"
          f"{(slow['wall'] + slow['requests'] * rtt) / (fast['wall'] + fast['requests'] * rtt):>7.1f}x"
          "   (projection: measured wall + requests x 50 ms)")
    print(f"HTTP requests per 10 messages (first scan): {10 * fast['requests'] / max(1, n_fast):.2f} (goal <= 1)")
    print(f"quota time at 250 units/s (5 per get): {fast['gets'] * 5 / 250:.0f} s for either way")
    print(f"no-change reseed: {again['requests']:.0f} HTTP requests, {again['gets']:.0f} message fetches, "
          f"{n_again} items (goal: 0 fetches)")
    (_, cached), (_, full) = reseeds["cached"], reseeds["full"]
    print(f"\nreseed after {args.new} new messages of {args.messages:,} (check + scan, as `memseed reseed`):")
    print(f"{'':26}{'cached incremental':>18}{'full re-read':>18}{'ratio':>8}")
    for label, key in (("HTTP requests", "requests"), ("message fetches", "gets"), ("bytes from server", "bytes")):
        print(f"{label:26}{cached[key]:>18,.0f}{full[key]:>18,.0f}{(full[key] / cached[key] if cached[key] else 0):>7.1f}x")
    print(f"{'wall time (s)':26}{cached['wall']:>18.2f}{full['wall']:>18.2f}{full['wall'] / cached['wall']:>7.1f}x"
          "   (incl. the analysis, which both do over all mail)")
    print(f"{'quota time (s)':26}{cached['gets'] * 5 / 250:>18.1f}{full['gets'] * 5 / 250:>18.1f}"
          "   (5 units per fetch at 250 units/s, waited on top of the wall time)")
    ok = 10 * fast["requests"] <= max(1, n_fast) and again["gets"] == 0 and cached["gets"] == args.new
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
