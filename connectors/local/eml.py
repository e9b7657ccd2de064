"""A folder of ``.eml`` files, a single message file, or a maildir (``cur/new/tmp``, Maildir++ subfolders).

A maildir is a folder with any of ``cur/``, ``new/``, ``tmp/`` and nothing else visible (git
checkouts, test fixtures and copied archives drop the empty ones; a Maildir holding only
``cur/`` lost its messages without a word when both ``cur`` and ``new`` were required). A file
is one message when its first lines are an RFC 822 header block (a ``From:``, ``Date:``,
``Subject:`` or ``Message-ID:`` among them), whatever its name: ``.mbx``, ``.txt``, no extension.

One file is one message; conversion is shared with the mbox reader (:mod:`.mailparse`), so a
message reads the same whichever way it was exported. Files are read one at a time (a large
folder by worker processes, in the same order: :mod:`.filepool`) and only up to a cap (a 2 GB
attachment is read partially and reported), so memory stays flat.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailfiles import MAX_READ, message_from_bytes, read_capped, read_message_files
from .mailfolders import is_sent_folder
from .walk import holds_files_named, not_read, skips_under, walk_files

__all__ = ["EmlSource", "is_maildir", "iter_message_files", "read_message_file"]

_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", "tmp"})


_MAILDIR_SUBS = ("cur", "new", "tmp")
_MAILDIR_FILES = ("maildirfolder", "maildirsize", "subscriptions", "dovecot", "courierimap")
"""Names of the bookkeeping files mail servers keep beside ``cur/new/tmp`` (by prefix)."""
_HEADER_LINE = re.compile(rb"[!-9;-~]+:[^\r\n]*\r?\n")
_KEY_HEADERS = re.compile(rb"^(?:from|date|subject|message-id):", re.IGNORECASE | re.MULTILINE)


def is_maildir(path: Path) -> bool:
    """A maildir: ``cur`` and ``new`` folders, or any of ``cur``/``new``/``tmp`` as the folder's only
    visible entries besides a mail server's bookkeeping files (copies drop the empty ones)."""
    try:
        if (path / "cur").is_dir() and (path / "new").is_dir():
            return True
        names = [n for n in os.listdir(path) if not n.startswith(".")]
    except OSError:
        return False
    subs = [n for n in names if n in _MAILDIR_SUBS and (path / n).is_dir()]
    return bool(subs) and all(n in subs or n.lower().startswith(_MAILDIR_FILES) for n in names)


def is_message_file(path: Path) -> bool:
    """A file whose head is an RFC 822 header block naming a sender, date, subject or id: one
    message, whatever its name (an ``mbox`` envelope line in front is allowed)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    if head.startswith(b"From "):
        head = head.split(b"\n", 1)[1] if b"\n" in head else b""
    lines = 0
    pos = 0
    while lines < 3:  # the first three lines must be header fields
        m = _HEADER_LINE.match(head, pos)
        if m is None:
            return False
        pos, lines = m.end(), lines + 1
        while pos < len(head) and head[pos:pos + 1] in (b" ", b"\t"):  # a folded continuation
            nl = head.find(b"\n", pos)
            pos = len(head) if nl == -1 else nl + 1
    end = head.find(b"\n\n")
    return _KEY_HEADERS.search(head[:end if end != -1 else len(head)]) is not None


def iter_message_files(root: Path, on_skip: Callable[[Path, str], None] = lambda p, why: None,
                       on_other: Callable[[Path], None] | None = None) -> Iterator[tuple[Path, bool | None]]:
    """(file, sent-folder hint) for every message file under ``root``, in a stable order;
    what a folder walk leaves out (too deep, unlistable, a name that is not UTF-8) goes to
    ``on_skip`` with the reason."""
    if root.is_file():
        yield root, None
        return
    if is_maildir(root):
        yield from _maildir_files(root, on_skip)
        return
    for path in walk_files(root, on_skip,
                           keep_dir=lambda d: not d.name.startswith(".") and d.name not in _SKIP_DIRS,
                           keep_file=lambda n: n.lower().endswith(".eml") and not n.startswith("."),
                           on_other=on_other):
        yield path, True if is_sent_folder(path.parent.name) else None


def _maildir_files(root: Path, on_skip: Callable[[Path, str], None]) -> Iterator[tuple[Path, bool | None]]:
    """The message files of a maildir and its Maildir++ sub-folders (``.Sent``): those of ``cur/``
    and ``new/``; a file in ``tmp/`` (a delivery not finished) is reported as passed over, a
    sub-folder that cannot be listed as such."""
    folders: list[tuple[Path, bool | None]] = [(root, None)]
    for child in sorted(root.iterdir()):
        if child.name.startswith(".") and child.is_dir() and is_maildir(child):
            folders.append((child, True if is_sent_folder(child.name) else None))
    for folder, hint in folders:
        for sub in _MAILDIR_SUBS:
            where = folder / sub
            if not where.is_dir():
                continue
            try:
                names = sorted(n for n in os.listdir(where) if not n.startswith("."))
            except OSError as exc:
                on_skip(where, f"{printable(where)}: folder cannot be listed ({exc.strerror or exc})")
                continue
            for name in names:
                if sub == "tmp":
                    on_skip(where / name, f"{printable(where / name)}: in tmp/, a delivery not finished; passed over")
                else:
                    yield where / name, hint


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
                description="folder of .eml files, a single message file (any name), or a maildir",
                cursor_doc="newest message-file modification and inode-change time read"):
    """``.eml`` files (a folder of them, or one) and maildirs."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_file() and not path.name.lower().endswith(".eml"):
            return is_message_file(path)
        return (path.is_dir() and is_maildir(path)) or holds_files_named(path, ".eml")

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.local_path()

        def read(path: Path, ref: str, st: os.stat_result, hint: bool | None) -> Message | None:
            return read_message_file(path, self.id, ref, ctx, hint, st=st)

        files = iter_message_files(root, skips_under(root, self.id, ctx.skip, ctx.find),
                                   not_read(ctx.find, ctx.pass_over))
        yield from read_message_files(self.id, root, files, ctx, read, parallel=read_message_file)
