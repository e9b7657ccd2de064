"""The wizard's re-analysis replays the local cache: it opens no source file (issue 29).

It was seen with strace opening every file again: detection sniffed the head of each file, a
memory folder's citations re-read each entry's file, and a source whose items shared a ref
(occurrences of a moved event, an entry and its index line) was not kept at all. The Python
audit hook sees every ``open`` the process makes; the re-analysis must make none under the
sources' folders. Listing a folder and stat-ing its files is allowed: that is how the cache
knows the files are unchanged.

A mailbox (mbox) keeps each received message's body where it is and decodes it on first use
(:mod:`connectors.local.lazybody`), so a re-analysis that needs a body it never decoded reads
that message from the mbox; that is tested as such (only the mbox itself is opened).
"""

from __future__ import annotations

import json
import mailbox
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store

_WATCH: list[tuple[str, list[str]]] = []


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event != "open" or not _WATCH or not args or not isinstance(args[0], str | bytes):
        return
    path = os.fsdecode(args[0])  # type: ignore[arg-type]
    for root, seen in _WATCH:
        if path.startswith(root):
            seen.append(path)


sys.addaudithook(_hook)  # once per process; it records only while a test watches a folder


@contextmanager
def opens_under(root: Path) -> Iterator[list[str]]:
    seen: list[str] = []
    _WATCH.append((str(root), seen))
    try:
        yield seen
    finally:
        _WATCH.pop()


def _corpus(root: Path) -> None:
    """A folder of several sources: .eml files, a calendar, a Slack export, documents, Claude memory."""
    t0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    (root / "mail").mkdir(parents=True)
    for n in range(6):
        msg = EmailMessage()
        msg["From"] = "Ana Lima <ana@example.org>" if n % 2 else "Bo Rask <bo@example.org>"
        msg["To"] = "bo@example.org" if n % 2 else "ana@example.org"
        msg["Subject"] = f"Release plan {n}"
        msg["Date"] = (t0 + timedelta(days=n)).strftime("%a, %d %b %Y %H:%M:%S +0000")
        msg["Message-ID"] = f"<plan-{n}@example.org>"
        msg.set_content(f"The release moves to sprint {n}.\n\nAna\n")
        (root / "mail" / f"{n}.eml").write_bytes(bytes(msg))
    (root / "cal.ics").write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:standup-1\r\n"
        "DTSTART:20260302T090000Z\r\nDTEND:20260302T091500Z\r\nRRULE:FREQ=DAILY;COUNT=5\r\n"
        "SUMMARY:Standup\r\nORGANIZER:mailto:ana@example.org\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:standup-1\r\nRECURRENCE-ID:20260303T090000Z\r\nDTSTART:20260303T100000Z\r\n"
        "DTEND:20260303T101500Z\r\nSUMMARY:Standup (moved)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", encoding="utf-8")
    slack = root / "slack"
    (slack / "general").mkdir(parents=True)
    (slack / "users.json").write_text(json.dumps([{"id": "U1", "name": "ana", "real_name": "Ana Lima"}]))
    (slack / "channels.json").write_text(json.dumps([{"id": "C1", "name": "general"}]))
    (slack / "general" / "2026-03-02.json").write_text(json.dumps(
        [{"type": "message", "user": "U1", "text": f"note {i}", "ts": f"{t0.timestamp() + i:.6f}"} for i in range(4)]))
    (root / "docs").mkdir()
    (root / "docs" / "plan.md").write_text("# Plan\n\nShip the ledger.\n", encoding="utf-8")
    memory = root / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("- [Short PRs](feedback_short.md) — keep pull requests small\n")
    (memory / "feedback_short.md").write_text(
        "---\nname: short PRs\ndescription: keep pull requests small\ntype: feedback\n---\n\nKeep pull requests "
        "small.\n**Why:** reviews stay quick.\n", encoding="utf-8")


def test_reanalysis_opens_no_source_file(tmp_path: Path) -> None:
    root = tmp_path / "footprint"
    _corpus(root)
    locations = [str(root / p) for p in ("mail", "cal.ics", "slack", "docs", "memory")]
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        first = scan(locations, settings=settings, store=store)
        kinds = {r.kind for r in first.reports if r.error is None}
        assert {"eml", "ics", "slack", "folder", "claude-code"} <= kinds, first.reports
        for entry in store.sources():
            store.set_source_ownership(entry["location"], "")
        with opens_under(root) as seen:
            again = scan(locations, settings=settings, store=store, cached=True, owners=("ana@example.org",))
    assert seen == [], seen[:5]
    assert {r.source: r.items for r in again.reports} == {r.source: r.items for r in first.reports}
    assert again.owner.addresses  # the identity change counted: the replayed items were analysed again


def test_reanalysis_opens_a_mailbox_only_for_bodies_it_never_decoded(tmp_path: Path) -> None:
    path = tmp_path / "box" / "inbox.mbox"
    path.parent.mkdir()
    box = mailbox.mbox(str(path))
    for n in range(8):
        msg = EmailMessage()
        msg["From"] = f"Sender {n} <s{n}@example.org>"
        msg["To"] = "ana@example.org"
        msg["Subject"] = f"Question {n}"
        msg["Date"] = f"Mon, {n + 1:02d} Mar 2026 10:00:00 +0000"
        msg["Message-ID"] = f"<q-{n}@example.org>"
        msg.set_content(f"Question {n} about the plan.\n")
        box.add(mailbox.mboxMessage(bytes(msg)))
    box.flush()
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        scan([str(path)], settings=settings, store=store)
        with opens_under(path.parent) as seen:
            again = scan([str(path)], settings=settings, store=store, cached=True)
    assert again.items == 8
    assert set(seen) <= {str(path)} and len(seen) <= 8, seen[:5]
