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
from dataclasses import dataclass, field
from pathlib import Path

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import Item, Message

from ..base import ReadContext, Source
from .mailbody import extract_body
from .mailfolders import is_sent_folder
from .mailparse import _MULTI_HEADERS, message_from_parts, parse_date, parse_header_block
from .tnef import tnef_reason

__all__ = ["MboxSource", "RawMessage", "iter_mbox", "read_mbox"]

_ENVELOPE = re.compile(rb"From [^\r\n]*\d:\d\d[^\r\n]*\r?\n")
_FROM_QUOTED = re.compile(rb"(?m)^>(>*From )")
_MAX_HEADER_BYTES = 256 * 1024
_MAX_BODY_BYTES = 16 * 1024 * 1024
_RELEASE_EVERY = 8 * 1024 * 1024
_SEARCH_WINDOW = 32 * 1024 * 1024
_BOUNDARY_TAIL = 1024 * 1024
_CHECK_EVERY = 256 * 1024
"""How far the read moves on between two checks that the file did not shrink (an fstat)."""
_SHRANK = "the file shrank while being read (another program rewrote it); the rest is read on the next scan"
_SKIP_LABELS = frozenset({"spam", "trash", "[imap]/trash", "[gmail]/spam", "[gmail]/trash"})


@dataclass(slots=True, eq=False, repr=False)
class RawMessage:
    """One message as found in the file: byte span, envelope, header block and (unless
    ``headers_only``) the body with ``>From`` unquoted.

    Headers are parsed lazily: :meth:`header` finds a single header in the raw block without
    parsing the rest, :attr:`headers` parses them all on first use.
    """

    offset: int
    next_offset: int
    envelope: str
    header_block: bytes = b""
    body: bytes = b""
    truncated: str = ""
    """Why the message is incomplete (empty when it is whole)."""
    oversize: bool = field(default=False, init=False)
    _headers: dict[str, str] | None = field(default=None, init=False)
    _lower: bytes | None = field(default=None, init=False)

    @property
    def headers(self) -> dict[str, str]:
        if self._headers is None:
            self._headers = parse_header_block(self.header_block)
        return self._headers

    def header(self, name: str, default: str = "") -> str:
        """One header's unfolded value (first occurrence; To/Cc occurrences joined)."""
        if self._headers is not None:
            return self._headers.get(name.lower(), default)
        if self._lower is None:
            self._lower = b"\n" + self.header_block.lower()
        lname = name.lower()
        key = b"\n" + lname.encode("ascii", "replace") + b":"
        values: list[str] = []
        at = self._lower.find(key)
        while at != -1:
            values.append(self._value_at(at + len(key) - 1))
            if lname not in _MULTI_HEADERS:
                break
            at = self._lower.find(key, at + 1)
        if values:
            return ", ".join(v for v in values if v) if lname in _MULTI_HEADERS else values[0]
        if b" :" in self._lower or b"\t:" in self._lower:  # "Name :" spacing: parse properly
            return self.headers.get(lname, default)
        return default

    def _value_at(self, start: int) -> str:
        block = self.header_block
        end = block.find(b"\n", start)
        while end != -1 and block[end + 1:end + 2] in (b" ", b"\t"):
            end = block.find(b"\n", end + 1)
        raw = block[start:] if end == -1 else block[start:end]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        if "\n" in text:
            text = " ".join(part.strip() for part in text.splitlines())
        return text.strip()


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


