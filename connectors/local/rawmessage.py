"""One message as an mbox reader finds it in the file: its byte span, envelope and header block.

Why a module of its own: the reader (:mod:`.mbox`) makes these and the per-message decision
(:mod:`.mboxitems`) consumes them, in the scanning process and in worker processes alike. Kept
in either of the two, the other had to import it back (a cycle, once hidden behind
``TYPE_CHECKING``); here both import it and it imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .mailparse import _MULTI_HEADERS, ITEM_HEADERS, parse_header_block

__all__ = ["RawMessage"]


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
    span: tuple[int, int, int, int] = field(default=(0, 0, 0, 0), init=False)
    """(header block start, header block end, body start, body end) in the file: what a
    :class:`~.lazybody.FileBody` reads the body back from."""
    body_head: bytes = field(default=b"", init=False)
    """With ``peek``: the first bytes of a multipart body (enough to see a winmail.dat part)."""
    _headers: dict[str, str] | None = field(default=None, init=False)
    _item_headers: dict[str, str] | None = field(default=None, init=False)
    _lower: bytes | None = field(default=None, init=False)

    @property
    def headers(self) -> dict[str, str]:
        if self._headers is None:
            self._headers = parse_header_block(self.header_block)
        return self._headers

    @property
    def item_headers(self) -> dict[str, str]:
        """Only the headers an item is built from (:data:`~.mailparse.ITEM_HEADERS`), parsed on first
        use: the same values as :attr:`headers` for those names, without unfolding the rest."""
        if self._headers is not None:
            return self._headers
        if self._item_headers is None:
            self._item_headers = parse_header_block(self.header_block, ITEM_HEADERS)
        return self._item_headers

    def header(self, name: str, default: str = "") -> str:
        """One header's unfolded value (first occurrence; To/Cc occurrences joined)."""
        if self._headers is not None:
            return self._headers.get(name.lower(), default)
        if self._lower is None:
            self._lower = b"\n" + self.header_block.lower()
        lname, key = _header_key(name)
        at = self._lower.find(key)
        if at != -1 and lname not in _MULTI_HEADERS:  # the common case: one value, the first
            return self._value_at(at + len(key) - 1)
        values: list[str] = []
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


@lru_cache(maxsize=64)
def _header_key(name: str) -> tuple[str, bytes]:
    """(lower-case name, the bytes :meth:`RawMessage.header` finds it by): a reader asks for the
    same few names for every message."""
    lname = name.lower()
    return lname, b"\n" + lname.encode("ascii", "replace") + b":"
