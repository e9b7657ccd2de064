"""The wizard's re-analysis replays the local cache: it opens no source file (issue 29).

It was seen with strace opening every file again: detection sniffed the head of each file, a
memory folder's citations re-read each entry's file, and a source whose items shared a ref
(occurrences of a moved event, an entry and its index line) was not kept at all. The Python
audit hook sees every ``open`` the process makes; the re-analysis must make none under the
sources' folders. Listing a folder and stat-ing its files is allowed: that is how the cache
knows the files are unchanged.

A mailbox (mbox) keeps a body it never decoded as a byte span (:mod:`connectors.local.lazybody`);
the snapshot keeps as text every body an analysis can ask for whoever the owner is
(:func:`bootstrap_app.signals.newest.body_demand`), so the mbox is not opened either: tested on
generated mail (an owner correction that makes a bulk message theirs) and on the real Enron inboxes.
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

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from connectors.registry import detect

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


def _inbox(path: Path) -> None:
    """A Takeout-like mbox: mail received from six senders (more than ``NEWEST_PER_SENDER`` from
    some, so some bodies are never read), a newsletter, and the owner's own sent mail — one of
    and, in a second mbox without labels, one the owner sent from a no-reply address (bulk), with
    a working rule only the working-rules analyzer reads once that sender is known to be the owner."""
    box = mailbox.mbox(str(path))
    t0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def add(n: int, sender: str, labels: str, subject: str, text: str, **extra: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "Ana Lima <ana@example.org>", subject
        msg["Date"] = (t0 + timedelta(hours=n)).strftime("%a, %d %b %Y %H:%M:%S +0000")
        msg["Message-ID"] = f"<m-{n}@example.org>"
        if labels:
            msg["X-Gmail-Labels"] = labels
        for name, value in extra.items():
            msg[name.replace("_", "-")] = value
        msg.set_content(text)
        box.add(mailbox.mboxMessage(bytes(msg)))

    n = 0
    for s in range(6):
        for k in range(3 + 2 * s):  # 3 .. 13 messages per sender
            n += 1
            add(n, f"Sender {s} <s{s}@example.org>", "Inbox", f"Question {k}",
                f"Question {k} about the plan.\n\n--\nSender {s}\nRelease Manager, Tidewater\n")
    add(n + 1, "Weekly <news@lists.example.org>", "Inbox", "Digest", "This week ...", List_Id="<weekly.example.org>",
        Precedence="bulk")
    add(n + 2, "Ana Lima <ana@example.org>", "Sent", "Re: Question 1",
        "We never force-push to main.\n\nAna Lima\nStaff Engineer, Tidewater\n")
    box.flush()
    # a mailbox that does not tell folders apart (no labels): nothing in it is judged received
    box = mailbox.mbox(str(path.with_name("archive.mbox")))
    add(n + 3, "Ana Lima <noreply@example.org>", "", "Team rules",
        "Please always squash commits before you merge.\n", Precedence="bulk")
    box.flush()


def _proposals(result: object) -> list[tuple[str, str]]:
    return sorted((p.fingerprint, p.body) for p in result.proposals)  # type: ignore[attr-defined]


def _replay_without_opening(paths: list[Path], home: Path, owners: tuple[str, ...]) -> None:
    """First scan, an identity correction, the re-analysis: it opens none of ``paths`` and
    proposes what a fresh full read with the same identity proposes."""
    locations = [str(p) for p in paths]
    settings = load_settings(home)
    with Store(settings.db_path) as store:
        first = scan(locations, settings=settings, store=store)
        for root in {p.parent for p in paths}:
            with opens_under(root) as seen:
                again = scan(locations, settings=settings, store=store, cached=True, owners=owners)
            assert seen == [], seen[:5]
    fresh = load_settings(home.parent / f"{home.name}-fresh")
    full = scan(locations, settings=fresh, owners=owners)
    assert again.items == first.items == full.items
    assert _proposals(again) == _proposals(full)
    assert again.owner.addresses == full.owner.addresses


def test_reanalysis_opens_no_mailbox_and_equals_a_full_read(tmp_path: Path) -> None:
    path = tmp_path / "box" / "inbox.mbox"
    path.parent.mkdir()
    _inbox(path)
    _replay_without_opening([path, path.with_name("archive.mbox")], tmp_path / "home",
                            ("ana@example.org", "noreply@example.org"))
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        rows = list(store.cache_rows(detect(str(path))[0].id))
    assert len(rows) == 50  # every message kept ...
    assert 0 < sum('"fb":' in row for row in rows) < 50  # ... the bodies no analysis reads (older received mail) as spans


@pytest.mark.skipif(not os.environ.get("MEMSEED_REALDATA"), reason="MEMSEED_REALDATA not set")
def test_reanalysis_of_real_enron_inboxes_opens_neither(tmp_path: Path) -> None:
    base = Path(os.environ["MEMSEED_REALDATA"]) / "email" / "enron"
    paths = sorted(base.glob("*.mbox"))
    if not paths:
        pytest.skip(f"no Enron mbox under {base}")
    settings = load_settings(tmp_path / "probe")
    owner = scan([str(paths[0])], settings=settings).owner
    assert owner.addresses  # the inbox shows whose it is
    _replay_without_opening(paths, tmp_path / "home", (min(owner.addresses),))


def test_a_body_kept_as_its_span_is_read_through_one_handle_per_mailbox(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback: a span the re-analysis still meets (here every unread body is kept as its
    span, as the cache did before; in use, a received sender's older message that another
    source's correction makes needed) is read through one handle per mbox for the whole scan."""
    from bootstrap_app.cache import snapshots

    path = tmp_path / "box" / "inbox.mbox"
    path.parent.mkdir()
    _inbox(path)
    paths = [path, path.with_name("archive.mbox")]
    monkeypatch.setattr(snapshots._NewestBodies, "defer", lambda self, item, key: True)
    monkeypatch.setattr(snapshots._NewestBodies, "settle", lambda self: [])
    settings = load_settings(tmp_path / "home")
    owners = ("ana@example.org", "noreply@example.org")
    with Store(settings.db_path) as store:
        scan([str(p) for p in paths], settings=settings, store=store)
        with opens_under(path.parent) as seen:
            again = scan([str(p) for p in paths], settings=settings, store=store, cached=True, owners=owners)
    assert sorted(seen) == sorted(str(p) for p in paths)  # each mailbox once, though many bodies were read
    full = scan([str(p) for p in paths], settings=load_settings(tmp_path / "fresh"), owners=owners)
    assert _proposals(again) == _proposals(full)
