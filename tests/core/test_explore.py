"""The notebook API (bootstrap_app.explore): tables and charts computed from a generated footprint."""

from __future__ import annotations

import mailbox
import os
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from bootstrap_app import explore
from bootstrap_app.config import load_settings
from bootstrap_app.store import Store

OWNER = "rhea.quint@tidewater.example"
COLLEAGUE = "ivo.brandt@tidewater.example"
CET = timezone(timedelta(hours=1))


def _mail(mbox: mailbox.mbox, sender: str, to: str, when: datetime, subject: str, folder: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{abs(hash((sender, when, subject)))}@tidewater.example>"
    msg["X-Gmail-Labels"] = folder
    msg.set_content(f"{subject}\n\nThanks,\nRhea" if sender == OWNER else subject)
    mbox.add(msg)


def _vevent(uid: str, start: datetime, organizer: str, attendees: list[str], summary: str, tzid: str = "") -> str:
    end = start + timedelta(minutes=30)
    when = ([f"DTSTART;TZID={tzid}:{start:%Y%m%dT%H%M%S}", f"DTEND;TZID={tzid}:{end:%Y%m%dT%H%M%S}"] if tzid else
            [f"DTSTART:{start.astimezone(UTC):%Y%m%dT%H%M%SZ}",
             f"DTEND:{end.astimezone(UTC):%Y%m%dT%H%M%SZ}"])
    lines = ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{start.astimezone(UTC):%Y%m%dT%H%M%SZ}", *when,
             f"SUMMARY:{summary}", f"ORGANIZER:mailto:{organizer}"]
    lines += [f"ATTENDEE;PARTSTAT=ACCEPTED:mailto:{a}" for a in attendees]
    return "\r\n".join([*lines, "END:VEVENT"])


def _calendar(path: Path, events: list[str], method: str = "") -> None:
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//explore//EN"] + ([f"METHOD:{method}"] if method else [])
    path.write_text("\r\n".join([*head, *events, "END:VCALENDAR"]) + "\r\n", encoding="utf-8")


@pytest.fixture
def footprint(tmp_path: Path) -> explore.Footprint:
    root = tmp_path / "footprint"
    root.mkdir()
    mbox = mailbox.mbox(str(root / "mail.mbox"))
    monday = datetime(2026, 3, 2, 9, 15, tzinfo=CET)
    for week in range(4):  # the owner writes on Mondays 09:15 and Wednesdays 16:40 on her own clock
        _mail(mbox, OWNER, COLLEAGUE, monday + timedelta(weeks=week), f"plan {week}", "Sent")
        _mail(mbox, OWNER, COLLEAGUE, monday + timedelta(weeks=week, days=2, hours=7, minutes=25), f"wrap {week}",
              "Sent")
        _mail(mbox, COLLEAGUE, OWNER, monday + timedelta(weeks=week, hours=3), f"re plan {week}", "Inbox")
    mbox.close()
    mine = [_vevent(f"m{i}", monday + timedelta(weeks=i, days=1, hours=1, minutes=45), COLLEAGUE,
                    [OWNER, COLLEAGUE], "design review", tzid="Europe/Berlin") for i in range(3)]
    _calendar(root / "work.ics", mine)
    others = [_vevent(f"o{i}", monday + timedelta(weeks=i, days=4, hours=5), "a@elsewhere.example",
                      ["b@elsewhere.example"], "their sync") for i in range(3)]
    _calendar(root / "colleague.ics", others)
    _calendar(root / "feed.ics", [_vevent("p1", monday, "venue@elsewhere.example", [], "concert")], "PUBLISH")
    settings = load_settings(tmp_path / "app", owner=[OWNER])
    return explore.read_footprint([str(root)], settings=settings, store=Store(settings.db_path))


def test_sources_and_identity_tables(footprint: explore.Footprint) -> None:
    sources = explore.sources_frame(footprint)
    assert len(sources) == len(footprint.result.reports) >= 4
    assert sources["items"].sum() == footprint.result.items
    assert any(s.endswith("mail.mbox") for s in sources["source"])
    identity = explore.identity_frame(footprint.owner)
    assert OWNER in set(identity.loc[identity["counts as you"], "address"])
    assert all(identity["evidence"].str.len() > 0)


