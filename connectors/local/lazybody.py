"""A message whose body is decoded when something reads it, not when the mailbox is read.

Why: on a large mailbox most bodies are never looked at. The analyzers that read text (the
profile's signatures and contact blocks, working rules, the LLM sample) need the owner's own
mail and a few messages per correspondent; a thousand notifications need their headers only.
Decoding every body (transfer encodings, charsets, MIME, HTML, secret redaction) was the larger
part of a scan's cost, so an mbox reader hands out :class:`LazyMessage` items: every header
field is parsed, and ``body`` is read back from the file, decoded, trimmed and cleaned the
first time it is asked for (then kept).

What the body is read from: a :class:`FileBody` names the file and the byte span of the
message (header block and body), nothing more, so an item that a consumer keeps for later
costs a few numbers instead of its raw bytes, and it pickles cheaply across processes (the
parallel reader, :mod:`.mboxpool`). A body that can no longer be read as it was (the file
shrank or was rewritten in place since) is empty: the item keeps its headers, as a message
cut off in a damaged export does.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, fields
from typing import Any, BinaryIO

from bootstrap_app.text.mail import trim_quoted
from bootstrap_app.types import Message

from .mailbody import extract_body
from .mailparse import ITEM_HEADERS, parse_header_block

__all__ = ["FileBody", "LazyMessage", "mbox_body_bytes", "shared_files"]

MAX_BODY_BYTES = 16 * 1024 * 1024
"""Bytes of one message's body that are read at most (a huge attachment is read partially)."""
_FROM_QUOTED = re.compile(rb"(?m)^>(>*From )")


def mbox_body_bytes(raw: bytes) -> bytes:
    """An mbox body as the message had it: a trailing CR dropped, ``>From`` quoting undone (mboxrd)."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if b">From " in raw:
        raw = _FROM_QUOTED.sub(rb"\1", raw)
    return raw


@dataclass(frozen=True, slots=True)
class FileBody:
    """Where one message's text is in a file, and how its body is made clean (cap, redaction).

    ``start``..``header_end`` is the header block, ``body_start``..``body_end`` the body;
    ``cleaner`` must be picklable (a module-level function such as ``redact_secrets``) when the
    item crosses a process boundary.
    """

    path: str
    start: int
    header_end: int
    body_start: int
    body_end: int
    cap: int
    cleaner: Callable[[str], str]

    def __reduce__(self) -> tuple[type[FileBody], tuple[Any, ...]]:
        """Pickled as its seven values (one per message crosses from a worker): cheaper than the
        slots dataclass default, which walks ``fields()`` on both sides."""
        return FileBody, (self.path, self.start, self.header_end, self.body_start, self.body_end, self.cap,
                          self.cleaner)

    def text(self, headers: dict[str, str] | None = None, block: bytes | None = None) -> str:
        """The body's readable text as :func:`~.mailbody.extract_body` gives it ("" when unreadable).

        ``headers`` and ``block``: the message's parsed headers (at least
        :data:`~.mailparse.ITEM_HEADERS`) and its header block, when the caller holds them already
        (the reader that just made the item): then only the body is read back, and not parsed twice."""
        at = self.start if block is None else self.body_start
        try:
            data = _read_span(self.path, at, self.body_end - at)
        except OSError:
            return ""
        if len(data) != self.body_end - at:
            return ""  # the file shrank since it was read: the headers stand, the body is gone
        if block is None:
            block = data[: self.header_end - self.start]
        body = mbox_body_bytes(data[self.body_start - at:]) if self.body_end > self.body_start else b""
        try:
            return extract_body(parse_header_block(block, ITEM_HEADERS) if headers is None else headers, block, body)
        except Exception:  # extract_body never raises; a bug there must not stop a scan
            return ""

    def __call__(self, headers: dict[str, str] | None = None, block: bytes | None = None) -> str:
        """The body as ``Message.body`` holds it: trimmed of quoted text, capped, cleaned
        (``headers``, ``block``: see :meth:`text`)."""
        text = self.text(headers, block)
        if not text:
            return ""
        text = trim_quoted(text)
        return self.cleaner(text[: self.cap] if len(text) > self.cap else text)


class _Shared(threading.local):
    """The read-only handles of :func:`shared_files`, per thread (the wizard scans in one of its own)."""

    files: dict[str, BinaryIO] | None = None
    pid = 0


_SHARED = _Shared()


@contextmanager
def shared_files() -> Iterator[None]:
    """Within it, bodies are read through one read-only handle per file, closed when it ends.

    Why: a re-analysis replays an mbox's messages from the item cache; a body no analysis read
    when the cache was written (the cache keeps as text those an analysis can ask for, so this is
    the rare case) is read back from its span. Opening the mailbox once per such body made a
    re-analysis open it hundreds of times; with this, once. The bytes are the same: a handle
    opened during the scan names the same file a fresh ``open`` would. Only the thread and
    process that entered it use the handles (a worker forked meanwhile opens its own)."""
    if _SHARED.files is not None and _SHARED.pid == os.getpid():
        yield  # nested: the outer one closes them
        return
    _SHARED.files, _SHARED.pid = {}, os.getpid()
    try:
        yield
    finally:
        files, _SHARED.files = _SHARED.files, None
        for f in files.values():
            f.close()


def _read_span(path: str, at: int, size: int) -> bytes:
    """``size`` bytes of ``path`` from ``at``: through :func:`shared_files`' handle when one is open."""
    files = _SHARED.files
    if files is None or _SHARED.pid != os.getpid():
        with open(path, "rb") as f:
            f.seek(at)
            return f.read(size)
    handle = files.get(path)
    if handle is None:
        handle = files[path] = open(path, "rb")  # noqa: SIM115 - closed when shared_files() ends
    handle.seek(at)
    return handle.read(size)


