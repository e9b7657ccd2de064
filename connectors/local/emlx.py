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
from collections.abc import Iterator
from pathlib import Path

from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailfiles import MAX_READ, message_from_bytes, read_capped, read_message_files
from .mailfolders import is_sent_folder
from .walk import files_named, not_read, skips_under

__all__ = ["EmlxSource", "parse_emlx", "read_emlx"]


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


def read_emlx(path: Path, source_id: str, ref: str, ctx: ReadContext, sent: bool,
              st: os.stat_result | None = None) -> Message | None:
    """One ``.emlx`` file -> Message, or None with a skip reason."""
    data = read_capped(path, source_id, ref, ctx, st)
    if data is None:
        return None
    message, problem = parse_emlx(data[:MAX_READ])
    if not message:
        ctx.skip(source_id, ref, f"{printable(path)}: {problem}")
        return None
    if not problem and len(data) > MAX_READ:
        problem = f"larger than {MAX_READ >> 20} MB"
    return message_from_bytes(message, path, source_id, ref, ctx, True if sent else None, problem)


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


class EmlxSource(Source, kind="emlx", priority=34,
                 description="Apple Mail mailbox (.mbox folder of .emlx files)",
                 cursor_doc="newest .emlx modification and inode-change time read"):
    """An Apple Mail mailbox folder (``<Name>.mbox`` holding ``.emlx`` files), or one ``.emlx``."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_file():
            return path.name.lower().endswith(".emlx")
        return path.is_dir() and path.suffix.lower() == ".mbox" and _has_emlx(path)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.local_path("Apple Mail mailbox")
        sent = is_sent_folder(root.name if root.is_dir() else root.parent.name)

        def read(path: Path, ref: str, st: os.stat_result, hint: bool | None) -> Message | None:
            return read_emlx(path, self.id, ref, ctx, sent, st)

        files = files_named(root, ".emlx", skips_under(root, self.id, ctx.skip, ctx.find),
                            not_read(ctx.find, ctx.pass_over))
        yield from read_message_files(self.id, root, ((path, None) for path in files), ctx, read)
