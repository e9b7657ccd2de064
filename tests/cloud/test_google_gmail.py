"""gmail: end to end against the stand-in: what is fetched, in which shape, and what a reseed costs."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import AuthRequired, NoSourceReadable, SourceError
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google import gmail as gmail_mod
from connectors.google.gmail import GmailSource
from connectors.registry import detect

from .conftest import MAYA
from .google_standin import GoogleStandIn


def _ctx(**kw: object) -> ReadContext:
    settings = load_settings(None)
    return ReadContext(credentials=lambda _p: auth.credentials(settings.home), home=settings.home,
                       sleep=lambda _s: None, **kw)  # type: ignore[arg-type]


def _mail(subject: str, sender: str, to: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(datetime(2026, 10, 1, 9, n % 60, tzinfo=UTC))
    msg["Message-ID"] = f"<new-{n}@example.com>"
    msg.set_content(f"Message number {n}.\n")
    return msg.as_bytes()


def test_full_read_sent_first_bulk_left_at_google(google: GoogleStandIn) -> None:
    items = list(GmailSource("gmail:").read(ctx := _ctx()))
    assert items and all(isinstance(i, Message) for i in items)
    sent = [i for i in items if "Sent" in i.labels]
    first_other = next(n for n, i in enumerate(items) if "Sent" not in i.labels)
    assert sent and all("Sent" in i.labels for i in items[:first_other])  # the owner's mail first
    assert all(i.authored_by_owner and i.sender.address == MAYA for i in sent)
    assert any(i.body for i in sent)  # the owner's own words: bodies fetched
    assert not any(i.body for i in items if "Sent" not in i.labels)  # received mail: headers only
    labels = {lab for i in items for lab in i.labels}
    assert not labels & {"Spam", "Trash", "Category Promotions", "Category Updates"}
    s = google.stats
    # bulk was excluded in the query: nothing outside the result set was fetched
    assert s["messages.get.full"] + s["messages.get.metadata"] == len(items)
    assert s["messages.get.raw"] == 0
    # token, profile, sendAs, labels and one list per slice; the gets ride in batches of 50
    batches = math.ceil(len(sent) / 50) + math.ceil((len(items) - len(sent)) / 50)
    assert s["requests"] == 6 + batches and s["inner"] == len(items)
    assert ctx.new_cursor and ctx.new_cursor["account"] == MAYA and ctx.new_cursor["history_id"]


def test_second_scan_reads_only_new_mail(google: GoogleStandIn) -> None:
    settings = load_settings(None)
    first = scan(["gmail:"], settings=settings)
    assert first.reports[0].error is None and first.reports[0].items > 20
    google.reset_stats()
    again = scan(["gmail:"], settings=settings, incremental=True)
    assert again.reports[0].items == 0
    # the profile's history id is the cursor's: nothing to ask history.list, nothing fetched
    assert google.stats["profile"] == 1 and google.stats["history.list"] == 0 and google.stats["messages.list"] == 0
    assert google.stats["inner"] == 0 and google.stats["requests"] == 2  # token refresh + profile
    w = google.world
    w.add_mail(_mail("Re: rota", MAYA, "tom@example.com", 1), labels=["SENT"])
    w.add_mail(_mail("Lunch?", "tom@example.com", MAYA, 2), labels=["INBOX", "UNREAD"])
    w.add_mail(_mail("50% off", "shop@example.com", MAYA, 3), labels=["INBOX", "CATEGORY_PROMOTIONS"])
    google.reset_stats()
    third = scan(["gmail:"], settings=settings, incremental=True)
    assert third.reports[0].items == 2
    assert google.stats["messages.get.full"] == 1 and google.stats["messages.get.metadata"] == 1
    assert google.stats["messages.list"] == 0 and google.stats["history.list"] == 1
    with Store(settings.db_path) as store:
        assert "gmail:" in [r["location"] for r in store.sources()]


def test_history_too_old_means_full_reread(google: GoogleStandIn) -> None:
    first = list(GmailSource("gmail:").read(ctx := _ctx()))
    google.world.add_mail(_mail("Lunch?", "tom@example.com", MAYA, 2), labels=["INBOX"])
    google.world.history_floor = 10**9  # mail came in, but Google has dropped the history since the cursor
    google.reset_stats()
    again = list(GmailSource("gmail:").read(ctx2 := _ctx(cursor=ctx.new_cursor)))
    assert google.stats["history.list"] == 1  # asked, got 404
    assert len(again) == len(first) + 1 and google.stats["messages.list"] >= 2
    assert any("history" in s.reason for s in ctx2.skips)


def test_killed_read_resumes_from_last_finished_page(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gmail_mod, "PAGE_SIZE", 10)
    total = len(list(GmailSource("gmail:").read(_ctx())))
    pages_seen = google.stats["messages.list"]
    google.reset_stats()
    google.fault(500, 0, match="/batch/")  # armed below: the server starts failing part-way
    got: list[Message] = []
    with pytest.raises(SourceError):
        for item in GmailSource("gmail:").read(_ctx()):
            got.append(item)  # type: ignore[arg-type]
            if len(got) == 25:
                google.faults[0].count = 50
    google.faults.clear()
    assert 0 < len(got) < total
    google.reset_stats()
    rest = list(GmailSource("gmail:").read(ctx := _ctx()))
    assert len(got) % 10 == 0 and len(got) + len(rest) == total  # whole pages, none read twice
    assert google.stats["messages.list"] < pages_seen  # listing resumed at the unfinished page
    assert any("interrupted" in s.reason for s in ctx.skips)
    assert ctx.new_cursor is not None


def test_uri_account_must_match_the_signed_in_account(google: GoogleStandIn) -> None:
    [source] = detect("gmail:someone.else@example.com")
    with pytest.raises(AuthRequired, match=r"not someone\.else"):
        list(source.read(_ctx()))


def test_send_as_aliases_reach_the_owner_evidence(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    from bootstrap_app.identity.resolve import IdentityCollector

    google.world.send_as = ["maya.o@personal.example"]
    told: list[str] = []
    monkeypatch.setattr(IdentityCollector, "account_alias", lambda self, a, *_: told.append(a), raising=False)
    scan(["gmail:"], settings=load_settings(None))
    assert told == [MAYA, "maya.o@personal.example"]  # the account and its alias, from users.settings.sendAs
    told.clear()
    scan(["gmail:"], settings=load_settings(None), incremental=True)
    assert told == [MAYA, "maya.o@personal.example"]  # a reseed keeps them (from the cursor)


def test_since_goes_into_the_query(google: GoogleStandIn) -> None:
    everything = list(GmailSource("gmail:").read(_ctx()))
    stamps = sorted(i.timestamp for i in everything if i.timestamp)  # type: ignore[attr-defined]
    since = stamps[len(stamps) // 2]
    google.reset_stats()
    recent = list(GmailSource("gmail:").read(_ctx(since=since)))
    assert recent and all(i.timestamp >= since for i in recent)  # type: ignore[attr-defined,operator]
    fetched = google.stats["messages.get.full"] + google.stats["messages.get.metadata"]
    assert fetched < len(everything)  # older mail was left out by `after:`, not after downloading


def test_memseed_reseed_fetches_no_message_when_nothing_changed(google: GoogleStandIn) -> None:
    from click.testing import CliRunner

    from bootstrap_app.cli import main

    runner = CliRunner()
    first = runner.invoke(main, ["scan", "gmail:", "-q"])
    assert first.exit_code == 0, first.output
    google.reset_stats()
    again = runner.invoke(main, ["reseed", "-q"])
    assert again.exit_code == 0, again.output
    assert google.stats["inner"] == 0 and google.stats["messages.list"] == 0
    assert google.stats["profile"] >= 1  # the reseed did ask Gmail (and learnt nothing changed)


def test_sent_bodies_are_capped(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gmail_mod, "SENT_BODIES", 5)
    items = list(GmailSource("gmail:").read(_ctx()))
    sent = [i for i in items if "Sent" in i.labels]  # type: ignore[attr-defined]
    assert len(sent) > 5 and google.stats["messages.get.full"] == 5
    assert sum(1 for i in sent if i.body) == 5  # type: ignore[attr-defined]  # the most recent five, in full
    assert all(i.authored_by_owner for i in sent)  # the rest still count as the owner's (Sent label)


def test_send_as_alias_is_strong_owner_evidence(google: GoogleStandIn) -> None:
    """Without the stand-in hook: the provider's send-as list proves the alias (issue 14)."""
    from bootstrap_app.identity.resolve import ACCOUNT_ALIAS

    google.world.send_as = ["maya.o@personal.example"]
    result = scan(["gmail:"], settings=load_settings(None))
    assert result.owner.reasons["maya.o@personal.example"] == ACCOUNT_ALIAS
    assert MAYA in result.owner.addresses and "maya.o@personal.example" not in result.owner.suggested