def _get_body(self: LazyMessage) -> str:
    state = self.__dict__
    body = state.get("_body")
    if body is None:
        load = state.get("_load")
        body = load() if load is not None else ""
        state["_body"], state["_load"] = body, None
    return str(body)


def _set_body(self: LazyMessage, value: str) -> None:
    self.__dict__["_body"] = value  # only the dataclass __init__ gets here: the item stays frozen


_COMPARED = tuple(f for f in fields(Message) if f.compare)


@dataclass(frozen=True, slots=True)
class _Template:
    """What :meth:`LazyMessage.with_loader` needs to build an item without ``__init__``."""

    state: dict[str, Any]
    """The ``__dict__`` ``__init__`` leaves on an item built from defaults (see :func:`_template`)."""
    accepted: frozenset[str]
    """Field names that may be set straight into ``state`` (not ``body``: it is a property here)."""
    needed: frozenset[str]
    """Names that must be given: the required fields, and those with a default factory (no two
    items may share one default object)."""


_TEMPLATES: dict[type, _Template] = {}


def _template(cls: type[LazyMessage]) -> _Template:
    """``cls``'s :class:`_Template`, worked out once per class by building one item.

    The state is taken from a real ``__init__`` so its keys come in the very order ``__init__``
    writes them (an item's ``__dict__`` order is what it pickles by, see
    :meth:`~bootstrap_app.items._ItemBase.__reduce__`); the body property leaves ``_body``
    where ``body`` would be."""
    found = _TEMPLATES.get(cls)
    if found is None:
        every = [f for f in fields(cls) if f.init]
        required = {f.name for f in every if f.default is MISSING and f.default_factory is MISSING}
        needed = required | {f.name for f in every if f.default_factory is not MISSING}
        blank: dict[str, Any] = dict.fromkeys(required, "")
        proto = cls(**blank)
        accepted = frozenset(f.name for f in every if f.name != "body")
        found = _TEMPLATES[cls] = _Template(dict(proto.__dict__), accepted, frozenset(needed))
    return found


class LazyMessage(Message):
    """A :class:`Message` whose ``body`` is produced by a loader on first access (see the module
    docstring). Everything else about it is a Message: same fields, same kind, equal to a Message
    with equal fields, and :func:`dataclasses.replace` gives a plain-bodied copy."""

    body = property(_get_body, _set_body)

    def __eq__(self, other: object) -> bool:
        """Equal to any Message (lazy or not) with equal fields: how it is built is no part of it."""
        if not isinstance(other, Message):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in _COMPARED)

    __hash__ = Message.__hash__

    @classmethod
    def with_loader(cls, load: Callable[[], str], **fields: Any) -> LazyMessage:
        """The message with every field but ``body``, which ``load()`` returns when first read.

        Built without the dataclass ``__init__`` when ``fields`` give a source, a ref and a sender
        and name only known fields (what every reader passes): a frozen ``__init__`` sets each of the two dozen fields through
        ``object.__setattr__``, a reader makes one item per message, and the ``__dict__`` it
        leaves is known in advance (:func:`_template`). Anything else (a missing or
        unknown name) goes through ``__init__``, which raises as it always did."""
        template = _template(cls)
        if template.needed <= fields.keys() <= template.accepted:
            item = object.__new__(cls)
            state = item.__dict__
            state.update(template.state)  # every field in declaration order, ``_body`` in body's place
            state.update(fields)
        else:
            item = cls(**fields)
            state = item.__dict__
        state["_body"] = None
        state["_load"] = load
        return item

    def read_now(self, headers: dict[str, str], block: bytes) -> None:
        """Read the body now from a :class:`FileBody` loader, with the message's parsed headers and
        header block in hand (see :meth:`FileBody.text`); any other loader runs as on first access."""
        state = self.__dict__
        load = state.get("_load")
        if state.get("_body") is None and isinstance(load, FileBody):
            state["_body"], state["_load"] = load(headers, block), None

    def unread_body(self) -> FileBody | None:
        """Where the body will be read from, while it is still unread (None once read, or when its
        loader is not a file span): what a cache of the item keeps instead of the text."""
        load = self.__dict__.get("_load")
        return load if self.__dict__.get("_body") is None and isinstance(load, FileBody) else None

    @property
    def body_loaded(self) -> bool:
        """Whether the body was read already (for tests and benchmarks)."""
        return self.__dict__.get("_body") is not None
