"""Google Takeout folders and zips (English, German, split archives) dispatching to the readers."""

from __future__ import annotations

import mailbox
import stat
import zipfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import docx
import icalendar
import pytest

from bootstrap_app.errors import SourceNotFound
from bootstrap_app.types import Document, Event, Message
from connectors.base import ReadContext
from connectors.local.takeout import TakeoutSource, classify
from connectors.registry import detect
from tests.conftest import realdata_file


def _mbox(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    box = mailbox.mbox(str(path))
    for i, labels in enumerate(("Sent", "Inbox", "Spam")):
        m = EmailMessage()
        m["From"] = "maya@example.com" if labels == "Sent" else "jon@example.com"
        m["To"] = "jon@example.com"
        m["Subject"] = f"Takeout {i}"
        m["Date"] = "Wed, 3 Jan 2024 10:00:00 +0000"
        m["Message-ID"] = f"<t{i}@example.com>"
        m["X-Gmail-Labels"] = labels
        m.set_content("hello\n")
        box.add(m)
    box.close()
    return path


def _ics(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cal = icalendar.Calendar()
    cal.add("X-WR-TIMEZONE", "Europe/London")
    ev = icalendar.Event()
    ev.add("uid", "sync@example.com")
    ev.add("summary", "Weekly sync")
    ev.add("dtstart", datetime.now(UTC).replace(microsecond=0) - timedelta(days=10))
    ev.add("rrule", {"freq": "weekly", "count": 2})
    cal.add_component(ev)
    path.write_bytes(cal.to_ical())
    return path


def _docx(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    d = docx.Document()
    d.add_paragraph("Roadmap for the ledger API")
    d.save(str(path))
    return path


def _english(root: Path) -> Path:
    _mbox(root / "Takeout" / "Mail" / "All mail Including Spam and Trash.mbox")
    _ics(root / "Takeout" / "Calendar" / "maya@example.com.ics")
    _docx(root / "Takeout" / "Drive" / "Roadmap.docx")
    (root / "Takeout" / "archive_browser.html").write_text("<html></html>")
    (root / "Takeout" / "My Activity" / "Chrome").mkdir(parents=True)
    (root / "Takeout" / "My Activity" / "Chrome" / "MyActivity.html").write_text("<p>not a document</p>")
    return root


def _kinds(items: Sequence[object]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:  # by item class: a mail reader's LazyMessage (body decoded on first use) is a Message
        name = next(c.__name__ for c in type(i).__mro__ if c.__module__ == "bootstrap_app.items")
        out[name] = out.get(name, 0) + 1
    return out


def test_english_folder(tmp_path: Path) -> None:
    root = _english(tmp_path / "export")
    [src] = detect(root)
    assert isinstance(src, TakeoutSource)
    progress: list[tuple[str, int]] = []
    ctx = ReadContext(on_progress=lambda source, n: progress.append((source, n)))
    items = list(src.read(ctx))
    assert _kinds(items) == {"Message": 2, "Event": 2, "Document": 1}
    assert {s for s, _ in progress} == {src.id} and progress[-1][1] == 5
    msgs = [i for i in items if isinstance(i, Message)]
    assert all(m.source.startswith("takeout:") and m.source.endswith(".mbox") for m in msgs)
    assert [m.authored_by_owner for m in msgs] == [True, None]
    events = [i for i in items if isinstance(i, Event)]
    assert {e.calendar_owner for e in events} == {"maya@example.com"}
    [doc] = [i for i in items if isinstance(i, Document)]
    assert doc.title == "Roadmap" and "ledger API" in doc.text
    assert ctx.new_cursor and any(k.endswith(".mbox") for k in ctx.new_cursor["files"])
    again = list(TakeoutSource(root).read(ReadContext(cursor=ctx.new_cursor)))
    assert not [i for i in again if isinstance(i, Message)]  # mbox unchanged: nothing new


def test_german_layout_from_real_tree(tmp_path: Path) -> None:
    tree = realdata_file("takeout", "google_takeout_parser-RecentTakeout-DE-tree.txt")
    root = tmp_path / "de"
    for line in tree.read_text(encoding="utf-8").splitlines():
        if line.startswith("RecentTakeout_ger/"):
            path = root / line.replace("RecentTakeout_ger/", "Takeout/", 1)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    assert TakeoutSource.sniff(root)  # Archiv_Übersicht.html
    ctx = ReadContext()
    assert list(TakeoutSource(root).read(ctx)) == []  # all files are empty upstream
    assert any("EMAIL.ics" in s.reason and "cannot be parsed" in s.reason for s in ctx.skips)
    _mbox(root / "Takeout" / "Gmail" / "Alle E-Mails einschließlich Spam-Nachrichten und E.mbox")
    _ics(root / "Takeout" / "Kalender" / "maya@example.com.ics")
    items = list(TakeoutSource(root).read(ReadContext()))
    assert _kinds(items) == {"Message": 2, "Event": 2}


def test_zip_and_split_zips(tmp_path: Path) -> None:
    src = _english(tmp_path / "export")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    one = downloads / "takeout-20240105T000000Z-001.zip"
    two = downloads / "takeout-20240105T000000Z-002.zip"
    with zipfile.ZipFile(one, "w") as zf:
        for f in ("Takeout/Mail/All mail Including Spam and Trash.mbox", "Takeout/archive_browser.html"):
            zf.write(src / f, f)
    with zipfile.ZipFile(two, "w") as zf:
        for f in ("Takeout/Calendar/maya@example.com.ics", "Takeout/Drive/Roadmap.docx"):
            zf.write(src / f, f)
    takeouts = detect(downloads)
    assert [Path(s.location).name for s in takeouts] == [one.name]  # part 002 rides along with 001
    assert isinstance(takeouts[0], TakeoutSource)
    ctx = ReadContext()
    items = list(takeouts[0].read(ctx))
    assert _kinds(items) == {"Message": 2, "Event": 2, "Document": 1}
    doc = next(i for i in items if isinstance(i, Document))
    assert doc.title == "Roadmap" and doc.path.endswith("Takeout/Drive/Roadmap.docx") and "!" in doc.path
    assert [s.reason for s in ctx.skips if "Spam or Trash" not in s.reason] == []


def test_temp_dir_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _english(tmp_path / "export")
    archive = tmp_path / "takeout.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(src / "Takeout/Mail/All mail Including Spam and Trash.mbox", "Takeout/Mail/a.mbox")
        zf.write(src / "Takeout/archive_browser.html", "Takeout/archive_browser.html")
    modes: list[int] = []
    temps: list[Path] = []
    import connectors.local.takeout as takeout_mod

    real = takeout_mod.read_mbox

    lazy: list[bool] = []

    def spy(path: Path, source_id: str, ctx: ReadContext, *, display: str = "", **kw: bool) -> Iterator[Message]:
        modes.append(stat.S_IMODE(path.parent.parent.stat().st_mode))
        temps.append(path)
        lazy.append(kw.get("lazy", True))
        yield from real(path, source_id, ctx, display=display, **kw)

    monkeypatch.setattr(takeout_mod, "read_mbox", spy)
    items = list(TakeoutSource(archive).read(ReadContext()))
    assert len(items) == 2 and modes == [0o700]
    assert temps and not temps[0].exists() and not temps[0].parent.parent.exists()  # deleted after
    assert lazy == [False]  # a temporary copy: bodies are decoded before it is deleted, not on first use


def test_classify_and_missing(tmp_path: Path) -> None:
    assert classify("Takeout/Mail/x.mbox") == "mbox" and classify("Takeout/Kalender/a.ics") == "ics"
    assert classify("Takeout/Drive/folder/notes.md") == "doc"
    assert classify("Takeout/Chrome/Bookmarks.html") == ""
    with pytest.raises(SourceNotFound):
        list(TakeoutSource(tmp_path / "nope.zip").read(ReadContext()))
