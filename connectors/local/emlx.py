"""Apple Mail mailboxes: ``.emlx`` files inside ``<Name>.mbox`` folders.

Apple Mail keeps one message per ``.emlx`` file under
``~/Library/Mail/V*/<account>/<Name>.mbox/<uuid>/Data/…/Messages/``. A file is the message's
byte count on the first line, then exactly that many bytes of RFC 822 message, then an XML
property list with Apple's flags (ignored). ``.partial.emlx`` files hold a message whose
attachments were not downloaded: the text is there, so they are read the same way.

The mailbox folder is the source (``Sent Messages.mbox`` marks its messages ``Sent``); the
message text goes through the same conversion as ``.eml`` files (:mod:`.mailparse`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailfolders import is_sent_folder
from .mailparse import extract_body, message_from_parts, parse_date, parse_header_block, split_message
from .walk import walk_files

__all__ = ["EmlxSource", "parse_emlx", "read_emlx"]

_MAX_READ = 16 * 1024 * 1024


def parse_emlx(data: bytes) -> tuple[bytes, str]:
    """(message bytes, problem) of an ``.emlx`` file's content; problem is ``""`` when whole."""
    first, sep, rest = data.partition(b"\n")
    try:
        length = int(first.strip())
    except ValueError:
        return b"", "not an Apple Mail message (no byte count on the first line)"
    if not sep or length <= 0:
        return b"", "not an Apple Mail message (empty)"
    if length > len(rest):
        return rest, f"message cut short ({len(rest)} of {length} bytes)"
    return rest[:length], ""


def read_emlx(path: Path, source_id: str, ref: str, ctx: ReadContext, sent: bool) -> Message | None:
    """One ``.emlx`` file -> Message, or None with a skip reason."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            ctx.skip(source_id, ref, f"{printable(path)}: not a regular file")
            return None
        with open(path, "rb") as f:
            data = f.read(_MAX_READ + 1)
    except OSError as exc:
        ctx.skip(source_id, ref, f"{printable(path)}: unreadable ({exc.strerror or exc})")
        return None
    message, problem = parse_emlx(data[:_MAX_READ])
    if not message:
        ctx.skip(source_id, ref, f"{printable(path)}: {problem}")
        return None
    block, body, _complete = split_message(message)
    headers = parse_header_block(block)
    if not headers or not (headers.keys() & {"from", "to", "subject", "date", "message-id"}):
        ctx.skip(source_id, ref, f"{printable(path)}: not an email message (no From/To/Subject/Date headers)")
        return None
    if ctx.since is not None:
        when = parse_date(headers.get("date", ""))
        if when is not None and when < ctx.since:
            return None
    try:
        item = message_from_parts(headers, extract_body(headers, block, body), source=source_id, ref=ref,
                                  clean=ctx.clean, sent_hint=True if sent else None)
    except Exception as exc:  # one bad message never stops the mailbox
        ctx.skip(source_id, ref, f"{printable(path)}: message unreadable ({exc})")
        return None
    if problem or len(data) > _MAX_READ:
        ctx.skip(source_id, ref, f"{printable(path)}: {problem or 'larger than 16 MB'}; read partially")
    return item


def _has_emlx(folder: Path, depth: int = 0) -> bool:
    """An ``.emlx`` within a few levels (``<uuid>/Data/<n>/<n>/Messages`` is the deepest)."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return False
    if any(e.name.endswith(".emlx") for e in entries):
        return True
    return depth < 6 and any(e.is_dir(follow_symlinks=False) and _has_emlx(Path(e.path), depth + 1)
                             for e in entries[:64])


class EmlxSource(Source):
    """An Apple Mail mailbox folder (``<Name>.mbox`` holding ``.emlx`` files), or one ``.emlx``."""

    kind: ClassVar[str] = "emlx"
    description: ClassVar[str] = "Apple Mail mailbox (.mbox folder of .emlx files)"
    priority: ClassVar[int] = 34
    cursor_doc: ClassVar[str] = "newest .emlx modification time read"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_file():
            return path.name.lower().endswith(".emlx")
        return path.is_dir() and path.suffix.lower() == ".mbox" and _has_emlx(path)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = Path(self.location)
        if not root.exists():
            raise SourceNotFound(f"{root}: no such Apple Mail mailbox", hint="check the path")
        sent = is_sent_folder(root.name if root.is_dir() else root.parent.name)
        since_mtime = float((ctx.cursor or {}).get("mtime", 0) or 0)
        newest, count, stopped = since_mtime, 0, False

        def left_out(path: Path, reason: str) -> None:
            ctx.skip(self.id, printable(path.relative_to(root)), reason)

        files = [root] if root.is_file() else walk_files(
            root, left_out, keep_dir=lambda d: not d.name.startswith("."),
            keep_file=lambda n: n.endswith(".emlx") and not n.startswith("."))
        try:
            for path in files:
                if ctx.should_stop():
                    stopped = True
                    break
                ref = path.name if path == root else str(path.relative_to(root))
                try:
                    mtime = path.stat().st_mtime
                except OSError as exc:
                    ctx.skip(self.id, ref, f"{printable(path)}: unreadable ({exc.strerror or exc})")
                    continue
                if since_mtime and mtime < since_mtime:
                    continue
                newest = max(newest, mtime)
                item = read_emlx(path, self.id, ref, ctx, sent)
                if item is None:
                    continue
                count += 1
                if count % 200 == 0:
                    ctx.progress(self.id, count)
                yield item
        except OSError as exc:
            raise SourceError(f"{root}: cannot list messages ({exc.strerror})",
                              hint="check the folder's permissions") from exc
        ctx.progress(self.id, count)
        if not stopped:
            ctx.new_cursor = {"mtime": newest}