def test_week_counts_only_the_owners_own_meetings_and_mail(footprint: explore.Footprint) -> None:
    week = explore.week_frame(footprint)
    sent = week[week["what"] == "sent mail"]
    assert sent["count"].sum() == 8
    assert set(zip(sent["weekday"], sent["hour"], strict=True)) == {("Mon", 9), ("Wed", 16)}  # her clock, not UTC
    meetings = week[week["what"] == "meeting"]
    assert meetings["count"].sum() == 3  # the colleague's calendar and the published feed are not hers
    assert set(zip(meetings["weekday"], meetings["hour"], strict=True)) == {("Tue", 11)}  # Berlin time (10:00 UTC)
    heat = explore.week_heatmap(week)
    assert [ax.get_title() for ax in heat.axes if ax.images] == ["meeting by weekday and hour",
                                                                 "sent mail by weekday and hour"]
    assert sum(int(ax.images[0].get_array().sum()) for ax in heat.axes if ax.images) == 11


def test_correspondents_activity_and_funnel(footprint: explore.Footprint) -> None:
    people = explore.correspondents_frame(footprint)
    top = people.iloc[0]
    assert top["address"] == COLLEAGUE and top["mail from you"] == 8 and top["mail to you"] == 4
    chart = explore.correspondents_chart(people)
    assert chart.axes[0].get_title() == "Correspondents" and chart.axes[0].patches
    activity = explore.activity_frame(footprint)
    assert activity.loc[activity["kind"] == "message", "items"].sum() == 12
    assert explore.activity_chart(activity).axes[0].lines
    funnel = explore.funnel_frame(footprint)
    counts = dict(zip(funnel["stage"], funnel["count"], strict=True))
    assert counts["items read"] == footprint.result.items
    assert counts["passed the gate"] <= counts["proposals"] and counts["approved"] == 0
    assert len(explore.funnel_chart(funnel).axes[0].patches) == len(funnel)


def test_notebook_sources(tmp_path: Path) -> None:
    assert explore.notebook_sources({}) == []
    both = os.pathsep.join(["/a/mail.mbox", "/b/repo"])
    assert explore.notebook_sources({"MEMSEED_NOTEBOOK_SOURCES": both}) == ["/a/mail.mbox", "/b/repo"]
    app = tmp_path / "app"
    with Store(load_settings(app).db_path) as store:
        store.remember_source("/c/Takeout")
    before = (app / "state.db").read_bytes()
    assert explore.notebook_sources({"MEMSEED_NOTEBOOK_SOURCES": "remembered"}, real_home=app) == ["/c/Takeout"]
    assert (app / "state.db").read_bytes() == before
    assert explore.notebook_sources({"MEMSEED_NOTEBOOK_SOURCES": "remembered"}, real_home=tmp_path / "none") == []


def test_repo_facts_cite_file_and_line(tmp_path: Path) -> None:
    from bootstrap_app.pipeline import scan_demo

    settings = load_settings(tmp_path / "app")
    with Store(settings.db_path) as store:
        result = scan_demo(settings, store)
    facts = explore.repo_facts_frame(result.proposals)
    assert set(facts["repository"]) == {"ledger-api", "deploy-console"}
    cited = [c for c in facts["cites"] if c != "(its files and history as a whole)"]
    assert cited and all(":" in part and not part.startswith("/") for c in cited for part in c.split(", "))


def test_source_label_keeps_the_file_name_of_a_deeply_nested_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """pandas cuts a long cell at its end; the label elides leading folders instead, so the file
    name a person recognises survives however deep the folder is (CI's checkout is deeper)."""
    monkeypatch.setenv("HOME", "/home/someone")
    deep = "mbox:/a/very/long/prefix/of/folders/that/goes/on/and/on/email/list/archive-2009-corpus.mbox"
    label = explore.source_label(deep, limit=50)
    assert label.startswith("…/") and label.endswith("/list/archive-2009-corpus.mbox") and len(label) <= 50
    assert explore.source_label("ics:/home/someone/cal/work.ics") == "~/cal/work.ics"
    assert explore.source_label("/srv/x.mbox") == "/srv/x.mbox"
    only_name = "mbox:/" + "d" * 70 + "/" + "n" * 70 + ".mbox"
    assert explore.source_label(only_name, limit=40) == "…/" + "n" * 70 + ".mbox"
