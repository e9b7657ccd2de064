"""Every input accounted for: found = read + skipped, source by source (issue 29).

Generated odd layouts (a Maildir with each subset of cur/new/tmp, nested folders, single
messages under any name, truncated and binary files) and every source in the real-data folder
(``MEMSEED_REALDATA``; skipped cleanly when absent) are scanned through the library; each source
whose reader counts what it finds must balance, and the layouts must read what they hold.
"""

from __future__ import annotations

import itertools
import mailbox
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.cli.common import EXIT_PARTIAL
from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult
from bootstrap_app.store import Store
from tests.pipeline.synth import planning_note


def _scan(tmp_path: Path, *locations: Path) -> ScanResult:
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        return scan([str(p) for p in locations], settings=settings, store=store)


def _balanced(result: ScanResult) -> dict[str, tuple[int, int, int]]:
    """source -> (found, read, skipped) of every source whose reader counted; each must balance."""
    out = {}
    for report in result.reports:
        if report.error is None and report.counted:
            assert report.ledger is not None
            ledger = report.ledger
            assert ledger.balanced, (report.source, ledger.to_json(), report.skipped[:5])
            out[report.source] = (ledger.found, ledger.read, ledger.skipped)
    return out


SUBSETS = [s for n in range(1, 4) for s in itertools.combinations(("cur", "new", "tmp"), n)]


@pytest.mark.parametrize("subs", SUBSETS, ids=["+".join(s) for s in SUBSETS])
def test_maildir_with_any_subset_of_cur_new_tmp_reads_everyplanning_note(tmp_path: Path, subs: tuple[str, ...]) -> None:
    box = tmp_path / "Inbox"
    held = 0
    for sub in subs:
        (box / sub).mkdir(parents=True)
        for n in range(3):
            (box / sub / f"17000{n}.M{n}P1.host:2,S").write_bytes(planning_note(held + 100 * len(sub) + n))
            held += sub != "tmp"
    result = _scan(tmp_path, box)
    (report,) = result.reports
    assert report.kind == "eml" and report.error is None
    assert report.items == held  # cur/ and new/ are read; tmp/ holds deliveries not finished
    found, read, skipped = _balanced(result)[report.source]
    assert (found, read, skipped) == (3 * len(subs), held, 3 * len(subs) - held)


def test_a_maildir_of_cur_only_inside_a_folder_loses_nothing(tmp_path: Path) -> None:
    """The first sight of issue 29: a copied Maildir with only cur/ vanished inside a folder."""
    root = tmp_path / "archive"
    (root / "inbox" / "cur").mkdir(parents=True)
    for n in range(13):
        (root / "inbox" / "cur" / f"{n}.host:2,S").write_bytes(planning_note(n))
    (root / "notes.md").write_text("# Notes\nthe plan\n", encoding="utf-8")
    (root / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(200))
    result = _scan(tmp_path, root)
    ledgers = _balanced(result)
    assert sum(r.items for r in result.reports if r.kind == "eml") == 13
    # the folder splits into its parts (the maildir, the note); the photo no part reads is
    # accounted for by the folder's own "not read" report
    assert sum(f for f, _, _ in ledgers.values()) == 13 + 1 + 1
    (rest,) = (r for r in result.reports if r.kind == "not read")
    assert rest.ledger is not None and rest.ledger.passed == {"not a kind of file memseed reads (.jpg)": 1}
    assert result.status == "complete"


def test_a_document_folder_passes_over_what_it_does_not_read(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "plan.md").write_text("# Plan\nship it\n", encoding="utf-8")
    (root / "sub" / "notes.txt").write_text("notes\n", encoding="utf-8")
    (root / "sub" / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(200))
    (root / "sub" / "raw.md").write_bytes(b"\x00\x01" * 50)  # binary named .md
    result = _scan(tmp_path, root)
    (folder,) = result.reports
    assert _balanced(result)[folder.source] == (4, 2, 2)
    assert folder.ledger is not None and any(".jpg" in why for why in folder.ledger.passed)
    assert folder.ledger.failed_units == 1 and result.status == "partial"  # the binary .md, not the photo


