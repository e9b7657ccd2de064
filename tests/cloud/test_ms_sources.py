"""Outlook mail, Outlook calendar and OneDrive read through the real Graph wire format."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import docx
import pytest

from bootstrap_app.errors import AuthRequired, QuotaExceeded, SourceOffline
from bootstrap_app.types import Document, Event, Message
from connectors.base import ReadContext
from connectors.microsoft import (
    MicrosoftSource,
    OneDriveSource,
    OutlookCalendarSource,
    OutlookMailSource,
    auth,
)
from connectors.microsoft.calendar import iana_zone

from .ms_fixtures import OWNER, PEERS, populate
from .ms_standin import MSStandIn
from .ms_world import headers_for


def _ctx(home: Path, cursor: dict[str, Any] | None = None, **kw: Any) -> ReadContext:
    sleeps: list[float] = []
    ctx = ReadContext(cursor=cursor, credentials=lambda name: auth.credentials(home), home=home,
                      sleep=sleeps.append, **kw)
    ctx.sleeps = sleeps  # type: ignore[attr-defined]
    return ctx


def _docx(text: str, title: str = "") -> bytes:
    doc = docx.Document()
    if title:
        doc.core_properties.title = title
    doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_mail_sent_first_then_inbox_and_incremental(signed_in: Path, ms: MSStandIn) -> None:
    populate(ms.world)
    source = OutlookMailSource("outlook:")
    assert source.id == "outlook:"
    before = ms.world.graph_requests()
    ctx = _ctx(signed_in)
    items = list(source.read(ctx))
    first_requests = ms.world.graph_requests() - before
    assert len(items) == 12 + 14 + 1
    assert all(isinstance(m, Message) for m in items)
    assert [m.labels[0] for m in items[:12]] == ["Sent"] * 12 and items[12].labels[0] == "Inbox"
    sent = items[0]
    assert sent.authored_by_owner is True and sent.sender.address == OWNER[1]
    assert sent.to[0].address == PEERS[0][1] and sent.message_id.startswith("<m") and sent.thread_id == "conv-0"
    assert sent.body == "Let's ship step 0 on Thursday."  # plain text, quoted reply trimmed
    assert sent.timestamp == dt.datetime(2026, 9, 1, 8, 30, tzinfo=dt.UTC)
    inbox = [m for m in items if "Inbox" in m.labels]
    # delivery evidence from internetMessageHeaders: mail from other domains came in from outside
    # (nobody's own words, whatever its From says); a colleague's came through the tenant only
    for m in inbox:
        outside = not m.sender.address.endswith("@contoso.test")
        assert m.delivered_from == (f"mail.{m.sender.address.rpartition('@')[2]}" if outside else "")
        assert m.authored_by_owner is (False if outside else None) and m.auth_failure == ""
    assert not sent.delivered_from and not sent.third_party_reason
    assert [m.is_bulk for m in inbox].count(True) == 1  # the no-reply digest
    assert inbox[0].cc[0].address == PEERS[1][1]
    # /me (directory facts, the account's addresses), then one page of 100 per folder for 27 messages
    assert first_requests == 3 and ms.world.graph_requests("/v1.0/me?") == 1
    assert source.owner_directory["title"] == "Principal Platform Engineer"
    assert set(ctx.new_cursor["folders"]) == {"sentitems", "inbox"}

    ms.world.add_message("inbox", subject="new question", sender=PEERS[2], to=[OWNER], body="ping",
                         when=dt.datetime(2026, 10, 20, tzinfo=dt.UTC))
    removed = items[13].ref
    ms.world.delete_message("inbox", removed)
    before = ms.world.graph_requests()
    ctx2 = _ctx(signed_in, cursor=ctx.new_cursor)
    again = list(source.read(ctx2))
    assert [m.subject for m in again] == ["new question"]
    assert ms.world.graph_requests() - before == 2  # one delta link per folder; /me came from the cursor
    assert ms.world.graph_requests("/v1.0/me?") == 1
    assert ms.world.graph_requests("$deltatoken") >= 2
    ctx3 = _ctx(signed_in, cursor=ctx2.new_cursor)
    assert list(source.read(ctx3)) == []
    # the owner reads a mail: the next round reports the change as id + isRead only — no item, no GET
    ms.world.mark_read("inbox", items[14].ref)
    before = ms.world.graph_requests()
    ctx4 = _ctx(signed_in, cursor=ctx3.new_cursor)
    assert list(source.read(ctx4)) == [] and ms.world.graph_requests() - before == 2 and not ctx4.skips


def test_paging_follows_next_links_and_429_retry_after_is_honoured(signed_in: Path, ms: MSStandIn) -> None:
    populate(ms.world, sent=230, inbox=3)
    ms.world.fail_next(2, 429, retry_after="7", match="sentitems")
    ms.world.fail_next(1, 503, retry_after="2", match="inbox")
    ctx = _ctx(signed_in)
    items = list(OutlookMailSource("outlook:").read(ctx))
    assert len(items) == 234
    assert ctx.sleeps == [7.0, 7.0, 2.0]  # type: ignore[attr-defined]
    assert ms.world.graph_requests("$skiptoken") == 2  # 230 sent items = 3 pages of 100
    assert ctx.new_cursor is not None


def test_throttling_without_retry_after_backs_off_then_gives_up_writing_nothing(signed_in: Path,
                                                                                ms: MSStandIn) -> None:
    populate(ms.world)
    ms.world.fail_next(50, 503, match="inbox")
    ctx = _ctx(signed_in)
    with pytest.raises(QuotaExceeded) as err:
        list(OutlookMailSource("outlook:").read(ctx))
    assert "after 6 attempts" in str(err.value) and "nothing from this source was saved" in str(err.value)
    waits = ctx.sleeps  # type: ignore[attr-defined]
    assert len(waits) == 5 and all(0 <= w <= 2 ** i for i, w in enumerate(waits))
    assert ctx.new_cursor is None  # sent items were read, but no cursor without the whole round


def test_410_on_a_delta_link_restarts_the_round(signed_in: Path, ms: MSStandIn) -> None:
    populate(ms.world, sent=3, inbox=2)
    ctx = _ctx(signed_in)
    assert len(list(OutlookMailSource("outlook:").read(ctx))) == 6
    ms.world.gone.add("mail/inbox")
    ctx2 = _ctx(signed_in, cursor=ctx.new_cursor)
    again = list(OutlookMailSource("outlook:").read(ctx2))
    assert len(again) == 3 and all("Inbox" in m.labels for m in again)  # the inbox read again in full
    fresh = [p for kind, p in ms.world.log if kind == "graph" and "inbox" in p and "token=" not in p]
    assert len(fresh) == 2  # the first read and the restart after the 410
    assert ctx2.new_cursor is not None and ctx2.new_cursor["folders"]["inbox"]


def test_revoked_consent_and_offline_are_one_line_errors(signed_in: Path, ms: MSStandIn,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    populate(ms.world, sent=2, inbox=2)
    ms.world.revoked = True
    ctx = _ctx(signed_in)
    with pytest.raises(AuthRequired, match="memseed auth microsoft"):
        list(OutlookMailSource("outlook:").read(ctx))
    assert ctx.new_cursor is None
    ms.world.revoked = False
    monkeypatch.setenv("MEMSEED_GRAPH_API_ROOT", "https://127.0.0.1:9/v1.0/")
    ctx = _ctx(signed_in)
    with pytest.raises(SourceOffline, match="cannot be reached") as err:
        list(OutlookMailSource("outlook:").read(ctx))
    assert ctx.new_cursor is None and len(str(err.value).splitlines()) == 2


def test_calendar_windows_zones_become_iana(signed_in: Path, ms: MSStandIn) -> None:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    day = (now - dt.timedelta(days=10)).replace(hour=9, minute=0, second=0)
    for week in range(3):
        ms.world.add_event(subject="Team sync", start=day + dt.timedelta(weeks=week), minutes=30,
                           zone="W. Europe Standard Time", attendees=PEERS[:2], series="AAMkSERIES1=")
    ms.world.add_event(subject="Offsite", start=day.replace(hour=0), minutes=24 * 60, zone="Pacific Standard Time",
                       attendees=[], all_day=True)
    ms.world.add_event(subject="Cancelled 1:1", start=day, minutes=30, zone="Pacific Standard Time",
                       attendees=PEERS[2:], cancelled=True)
    ms.world.add_event(subject="Ancient", start=now - dt.timedelta(days=900), minutes=30,
                       zone="Pacific Standard Time", attendees=[])
    ctx = _ctx(signed_in)
    events = list(OutlookCalendarSource("outlook-calendar:").read(ctx))
    assert [e.summary for e in events] == ["Team sync"] * 3 + ["Offsite"]
    sync = events[0]
    assert isinstance(sync, Event) and sync.tzid == "Europe/Berlin"
    assert sync.start == day.replace(tzinfo=ZoneInfo("Europe/Berlin")).astimezone(dt.UTC)
    assert sync.end - sync.start == dt.timedelta(minutes=30)
    assert sync.series_uid == "AAMkSERIES1=" and sync.organizer.address == ms.world.user["mail"]
    assert [a.address for a in sync.attendees] == [p[1] for p in PEERS[:2]]
    assert sync.calendar_owner == "maya@contoso.test"
    offsite = events[3]
    assert offsite.all_day and offsite.start == dt.datetime.combine(day.date(), dt.time(), dt.UTC)
    assert any("cancelled" in s.reason for s in ctx.skips)
    window = ms.world.log[-1][1]
    assert "startDateTime" in window or "$deltatoken" in window
    before = ms.world.graph_requests()
    ctx2 = _ctx(signed_in, cursor=ctx.new_cursor)
    assert list(OutlookCalendarSource("outlook-calendar:").read(ctx2)) == []
    assert ms.world.graph_requests() - before == 1


def test_iana_zone_table() -> None:
    assert iana_zone("Pacific Standard Time") == "America/Los_Angeles"
    assert iana_zone("India Standard Time") == "Asia/Calcutta" or iana_zone("India Standard Time") == "Asia/Kolkata"
    assert iana_zone("Europe/Paris") == "Europe/Paris"
    assert iana_zone("UTC") == "UTC"
    assert iana_zone("tzone://Microsoft/Custom") == ""


def test_onedrive_reads_owner_documents_within_the_cap(signed_in: Path, ms: MSStandIn) -> None:
    ms.world.add_file("Projects/rollout.docx", _docx("Rollout checklist: canary first.", title="Rollout"))
    ms.world.add_file("notes.md", b"# Working notes\nprefers async reviews\n")
    ms.world.add_file("Shared/theirs.md", b"# Someone else's\n", by={"id": "otheruser", "displayName": "Tom"})
    ms.world.add_file("photo.jpg", b"\xff\xd8\xff" * 100)
    ms.world.add_file("big.txt", b"x" * 70_000)
    ms.world.add_file("broken.docx", b"not a zip")
    ctx = _ctx(signed_in, max_file_bytes=64 * 1024)
    docs = list(OneDriveSource("onedrive:").read(ctx))
    assert sorted(d.ref for d in docs) == ["Projects/rollout.docx", "notes.md"]
    by_ref = {d.ref: d for d in docs}
    rollout = by_ref["Projects/rollout.docx"]
    assert isinstance(rollout, Document) and "canary first" in rollout.text and rollout.title == "Rollout"
    assert by_ref["notes.md"].title == "Working notes" and by_ref["notes.md"].doc_format == "md"
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "per-file cap" in reasons["big.txt"] and "Word" in reasons["broken.docx"]
    downloads = [p for kind, p in ms.world.log if kind == "download"]
    assert len(downloads) == 3  # the two documents and the broken one; nothing else fetched
    before = ms.world.graph_requests()
    ms.world.add_file("notes2.txt", b"second thoughts")
    ctx2 = _ctx(signed_in, cursor=ctx.new_cursor, max_file_bytes=64 * 1024)
    assert [d.ref for d in OneDriveSource("onedrive:").read(ctx2)] == ["notes2.txt"]
    assert ms.world.graph_requests() - before == 2  # the delta link and one content download


def test_microsoft_composite_expands_to_three_sources() -> None:
    parts = MicrosoftSource.from_uri("microsoft:maya@contoso.test")
    assert [p.id for p in parts] == ["outlook:maya@contoso.test", "outlook-calendar:maya@contoso.test",
                                     "onedrive:maya@contoso.test"]
    assert [type(p) for p in parts] == [OutlookMailSource, OutlookCalendarSource, OneDriveSource]


def test_since_filters_mail_at_graph(signed_in: Path, ms: MSStandIn) -> None:
    populate(ms.world, sent=10, inbox=10)
    since = dt.datetime(2026, 9, 6, tzinfo=dt.UTC)
    ctx = _ctx(signed_in, since=since)
    items = list(OutlookMailSource("outlook:").read(ctx))
    assert items and all(m.timestamp >= since for m in items)
    assert len(items) == 5 + 5  # days 6..9 of each folder's ten days (sent 08:30, inbox 10:30)
    assert ms.world.graph_requests("receivedDateTime") == 2


def test_event_in_a_windows_zone_when_utc_was_not_honoured() -> None:
    from connectors.microsoft.calendar import event_from_graph

    data = {"id": "x", "iCalUId": "uid-1", "subject": "Standup", "isAllDay": False,
            "start": {"dateTime": "2026-07-01T09:00:00.0000000", "timeZone": "W. Europe Standard Time"},
            "end": {"dateTime": "2026-07-01T09:15:00.0000000", "timeZone": "W. Europe Standard Time"},
            "originalStartTimeZone": "W. Europe Standard Time",
            "organizer": {"emailAddress": {"name": "Lena Vogel", "address": "Lena@Contoso.test"}},
            "attendees": [{"emailAddress": {"name": "ravi@fabrikam.test", "address": "ravi@fabrikam.test"}}]}
    event = event_from_graph(data, source="outlook-calendar:", owner="maya@contoso.test", ctx=ReadContext())
    assert event is not None
    assert event.start == dt.datetime(2026, 7, 1, 7, 0, tzinfo=dt.UTC)  # CEST is UTC+2 in July
    assert event.tzid == "Europe/Berlin" and event.organizer.address == "lena@contoso.test"
    assert event.attendees[0].name == ""  # Graph repeats the address as the name: dropped
    assert event_from_graph({**data, "isCancelled": True}, source="s", owner="", ctx=ReadContext()) is None


def test_a_graph_message_equals_its_export_twin(signed_in: Path, ms: MSStandIn) -> None:
    """The same mail read from Graph and from an .eml export gives the same normalized Message."""
    from connectors.local.mailparse import message_from_parts, parse_header_block, split_message

    when = dt.datetime(2026, 9, 14, 16, 5, tzinfo=dt.UTC)
    ms.world.add_message("inbox", subject="Budget review", sender=PEERS[0], to=[OWNER], cc=[PEERS[1]],
                         body="Can we move the budget review to Friday?", when=when,
                         internet_id="<CAF=budget.42@fabrikam.test>")
    graph = next(iter(OutlookMailSource("outlook:").read(_ctx(signed_in))))
    # the export holds the same header block Exchange kept (the Received chain from the sender's server)
    trace = "".join(f"{k}: {v}\r\n" for k, v in headers_for("inbox", PEERS[0], [OWNER], "Budget review", when,
                                                            "<CAF=budget.42@fabrikam.test>")
                    if k in ("Received", "Authentication-Results"))
    raw = (trace.encode() + b"Message-ID: <CAF=budget.42@fabrikam.test>\r\nDate: Mon, 14 Sep 2026 18:05:00 +0200\r\n"
           b"From: Ravi Shah <ravi@fabrikam.test>\r\nTo: Maya Okafor <maya@contoso.test>\r\n"
           b"Cc: Lena Vogel <lena@contoso.test>\r\nSubject: Budget review\r\n"
           b"Content-Type: text/plain; charset=utf-8\r\n\r\nCan we move the budget review to Friday?\r\n")
    block, body, _ = split_message(raw)
    twin = message_from_parts(parse_header_block(block), body.decode(), source="eml:/x", ref="1",
                              clean=ReadContext().clean)
    same = ("sender", "to", "cc", "subject", "body", "message_id", "timestamp", "people", "is_bulk",
            "delivered_from", "auth_failure", "authored_by_owner")
    assert graph.delivered_from == "mail.fabrikam.test"
    assert {f: getattr(graph, f) for f in same} == {f: getattr(twin, f) for f in same}


def test_long_retry_after_is_capped_and_a_403_names_the_permission(signed_in: Path, ms: MSStandIn) -> None:
    from bootstrap_app.errors import AuthError
    from connectors.microsoft.graph import GraphClient

    creds = auth.credentials(signed_in)
    waits: list[float] = []
    client = GraphClient(creds.token, sleep=waits.append, max_wait=90, scope="Mail.Read")
    ms.world.fail_next(1, 429, retry_after="3600", match="/me")
    assert client.json("me")["mail"] == "maya@contoso.test"
    assert waits == [90]
    ms.world.fail_next(1, 403, match="/me")
    with pytest.raises(AuthError, match=r"lacks the Mail\.Read permission") as err:
        client.json("me")
    assert "memseed auth microsoft" in str(err.value).splitlines()[0]


def test_sent_items_in_full_inbox_over_the_recent_window(signed_in: Path, ms: MSStandIn) -> None:
    old = dt.datetime.now(dt.UTC) - dt.timedelta(days=3 * 365)
    ms.world.add_message("sentitems", subject="old decision", sender=OWNER, to=[PEERS[0]], body="x", when=old)
    ms.world.add_message("inbox", subject="old newsletter", sender=PEERS[0], to=[OWNER], body="y", when=old)
    ms.world.add_message("inbox", subject="recent question", sender=PEERS[0], to=[OWNER], body="z",
                         when=dt.datetime.now(dt.UTC) - dt.timedelta(days=3))
    subjects = [m.subject for m in OutlookMailSource("outlook:").read(_ctx(signed_in))]
    assert subjects == ["old decision", "recent question"]
    inbox_first = next(p for kind, p in ms.world.log if kind == "graph" and "/inbox/" in p)
    assert "receivedDateTime" in inbox_first


def test_calendar_reads_afresh_when_the_saved_window_runs_out(signed_in: Path, ms: MSStandIn) -> None:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    ms.world.add_event(subject="Planning", start=now - dt.timedelta(days=2), minutes=30,
                       zone="Pacific Standard Time", attendees=PEERS[:1])
    ctx = _ctx(signed_in)
    assert len(list(OutlookCalendarSource("outlook-calendar:").read(ctx))) == 1
    fresh = dict(ctx.new_cursor)
    before = ms.world.graph_requests("startDateTime")
    assert list(OutlookCalendarSource("outlook-calendar:").read(_ctx(signed_in, cursor=fresh))) == []
    assert ms.world.graph_requests("startDateTime") == before  # followed the delta link
    stale = {**fresh, "window": [fresh["window"][0], (now + dt.timedelta(days=10)).strftime("%Y-%m-%dT00:00:00Z")]}
    again = list(OutlookCalendarSource("outlook-calendar:").read(_ctx(signed_in, cursor=stale)))
    assert [e.summary for e in again] == ["Planning"]  # a new round over a fresh window
    assert ms.world.graph_requests("startDateTime") == before + 1


def test_html_body_when_the_text_preference_was_not_honoured() -> None:
    from connectors.microsoft.mail import message_from_graph

    data = {"id": "m1", "internetMessageId": "<a@b.test>", "subject": "Hi",
            "from": {"emailAddress": {"name": "Ravi Shah", "address": "ravi@fabrikam.test"}},
            "body": {"contentType": "html", "content": "<p>Ship it <b>Friday</b>.</p><style>p{}</style>"},
            "receivedDateTime": "2026-10-01T09:00:00Z", "inferenceClassification": "other"}
    message = message_from_graph(data, "Inbox", source="outlook:", ctx=ReadContext())
    assert message.body == "Ship it Friday." and message.labels == ("Inbox", "Other")
    assert message.timestamp == dt.datetime(2026, 10, 1, 9, tzinfo=dt.UTC) and message.authored_by_owner is None


def test_sent_on_behalf_is_kept_like_the_sender_header() -> None:
    from connectors.microsoft.mail import message_from_graph

    data = {"id": "m2", "subject": "Invoice", "receivedDateTime": "2026-10-01T09:00:00Z",
            "from": {"emailAddress": {"name": "Maya Okafor", "address": "maya@contoso.test"}},
            "sender": {"emailAddress": {"name": "Billing", "address": "billing@vendor.test"}},
            "body": {"contentType": "text", "content": "Pay"}}
    message = message_from_graph(data, "Inbox", source="outlook:", ctx=ReadContext())
    assert message.sender.address == "maya@contoso.test" and message.on_behalf_of == "billing@vendor.test"
    assert "on behalf of" in message.third_party_reason  # somebody else's system wrote it
    same = message_from_graph({**data, "sender": data["from"]}, "Sent", source="outlook:", ctx=ReadContext())
    assert same.on_behalf_of == "" and same.third_party_reason == ""


def test_a_non_numeric_retry_after_falls_back_to_backoff(signed_in: Path, ms: MSStandIn) -> None:
    """``Retry-After: nan`` parses as a float; it must not reach the sleep (time.sleep raises on it)."""
    import math

    from connectors.microsoft.graph import GraphClient

    waits: list[float] = []
    client = GraphClient(auth.credentials(signed_in).token, sleep=waits.append)
    ms.world.fail_next(1, 429, retry_after="nan", match="/me")
    ms.world.fail_next(1, 503, retry_after="Wed, 21 Oct 2026 07:28:00 GMT", match="/me")
    assert client.json("me")["mail"] == "maya@contoso.test"
    assert len(waits) == 2 and all(math.isfinite(w) and 0 <= w <= 2 for w in waits)


def test_a_graph_that_never_answers_is_offline_not_quota() -> None:
    """Read timeouts on every attempt say "offline", not "quota exhausted"."""
    import socket

    from connectors.microsoft.graph import GraphClient

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)  # accepts connections, never answers
        waits: list[float] = []
        client = GraphClient(lambda: "token", root=f"http://127.0.0.1:{listener.getsockname()[1]}/v1.0/",
                             sleep=waits.append, max_attempts=2, timeout=0.2)
        with pytest.raises(SourceOffline, match="did not answer") as err:
            client.json("me")
    assert not isinstance(err.value, QuotaExceeded) and len(waits) == 1


def test_a_link_to_another_origin_is_refused_before_the_token_is_sent(signed_in: Path, ms: MSStandIn) -> None:
    """nextLink/deltaLink are followed verbatim, but only at Graph's own origin: the request
    carries the account's bearer token, so a link elsewhere must never be requested."""
    from bootstrap_app.errors import SourceError
    from connectors.microsoft.graph import GraphClient

    client = GraphClient(auth.credentials(signed_in).token, sleep=lambda _s: None)
    assert client.json("me")["mail"] == "maya@contoso.test"  # the root's own origin works
    sent = client.requests
    for elsewhere in ("https://collector.example/v1.0/me/messages?$skiptoken=x",
                      client.root.replace("https://", "http://") + "me"):
        with pytest.raises(SourceError, match="outside"):
            client.get(elsewhere)
    assert client.requests == sent  # nothing left the machine for those links
    assert client.url(client.root + "me/messages?$skiptoken=y").startswith(client.root)
