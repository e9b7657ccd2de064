"""The records sources yield: items (mail, events, documents, repos, chat, harness memory).

Why a module of its own: everything a connector needs to describe what it read lives here and
nothing about what memseed later derives from it (proposals, evidence, decisions live in
:mod:`bootstrap_app.proposals`). Connectors and analyzers depend only on this vocabulary.
``MemoryType`` sits here and not with proposals because an item (``MemoryEntry``, an entry
already in some harness's memory) carries one too; proposals build on items, not the reverse.

Why frozen dataclasses and not dicts: every stage (connectors, signals, extractors, the
safety gate, writers, the UI) passes these between each other, and notebooks inspect them.
Immutability means a stage can never quietly edit what an earlier stage produced; it makes
a new record with :func:`dataclasses.replace` instead.

Items are source-neutral. Each has a ``source`` (a stable id such as ``mbox:/abs/path``),
a ``ref`` unique within that source, a timezone-aware UTC ``timestamp`` (or ``None``), the
``people`` involved, and ``authored_by_owner`` (``None`` until identity is resolved).
Free text on items (message bodies, document text, chat text) has already passed secret
redaction at the connector boundary.

Callers import these names from :mod:`bootstrap_app.types`, the stable public path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar, overload

__all__ = ["ITEM_CLASSES", "ITEM_KINDS", "SENT_LABELS", "AgentTurn", "ChatMessage", "Document", "Event", "Item", "MemoryEntry",
           "MemoryType", "Message", "Person", "Repo", "Skip", "is_sent_label", "utc"]


class MemoryType(StrEnum):
    """The closed set of memory types shared by Claude Code and memseed."""

    USER = "user"
    FEEDBACK = "feedback"
    PROJECT = "project"
    REFERENCE = "reference"



def utc(value: datetime | None) -> datetime | None:
    """Return ``value`` as an aware UTC datetime; naive values are taken to be UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)



@dataclass(frozen=True, slots=True)
class Person:
    """Somebody who appears on an item. ``address`` is lower-cased (email, Slack id, git email)."""

    name: str = ""
    address: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "address", self.address.strip().lower())
        object.__setattr__(self, "name", " ".join(self.name.split()))

    def __reduce__(self) -> tuple[type[Person], tuple[str, str]]:
        """Pickled as its two strings: a scan's items cross process boundaries by the hundred
        thousand (:mod:`connectors.local.mboxpool`), and the dataclass default walks ``fields()``
        for every one of them, on both sides."""
        return Person, (self.name, self.address)

    @property
    def label(self) -> str:
        if self.name and self.address:
            return f"{self.name} <{self.address}>"
        return self.name or self.address


SENT_LABELS = frozenset({"sent", "sent mail", "sent items", "sent messages", "\\sent", "gesendet",
                         "gesendete elemente", "gesendete objekte", "envoyés", "éléments envoyés", "enviados",
                         "inviati", "posta inviata", "verzonden", "verzonden items", "[gmail]/sent mail"})
"""Folder / label names mail clients give the owner's sent mail (compared lower-cased)."""


@lru_cache(maxsize=4096)
def is_sent_label(label: str) -> bool:
    """True for a Sent folder or label: ``Sent``, ``[Gmail]/Sent Mail``, Maildir++ ``.Sent``,
    ``INBOX.Sent Items`` (the last path component is compared, so nesting does not matter;
    memoized: every message asks, and a mailbox has a handful of labels)."""
    text = label.strip().lower()
    if text in SENT_LABELS:
        return True
    last = text.rstrip("/.").replace("\\", "/")
    for sep in ("/", "."):
        last = last.rsplit(sep, 1)[-1]
    return last in SENT_LABELS


@dataclass(frozen=True, slots=True)
class Skip:
    """An item a connector could not read: reported with its reason, never fatal to a scan."""

    source: str
    ref: str
    reason: str


_T = TypeVar("_T")