@pytest.mark.parametrize("name", ["note.mbx", "message", "saved.txt", "mail.msg.bak"])
def test_one_message_under_any_name_is_aplanning_note(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(planning_note(7))
    result = _scan(tmp_path, path)
    (report,) = result.reports
    assert report.error is None and report.items == 1, (report.kind, report.error)
    assert _balanced(result)[report.source] == (1, 1, 0)


def test_nested_folders_truncated_and_binary_files_balance(tmp_path: Path) -> None:
    root = tmp_path / "mail"
    (root / "2024" / "q1").mkdir(parents=True)
    (root / "2024" / "q2").mkdir(parents=True)
    for n in range(4):
        (root / "2024" / ("q1" if n % 2 else "q2") / f"m{n}.eml").write_bytes(planning_note(n))
    (root / "2024" / "q1" / "cut.eml").write_bytes(planning_note(9)[:60])  # headers cut mid-way
    (root / "2024" / "q2" / "blob.eml").write_bytes(bytes(range(256)) * 8)  # binary named .eml
    (root / "2024" / "q2" / "empty.eml").write_bytes(b"")
    (root / "2024" / "q2" / "index.json").write_text("{}", encoding="utf-8")
    result = _scan(tmp_path, root)
    ledgers = _balanced(result)
    assert {r.kind for r in result.reports} == {"eml"} and len(ledgers) == len(result.reports) == 2
    found, read, skipped = (sum(x) for x in zip(*ledgers.values(), strict=True))
    assert found == 8 and read + skipped == 8 and read >= 4
    reasons = " | ".join(s.reason for r in result.reports for s in r.skipped)
    assert "binary file, not an email message" in reasons and "\x00" not in reasons
    assert result.status == "partial"


def test_truncated_mbox_balances_and_a_binary_ics_is_named_not_echoed(tmp_path: Path) -> None:
    box = mailbox.mbox(str(tmp_path / "inbox.mbox"))
    for n in range(5):
        box.add(mailbox.mboxMessage(planning_note(n)))
    box.flush()
    data = (tmp_path / "inbox.mbox").read_bytes()
    (tmp_path / "inbox.mbox").write_bytes(data[: len(data) - 40])  # the last message cut short
    (tmp_path / "cal.ics").write_bytes(b"BEGIN:VCALENDAR\r\n\x00\x01\x1b[31m\x02\xff" * 20)
    result = _scan(tmp_path, tmp_path / "inbox.mbox", tmp_path / "cal.ics")
    mbox, ics = result.reports
    assert _balanced(result)[mbox.source][0] == 5
    assert ics.error is not None and "binary file, not a calendar" in ics.error
    assert not any(ch in ics.error for ch in "\x00\x01\x1b\x02")
    assert result.status == "partial"


def test_scan_exit_status_partial_and_complete(tmp_path: Path) -> None:
    good = tmp_path / "good.eml"
    good.write_bytes(planning_note(1))
    (tmp_path / "bad.ics").write_bytes(bytes(range(256)))
    runner = CliRunner()
    home = ["--home", str(tmp_path / "home")]
    complete = runner.invoke(main, [*home, "scan", "-q", str(good)])
    assert complete.exit_code == 0, complete.output
    partial = runner.invoke(main, [*home, "scan", "-q", "--json-summary", str(good), str(tmp_path / "bad.ics")])
    assert partial.exit_code == EXIT_PARTIAL, partial.output
    assert '"status": "partial"' in partial.output and '"ledger": {"found": 1' in partial.output


REAL_SOURCES = ["email/enron", "email/notmuch", "ics", "slack", "memory", "takeout", "agent-sessions"]
COUNTED = {"eml", "mbox", "emlx", "msg", "pst", "folder", "ics", "slack", "takeout", "git", "claude-code", "codex", "hermes",
           "gemini", "cline", "cursor", "not read", "gmail", "google-calendar", "google-drive", "outlook",
           "outlook-calendar", "onedrive", "claude-code-sessions", "codex-sessions", "gemini-sessions",
           "chatgpt-export", "claude-ai-export"}
"""The kinds whose reader keeps a ledger (every one; repositories: tests/pipeline/test_repo_ledger.py,
accounts: tests/cloud/test_account_ledger.py)."""


@pytest.mark.parametrize("part", REAL_SOURCES)
def test_every_real_source_balances(tmp_path: Path, realdata: Path, part: str) -> None:
    """Each source of the real-data folder: found = read + skipped wherever the reader counts."""
    where = realdata / part
    if not where.exists():
        pytest.skip(f"{part} not in this real-data folder")
    result = _scan(tmp_path, *sorted(p for p in where.iterdir() if not p.name.startswith(".")))
    ledgers = _balanced(result)
    uncounted = [r.source for r in result.reports if r.error is None and r.kind in COUNTED and not r.counted]
    assert uncounted == []
    assert all(found >= read for found, read, _ in ledgers.values())
    assert sum(r.items for r in result.reports if r.counted) > 0


def test_the_wizard_table_gets_the_ledger(tmp_path: Path) -> None:
    """The Scan and Sources pages render source_accounting: found, skipped, the check, and what was passed over."""
    from bootstrap_app.report.accounting import source_accounting

    root = tmp_path / "docs"
    root.mkdir()
    (root / "plan.md").write_text("# Plan\nship it\n", encoding="utf-8")
    (root / "photo.jpg").write_bytes(b"\xff\xd8" + bytes(64))
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        scan([str(root)], settings=settings, store=store)
        (account,) = source_accounting(store)
    assert (account.found, account.items, account.skipped) == (3, 1, 2)
    assert account.balanced and account.partial
    assert any(".jpg" in why for why in account.left_out)


def test_outlook_msg_folder_balances(tmp_path: Path) -> None:
    """A folder of .msg files: one that is not an Outlook message is found and skipped with its reason."""
    root = tmp_path / "outlook"
    root.mkdir()
    (root / "junk.msg").write_bytes(b"not an OLE file at all")
    (root / "notes.txt").write_text("beside the messages\n", encoding="utf-8")
    result = _scan(tmp_path, root)
    report = next(r for r in result.reports if r.kind == "msg")
    found, read, skipped = _balanced(result)[report.source]
    assert (found, read, skipped) == (2, 0, 2)  # the .txt beside them is passed over, the junk .msg failed
    assert report.ledger is not None and report.ledger.failed_units == 1 and result.status == "partial"


def test_a_calendar_accounts_for_every_event_series(tmp_path: Path) -> None:
    """Units are event series (one UID): read, broken (no DTSTART), all cancelled, or outside the window."""
    def event(uid: str, start: str, extra: str = "") -> str:
        return (f"BEGIN:VEVENT\r\nUID:{uid}\r\n" + (f"DTSTART:{start}\r\n" if start else "")
                + f"SUMMARY:{uid}\r\n{extra}END:VEVENT\r\n")

    body = "".join([
        event("weekly", "20260302T090000Z", "RRULE:FREQ=WEEKLY;COUNT=10\r\n"),
        event("weekly", "20260309T100000Z", "RECURRENCE-ID:20260309T090000Z\r\n"),  # an override: same series
        event("one-off", "20260305T140000Z"),
        event("broken", ""),
        event("called-off", "20260306T140000Z", "STATUS:CANCELLED\r\n"),
        event("long-ago", "19990101T090000Z"),
    ])
    path = tmp_path / "cal.ics"
    path.write_text(f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n{body}END:VCALENDAR\r\n", encoding="utf-8")
    result = _scan(tmp_path, path)
    (report,) = result.reports
    assert _balanced(result)[report.source] == (5, 2, 3)
    assert report.ledger is not None and report.ledger.failed_units == 1  # the event without DTSTART
    assert set(report.ledger.passed) == {"event series with no occurrence in the analysis window",
                                         "event series whose occurrences are all cancelled"}
    assert report.items >= 11  # occurrences: the series' ten (one moved) and the one-off


def test_scheduling_answers_without_a_date_are_passed_over_not_failed(tmp_path: Path) -> None:
    """In an iTIP reply or cancellation (METHOD REPLY, CANCEL, REFRESH, DECLINECOUNTER) an event may
    leave DTSTART out: it carries an answer, not a date, so its series is passed over and the scan is
    complete. A dateless event in a published calendar (METHOD PUBLISH), or in one with no METHOD,
    is still broken."""
    def part(method: str, uid: str, start: str) -> str:
        return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
                + (f"METHOD:{method}\r\n" if method else "")
                + f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T090000Z\r\n"
                + (f"DTSTART:{start}\r\n" if start else "")
                + "ATTENDEE;PARTSTAT=DECLINED:mailto:guest@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")

    answers = tmp_path / "answers.ics"
    answers.write_text(part("REQUEST", "meeting", "20260305T140000Z") + part("REPLY", "meeting", "")
                       + part("REPLY", "other", "") + part("CANCEL", "gone", "") + part("REFRESH", "again", ""),
                       encoding="utf-8")
    result = _scan(tmp_path / "a", answers)
    (report,) = result.reports
    assert _balanced(result)[report.source] == (4, 1, 3) and result.status == "complete"
    assert report.ledger is not None and report.ledger.failed_units == 0
    assert list(report.ledger.passed.values()) == [3] and "scheduling answers" in next(iter(report.ledger.passed))
    for method in ("PUBLISH", ""):
        broken = tmp_path / f"broken-{method or 'none'}.ics"
        broken.write_text(part(method, "meeting", "20260305T140000Z") + part(method, "dateless", ""), encoding="utf-8")
        result = _scan(tmp_path / f"b-{method}", broken)
        (report,) = result.reports
        assert report.ledger is not None and report.ledger.failed_units == 1 and result.status == "partial", method


def test_a_source_path_that_is_not_utf8_is_remembered_and_reseeded(tmp_path: Path) -> None:
    """Such a path used to be scanned but never remembered, so reseed passed it over."""
    import os

    root = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9-mail"))
    root.mkdir()
    (root / "a.eml").write_bytes(planning_note(1))
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        scan([str(root)], settings=settings, store=store)
        assert [s["location"] for s in store.sources()] == [str(root)]
    (root / "b.eml").write_bytes(planning_note(2))
    reseed = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "reseed", "--json-summary"])
    assert reseed.exit_code == 0, reseed.output
    with Store(settings.db_path) as store:
        (remembered,) = store.sources()
        assert remembered["location"] == str(root)
        latest = store.runs(limit=1)[0]
    assert latest["summary"]["items"] == 2  # the new message was read
    listing = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "sources"])
    assert "caf\\xe9-mail" in listing.output and "2 items" in listing.output


