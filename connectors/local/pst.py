"""Outlook data files (``.pst`` / ``.ost``) through libpff (``pip install memseed[outlook]``).

libpff-python is LGPL-licensed and a compiled extension, so it is an optional extra: without
it a ``.pst`` is recognised and skipped with a reason that says how to read it. With it, the
folder tree is walked and each message becomes a :class:`~bootstrap_app.types.Message`:
from its original internet headers when it has them (mail that came from outside), else from
the sender name, subject and submit time libpff exposes. Messages in a folder named like a
sent folder (``Sent Items``, ``Gesendete Elemente`` ...) are marked ``Sent``. A damaged
message is skipped with its reason; a file libpff cannot open at all is a source error. A body
is decoded only as far as the text cap can use it, and one over the per-file cap is reported
as read partially, as the other readers do.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from bootstrap_app.errors import SourceError
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message, utc

from ..base import Availability, ReadContext, Source
from .charsets import decode_text
from .mailfolders import is_sent_folder
from .mailparse import message_from_parts, parse_header_block

__all__ = ["PstSource", "load_pypff"]

_MAX_DEPTH = 64
_MAX_HEADERS = 1024 * 1024
"""Bytes of a message's transport headers kept (real header blocks are a few KB)."""


def load_pypff() -> Any | None:
    """The ``pypff`` module, or None when the optional extra is not installed."""
    try:
        return importlib.import_module("pypff")
    except ImportError:
        return None