class _once(Generic[_T]):
    """A property worked out on first access and then kept in the instance's ``__dict__``.

    What :class:`functools.cached_property` does, without its lock: up to Python 3.11 that takes
    a re-entrant lock on every first access, and analyzers and readers ask each of a scan's
    messages for :attr:`Message.third_party_reason`. The values are pure functions of frozen
    fields, so two threads computing one at once would store the same value."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _once[_T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _T | _once[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)  # a non-data descriptor: the dict wins next time
        return value


_STATE_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}
"""One shared tuple per distinct shape of an item's ``__dict__`` (its field names, then whatever
cached values it carries): pickled once per batch and referred to by every item after that."""


def _restore_item(cls: type[_ItemBase], names: tuple[str, ...], values: tuple[object, ...]) -> _ItemBase:
    """An item as :meth:`_ItemBase.__reduce__` pickled it: its ``__dict__`` put back as it was,
    without ``__init__`` (the values were validated when the item was first made)."""
    item = object.__new__(cls)
    item.__dict__.update(zip(names, values, strict=True))
    return item


@dataclass(frozen=True, kw_only=True)
class _ItemBase:
    source: str
    ref: str
    timestamp: datetime | None = None
    people: tuple[Person, ...] = ()
    authored_by_owner: bool | None = None

    kind: ClassVar[str] = ""
    """The item kind analyzers declare they consume (``message``, ``event`` ...): a class constant,
    so routing an item to its analyzers is one dict lookup, not a chain of ``isinstance``."""
    headline_field: ClassVar[str] = ""
    """The field that names the item in one line (``subject``, ``title`` ...); none by default."""

    @property
    def headline(self) -> str:
        """One line that names the item (subject, title ...): part of its change digest."""
        return str(getattr(self, self.headline_field)) if self.headline_field else ""

    def __reduce__(self) -> tuple[object, tuple[type[_ItemBase], tuple[str, ...], tuple[object, ...]]]:
        """Pickled as its ``__dict__``'s names (one shared tuple per shape) and values.

        Why not the default: a scan's items cross from the reader's worker processes by the ten
        thousand (:mod:`connectors.local.mboxpool`), and the default writes every item's state as
        a dict of its own, name by name; building and copying those dicts was most of what
        loading a batch cost the scanning process. Whatever the item keeps in its ``__dict__``
        besides its fields (a cached property, a lazily read body) travels with it, as before.
        """
        state = self.__dict__
        names = tuple(state)
        if len(_STATE_NAMES) < 256:  # a few shapes per item class; never grows without bound
            names = _STATE_NAMES.setdefault(names, names)
        return _restore_item, (type(self), names, tuple(state.values()))


@dataclass(frozen=True, kw_only=True)
class Message(_ItemBase):
    """One email. ``body`` is plain text, redacted and capped; headers are parsed."""

    kind: ClassVar[str] = "message"
    headline_field: ClassVar[str] = "subject"

    sender: Person = field(default_factory=Person)
    to: tuple[Person, ...] = ()
    cc: tuple[Person, ...] = ()
    subject: str = ""
    body: str = ""
    message_id: str = ""
    in_reply_to: str = ""
    thread_id: str = ""
    labels: tuple[str, ...] = ()
    list_id: str = ""
    is_bulk: bool = False
    """True for newsletters, notifications, auto-replies and no-reply senders."""
    utc_offset_minutes: int | None = None
    """The offset the Date header was written in (``-0600`` -> -360): the sender's clock.
    ``timestamp`` is UTC; None when the header had no zone or said ``-0000`` (unknown)."""
    delivered_from: str = ""
    """The host of the first ``Received`` hop that crossed from another organisation's server
    into this mailbox (empty when the chain shows none, or there is no chain)."""
    auth_failure: str = ""
    """Why the receiving server's ``Authentication-Results`` do not vouch for the From domain
    (``dmarc=fail``, ``not aligned with tidewater.io``, nothing authenticated ...); empty when
    they do or are absent (see :mod:`connectors.local.delivery`)."""
    on_behalf_of: str = ""
    """The ``Sender`` address when it differs from From: somebody else's system sent it."""

    # the two below are asked of every message by several analyzers: each is worked out once
    # (kept in the instance's __dict__; the fields they read are frozen, so it never goes stale)
    @_once
    def in_sent(self) -> bool:
        """Filed in a Sent folder / carrying a Sent label (the owner's client put it there)."""
        return any(is_sent_label(label) for label in self.labels)

    @_once
    def third_party_reason(self) -> str:
        """Why this message is someone else's text whatever its From says; empty when nothing says so.

        Headers can only take trust away here, never grant it: delivery from outside or failed
        authentication outranks even a Sent label (an inbound message can carry a forged one).
        A message in a mailbox that tells folders apart (it has labels) but not in Sent sits in
        the inbox: it was received, so the owner did not write it here.
        """
        if self.delivered_from:
            return f"delivered from outside ({self.delivered_from})"
        if self.auth_failure:
            return f"not vouched for by sender authentication ({self.auth_failure})"
        if self.in_sent:
            return ""
        if self.on_behalf_of:
            return f"sent on behalf of the From address by {self.on_behalf_of}"
        if self.labels:
            return "received (in the inbox, not in Sent)"
        return ""


@dataclass(frozen=True, kw_only=True)
class Event(_ItemBase):
    """One calendar occurrence (recurring series are expanded; ``series_uid`` ties them)."""

    kind: ClassVar[str] = "event"
    headline_field: ClassVar[str] = "summary"

    summary: str = ""
    location: str = ""
    description: str = ""
    status: str = ""
    start: datetime | None = None
    end: datetime | None = None
    all_day: bool = False
    tzid: str = ""
    series_uid: str = ""
    rrule: str = ""
    organizer: Person | None = None
    attendees: tuple[Person, ...] = ()
    calendar_owner: str = ""
    declined: tuple[str, ...] = ()
    """Addresses of the attendees who declined (iCalendar ``PARTSTAT=DECLINED``, Google's and
    Graph's "declined" response): on the list, but not at the meeting (issue 30)."""
    published: bool = False
    """From a published or subscribed calendar (a venue's public feed): reference material, not
    the person's own meetings — no ritual of theirs, and nobody in it is taken for them."""