def test_a_takeout_archive_accounts_for_every_member(tmp_path: Path) -> None:
    """Units are the export's files: mail and calendars read, a binary calendar failed, photos and
    an archive inside the archive passed over (kinds memseed does not read)."""
    import zipfile

    box = tmp_path / "all.mbox"
    mbox = mailbox.mbox(str(box))
    for n in range(3):
        mbox.add(mailbox.mboxMessage(planning_note(n)))
    mbox.flush()
    calendar = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:u1\r\n"
                "DTSTART:20260302T090000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    archive = tmp_path / "takeout-20260301T000000Z-001.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("Takeout/Mail/All mail Including Spam and Trash.mbox", box.read_bytes())
        zf.writestr("Takeout/Calendar/ana@example.org.ics", calendar)
        zf.writestr("Takeout/Calendar/broken.ics", bytes(range(256)))
        zf.writestr("Takeout/Google Photos/IMG_0001.jpg", b"\xff\xd8" + bytes(64))
        zf.writestr("Takeout/Drive/old-backup.zip", b"PK\x05\x06" + bytes(18))
    result = _scan(tmp_path, archive)
    (report,) = result.reports
    assert report.kind == "takeout" and report.items >= 4
    assert _balanced(result)[report.source] == (5, 2, 3)
    assert report.ledger is not None and report.ledger.failed_units == 1 and result.status == "partial"