def _text(value: Any, limit: int | None = None) -> str:
    """A libpff string or byte value as text; ``limit`` caps the bytes *before* decoding."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        data = value.rstrip(b"\x00")
        return decode_text(_utf8_cut(data, limit) if limit is not None and len(data) > limit else data, None)
    text = str(value)
    return text[:limit] if limit is not None else text


def _utf8_cut(data: bytes, limit: int) -> bytes:
    """``data[:limit]``, moved back to a character boundary when the cut splits a UTF-8 sequence,
    so a body that is UTF-8 still decodes as UTF-8 (a split last character would send it to the
    charset guess and garble all of it). Bytes that are no UTF-8 are cut where they are."""
    cut = data[:limit]
    for back in range(1, min(4, len(cut)) + 1):
        byte = cut[-back]
        if byte & 0xC0 != 0x80:  # not a continuation byte: the start of the last character
            need = 1 if byte < 0x80 else 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4
            return cut if need <= back else cut[:-back]
    return cut


def _headers(message: Any) -> dict[str, str]:
    transport = _text(getattr(message, "transport_headers", None), _MAX_HEADERS)
    headers = parse_header_block(transport.encode("utf-8")) if transport.strip() else {}
    if headers.keys() & {"from", "date"}:
        return headers
    name = _text(getattr(message, "sender_name", None))
    if name:
        headers["from"] = name
    headers["subject"] = _text(getattr(message, "subject", None))
    when = getattr(message, "client_submit_time", None) or getattr(message, "delivery_time", None)
    if isinstance(when, datetime):
        headers["date"] = format_datetime(when if when.tzinfo else when.replace(tzinfo=UTC))
    return {k: v for k, v in headers.items() if v}


def _messages(folder: Any, path: str, depth: int, ctx: ReadContext, source_id: str) -> Iterator[tuple[str, int, Any]]:
    """(folder path, index, message) over the folder tree, depth-first.

    The ledger: each message record is a unit found (``ctx.find``); a folder whose list of
    messages or sub-folders cannot be read is a unit too, found and skipped (its contents unknown)."""
    if depth > _MAX_DEPTH:
        ctx.find()
        ctx.skip(source_id, path, f"{path}: folders nested more than {_MAX_DEPTH} deep, not read")
        return
    try:
        count = folder.get_number_of_sub_messages()
    except Exception as exc:  # libpff raises IOError on damaged tables
        ctx.find()
        ctx.skip(source_id, path, f"{path}: folder unreadable ({exc})")
        count = 0
    ctx.find(count)
    for i in range(count):
        try:
            yield path, i, folder.get_sub_message(i)
        except Exception as exc:
            ctx.skip(source_id, f"{path}#{i}", f"{path}: message {i} unreadable ({exc})")
    try:
        subs = folder.get_number_of_sub_folders()
    except Exception as exc:
        ctx.find()
        ctx.skip(source_id, f"{path}/", f"{path}: sub-folders unreadable ({exc})")
        return
    for i in range(subs):
        try:
            sub = folder.get_sub_folder(i)
            name = _text(getattr(sub, "name", None)) or f"folder{i}"
        except Exception as exc:
            ctx.find()
            ctx.skip(source_id, f"{path}/#{i}", f"{path}: sub-folder {i} unreadable ({exc})")
            continue
        yield from _messages(sub, f"{path}/{name}" if path else name, depth + 1, ctx, source_id)


class PstSource(Source, kind="pst", priority=33,
                description="Outlook data file (.pst / .ost; needs the outlook extra)"):
    """An Outlook data file (``.pst`` or ``.ost``)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return path.is_file() and path.suffix.lower() in (".pst", ".ost")

    @classmethod
    def availability(cls, home: Path | None = None) -> Availability:
        if load_pypff() is None:
            return Availability(False, "needs libpff: `pip install 'memseed[outlook]'`")
        return Availability(True)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = self.local_path("Outlook data file")
        pypff = load_pypff()
        if pypff is None:
            ctx.find()  # the file, unread
            ctx.skip(self.id, path.name, f"{printable(path)}: Outlook data files need libpff, which is not "
                                         "installed; run `pip install 'memseed[outlook]'`, or export the "
                                         "mailbox from Outlook as .msg files or via IMAP to a maildir")
            return
        pff = pypff.file()
        try:
            pff.open(str(path))
        except Exception as exc:
            raise SourceError(f"{printable(path)}: not a readable Outlook data file ({exc})",
                              hint="check the file is a complete .pst/.ost (Outlook may hold it open), "
                                   "or export it again from Outlook") from exc
        count = 0
        try:
            root = pff.get_root_folder()
            for folder, i, message in _messages(root, "", 0, ctx, self.id):
                if ctx.should_stop():
                    return
                ref = f"{folder}#{i}"
                item = self._message(message, ref, folder, ctx)
                if item is not None:
                    count += 1
                    yield item
        finally:
            pff.close()
        ctx.progress(self.id, count)

    def _message(self, message: Any, ref: str, folder: str, ctx: ReadContext) -> Message | None:
        try:
            headers = _headers(message)
            # libpff hands the body over whole (it has no partial read); only what the text cap
            # can use is decoded — up to 4 UTF-8 bytes a character, and never past the file cap
            raw = getattr(message, "plain_text_body", None)
            body = _text(raw, min(4 * ctx.max_text_chars, ctx.max_file_bytes))
        except Exception as exc:  # a damaged record never stops the file
            ctx.skip(self.id, ref, f"{folder}: message unreadable ({exc})")
            return None
        if not headers.keys() & {"from", "subject", "date"}:
            ctx.pass_over("contacts, notes and tasks (not mail)")
            return None
        size = len(raw) if isinstance(raw, bytes | str) else 0
        if size > ctx.max_file_bytes:
            ctx.skip(self.id, ref, f"{folder}: message body of {size / 2**20:.1f} MB is over the "
                                   f"{ctx.max_file_bytes / 2**20:.1f} MB per-file cap; read partially", note=True)
        sent = is_sent_folder(folder.rsplit("/", 1)[-1]) if folder else False
        item = message_from_parts(headers, body, source=self.id, ref=ref, clean=ctx.clean,
                                  sent_hint=True if sent else None)
        since = utc(ctx.since)
        if since is not None and item.timestamp is not None and item.timestamp < since:
            ctx.pass_over("older than --since")
            return None
        return item
