"""Outlook ``.msg`` files (one message each), read with ``olefile`` (BSD licence).

Why not ``extract-msg``: it is GPL-licensed, and a ``.msg`` is only an OLE compound file of
MAPI properties, which ``olefile`` reads directly. The properties used (MS-OXMSG / MS-OXPROPS):

- ``007D`` the original internet headers, when the message came from outside (then From, To,
  Date, Message-ID ... are taken from them exactly as for an ``.eml``);
- otherwise ``0C1A``/``5D01``/``0C1F`` the sender's name and address, ``0037`` the subject,
  ``1035`` the Message-ID, ``0039`` the submit time, and each ``__recip_version1.0_#N``
  storage's ``3001``/``39FE``/``3003`` name and address with ``0C15`` To/Cc;
- ``1000`` the plain-text body, else ``1013`` the HTML body (as text); a body kept only as
  compressed RTF (``1009``) is noted with a reason, the headers are still read.

Strings are ``001F`` (UTF-16LE) or ``001E`` (8-bit, in the message's code page ``3FFD``).
A folder of ``.msg`` files (Outlook's drag-and-drop export) is one source.
"""

from __future__ import annotations

import stat
import struct
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

import olefile

from bootstrap_app.errors import SourceError
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message, utc

from ..base import ReadContext, Source
from .charsets import decode_text
from .htmltext import html_to_text
from .mailfolders import is_sent_folder
from .mailparse import message_from_parts, parse_header_block
from .walk import files_named, holds_files_named, not_read, skips_under

__all__ = ["OutlookMsgSource", "msg_headers", "msg_html_text", "read_msg"]

_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)
_RECIP = "__recip_version1.0_#"
_MAX_STREAM = 16 * 1024 * 1024


