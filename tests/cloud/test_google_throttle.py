"""Quota manners: Retry-After honoured, jittered backoff otherwise, inner calls re-queued, pacing."""

from __future__ import annotations

import functools
import random

import pytest

from bootstrap_app.config import load_settings
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google.client import GoogleSession, Throttle
from connectors.google.gmail import GmailSource

from .google_standin import GoogleStandIn


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pacing waits depend on wall-clock time; here only the retry waits are under test."""
    from connectors.google import source

    monkeypatch.setattr(source, "GoogleSession", functools.partial(GoogleSession, rate=1e9))


def _read(sleeps: list[float]) -> tuple[list[object], ReadContext]:
    home = load_settings(None).home
    ctx = ReadContext(credentials=lambda _p: auth.credentials(home), home=home, sleep=sleeps.append)
    return list(GmailSource("gmail:").read(ctx)), ctx


def _throttled_read(google: GoogleStandIn, status: int, times: int, **fault: str,
                    ) -> tuple[list[object], list[object], ReadContext, list[float]]:
    """A clean read first (what must come back), then the same read with ``times`` answers of
    ``status`` armed on the stand-in: (baseline, items, ctx, waits). Stats count the second read only."""
    baseline, _ = _read([])
    google.reset_stats()
    google.fault(status, times, **fault)
    sleeps: list[float] = []
    items, ctx = _read(sleeps)
    return baseline, items, ctx, sleeps


def test_retry_after_is_honoured_on_a_throttled_batch(google: GoogleStandIn) -> None:
    baseline, items, ctx, sleeps = _throttled_read(google, 429, 2, match="/batch/", retry_after="7")
    assert len(items) == len(baseline) and ctx.new_cursor is not None
    assert sleeps.count(7.0) == 2  # exactly the server's wait, twice


def test_rate_limited_inner_calls_are_requeued(google: GoogleStandIn) -> None:
    # three inner gets refused
    baseline, items, _, sleeps = _throttled_read(google, 403, 3, match="/messages/", reason="userRateLimitExceeded")
    assert sorted(i.ref for i in items) == sorted(i.ref for i in baseline)  # type: ignore[attr-defined]
    assert google.stats["inner"] == len(baseline) + 3  # only the refused calls went again
    assert len(sleeps) == 1 and 0 <= sleeps[0] <= 2.0  # one full-jitter wait (attempt 1: up to 2 s)


def test_server_errors_back_off_with_capped_full_jitter(google: GoogleStandIn) -> None:
    home = load_settings(None).home
    sleeps: list[float] = []
    session = GoogleSession(auth.credentials(home), sleep=sleeps.append, rng=random.Random(3), backoff_cap=5.0)
    google.fault(500, 4, match="/profile")
    profile = session.call(session.gmail().users().getProfile(userId="me"), units=1)
    assert profile["emailAddress"] == google.world.account
    assert len(sleeps) == 4 and all(0 <= s <= 5.0 for s in sleeps) and len(set(sleeps)) == 4


def test_pacing_keeps_under_the_per_user_quota() -> None:
    slept: list[float] = []
    clock = [0.0]
    bucket = Throttle(rate=250, burst=250, sleep=slept.append, clock=lambda: clock[0])
    for _ in range(10):  # ten batches of 50 messages.get = 2,500 units with no time passing
        bucket.take(250)
    assert abs(sum(slept) - 9.0) < 1e-9  # the first second's burst is free, then 1 s per batch
    clock[0] = 100.0  # time passes: the bucket refills, no wait
    slept.clear()
    bucket.take(250)
    assert slept == []


def test_batches_hold_at_most_50_halve_after_a_throttled_one_then_grow_back(google: GoogleStandIn) -> None:
    from email.message import EmailMessage

    for n in range(120):  # enough of the owner's mail for several full batches
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = google.world.account, "tom@example.com", f"note {n}"
        msg["Date"], msg["Message-ID"] = "Thu, 01 Oct 2026 09:00:00 +0000", f"<bulkier-{n}@example.com>"
        msg.set_content("words\n")
        google.world.add_mail(msg.as_bytes(), labels=["SENT"])
    baseline, _ = _read([])
    assert google.batch_sizes[:2] == [50, 50] and max(google.batch_sizes) == 50
    google.reset_stats()
    google.fault(429, 1, match="/batch/")  # the first batch is refused as a whole, no Retry-After
    sleeps: list[float] = []
    items, _ = _read(sleeps)
    assert len(items) == len(baseline)
    assert google.batch_sizes[:3] == [25, 50, 50]  # halved after the refusal, doubled back once served
    assert len(sleeps) == 1 and 0 <= sleeps[0] <= 2.0


def test_retry_after_on_an_inner_call_is_honoured(google: GoogleStandIn) -> None:
    """Inside a 200 batch, one part is a 429 with its own Retry-After (Gmail's per-call answer)."""
    baseline, items, _, sleeps = _throttled_read(google, 429, 1, match="/messages/", retry_after="3")
    assert len(items) == len(baseline) and google.stats["inner"] == len(baseline) + 1
    assert sleeps == [3.0]


def test_a_message_google_refuses_is_skipped_with_its_reason_and_the_mailbox_goes_on(google: GoogleStandIn) -> None:
    """A 404 (deleted between list and get) or 400 on one part of a batch is that message's
    problem: reported through ctx.skip, the rest read, the cursor kept. A 429 on another part
    still takes the retry path."""
    baseline, _ = _read([])
    by_header = {m.parsed().get("Message-ID", "").strip(): m.id for m in google.world.mails.values()}
    read = [by_header[i.ref] for i in baseline if i.ref in by_header]  # type: ignore[attr-defined]
    deleted, refused, throttled = read[3], read[-2], read[len(read) // 2]
    google.reset_stats()
    google.fault(404, 1, match=f"/messages/{deleted}?")
    google.fault(400, 1, match=f"/messages/{refused}?", reason="invalidArgument")
    google.fault(429, 1, match=f"/messages/{throttled}?")
    sleeps: list[float] = []
    items, ctx = _read(sleeps)
    assert len(items) == len(baseline) - 2 and ctx.new_cursor is not None
    got = {by_header.get(i.ref) for i in items}  # type: ignore[attr-defined]
    assert deleted not in got and refused not in got and throttled in got
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "deleted since it was listed" in reasons[deleted]
    assert "HTTP 400" in reasons[refused] and "invalidArgument" in reasons[refused]
    assert google.stats["inner"] == len(baseline) + 1  # only the throttled part went again
    assert len(sleeps) == 1


def test_a_part_refused_for_the_whole_sign_in_still_stops_the_read(google: GoogleStandIn) -> None:
    """A missing scope on one part is every part's problem: one clear error, no cursor."""
    from bootstrap_app.errors import AuthRequired

    google.fault(403, 1, match="/messages/", reason="insufficientPermissions")
    with pytest.raises(AuthRequired, match="missing scope"):
        _read([])
