"""One message per file: the reading shared by ``.eml`` folders and maildirs and Apple Mail ``.emlx``.

Why one module: both keep a message per file and differ only in how the file wraps the RFC 822
bytes (``.emlx`` puts a byte count in front and a property list behind). Everything else — a
capped read that never blocks on a FIFO, the header check, the ``since`` filter, conversion
through :mod:`.mailparse`, the reasons given for a partial read, and the incremental read by
file modification and inode-change time — is the same, and is written here once so the two cannot drift.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from bootstrap_app.errors import SourceError
from bootstrap_app.text.binary import binary_reason
from bootstrap_app.text.paths import is_text, printable
from bootstrap_app.types import Message

from ..base import ReadContext
from .filepool import FileJob, FileReader, Result, parallel_files
from .mailbody import extract_body
from .mailparse import ITEM_HEADERS, message_from_parts, parse_date, parse_header_block, split_message
from .tnef import tnef_reason
from .walk import ChangeCursor

__all__ = ["MAX_READ", "message_from_bytes", "read_capped", "read_message_files"]

MAX_READ = 16 * 1024 * 1024
"""Bytes read of one message file; a larger one is read up to here and reported as partial."""


def read_capped(path: Path, source_id: str, ref: str, ctx: ReadContext,
                st: os.stat_result | None = None) -> bytes | None:
    """Up to ``MAX_READ + 1`` bytes of a regular file, or None with the skip reason.
    ``st`` is the file's stat when the caller already has it (saves a second stat per file)."""
    try:
        if st is None:
            st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
            ctx.skip(source_id, ref, f"{printable(path)}: not a regular file")
            return None
        with open(path, "rb") as f:
            return f.read(MAX_READ + 1)
    except OSError as exc:
        ctx.skip(source_id, ref, f"{printable(path)}: unreadable ({exc.strerror or exc})")
        return None


def message_from_bytes(data: bytes, path: Path, source_id: str, ref: str, ctx: ReadContext,
                       sent_hint: bool | None, problem: str = "") -> Message | None:
    """An RFC 822 message -> Message, or None with the skip reason (not mail, or unreadable).

    A message dated before ``ctx.since`` is passed over silently. ``problem`` says why the bytes
    are only part of the file's message (``"larger than 16 MB"``); it is reported with the item.
    """
    block, body, complete = split_message(data)
    headers = parse_header_block(block, ITEM_HEADERS)  # the headers the item is made of, no others
    if not headers or not (headers.keys() & {"from", "to", "subject", "date", "message-id"}):
        ctx.skip(source_id, ref, f"{printable(path)}: " + (binary_reason(data, "an email message") or
                                                           "not an email message (no From/To/Subject/Date headers)"))
        return None
    if ctx.since is not None:
        when = parse_date(headers.get("date", ""))
        if when is not None and when < ctx.since:
            ctx.skip(source_id, ref, f"{printable(path)}: dated before --since; passed over")
            return None
    try:
        text = extract_body(headers, block, body)
        item = message_from_parts(headers, text, source=source_id, ref=ref, clean=ctx.clean,
                                  sent_hint=sent_hint)
        if why := tnef_reason(headers.get("content-type", ""), body, text):
            ctx.skip(source_id, ref, f"{printable(path)}: {why}")
    except Exception as exc:  # one bad message never stops the folder
        ctx.skip(source_id, ref, f"{printable(path)}: message unreadable ({exc})")
        return None
    if problem or not complete:
        ctx.skip(source_id, ref, f"{printable(path)}: {problem or 'header block never ends'}; read partially")
    return item


def read_message_files(source_id: str, root: Path, files: Iterable[tuple[Path, bool | None]],
                       ctx: ReadContext,
                       read: Callable[[Path, str, os.stat_result, bool | None], Message | None],
                       parallel: FileReader | None = None) -> Iterator[Message]:
    """Messages from ``(file, sent-folder hint)`` pairs under ``root``, read by ``read``.

    Incremental by modification and inode-change time (:class:`~.walk.ChangeCursor`: a file
    copied in with an old mtime is still read). Files come in name order, so a read that stops
    early leaves the cursor where it was. Refs are paths relative to ``root``; a name that is not valid UTF-8, or a file
    that cannot be stat'ed, is skipped with the reason. ``parallel``: the same reading as a
    module-level function (:data:`~.filepool.FileReader`); with ``ctx.jobs`` above 1 a large
    folder's files are then read by worker processes (:mod:`.filepool`), in the same order.
    """
    marks = ChangeCursor.load(ctx.cursor)
    count, stopped = 0, [False]
    wanted = _wanted(source_id, root, files, ctx, marks, stopped)
    if parallel is not None and ctx.jobs > 1:
        results: Iterator[Message | None] = _replayed(
            ctx, parallel_files(FileJob.of(source_id, parallel, ctx), ((p, ref, hint) for p, ref, _, hint in wanted),
                                ctx.jobs))
    else:
        results = (read(path, ref, st, hint) for path, ref, st, hint in wanted)
    try:
        for item in results:
            if ctx.should_stop():
                stopped[0] = True
                break
            if item is None:
                continue
            count += 1
            if count % 200 == 0:
                ctx.progress(source_id, count)
            yield item
    except OSError as exc:
        raise SourceError(f"{root}: cannot list messages ({exc.strerror})",
                          hint="check the folder's permissions") from exc
    ctx.progress(source_id, count)
    if not stopped[0]:
        ctx.new_cursor = marks.cursor()


def _wanted(source_id: str, root: Path, files: Iterable[tuple[Path, bool | None]], ctx: ReadContext,
            marks: ChangeCursor, stopped: list[bool]) -> Iterator[tuple[Path, str, os.stat_result, bool | None]]:
    """(file, ref, stat, hint) of each file to read: named in UTF-8, stat-able, new or changed;
    none once the scan is asked to stop (``stopped[0]`` says so: the cursor then stays)."""
    for path, hint in files:
        if ctx.should_stop():
            stopped[0] = True
            return
        ctx.find()  # the ledger: each file ends as a message, a skip or passed over
        ref = path.name if path == root else str(path.relative_to(root))
        if not is_text(ref):
            ctx.skip(source_id, printable(ref), f"{printable(path)}: file name is not valid UTF-8; "
                                                "rename it to have it read")
            continue
        try:
            st = path.stat()
        except OSError as exc:
            ctx.skip(source_id, ref, f"{printable(path)}: unreadable ({exc.strerror or exc})")
            continue
        if marks.seen(st):
            ctx.pass_over("unchanged since the last read")
            continue
        marks.note(st)
        yield path, ref, st, hint


def _replayed(ctx: ReadContext, results: Iterator[Result]) -> Iterator[Message | None]:
    """A worker's results as a one-process read gives them: the skips said, then the item."""
    for item, skips in results:
        for source, ref, reason in skips:
            ctx.skip(source, ref, reason)
        yield item