def test_agent_sessions_account_for_every_session_file(tmp_path: Path) -> None:
    """The unit of a sessions folder is a session file: read (a cut last line is reported, the file
    still read), failed as a whole (a session that is not JSON), never dropped unsaid."""
    from tests.connectors.agent_sessions import gemini_sessions

    home = tmp_path / ".gemini"
    older, _newer = gemini_sessions(home, "/home/dev/site")
    (older.parent / "session-2026-03-04T09-00-cccc3333.json").write_text("{not json", encoding="utf-8")
    result = _scan(tmp_path, home / "tmp")
    report = next(r for r in result.reports if r.kind == "gemini-sessions")
    assert _balanced(result)[report.source] == (3, 2, 1)
    assert report.ledger is not None and report.ledger.failed_units == 1 and result.status == "partial"
    assert any("cut short" in s.reason for s in report.skipped), "the cut line is still reported"


def test_a_chat_export_accounts_for_every_conversation(tmp_path: Path) -> None:
    """The unit of a ChatGPT or Claude.ai export is a conversation; an entry that is not one is a
    failed unit with its reason."""
    import json

    from tests.connectors.agent_sessions import chatgpt_export

    (tmp_path / "gpt").mkdir()
    path = chatgpt_export(tmp_path / "gpt" / "conversations.json",
                          [[("user", "Answer briefly.")], [("user", "Antworte auf Deutsch.")]])
    entries = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps([*entries, "not a conversation"]), encoding="utf-8")
    result = _scan(tmp_path, path)
    (report,) = result.reports
    assert report.kind == "chatgpt-export" and _balanced(result)[report.source] == (3, 2, 1)
    assert report.ledger is not None and report.ledger.failed_units == 1

