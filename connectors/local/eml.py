"""A folder of ``.eml`` files, a single ``.eml``, or a maildir (``cur/new/tmp``, Maildir++ subfolders).

One file is one message; conversion is shared with the mbox reader (:mod:`.mailparse`), so a
message reads the same whichever way it was exported. Files are read one at a time and only
up to a cap (a 2 GB attachment is read partially and reported), so memory stays flat.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.text.paths import is_text, printable
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailfolders import is_sent_folder
from .mailparse import extract_body, message_from_parts, parse_date, parse_header_block, split_message
from .tnef import tnef_reason
from .walk import walk_files

__all__ = ["EmlSource", "is_maildir", "iter_message_files", "read_message_file"]

_MAX_READ = 16 * 1024 * 1024
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", "tmp"})


def is_maildir(path: Path) -> bool:
    """A maildir has ``cur`` and ``new`` folders (``tmp`` is optional in copies)."""
    return (path / "cur").is_dir() and (path / "new").is_dir()


def iter_message_files(root: Path, on_skip: Callable[[Path, str], None] = lambda p, why: None,
                       ) -> Iterator[tuple[Path, bool | None]]:
    """(file, sent-folder hint) for every message file under ``root``, in a stable order;
    what a folder walk leaves out (too deep, unlistable, a name that is not UTF-8) goes to
    ``on_skip`` with the reason."""
    if root.is_file():
        yield root, None
        return
    if is_maildir(root):
        folders: list[tuple[Path, bool | None]] = [(root, None)]
        for child in sorted(root.iterdir()):
            if child.name.startswith(".") and child.is_dir() and is_maildir(child):
                folders.append((child, True if is_sent_folder(child.name) else None))
        for folder, hint in folders:
            for sub in ("cur", "new"):
                for name in sorted(os.listdir(folder / sub)):
                    if not name.startswith("."):
                        yield folder / sub / name, hint
        return
    for path in walk_files(root, on_skip,
                           keep_dir=lambda d: not d.name.startswith(".") and d.name not in _SKIP_DIRS,
                           keep_file=lambda n: n.lower().endswith(".eml") and not n.startswith(".")):
        yield path, True if is_sent_folder(path.parent.name) else None


def read_message_file(path: Path, source_id: str, ref: str, ctx: ReadContext,
                      sent_hint: bool | None = None, *, st: os.stat_result | None = None) -> Message | None:
    """One file -> Message, or None (and a skip with the reason) when it cannot be read.
    ``st`` is the file's stat when the caller already has it (saves a second stat per file)."""
    try:
        if st is None:
            st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
            ctx.skip(source_id, ref, f"{path}: not a regular file")
            return None
        with open(path, "rb") as f:
            data = f.read(_MAX_READ + 1)
    except OSError as exc:
        ctx.skip(source_id, ref, f"{path}: unreadable ({exc.strerror or exc})")
        return None
    if not data.strip():
        ctx.skip(source_id, ref, f"{path}: empty file")
        return None
    if data[:5] == b"From ":  # an mbox-style envelope line in front of the headers
        data = data.split(b"\n", 1)[1] if b"\n" in data else b""
    partial = len(data) > _MAX_READ
    block, body, complete = split_message(data[:_MAX_READ])
    headers = parse_header_block(block)
    if not headers or not (headers.keys() & {"from", "to", "subject", "date", "message-id"}):
        ctx.skip(source_id, ref, f"{path}: not an email message (no From/To/Subject/Date headers)")
        return None
    if ctx.since is not None:
        when = parse_date(headers.get("date", ""))
        if when is not None and when < ctx.since:
            return None
    try:
        text = extract_body(headers, block, body)
        item = message_from_parts(headers, text, source=source_id, ref=ref, clean=ctx.clean,
                                  sent_hint=sent_hint)
        if why := tnef_reason(headers.get("content-type", ""), body, text):
            ctx.skip(source_id, ref, f"{path}: {why}")
    except Exception as exc:  # one bad message never stops the folder
        ctx.skip(source_id, ref, f"{path}: message unreadable ({exc})")
        return None
    if partial or not complete:
        why = f"larger than {_MAX_READ >> 20} MB" if partial else "header block never ends"
        ctx.skip(source_id, ref, f"{path}: {why}; read partially")
    return item


class EmlSource(Source):
    """``.eml`` files (a folder of them, or one) and maildirs."""

    kind: ClassVar[str] = "eml"
    description: ClassVar[str] = "folder of .eml files, a single .eml, or a maildir"
    priority: ClassVar[int] = 35
    cursor_doc: ClassVar[str] = "newest message-file modification time read"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_file():
            return path.suffix.lower() == ".eml"
        if not path.is_dir():
            return False
        if is_maildir(path):
            return True
        names = [p for p in path.iterdir() if not p.name.startswith(".")]
        files = [p for p in names if p.is_file()]
        eml = [p for p in files if p.suffix.lower() == ".eml"]
        return bool(eml) and len(eml) * 2 >= len(files) and not any(p.is_dir() and (p / ".git").exists()
                                                                     for p in names)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = Path(self.location)
        if not root.exists():
            raise SourceNotFound(f"{root}: no such file or folder", hint="check the path")
        since_mtime = float((ctx.cursor or {}).get("mtime", 0) or 0)
        newest = since_mtime
        count = 0
        stopped = False
        try:
            def left_out(path: Path, reason: str) -> None:
                ctx.skip(self.id, printable(path.relative_to(root)), reason)

            for path, hint in iter_message_files(root, left_out):
                if ctx.should_stop():
                    stopped = True
                    break
                ref = str(path.relative_to(root)) if path != root else path.name
                if not is_text(ref):
                    ctx.skip(self.id, printable(ref), f"{printable(path)}: file name is not valid UTF-8; "
                                                      "rename it to have it read")
                    continue
                try:
                    st = path.stat()
                except OSError as exc:
                    ctx.skip(self.id, ref, f"{path}: unreadable ({exc.strerror})")
                    continue
                if since_mtime and st.st_mtime < since_mtime:
                    continue
                newest = max(newest, st.st_mtime)
                item = read_message_file(path, self.id, ref, ctx, hint, st=st)
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
        if not stopped:  # files come in name order, so a partial read must not advance the cursor
            ctx.new_cursor = {"mtime": newest}
