""".eml folders and maildirs: same conversion as mbox, bad files skipped with reasons."""

from __future__ import annotations

import mailbox
import os
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest

from bootstrap_app.errors import SourceNotFound
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local.eml import EmlSource
from connectors.registry import detect
from tests.conftest import realdata_file


def _msg(i: int, sender: str = "Jon Reyes <jon@example.com>") -> EmailMessage:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = "maya@example.com"
    m["Subject"] = f"Note {i}"
    m["Date"] = "Tue, 2 Jan 2024 09:00:00 +0000"
    m["Message-ID"] = f"<e{i}@example.com>"
    m.set_content(f"Body {i}\n")
    return m


def test_eml_folder_with_bad_files(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i:02d}.eml").write_bytes(bytes(_msg(i)))
    (tmp_path / "empty.eml").write_bytes(b"")
    (tmp_path / "junk.eml").write_bytes(b"\x00\x01\x02 not mail at all")
    assert EmlSource.sniff(tmp_path)
    src = EmlSource(tmp_path)
    ctx = ReadContext()
    items = [i for i in src.read(ctx) if isinstance(i, Message)]
    assert [i.subject for i in items] == ["Note 0", "Note 1", "Note 2"]
    assert [i.ref for i in items] == ["00.eml", "01.eml", "02.eml"]
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "empty file" in reasons["empty.eml"] and "not an email" in reasons["junk.eml"]
    assert ctx.new_cursor and ctx.new_cursor["mtime"] > 0
    assert list(EmlSource(tmp_path).read(ReadContext(cursor={"mtime": 4e9, "ctime": 4e9}))) == []


def test_maildir_with_sent_folder(tmp_path: Path) -> None:
    md = mailbox.Maildir(str(tmp_path / "Mail"))
    md.add(mailbox.MaildirMessage(_msg(1)))
    sent = md.add_folder("Sent")
    sent.add(mailbox.MaildirMessage(_msg(2, sender="maya@example.com")))
    [src] = detect(tmp_path / "Mail")
    assert isinstance(src, EmlSource)
    items = [i for i in src.read(ReadContext()) if isinstance(i, Message)]
    assert sorted((i.subject, i.authored_by_owner) for i in items) == [("Note 1", None), ("Note 2", True)]


def test_unreadable_entry_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "ok.eml").write_bytes(bytes(_msg(1)))
    os.mkfifo(tmp_path / "zz-pipe.eml") if hasattr(os, "mkfifo") else None
    (tmp_path / "dangling.eml").symlink_to(tmp_path / "gone.eml")
    ctx = ReadContext()
    items = [i for i in EmlSource(tmp_path).read(ctx) if isinstance(i, Message)]
    assert [i.subject for i in items] == ["Note 1"]
    refs = {s.ref for s in ctx.skips}
    assert {"dangling.eml", "zz-pipe.eml"} <= refs


def test_missing_path() -> None:
    with pytest.raises(SourceNotFound):
        list(EmlSource("/nonexistent/memseed/mail").read(ReadContext()))


@pytest.mark.realdata
def test_real_notmuch_eml_folder_and_calendar_invite() -> None:
    folder = realdata_file("email", "notmuch", "notmuch-list-2009-eml")
    ctx = ReadContext()
    items = [i for i in EmlSource(folder).read(ctx) if isinstance(i, Message)]
    assert len(items) == 53 and not ctx.skips
    assert Counter(i.sender.name for i in items).most_common(2) == [("Carl Worth", 12), ("Keith Packard", 7)]
    assert sum(1 for i in items if i.in_reply_to) > 20
    invite = realdata_file("email", "notmuch", "text-calendar-invite.eml")
    [item] = [i for i in EmlSource(invite).read(ReadContext()) if isinstance(i, Message)]
    assert item.subject == "test" and "could have been an email" in item.body