def test_a_different_signed_in_account_is_read_in_full_not_from_the_old_cursor(
        google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    """``gmail:`` names no account; after signing in as someone else its history id and its
    send-as aliases (owner evidence) belong to the old mailbox and must not be reused."""
    from bootstrap_app.identity.resolve import IdentityCollector

    google.world.send_as = ["maya.o@personal.example"]
    settings = load_settings(None)
    first = scan(["gmail:"], settings=settings)
    google.world.account, google.world.send_as = "sam@example.com", []  # now signed in as Sam
    told: list[str] = []
    monkeypatch.setattr(IdentityCollector, "account_alias", lambda self, a, *_: told.append(a), raising=False)
    google.reset_stats()
    again = scan(["gmail:"], settings=settings, incremental=True)
    assert again.reports[0].error is None and again.reports[0].items == first.reports[0].items
    assert google.stats["messages.list"] >= 2 and google.stats["history.list"] == 0  # read afresh
    assert told == ["sam@example.com"]  # not Maya's alias from the old cursor
    with Store(settings.db_path) as store:
        assert (store.cursor("gmail:") or {}).get("account") == "sam@example.com"


def test_since_is_exact_not_a_pacific_midnight(google: GoogleStandIn) -> None:
    """Gmail reads ``after:2026/10/01`` as midnight *PST*: a since of 03:00 UTC would lose the
    mail of the next four hours (or seven). Seconds since the epoch are exact."""
    since = datetime(2026, 10, 1, 3, 0, tzinfo=UTC)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "tom@example.com", MAYA, "early bird"
    msg["Date"], msg["Message-ID"] = format_datetime(since.replace(hour=5)), "<early@example.com>"
    msg.set_content("Up before Pacific midnight.\n")
    google.world.add_mail(msg.as_bytes(), labels=["INBOX"])
    recent = list(GmailSource("gmail:").read(_ctx(since=since)))
    assert "<early@example.com>" in {i.message_id for i in recent}  # type: ignore[attr-defined]


def test_quota_exhausted_mid_reseed_keeps_the_old_cursor_and_loses_no_mail(google: GoogleStandIn) -> None:
    settings = load_settings(None)
    scan(["gmail:"], settings=settings)
    with Store(settings.db_path) as store:
        before = store.cursor("gmail:")
    for n in range(3):
        google.world.add_mail(_mail(f"Re: plan {n}", "tom@example.com", MAYA, 10 + n), labels=["INBOX"])
    google.fault(403, 1, match="/batch/", reason="dailyLimitExceeded")  # the fetch of the new mail is refused
    with pytest.raises(NoSourceReadable, match="quota"):
        scan(["gmail:"], settings=settings, incremental=True)
    with Store(settings.db_path) as store:
        assert store.cursor("gmail:") == before  # nothing half-written
    again = scan(["gmail:"], settings=settings, incremental=True)
    assert again.reports[0].error is None and again.reports[0].items == 3  # the three are read next time


def test_a_checkpoint_google_no_longer_accepts_restarts_the_read_instead_of_failing_forever(
        google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gmail_mod, "PAGE_SIZE", 10)
    total = len(list(GmailSource("gmail:").read(_ctx())))
    state = GmailSource("gmail:").resume_state(_ctx())
    google.fault(500, 0, match="/batch/")
    got = 0
    with pytest.raises(SourceError):
        for _ in GmailSource("gmail:").read(_ctx()):
            got += 1
            if got == 15:
                google.faults[0].count = 50
    google.faults.clear()
    saved = state.load()
    assert saved.get("history_id")  # a checkpoint was left behind
    state.save({**saved, "page": "stale-token"})  # its page token, one Google has since forgotten
    items = list(GmailSource("gmail:").read(ctx := _ctx()))
    assert len(items) == total and ctx.new_cursor is not None  # the whole mailbox, read afresh
    assert any("from the start" in s.reason for s in ctx.skips)
    assert state.load() == {}  # and no checkpoint left to trip over