class _Msg:
    """Property access over one open compound file (a storage path prefix selects a part)."""

    def __init__(self, ole: Any) -> None:
        self.ole = ole
        self.codepage = self._int_prop("", 0x3FFD) or 1252

    def _stream(self, name: str) -> bytes | None:
        if not self.ole.exists(name):
            return None
        if self.ole.get_size(name) > _MAX_STREAM:
            return None
        data: bytes = self.ole.openstream(name).read()
        return data

    def text(self, prefix: str, prop: int) -> str:
        unicode = self._stream(f"{prefix}__substg1.0_{prop:04X}001F")
        if unicode is not None:
            return unicode.decode("utf-16-le", errors="replace").rstrip("\x00")
        raw = self._stream(f"{prefix}__substg1.0_{prop:04X}001E")
        if raw is None:
            return ""
        return decode_text(raw.rstrip(b"\x00"), f"cp{self.codepage}")

    def _fixed(self, prefix: str, header: int) -> dict[int, tuple[int, bytes]]:
        """Fixed-size properties: {prop id: (type, 8 value bytes)} from ``__properties_version1.0``."""
        data = self._stream(f"{prefix}__properties_version1.0") or b""
        out: dict[int, tuple[int, bytes]] = {}
        for at in range(header, len(data) - 15, 16):
            tag, _flags = struct.unpack_from("<II", data, at)
            out[tag >> 16] = (tag & 0xFFFF, data[at + 8:at + 16])
        return out

    def _int_prop(self, prefix: str, prop: int, header: int = 32) -> int:
        typ, value = self._fixed(prefix, header).get(prop, (0, b""))
        return struct.unpack("<i", value[:4])[0] if typ == 0x0003 and len(value) >= 4 else 0

    def time(self, prop: int) -> datetime | None:
        typ, value = self._fixed("", 32).get(prop, (0, b""))
        if typ != 0x0040 or len(value) != 8:
            return None
        ticks = struct.unpack("<Q", value)[0]
        try:
            return _FILETIME_EPOCH + timedelta(microseconds=ticks // 10)
        except OverflowError:
            return None

    def recipients(self) -> Iterator[tuple[int, str, str]]:
        """(1 To / 2 Cc / 3 Bcc, name, address) of each recipient storage."""
        storages = sorted({entry[0] for entry in self.ole.listdir(streams=True, storages=True)
                           if entry and entry[0].startswith(_RECIP)})
        for storage in storages:
            prefix = f"{storage}/"
            kind = self._int_prop(prefix, 0x0C15, header=8) or 1
            address = self.text(prefix, 0x39FE) or self.text(prefix, 0x3003)
            yield kind, self.text(prefix, 0x3001), address


def msg_headers(msg: _Msg) -> dict[str, str]:
    """Internet-style headers of a ``.msg``: its original headers when it has them, else built
    from its MAPI properties."""
    transport = msg.text("", 0x007D)
    headers = parse_header_block(transport.encode("utf-8")) if transport.strip() else {}
    if headers.keys() & {"from", "date"}:
        return headers
    sender = msg.text("", 0x5D01) or msg.text("", 0x0C1F)
    if sender and "@" not in sender:
        sender = ""  # an Exchange X.500 path says nothing an address would
    headers["from"] = formataddr((msg.text("", 0x0C1A), sender)) if sender else msg.text("", 0x0C1A)
    groups: dict[int, list[str]] = {1: [], 2: []}
    for kind, name, address in msg.recipients():
        if kind in groups and (address or name):
            groups[kind].append(formataddr((name, address if "@" in address else "")))
    if groups[1]:
        headers["to"] = ", ".join(groups[1])
    if groups[2]:
        headers["cc"] = ", ".join(groups[2])
    headers["subject"] = msg.text("", 0x0037)
    if mid := msg.text("", 0x1035):
        headers["message-id"] = mid
    when = msg.time(0x0039) or msg.time(0x0E06)
    if when is not None:
        headers["date"] = format_datetime(when)
    return {k: v for k, v in headers.items() if v}


def msg_html_text(msg: _Msg) -> str:
    """The HTML body (``1013``, stored as bytes or as a string) as plain text, or ``""``."""
    raw = msg._stream("__substg1.0_10130102")
    html = decode_text(raw, f"cp{msg.codepage}") if raw is not None else msg.text("", 0x1013)
    return html_to_text(html) if html.strip() else ""


def read_msg(path: Path, source_id: str, ref: str, ctx: ReadContext, sent: bool = False) -> Message | None:
    """One ``.msg`` file -> Message, or None with the skip reason."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a FIFO would block the read, a device never end
            ctx.skip(source_id, ref, f"{printable(path)}: not a regular file")
            return None
        if not olefile.isOleFile(str(path)):
            ctx.skip(source_id, ref, f"{printable(path)}: not an Outlook message (not an OLE compound file)")
            return None
        with olefile.OleFileIO(str(path)) as ole:
            msg = _Msg(ole)
            headers = msg_headers(msg)
            body = msg.text("", 0x1000) or msg_html_text(msg)
            rtf_only = not body and ole.exists("__substg1.0_10090102")
    except OSError as exc:
        if exc.errno is not None:  # the file system said no
            ctx.skip(source_id, ref, f"{printable(path)}: unreadable ({exc.strerror or exc})")
            return None
        ctx.skip(source_id, ref, f"{printable(path)}: damaged Outlook message ({exc})")
        return None
    except Exception as exc:  # olefile raises many kinds on a damaged file
        ctx.skip(source_id, ref, f"{printable(path)}: damaged Outlook message ({type(exc).__name__}: {exc})")
        return None
    if not headers.keys() & {"from", "to", "subject", "date"}:
        ctx.skip(source_id, ref, f"{printable(path)}: an Outlook item that is not a mail message")
        return None
    if rtf_only:
        ctx.skip(source_id, ref, f"{printable(path)}: the text is only in Outlook's compressed RTF, which is "
                                 "not read; headers kept (save it from Outlook as HTML or text for the body)")
    item = message_from_parts(headers, body, source=source_id, ref=ref, clean=ctx.clean,
                              sent_hint=True if sent else None)
    since = utc(ctx.since)
    if since is not None and item.timestamp is not None and item.timestamp < since:
        ctx.pass_over("older than --since")  # passed over, counted by the ledger
        return None
    return item


class OutlookMsgSource(Source, kind="msg", priority=36,
                       description="Outlook message (.msg) or a folder of them"):
    """One ``.msg`` file or a folder of them (Outlook's drag-and-drop export)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return holds_files_named(path, ".msg")

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.local_path()
        files = files_named(root, ".msg", skips_under(root, self.id, ctx.skip, ctx.find),
                            not_read(ctx.find, ctx.pass_over))
        count = 0
        try:
            for path in files:
                if ctx.should_stop():
                    return
                ctx.find()  # the ledger: each .msg ends as a message, a skip or passed over
                ref = path.name if path == root else str(path.relative_to(root))
                sent = is_sent_folder(path.parent.name)
                item = read_msg(path, self.id, ref, ctx, sent)
                if item is not None:
                    count += 1
                    yield item
        except OSError as exc:
            raise SourceError(f"{root}: cannot list messages ({exc.strerror})",
                              hint="check the folder's permissions") from exc
        ctx.progress(self.id, count)
