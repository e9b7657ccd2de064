"""Mail as other programs export it: Maildir++, Thunderbird, Apple Mail, Outlook .msg/.pst,
legacy charsets and winmail.dat. Every fixture is written by code here."""

from __future__ import annotations

import os
import struct
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import SourceError
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.pipeline import scan
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local import pst as pst_mod
from connectors.local.charsets import decode_text
from connectors.local.mailfolders import is_sent_folder
from connectors.registry import detect

from .cfb_writer import write_cfb
from .filetimes import later_ctime

OWNER = "ana@prairie.example"
WHEN = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def _mail(sender: str, to: str, subject: str, body: str = "See you at the sync.", n: int = 0,
          charset: str = "utf-8") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(WHEN + timedelta(hours=n))
    msg["Message-ID"] = f"<m{n}.{abs(hash(subject)) % 10**6}@prairie.example>"
    msg.set_content(body, charset=charset)
    return msg.as_bytes()


def _read(path: Path) -> tuple[list[Message], list]:
    [src] = detect(path)
    ctx = ReadContext()
    return [i for i in src.read(ctx) if isinstance(i, Message)], ctx.skips


def _maildirpp(root: Path) -> Path:
    for folder in (root, root / ".Sent", root / ".Archive", root / ".INBOX.Sent Items"):
        for sub in ("cur", "new", "tmp"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
    (root / "cur" / "1.host:2,S").write_bytes(_mail("Jon <jon@prairie.example>", OWNER, "Plan", n=1))
    (root / ".Sent" / "cur" / "2.host:2,S").write_bytes(_mail(f"Ana Ruiz <{OWNER}>", "jon@prairie.example", "Re: Plan", n=2))
    (root / ".INBOX.Sent Items" / "new" / "3.host").write_bytes(_mail(f"Ana Ruiz <{OWNER}>", "li@x.example", "Hi", n=3))
    (root / ".Archive" / "cur" / "4.host:2,S").write_bytes(_mail("Li <li@x.example>", OWNER, "Old", n=4))
    return root


def test_maildirpp_sent_folders_are_labelled_sent(tmp_path: Path) -> None:
    items, skips = _read(_maildirpp(tmp_path / "Maildir"))
    assert len(items) == 4 and not skips
    sent = {m.subject for m in items if "Sent" in m.labels}
    assert sent == {"Re: Plan", "Hi"}
    assert all(m.authored_by_owner for m in items if m.subject in sent)
    collector = IdentityCollector()
    for m in items:
        collector.observe(m)
    assert OWNER in collector.resolve().addresses  # no Gmail labels, no --owner: the folder told


def _thunderbird(root: Path) -> Path:
    local = root / "Mail" / "Local Folders"
    local.mkdir(parents=True)

    def mbox(name: str, *msgs: bytes) -> None:
        with open(local / name, "wb") as f:
            for m in msgs:
                f.write(b"From - Mon Mar 02 09:30:00 2026\r\nX-Mozilla-Status: 0001\r\n" + m.replace(b"\n", b"\r\n")
                        + b"\r\n")
        (local / f"{name}.msf").write_bytes(b"// <!-- <mdb:mork:z v=\"1.4\"/> -->\n")

    mbox("Inbox", _mail("Jon <jon@prairie.example>", OWNER, "Lunch?", n=1),
         _mail("Li <li@x.example>", OWNER, "Numbers", n=2))
    mbox("Sent", _mail(f"Ana Ruiz <{OWNER}>", "jon@prairie.example", "Re: Lunch?", n=3))
    (local / "Trash").write_bytes(b"")
    (local / "Trash.msf").write_bytes(b"//")
    return root


def test_thunderbird_profile_mboxes_without_extension(tmp_path: Path) -> None:
    profile = _thunderbird(tmp_path / "profile")
    sources = detect(profile)
    assert sorted((s.kind, Path(s.location).name) for s in sources) == [("mbox", "Inbox"), ("mbox", "Sent")]
    result = scan([str(profile)], settings=load_settings(tmp_path / "home"))
    assert sum(r.items for r in result.reports) == 3
    assert result.owner is not None and OWNER in result.owner.addresses


def _emlx(path: Path, message: bytes) -> None:
    plist = (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>flags</key>'
             b"<integer>8590195713</integer></dict></plist>\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%-10d\n" % len(message) + message + plist)


def test_apple_mail_emlx(tmp_path: Path) -> None:
    account = tmp_path / "Mail" / "V10" / "ABCD-1234"
    inbox = account / "INBOX.mbox" / "0F1E-UUID" / "Data" / "Messages"
    sent = account / "Sent Messages.mbox" / "0F1E-UUID" / "Data" / "3" / "Messages"
    _emlx(inbox / "101.emlx", _mail("Jon <jon@prairie.example>", OWNER, "Standup notes", n=1))
    _emlx(inbox / "102.partial.emlx", _mail("Li <li@x.example>", OWNER, "Slides", n=2))
    _emlx(sent / "103.emlx", _mail(f"Ana Ruiz <{OWNER}>", "jon@prairie.example", "Re: Standup notes", n=3))
    (inbox / "104.emlx").write_bytes(b"garbage without a count\n")
    sources = detect(tmp_path / "Mail")
    assert sorted(s.kind for s in sources) == ["emlx", "emlx"]
    by_name = {Path(s.location).name: s for s in sources}
    ctx = ReadContext()
    inbox_items = list(by_name["INBOX.mbox"].read(ctx))
    assert sorted(m.subject for m in inbox_items) == ["Slides", "Standup notes"]
    assert [s.reason for s in ctx.skips] == [f"{inbox / '104.emlx'}: not an Apple Mail message (no byte count on the first line)"]
    [mine] = list(by_name["Sent Messages.mbox"].read(ReadContext()))
    assert mine.labels == ("Sent",) and mine.authored_by_owner


def _msg_file(path: Path, *, transport: bool, body: str = "text") -> Path:
    def u(prop: int, text: str) -> tuple[str, bytes]:
        return f"__substg1.0_{prop:04X}001F", text.encode("utf-16-le")

    filetime = int((WHEN - datetime(1601, 1, 1, tzinfo=UTC)).total_seconds() * 10**7)
    props = b"\0" * 32 + struct.pack("<IIQ", (0x0039 << 16) | 0x0040, 6, filetime)
    props += struct.pack("<IIi4x", (0x3FFD << 16) | 0x0003, 6, 1252)
    streams = dict([u(0x0037, "Quarterly numbers"), u(0x0C1A, "Ana Ruiz"), u(0x5D01, OWNER),
                    u(0x1035, "<q1@prairie.example>")])
    if body == "text":
        streams.update([u(0x1000, "Numbers attached. Grüße, Ana")])
    elif body == "html":  # PR_HTML as bytes in the message's code page
        streams["__substg1.0_10130102"] = "<html><body><p>Numbers <b>attached</b>. Grüße, Ana</p></body></html>".encode("cp1252")
    else:  # compressed RTF only
        streams["__substg1.0_10090102"] = b"\x2d\x00\x00\x00LZFu" + b"\0" * 32
    streams["__properties_version1.0"] = props
    for n, (kind, name, addr) in enumerate([(1, "Jon Reyes", "jon@prairie.example"), (2, "Li Wu", "li@x.example")]):
        base = f"__recip_version1.0_#{n:08X}/"
        streams[base + "__substg1.0_3001001F"] = name.encode("utf-16-le")
        streams[base + "__substg1.0_39FE001F"] = addr.encode("utf-16-le")
        streams[base + "__properties_version1.0"] = b"\0" * 8 + struct.pack("<IIi4x", (0x0C15 << 16) | 3, 6, kind)
    if transport:
        streams["__substg1.0_007D001F"] = (f"From: Jon Reyes <jon@prairie.example>\r\nTo: {OWNER}\r\n"
                                           "Subject: Quarterly numbers\r\nDate: Mon, 02 Mar 2026 10:00:00 +0100\r\n"
                                           "Message-ID: <q0@prairie.example>\r\n\r\n").encode("utf-16-le")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(write_cfb(streams))
    return path


def test_outlook_msg_from_properties_and_from_headers(tmp_path: Path) -> None:
    folder = tmp_path / "exported"
    _msg_file(folder / "sent-by-ana.msg", transport=False)
    _msg_file(folder / "from-jon.msg", transport=True)
    (folder / "broken.msg").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    items, skips = _read(folder)
    by_ref = {m.ref: m for m in items}
    ana = by_ref["sent-by-ana.msg"]
    assert ana.sender.address == OWNER and ana.sender.name == "Ana Ruiz"
    assert [p.address for p in ana.to] == ["jon@prairie.example"] and [p.address for p in ana.cc] == ["li@x.example"]
    assert ana.subject == "Quarterly numbers" and "Grüße" in ana.body
    assert ana.timestamp == WHEN and ana.message_id == "<q1@prairie.example>"
    jon = by_ref["from-jon.msg"]
    assert jon.sender.address == "jon@prairie.example" and jon.message_id == "<q0@prairie.example>"
    [skip] = skips
    assert skip.ref == "broken.msg" and "damaged Outlook message" in skip.reason


def test_outlook_msg_html_body_and_rtf_only(tmp_path: Path) -> None:
    _msg_file(tmp_path / "html.msg", transport=False, body="html")
    _msg_file(tmp_path / "rtf.msg", transport=False, body="rtf")
    items, skips = _read(tmp_path)
    by_ref = {m.ref: m for m in items}
    assert "Numbers attached. Grüße, Ana" in by_ref["html.msg"].body
    assert by_ref["rtf.msg"].subject == "Quarterly numbers" and by_ref["rtf.msg"].body == ""
    assert [s.ref for s in skips] == ["rtf.msg"] and "compressed RTF" in skips[0].reason


def test_pst_without_libpff_is_a_clean_skip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "archive.pst"
    path.write_bytes(b"!BDN" + b"\0" * 508)
    monkeypatch.setattr(pst_mod, "load_pypff", lambda: None)
    items, skips = _read(path)
    assert items == [] and "pip install 'memseed[outlook]'" in skips[0].reason


def test_pst_that_libpff_cannot_open_is_a_source_error(tmp_path: Path) -> None:
    assert pst_mod.load_pypff() is not None, "libpff-python (the outlook extra, which make installs) is missing"
    path = tmp_path / "archive.pst"
    path.write_bytes(b"!BDN" + b"\0" * 508)
    [src] = detect(path)
    with pytest.raises(SourceError, match="not a readable Outlook data file"):
        list(src.read(ReadContext()))


@pytest.mark.parametrize(("text", "raw_charset", "label"), [
    ("Frühstück um neun, danach die Planung", "utf-8", "iso-8859-1"),   # UTF-8 labelled Latin-1
    ("Grüße aus München, bis Freitag im Büro", "cp1252", "utf-8"),      # cp1252 labelled UTF-8
    ("Grüße aus München, bis Freitag im Büro", "cp1252", None),         # 8-bit, no label at all
    ("Zażółć gęślą jaźń, spotkanie w piątek", "iso8859_2", "x-unknown"),
    ("Привет! Встречаемся в пятницу в офисе, приходи пожалуйста.", "koi8_r", None),
    ("你好，明天在办公室见面。请带上报告。", "gbk", "gb2312"),
])
def test_legacy_and_mislabelled_charsets(text: str, raw_charset: str, label: str | None) -> None:
    assert decode_text(text.encode(raw_charset), label) == text


def test_mislabelled_mail_body_reads_right(tmp_path: Path) -> None:
    raw = (f"From: Jon <jon@prairie.example>\r\nTo: {OWNER}\r\nSubject: Menu\r\nDate: Mon, 02 Mar 2026 09:00:00 +0000\r\n"
           "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n").encode()
    (tmp_path / "menu.eml").write_bytes(raw + "Frühstück im Café".encode())
    items, _ = _read(tmp_path / "menu.eml")
    assert items[0].body == "Frühstück im Café"


def test_winmail_dat_is_ignored_with_a_reason(tmp_path: Path) -> None:
    raw = (f"From: Jon <jon@prairie.example>\r\nTo: {OWNER}\r\nSubject: Rich text\r\n"
           "Date: Mon, 02 Mar 2026 09:00:00 +0000\r\nMIME-Version: 1.0\r\n"
           'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
           "--b1\r\nContent-Type: application/ms-tnef; name=\"winmail.dat\"\r\n"
           "Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=\"winmail.dat\"\r\n\r\n"
           "eJ8+IgAAAQ==\r\n--b1--\r\n").encode()
    (tmp_path / "rich.eml").write_bytes(raw)
    items, skips = _read(tmp_path / "rich.eml")
    assert len(items) == 1 and items[0].subject == "Rich text"
    assert ["winmail.dat" in s.reason and "only its headers" in s.reason for s in skips] == [True]


@pytest.mark.parametrize(("name", "sent"), [
    ("Sent", True), (".Sent", True), (".INBOX.Sent Items", True), ("Sent Messages.mbox", True),
    ("Gesendete Elemente", True), ("[Gmail]/Sent Mail", True), ("Inbox", False), (".Archive", False),
    ("Sentimental", False), ("Unsent", False),
])
def test_sent_folder_names(name: str, sent: bool) -> None:
    assert is_sent_folder(name) is sent


@pytest.mark.parametrize("suffix", [".eml", ".emlx"])
def test_message_files_resume_by_mtime_and_a_stopped_read_keeps_the_cursor(tmp_path: Path, suffix: str) -> None:
    """.eml folders and Apple Mail mailboxes share one reader (connectors/local/mailfiles.py):
    the cursor is the newest file mtime and inode-change time; files older in both are passed
    over (one with the cursor's own times is read again: an equal time does not prove it was
    seen), a file copied in late with an old mtime is read, and a stopped read leaves no cursor."""
    folder = tmp_path / ("Box.mbox" if suffix == ".emlx" else "box")

    def put(name: str, data: bytes, mtime: float) -> Path:
        path = folder / "Messages" / f"{name}{suffix}"
        if suffix == ".emlx":
            _emlx(path, data)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        os.utime(path, (mtime, mtime))
        return path

    first = put("1", _mail("Jon <jon@prairie.example>", OWNER, "First", n=1), 1_700_000_000)
    second = later_ctime(put("2", _mail("Li <li@x.example>", OWNER, "Second", n=2), 1_700_000_100), first)
    [source] = detect(folder)
    assert source.kind == suffix.lstrip(".")
    ctx = ReadContext()
    assert sorted(m.subject for m in source.read(ctx)) == ["First", "Second"]  # type: ignore[attr-defined]
    assert ctx.new_cursor == {"mtime": 1_700_000_100, "ctime": second.stat().st_ctime}
    again = ReadContext(cursor=ctx.new_cursor)
    assert [m.subject for m in source.read(again)] == ["Second"]  # type: ignore[attr-defined]
    assert again.new_cursor == ctx.new_cursor
    third = later_ctime(put("3", _mail("Jon <jon@prairie.example>", OWNER, "Third", n=3, body="x" * 64),
                            1_700_000_200), second)
    newer = ReadContext(cursor=ctx.new_cursor)
    assert [m.subject for m in source.read(newer)] == ["Second", "Third"]  # type: ignore[attr-defined]
    assert newer.new_cursor == {"mtime": 1_700_000_200, "ctime": third.stat().st_ctime}
    # copied in late with its old modification time kept (cp -p, rsync -t, unzip): still read,
    # because copying it in changed its inode-change time; the files read before are not
    late = later_ctime(put("0", _mail("Ana <ana@x.example>", OWNER, "Late", n=4), 1_600_000_000), third)
    latest = ReadContext(cursor=newer.new_cursor)
    # (Third holds the cursor's own mtime: read again, as above; First and Second are not)
    assert [m.subject for m in source.read(latest)] == ["Late", "Third"]  # type: ignore[attr-defined]
    assert latest.new_cursor == {"mtime": 1_700_000_200, "ctime": late.stat().st_ctime}
    # a cursor written before the inode-change time was kept reads everything once (never lose a file)
    assert len(list(source.read(ReadContext(cursor={"mtime": 1_700_000_200})))) == 4
    stopped = ReadContext(should_stop=lambda: True)
    assert list(source.read(stopped)) == [] and stopped.new_cursor is None


def test_message_over_the_read_cap_is_read_partially_with_the_reason(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from connectors.local import eml as eml_mod
    from connectors.local import emlx as emlx_mod

    monkeypatch.setattr(eml_mod, "MAX_READ", 2048)
    monkeypatch.setattr(emlx_mod, "MAX_READ", 2048)
    big = _mail("Jon <jon@prairie.example>", OWNER, "Big", body="word " * 2000)
    (tmp_path / "big.eml").write_bytes(big)
    _emlx(tmp_path / "Big.mbox" / "Messages" / "9.emlx", big)
    expected = {"eml": "larger than 0 MB; read partially",
                "emlx": f"message cut short (2037 of {len(big)} bytes); read partially"}
    for path in (tmp_path / "big.eml", tmp_path / "Big.mbox"):
        [source] = detect(path)
        ctx = ReadContext()
        [item] = list(source.read(ctx))
        assert item.subject == "Big"  # type: ignore[attr-defined]
        assert [s.reason.split(": ", 1)[1] for s in ctx.skips] == [expected[source.kind]]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
def test_outlook_msg_folder_skips_a_named_pipe(tmp_path: Path) -> None:
    """A FIFO named like a .msg is reported, never opened (with no writer, opening it blocks)."""
    _msg_file(tmp_path / "real.msg", transport=True)
    pipe = tmp_path / "pipe.msg"
    os.mkfifo(pipe)
    keep = os.open(pipe, os.O_RDWR)  # a writer holding data, so the old code read it instead of hanging
    try:
        os.write(keep, b"x" * 64)
        items, skips = _read(tmp_path)
    finally:
        os.close(keep)
    assert [m.ref for m in items] == ["real.msg"]
    assert [(s.ref, s.reason) for s in skips] == [("pipe.msg", f"{pipe}: not a regular file")]


@pytest.mark.parametrize("label", ["base64", "zlib", "rot13", "hex", "undefined"])
def test_a_charset_label_naming_a_non_text_codec_is_ignored(label: str) -> None:
    """Untrusted labels that Python knows as codecs but not as text encodings fall back to
    detection instead of raising (which cost the whole message)."""
    assert decode_text("Grüße aus Köln".encode("cp1252"), label) == "Grüße aus Köln"
    assert decode_text("Grüße".encode(), label) == "Grüße"


def test_msg_and_pst_messages_older_than_since_are_passed_over(tmp_path: Path) -> None:
    """``--since`` holds for Outlook exports as for .eml folders: older messages are not read."""
    from types import SimpleNamespace

    from connectors.local.outlook_msg import read_msg

    path = _msg_file(tmp_path / "q.msg", transport=False)
    assert read_msg(path, "msg:x", "q.msg", ReadContext(since=WHEN - timedelta(days=1))) is not None
    late = ReadContext(since=WHEN + timedelta(days=1))
    assert read_msg(path, "msg:x", "q.msg", late) is None and late.skips == []

    record = SimpleNamespace(transport_headers=None, sender_name="Ana Ruiz", subject="Quarterly numbers",
                             client_submit_time=WHEN.replace(tzinfo=None), plain_text_body=b"Numbers attached.")
    src = pst_mod.PstSource(str(tmp_path / "a.pst"))
    kept = src._message(record, "Inbox#0", "Inbox", ReadContext(since=WHEN - timedelta(days=1)))
    assert kept is not None and kept.timestamp == WHEN and kept.subject == "Quarterly numbers"
    assert src._message(record, "Inbox#0", "Inbox", ReadContext(since=WHEN + timedelta(days=1))) is None


def test_pst_message_body_is_capped_before_it_is_decoded() -> None:
    """libpff hands a message body over whole; the reader keeps only what the text cap can use
    (cut at a UTF-8 character boundary) before decoding, and reports a body over the per-file
    cap. Decoding it whole let bytes far past the cap (an inlined attachment) decide the
    charset of the text that is kept."""
    from types import SimpleNamespace

    text = "Grüße aus Köln, die Zahlen kommen morgen. " * 5_000  # ~220 KB of UTF-8
    body = text.encode() + b"\x81\x8d\x90" * 40_000  # then ~120 KB that is no UTF-8 at all
    record = SimpleNamespace(transport_headers=None, sender_name="Ana Ruiz", subject="Zahlen",
                             client_submit_time=WHEN.replace(tzinfo=None), plain_text_body=body)
    ctx = ReadContext(max_text_chars=1_001, max_file_bytes=256 * 1024)
    item = pst_mod.PstSource("a.pst")._message(record, "Inbox#0", "Inbox", ctx)
    assert item is not None and item.body.startswith("Grüße aus Köln")
    assert len(item.body) <= 1_001 and "Ã" not in item.body
    assert [s.ref for s in ctx.skips] == ["Inbox#0"]
    assert "over the 0.2 MB per-file cap; read partially" in ctx.skips[0].reason
    small = ReadContext(max_text_chars=1_001)  # under the file cap: capped silently, like every reader
    assert pst_mod.PstSource("a.pst")._message(record, "Inbox#0", "Inbox", small) is not None and small.skips == []


@pytest.mark.parametrize("text", ["aé", "a€", "a😀", "ü€😀x", "abc"])
def test_pst_body_cut_lands_on_a_character_boundary(text: str) -> None:
    data = text.encode()
    for limit in range(len(data) + 1):
        cut = pst_mod._utf8_cut(data, limit)
        assert len(cut) <= limit and data.startswith(cut)
        assert text.startswith(cut.decode("utf-8"))  # never a split character
        assert len(cut) > limit - 4  # never more than one character given up


def test_pst_ledger_counts_every_record_and_each_damaged_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """found = read + skipped over a folder tree shaped as libpff hands it out (issue 29): a
    message record that cannot be fetched, a sub-folder whose list fails, a contact (not mail)."""
    from types import SimpleNamespace

    from bootstrap_app.report.ledger import ledger_of

    def mail(n: int) -> SimpleNamespace:
        return SimpleNamespace(transport_headers=None, sender_name="Ana Ruiz", subject=f"Note {n}",
                               client_submit_time=WHEN.replace(tzinfo=None), plain_text_body=b"Text.")

    class Folder:
        def __init__(self, name: str, records: list[object], subs: list[object] | None = None) -> None:
            self.name, self.records, self.subs = name, records, subs

        def get_number_of_sub_messages(self) -> int:
            return len(self.records)

        def get_sub_message(self, i: int) -> object:
            if isinstance(self.records[i], Exception):
                raise self.records[i]  # type: ignore[misc]
            return self.records[i]

        def get_number_of_sub_folders(self) -> int:
            if self.subs is None:
                raise OSError("damaged sub-folder table")
            return len(self.subs)

        def get_sub_folder(self, i: int) -> object:
            return self.subs[i]  # type: ignore[index]

    contact = SimpleNamespace(transport_headers=None, sender_name=None, subject=None, client_submit_time=None,
                              plain_text_body=None)
    inbox = Folder("Inbox", [mail(1), OSError("bad record"), contact, mail(2)], subs=None)
    root = Folder("", [], subs=[inbox, Folder("Sent Items", [mail(3)], subs=[])])
    fake = SimpleNamespace(file=lambda: SimpleNamespace(open=lambda p: None, close=lambda: None,
                                                        get_root_folder=lambda: root))
    monkeypatch.setattr(pst_mod, "load_pypff", lambda: fake)
    path = tmp_path / "a.pst"
    path.write_bytes(b"!BDN")
    ctx = ReadContext()
    items = list(pst_mod.PstSource(str(path)).read(ctx))
    ledger = ledger_of(ctx.found, len(items), ctx.skips, ctx.notes, set(), ctx.passed)
    assert len(items) == 3 and ledger.balanced, ledger.to_json()
    assert (ledger.found, ledger.failed_units) == (6, 2)  # 5 records + the unreadable sub-folder list
    assert ledger.passed == {"contacts, notes and tasks (not mail)": 1}
