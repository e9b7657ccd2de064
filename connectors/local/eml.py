"""A folder of ``.eml`` files, a single ``.eml``, or a maildir (``cur/new/tmp``, Maildir++ subfolders).

One file is one message; conversion is shared with the mbox reader (:mod:`.mailparse`), so a
message reads the same whichever way it was exported. Files are read one at a time (a large
folder by worker processes, in the same order: :mod:`.filepool`) and only up to a cap (a 2 GB
attachment is read partially and reported), so memory stays flat.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailfiles import MAX_READ, message_from_bytes, read_capped, read_message_files
from .mailfolders import is_sent_folder
from .walk import holds_files_named, skips_under, walk_files

__all__ = ["EmlSource", "is_maildir", "iter_message_files", "read_message_file"]

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
    data = read_capped(path, source_id, ref, ctx, st)
    if data is None:
        return None
    if not data.strip():
        ctx.skip(source_id, ref, f"{printable(path)}: empty file")
        return None
    if data[:5] == b"From ":  # an mbox-style envelope line in front of the headers
        data = data.split(b"\n", 1)[1] if b"\n" in data else b""
    problem = f"larger than {MAX_READ >> 20} MB" if len(data) > MAX_READ else ""
    return message_from_bytes(data[:MAX_READ], path, source_id, ref, ctx, sent_hint, problem)


class EmlSource(Source, kind="eml", priority=35,
                description="folder of .eml files, a single .eml, or a maildir",
                cursor_doc="newest message-file modification and inode-change time read"):
    """``.eml`` files (a folder of them, or one) and maildirs."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return (path.is_dir() and is_maildir(path)) or holds_files_named(path, ".eml")

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.local_path()

        def read(path: Path, ref: str, st: os.stat_result, hint: bool | None) -> Message | None:
            return read_message_file(path, self.id, ref, ctx, hint, st=st)

        files = iter_message_files(root, skips_under(root, self.id, ctx.skip))
        yield from read_message_files(self.id, root, files, ctx, read, parallel=read_message_file)