def iter_mbox(path: str | os.PathLike[str], *, headers_only: bool = False,
              start: int = 0) -> Iterator[RawMessage]:
    """Yield the messages of an mbox file in order, starting at byte ``start``.

    Raises :class:`SourceNotFound` / :class:`SourceError` when the file cannot be opened or
    does not look like an mbox at all; damage inside the file never raises.
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
        if size == 0 or start >= size:
            return
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            yield from _scan(mm, size, p, start, headers_only, f.fileno())
        finally:
            mm.close()
    finally:
        f.close()


def _scan(mm: mmap.mmap, size: int, path: Path, start: int, headers_only: bool,
          fd: int = -1) -> Iterator[RawMessage]:
    pos = start
    while pos < size and mm[pos:pos + 1] in (b"\n", b"\r", b" ", b"\t"):
        pos += 1
    if mm[pos:pos + 5] != b"From ":
        raise SourceError(f"{path}: not an mbox file (no 'From ' separator at byte {pos})",
                          hint="export the mailbox as mbox, or point memseed at a folder of .eml files")
    strict = _ENVELOPE.match(mm, pos) is not None
    first_nl = mm.find(b"\n", pos)
    crlf = first_nl > 0 and mm[first_nl - 1] == 13
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
                       crlf=crlf)
        pos = next_pos
        released = _release(mm, pos, released)


def _message(mm: mmap.mmap, pos: int, content: int, end: int, next_pos: int, envelope: str, *,
             last: bool, headers_only: bool, crlf: bool) -> RawMessage:
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
    if headers_only:
        return raw
    body_end = end
    if body_end - body_start > _MAX_BODY_BYTES:
        body_end = body_start + _MAX_BODY_BYTES
        raw.oversize = True
    body = mm[body_start:body_end] if body_end > body_start else b""
    if body.endswith(b"\r"):
        body = body[:-1]
    if b">From " in body:
        body = _FROM_QUOTED.sub(rb"\1", body)
    raw.body = body
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


def read_mbox(path: Path, source_id: str, ctx: ReadContext, *, display: str = "") -> Iterator[Message]:
    """Yield Message items of one mbox; used by :class:`MboxSource` and the Takeout connector."""
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
    count = skipped_labels = 0
    resume = start
    sent_hint = True if is_sent_folder(path.name) else None  # Thunderbird's "Sent", Apple's "Sent Messages"
    try:
        for raw in iter_mbox(path, start=start):
            if ctx.should_stop():
                break
            ref = raw.header("message-id").strip() or f"@{raw.offset}"
            if raw.truncated and not raw.header_block:
                ctx.skip(source_id, f"@{raw.offset}", f"{label}: {raw.truncated}; message skipped")
                break
            if raw.truncated.startswith("header block"):
                ctx.skip(source_id, ref, f"{label}: {raw.truncated}; message skipped")
                continue
            resume = raw.offset if raw.truncated else raw.next_offset
            labels = {x.strip().lower() for x in raw.header("x-gmail-labels").split(",")}
            if labels & _SKIP_LABELS:
                skipped_labels += 1
                continue
            if ctx.since is not None:
                when = parse_date(raw.header("date"))
                if when is not None and when < ctx.since:
                    continue
            try:
                body = extract_body(raw.headers, raw.header_block, raw.body)
                item = message_from_parts(raw.headers, body, source=source_id, ref=ref, clean=ctx.clean,
                                          sent_hint=sent_hint)
                if why := tnef_reason(raw.headers.get("content-type", ""), raw.body, body):
                    ctx.skip(source_id, ref, f"{label}: {why}")
            except Exception as exc:  # one bad message never stops the mailbox
                ctx.skip(source_id, ref, f"{label}: message at byte {raw.offset} unreadable ({exc})")
                continue
            if raw.truncated:
                ctx.skip(source_id, ref, f"{label}: {raw.truncated}; read partially")
            if raw.oversize:
                ctx.skip(source_id, ref, f"{label}: message over {_MAX_BODY_BYTES >> 20} MB; body read partially")
            yield item
            count += 1
            if count % 500 == 0:
                ctx.progress(source_id, count)
    except OSError as exc:
        raise SourceError(f"{label}: read failed ({exc})", hint="check the disk and the file") from exc
    if skipped_labels:
        ctx.skip(source_id, "labels:Spam/Trash", f"{label}: {skipped_labels} messages in Spam or Trash left out")
    ctx.progress(source_id, count)
    if head_len != min(4096, stat.st_size):
        head, _ = _head_digest(path, min(4096, stat.st_size))
    ctx.new_cursor = {"offset": resume, "size": stat.st_size, "mtime": stat.st_mtime, "head": head}


class MboxSource(Source, kind="mbox", priority=30,
                 description="mbox mailbox file (Takeout, Thunderbird, mutt)",
                 cursor_doc="byte offset, size, mtime and head of the file: appended mail is read from the offset"):
    """A Unix mbox file (``.mbox``, ``.mbx``, or any file whose first line is a ``From `` separator)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_file():
            return False
        if path.suffix.lower() in (".mbox", ".mbx"):
            return True
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