@dataclass(frozen=True, kw_only=True)
class Document(_ItemBase):
    """A text document (md, txt, docx, pdf, html). ``text`` is capped and redacted."""

    kind: ClassVar[str] = "document"
    headline_field: ClassVar[str] = "title"

    path: str = ""
    title: str = ""
    text: str = ""
    doc_format: str = ""
    size: int = 0
    truncated: bool = False


@dataclass(frozen=True, kw_only=True)
class Repo(_ItemBase):
    """A repository snapshot: selected files (capped) and commit statistics from ``git``."""

    kind: ClassVar[str] = "repo"

    path: str = ""
    name: str = ""
    remote_url: str = ""
    default_branch: str = ""
    files: dict[str, str] = field(default_factory=dict)
    """Selected config files (manifests, CI, README, CONTRIBUTING, CODEOWNERS ...) -> text."""
    file_list: tuple[str, ...] = ()
    languages: dict[str, int] = field(default_factory=dict)
    """Language -> number of tracked files."""
    commit_count: int = 0
    authors: tuple[tuple[str, str, int], ...] = ()
    """(name, email, commits), most commits first."""
    recent_subjects: tuple[str, ...] = ()
    first_commit: datetime | None = None
    last_commit: datetime | None = None
    git_user_email: str = ""

    def __hash__(self) -> int:  # dict fields make the generated hash unusable
        return hash((self.source, self.ref))

    @property
    def headline(self) -> str:
        return f"{self.name} {self.commit_count}"


@dataclass(frozen=True, kw_only=True)
class ChatMessage(_ItemBase):
    """One chat message (Slack export). ``text`` is redacted; ``user`` is resolved when known."""

    kind: ClassVar[str] = "chatmessage"

    workspace: str = ""
    channel: str = ""
    user: Person = field(default_factory=Person)
    text: str = ""
    thread_ts: str = ""
    subtype: str = ""
    user_title: str = ""
    """The author's Slack profile title as they typed it (free text: "Staff Engineer", "The Viking")."""
    user_tz: str = ""
    """The author's Slack profile timezone (IANA, e.g. ``Europe/Berlin``); set by their Slack client."""


@dataclass(frozen=True, kw_only=True)
class MemoryEntry(_ItemBase):
    """An entry that already lives in some harness's memory (read by harness_memory)."""

    kind: ClassVar[str] = "memoryentry"
    headline_field: ClassVar[str] = "name"

    harness: str = ""
    name: str = ""
    description: str = ""
    memory_type: MemoryType | None = None
    body: str = ""
    scope: str = "global"
    path: str = ""
    line: int = 0
    """The line of ``path`` the entry's body starts on (0: not found), found when the file is read,
    so citing it later (a re-analysis replaying the cache) needs no second read of the file."""


@dataclass(frozen=True, kw_only=True)
class AgentTurn(_ItemBase):
    """One turn of a conversation the person had with a coding agent or chat assistant.

    Why an item of its own and not a :class:`ChatMessage`: a session mixes the person's words with
    the agent's text, tool calls and pasted output, and only the first may ever count as the
    person's. ``role`` says whose record it is (``person``, ``assistant``, ``tool``), ``marks``
    what it is besides (``subagent``, ``compaction``, ``meta``, ``command``, ``pasted``,
    ``interrupted``): a marked person turn is not the person's own words either. ``text`` is
    filled only for the person's own words (redacted); a marked turn keeps none, and a tool turn
    carries only the tool's name in ``tool``.
    """

    kind: ClassVar[str] = "agentturn"
    headline_field: ClassVar[str] = "session"

    harness: str = ""
    session: str = ""
    line: int = 0
    role: str = ""
    marks: tuple[str, ...] = ()
    text: str = ""
    tool: str = ""
    project: str = ""
    """The repository (or working folder) the session ran in; "" for a chat export."""
    cwd: str = ""

    @property
    def own_words(self) -> bool:
        """True only for text the person typed themselves: a person turn with no mark."""
        return self.role == "person" and not self.marks and bool(self.text)


Item: TypeAlias = Message | Event | Document | Repo | ChatMessage | MemoryEntry | AgentTurn
ITEM_CLASSES: tuple[type[Item], ...] = (Message, Event, Document, Repo, ChatMessage, MemoryEntry, AgentTurn)
"""Every item class, the members of ``Item``: what the item cache encodes, what contract tests walk."""
ITEM_KINDS: frozenset[str] = frozenset(c.kind for c in ITEM_CLASSES)
"""Every item kind a source may yield and an analyzer may declare."""

