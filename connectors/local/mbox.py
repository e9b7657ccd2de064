"""A fast, streaming mbox reader (Takeout's "All mail Including Spam and Trash.mbox" and friends).

Why not ``mailbox.mbox``: it builds a table of contents of the whole file first and then
parses every message completely with the ``email`` package — slow and memory-hungry on a
multi-GB Takeout file. Here the file is memory-mapped and split on ``From `` separator lines
with ``bytes.find`` (C speed); headers are parsed by :mod:`.mailparse` from the header block
only, and bodies are decoded only when asked for. Pages already read are dropped from the
mapping (``MADV_DONTNEED``) so resident memory stays flat however large the file is.

Separators: a line ``From <sender> <date>`` at the start of a line. Body lines that merely start
with ``From `` are accepted as separators only if they look like an envelope (contain a time of
day), which is what mboxo/mboxrd writers produce; ``>From `` quoting is undone (mboxrd).
Takeout's CRLF line endings are handled.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
from collections.abc import Iterator
from pathlib import Path

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.text.binary import binary_reason
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from . import mboxpool
from .eml import is_message_file
from .lazybody import MAX_BODY_BYTES, mbox_body_bytes
from .mailfolders import is_sent_folder
from .mboxitems import MboxJob, Outcome, outcomes
from .rawmessage import RawMessage
from .tnef import TNEF_SCAN_BYTES

__all__ = ["MboxSource", "RawMessage", "file_mode", "iter_mbox", "read_mbox"]

_ENVELOPE = re.compile(rb"From [^\r\n]*\d:\d\d[^\r\n]*\r?\n")
_MAX_HEADER_BYTES = 256 * 1024
_MAX_BODY_BYTES = MAX_BODY_BYTES
_PEEK_BYTES = TNEF_SCAN_BYTES
_RELEASE_EVERY = 8 * 1024 * 1024
_SEARCH_WINDOW = 32 * 1024 * 1024
_BOUNDARY_TAIL = 1024 * 1024
_CHECK_EVERY = 256 * 1024
"""How far the read moves on between two checks that the file did not shrink (an fstat)."""
_SHRANK = "the file shrank while being read (another program rewrote it); the rest is read on the next scan"


def _release(mm: mmap.mmap, upto: int, released: int) -> int:
    """Drop already-read pages of the mapping so RSS does not grow with the file."""
    advice = getattr(mmap, "MADV_DONTNEED", None)
    start = released - released % mmap.PAGESIZE
    end = upto - upto % mmap.PAGESIZE
    if advice is None or end - start < _RELEASE_EVERY:
        return released
    try:
        mm.madvise(advice, start, end - start)
    except (OSError, ValueError):
        return upto
    return end


def _shrank(fd: int, size: int) -> bool:
    """True when the file is now shorter than when it was mapped. Reading a mapped page past
    the new end would kill the process with SIGBUS, so each message (and each search window)
    looks first; another program rewriting the mailbox in place then costs the rest of this
    read, not the scan."""
    if fd < 0:
        return False
    try:
        return os.fstat(fd).st_size < size
    except OSError:
        return True


def _find_separator(mm: mmap.mmap, start: int, size: int, released: int, fd: int = -1) -> tuple[int, int]:
    """The next ``\nFrom `` at or after ``start``, searched window by window so that a single
    huge message (a 2 GB attachment, a sparse or corrupt tail) never keeps the whole of it
    mapped: pages already searched are dropped as the search moves on. Returns (position, -1
    when there is none, or -2 when the file shrank; new released offset)."""
    at = start
    while at < size:
        if at > start and _shrank(fd, size):
            return -2, released
        stop = min(size, at + _SEARCH_WINDOW)
        found = mm.find(b"\nFrom ", at, stop + 5)  # + 5: a separator straddling the window edge
        if found != -1:
            return found, released
        released = _release(mm, stop, released)
        at = stop
    return -1, released


def iter_mbox(path: str | os.PathLike[str], *, headers_only: bool = False, start: int = 0,
              stop: int | None = None, mode: tuple[bool, bool] | None = None,
              peek: bool = False) -> Iterator[RawMessage]:
    """Yield the messages of an mbox file in order, starting at byte ``start``.

    ``stop`` ends the read at a message boundary before the end of the file and ``mode`` is the
    file's (strict, crlf) as :func:`file_mode` found them at its start: together they read one
    byte range of a large file exactly as a read of the whole file splits it (the parallel
    reader, :mod:`.mboxpool`). ``peek`` keeps the head of multipart bodies (``body_head``) when
    ``headers_only``. Raises :class:`SourceNotFound` / :class:`SourceError` when the file cannot
    be opened or does not look like an mbox at all; damage inside the file never raises.
    """
    p = Path(path)
    try:
        f = open(p, "rb")  # noqa: SIM115 - closed in finally, the generator outlives a with block
    except FileNotFoundError as exc:
        raise SourceNotFound(f"{p}: no such mbox file", hint="check the path") from exc
    except OSError as exc:
        raise SourceError(f"{p}: cannot open mbox ({exc.strerror})",
                          hint="check the file's permissions") from exc
    try:
        size = os.fstat(f.fileno()).st_size
        if stop is not None:
            size = min(size, stop)
        if size == 0 or start >= size:
            return
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            yield from _scan(mm, size, p, start, headers_only, f.fileno(), mode=mode, peek=peek)
        finally:
            mm.close()
    finally:
        f.close()


def _first_message(mm: mmap.mmap, size: int, path: Path, start: int) -> tuple[int, bool, bool]:
    """(where the first message begins, strict, crlf) of a read starting at ``start``: strict when
    its separator looks like an envelope (then only such lines separate), crlf when its first
    line ends in CRLF. Raises :class:`SourceError` when no ``From `` line begins the read."""
    pos = start
    while pos < size and mm[pos:pos + 1] in (b"\n", b"\r", b" ", b"\t"):
        pos += 1
    if mm[pos:pos + 5] != b"From ":
        if why := binary_reason(mm[pos:pos + 8192], "an mbox"):
            raise SourceError(f"{path}: {why}", hint="export the mailbox again as mbox (text)")
        raise SourceError(f"{path}: not an mbox file (no 'From ' separator at byte {pos})",
                          hint="export the mailbox as mbox, or point memseed at a folder of .eml files")
    first_nl = mm.find(b"\n", pos)
    return pos, _ENVELOPE.match(mm, pos) is not None, first_nl > 0 and mm[first_nl - 1] == 13


def _scan(mm: mmap.mmap, size: int, path: Path, start: int, headers_only: bool,
          fd: int = -1, *, mode: tuple[bool, bool] | None = None, peek: bool = False) -> Iterator[RawMessage]:
    pos, strict, crlf = _first_message(mm, size, path, start)
    if mode is not None:
        strict, crlf = mode
    released = 0
    checked = pos - _CHECK_EVERY  # check at once, then every _CHECK_EVERY bytes
    while pos < size:
        if pos - checked >= _CHECK_EVERY:
            checked = pos
            if _shrank(fd, size):
                yield RawMessage(pos, size, "", truncated=_SHRANK)
                return
        nl = mm.find(b"\n", pos)
        if nl == -1:
            yield RawMessage(pos, size, mm[pos + 5:size].decode("latin-1"), truncated="file ends in a separator line")
            return
        envelope = mm[pos + 5:nl].rstrip(b"\r").decode("latin-1")
        content = nl + 1
        search = content
        while True:
            nxt, released = _find_separator(mm, search, size, released, fd)
            if nxt == -2:
                yield RawMessage(pos, size, envelope, truncated=_SHRANK)
                return
            if nxt == -1 or not strict or _ENVELOPE.match(mm, nxt + 1):
                break
            search = nxt + 1
        end, next_pos = (size, size) if nxt == -1 else (nxt, nxt + 1)
        yield _message(mm, pos, content, end, next_pos, envelope, last=nxt == -1, headers_only=headers_only,
                       crlf=crlf, peek=peek)
        pos = next_pos
        released = _release(mm, pos, released)


def _message(mm: mmap.mmap, pos: int, content: int, end: int, next_pos: int, envelope: str, *,
             last: bool, headers_only: bool, crlf: bool, peek: bool = False) -> RawMessage:
    truncated = ""
    if mm[content:content + 1] in (b"\n", b"\r"):
        hdr_end, body_start = content, content + (2 if mm[content:content + 2] == b"\r\n" else 1)
    else:
        limit = min(end, content + _MAX_HEADER_BYTES)
        found = _header_end(mm, content, limit, crlf)
        if found:
            hdr_end, body_start = found
        else:  # no blank line: a message without a body, or a file cut off in its headers
            hdr_end = body_start = limit
            if last and end > content and mm[end - 1] != 10:
                truncated = "header block never ends (file cut off in the headers)"
    block = mm[content:hdr_end]
    raw = RawMessage(pos, next_pos, envelope, block, truncated=truncated)
    if last and not truncated:
        if end > 0 and mm[end - 1] != 10:
            raw.truncated = "file ends mid-line (last message cut off)"
        else:
            boundary = _boundary(raw.header("content-type"))
            tail = max(body_start, end - _BOUNDARY_TAIL)  # the closing boundary is at the end
            if boundary and mm.rfind(b"--" + boundary + b"--", tail, end) == -1:
                raw.truncated = "closing MIME boundary missing (last message cut off)"
    body_end = max(end, body_start)
    if body_end - body_start > _MAX_BODY_BYTES:
        body_end = body_start + _MAX_BODY_BYTES
        raw.oversize = True
    raw.span = (content, hdr_end, body_start, body_end)
    if headers_only:
        if peek and "multipart" in raw.header("content-type").lower():
            raw.body_head = mm[body_start:min(body_end, body_start + _PEEK_BYTES)]
        return raw
    raw.body = mbox_body_bytes(mm[body_start:body_end]) if body_end > body_start else b""
    return raw


def _header_end(mm: mmap.mmap, start: int, limit: int, crlf: bool) -> tuple[int, int] | None:
    """(end of header block, start of body): the first empty line. The file's own line ending
    is tried first so a miss does not scan the whole message twice."""
    seps = (b"\r\n\r\n", b"\n\n") if crlf else (b"\n\n", b"\n\r\n")
    for sep in seps:
        at = mm.find(sep, start, limit)
        if at != -1:
            return at, at + len(sep)
    return None


def _boundary(content_type: str) -> bytes:
    m = re.search(r'boundary\s*=\s*"?([^";]+)"?', content_type, re.IGNORECASE)
    return m.group(1).strip().encode("latin-1", "replace") if m else b""


def _head_digest(path: Path, length: int, offset: int = 0) -> tuple[str, bytes]:
    """Digest of the first ``length`` bytes (is it still the same file?) and the 5 bytes at
    ``offset`` (is a separator still there?)."""
    with open(path, "rb") as f:
        head = hashlib.sha256(f.read(length)).hexdigest()[:16]
        f.seek(offset)
        return head, f.read(5)


def file_mode(path: Path, start: int = 0) -> tuple[int, tuple[bool, bool]]:
    """(where the first message at or after ``start`` begins, the file's (strict, crlf) mode):
    what each byte range of a parallel read must share with a read of the whole file."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        pos, strict, crlf = _first_message(mm, len(mm), path, start)
    return pos, (strict, crlf)


def read_mbox(path: Path, source_id: str, ctx: ReadContext, *, display: str = "",
              lazy: bool = True) -> Iterator[Message]:
    """Yield Message items of one mbox; used by :class:`MboxSource` and the Takeout connector.

    ``lazy``: bodies are decoded when first read (:mod:`.lazybody`), which needs the file to
    stay where it is until the scan ends; a caller reading a temporary copy passes False. With
    ``ctx.jobs`` above 1 a large file is parsed by worker processes (:mod:`.mboxpool`); the
    items, skips and resume point are the same as a one-process read's, in the same order.
    """
    label = display or str(path)
    try:
        stat = path.stat()
    except FileNotFoundError as exc:
        raise SourceNotFound(f"{label}: no such mbox file", hint="check the path") from exc
    start = 0
    cur = ctx.cursor or {}
    offset = int(cur.get("offset", 0) or 0)
    head_len = min(4096, int(cur.get("size", 0) or 0) or stat.st_size, stat.st_size)
    head, at = _head_digest(path, head_len, offset)
    same_file = cur.get("head") == head and int(cur.get("size", -1)) <= stat.st_size
    if same_file and (offset >= stat.st_size or at == b"From "):
        start = offset  # an appended mbox: read only what is new
    count = skipped_labels = found = older = 0
    resume = start
    job = MboxJob(str(path), source_id, label, ctx.max_text_chars, ctx.cleaner, ctx.since,
                  True if is_sent_folder(path.name) else None,  # Thunderbird's "Sent", Apple's "Sent Messages"
                  lazy, ctx.prepare)
    try:
        for out in _outcomes(job, start, stat.st_size, ctx):
            if ctx.should_stop():
                break
            found += 1  # the ledger: every message ends as an item, a skip or passed over
            for ref, reason in out.skips:
                ctx.skip(source_id, ref, reason)
            if out.stop:
                break
            if out.resume >= 0:
                resume = out.resume
            skipped_labels += out.spam
            if out.item is None:
                older += not (out.skips or out.spam)  # dated before --since
                continue
            yield out.item
            count += 1
            if count % 500 == 0:
                ctx.progress(source_id, count)
                ctx.progress_bytes(source_id, resume - start, stat.st_size - start)
    except OSError as exc:
        raise SourceError(f"{label}: read failed ({exc})", hint="check the disk and the file") from exc
    ctx.find(found)
    ctx.pass_over("older than --since", older)
    ctx.pass_over("in Spam or Trash", skipped_labels)
    if skipped_labels:
        ctx.skip(source_id, "labels:Spam/Trash", f"{label}: {skipped_labels} messages in Spam or Trash left out",
                 note=True)
    ctx.progress(source_id, count)
    ctx.progress_bytes(source_id, resume - start, stat.st_size - start)
    if head_len != min(4096, stat.st_size):
        head, _ = _head_digest(path, min(4096, stat.st_size))
    ctx.new_cursor = {"offset": resume, "size": stat.st_size, "mtime": stat.st_mtime, "head": head}


def _outcomes(job: MboxJob, start: int, size: int, ctx: ReadContext) -> Iterator[Outcome]:
    """The file's outcomes in order: in worker processes when it is worth it, else here."""
    if ctx.jobs <= 1 or size - start < mboxpool.MIN_BYTES:
        return outcomes(iter_mbox, job, start)
    pos, mode = file_mode(Path(job.path), start)
    return mboxpool.parallel_outcomes(iter_mbox, job, pos, size, mode, ctx.jobs)


def _one_message(path: Path) -> bool:
    """True for a file that starts with a message's header block rather than a ``From `` line."""
    try:
        with open(path, "rb") as f:
            if f.read(5) == b"From ":
                return False
    except OSError:
        return False
    return is_message_file(path)


class MboxSource(Source, kind="mbox", priority=30,
                 description="mbox mailbox file (Takeout, Thunderbird, mutt)",
                 cursor_doc="byte offset, size, mtime and head of the file: appended mail is read from the offset"):
    """A Unix mbox file (``.mbox``, ``.mbx``, or any file whose first line is a ``From `` separator)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_file():
            return False
        if path.suffix.lower() in (".mbox", ".mbx"):
            # an ``.mbx`` holding one message with no ``From `` line is that message (the eml reader's)
            return path.stat().st_size == 0 or not _one_message(path)
        if not path.suffix and path.with_name(path.name + ".msf").is_file():
            return path.stat().st_size > 0  # a Thunderbird folder: mbox without extension beside its index
        try:
            with open(path, "rb") as f:
                first = f.read(512)
        except OSError:
            return False
        return _ENVELOPE.match(first) is not None

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        yield from read_mbox(Path(self.location), self.id, ctx)
