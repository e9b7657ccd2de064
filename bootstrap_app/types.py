"""Frozen records that flow through memseed: items, evidence, proposals, decisions.

Why frozen dataclasses and not dicts: every stage (connectors, signals, extractors, the
safety gate, writers, the UI) passes these between each other, and notebooks inspect them.
Immutability means a stage can never quietly edit what an earlier stage produced; it makes
a new record with :func:`dataclasses.replace` instead.

Items are source-neutral. Each has a ``source`` (a stable id such as ``mbox:/abs/path``),
a ``ref`` unique within that source, a timezone-aware UTC ``timestamp`` (or ``None``), the
``people`` involved, and ``authored_by_owner`` (``None`` until identity is resolved).
Free text on items (message bodies, document text, chat text) has already passed secret
redaction at the connector boundary.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

__all__ = [
    "ITEM_KINDS",
    "SENT_LABELS",
    "ChatMessage",
    "Decision",
    "DecisionStatus",
    "Document",
    "Event",
    "Evidence",
    "Item",
    "MemoryEntry",
    "MemoryType",
    "Message",
    "Person",
    "Proposal",
    "Repo",
    "Skip",
    "fingerprint_of",
    "is_sent_label",
    "slugify",
    "utc",
]


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


_SLUG_STRIP = re.compile(r"[^a-z0-9]+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                     *(f"lpt{i}" for i in range(1, 10))}


def slugify(text: str, max_len: int = 64) -> str:
    """Kebab slug restricted to ``[a-z0-9-]``, safe as a file name on every OS.

    Never returns an empty string, ``.``/``..`` or a Windows reserved device name.
    """
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    slug = _SLUG_STRIP.sub("-", norm).strip("-")[:max_len].strip("-")
    if not slug:
        slug = "memory"
    if slug in _WINDOWS_RESERVED:
        slug = f"{slug}-memory"
    return slug


@dataclass(frozen=True, slots=True)
class Person:
    """Somebody who appears on an item. ``address`` is lower-cased (email, Slack id, git email)."""

    name: str = ""
    address: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "address", self.address.strip().lower())
        object.__setattr__(self, "name", " ".join(self.name.split()))

    @property
    def label(self) -> str:
        if self.name and self.address:
            return f"{self.name} <{self.address}>"
        return self.name or self.address


SENT_LABELS = frozenset({"sent", "sent mail", "sent items", "sent messages", "\\sent", "gesendet",
                         "gesendete elemente", "gesendete objekte", "envoyés", "éléments envoyés", "enviados",
                         "inviati", "posta inviata", "verzonden", "verzonden items", "[gmail]/sent mail"})
"""Folder / label names mail clients give the owner's sent mail (compared lower-cased)."""


def is_sent_label(label: str) -> bool:
    """True for a Sent folder or label: ``Sent``, ``[Gmail]/Sent Mail``, Maildir++ ``.Sent``,
    ``INBOX.Sent Items`` (the last path component is compared, so nesting does not matter)."""
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

    @property
    def headline(self) -> str:
        """One line that names the item (subject, title ...): part of its change digest."""
        return ""


@dataclass(frozen=True, kw_only=True)
class Message(_ItemBase):
    """One email. ``body`` is plain text, redacted and capped; headers are parsed."""

    kind: ClassVar[str] = "message"

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
    (``dmarc=fail``, ``not aligned with tidewater.io`` ...); empty when they do or are absent."""
    on_behalf_of: str = ""
    """The ``Sender`` address when it differs from From: somebody else's system sent it."""

    @property
    def in_sent(self) -> bool:
        """Filed in a Sent folder / carrying a Sent label (the owner's client put it there)."""
        return any(is_sent_label(label) for label in self.labels)

    @property
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
            return f"fails sender authentication ({self.auth_failure})"
        if self.in_sent:
            return ""
        if self.on_behalf_of:
            return f"sent on behalf of the From address by {self.on_behalf_of}"
        if self.labels:
            return "received (in the inbox, not in Sent)"
        return ""

    @property
    def headline(self) -> str:
        return self.subject


@dataclass(frozen=True, kw_only=True)
class Event(_ItemBase):
    """One calendar occurrence (recurring series are expanded; ``series_uid`` ties them)."""

    kind: ClassVar[str] = "event"

    summary: str = ""
    start: datetime | None = None
    end: datetime | None = None
    all_day: bool = False
    tzid: str = ""
    organizer: Person | None = None
    attendees: tuple[Person, ...] = ()
    series_uid: str = ""
    rrule: str = ""
    location: str = ""
    description: str = ""
    status: str = ""
    calendar_owner: str = ""

    @property
    def headline(self) -> str:
        return self.summary


@dataclass(frozen=True, kw_only=True)
class Document(_ItemBase):
    """A text document (md, txt, docx, pdf, html). ``text`` is capped and redacted."""

    kind: ClassVar[str] = "document"

    path: str = ""
    title: str = ""
    text: str = ""
    doc_format: str = ""
    size: int = 0
    truncated: bool = False

    @property
    def headline(self) -> str:
        return self.title


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

    harness: str = ""
    name: str = ""
    description: str = ""
    memory_type: MemoryType | None = None
    body: str = ""
    scope: str = "global"
    path: str = ""

    @property
    def headline(self) -> str:
        return self.name


Item: TypeAlias = Message | Event | Document | Repo | ChatMessage | MemoryEntry
ITEM_KINDS: frozenset[str] = frozenset(c.kind for c in (Message, Event, Document, Repo, ChatMessage, MemoryEntry))
"""Every item kind a source may yield and an analyzer may declare."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """One source item a proposal rests on. ``excerpt`` is redacted and at most 200 chars."""

    source: str
    ref: str
    date: datetime | None = None
    authored_by_owner: bool = False
    excerpt: str = ""
    structural: bool = False
    """True when memseed derived the fact from a repository's structure (files present, manifest
    fields, task-runner and CI definitions, counts) and wrote the words itself: a fact about the
    project whoever authored it, never copied prose. Only memseed's own analyzers set it."""

    def __post_init__(self) -> None:
        if len(self.excerpt) > 200:
            object.__setattr__(self, "excerpt", self.excerpt[:199] + "…")

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ref": self.ref,
            "date": self.date.isoformat() if self.date else None,
            "authored_by_owner": self.authored_by_owner,
            "excerpt": self.excerpt,
            "structural": self.structural,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Evidence:
        date = data.get("date")
        return cls(
            source=str(data["source"]),
            ref=str(data["ref"]),
            date=datetime.fromisoformat(date) if date else None,
            authored_by_owner=bool(data.get("authored_by_owner", False)),
            excerpt=str(data.get("excerpt", "")),
            structural=bool(data.get("structural", False)),
        )


def _normalise_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def fingerprint_of(memory_type: MemoryType | str, subject: str, key: str = "") -> str:
    """Stable id of "the same proposal" across runs: type + subject + key content.

    Wording changes in the body do not change it; a change in the key content (say, new
    working hours) does, so the person is asked about the new fact.
    """
    raw = "\x1f".join([str(MemoryType(memory_type)), _normalise_key(subject), _normalise_key(key)])
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class Proposal:
    """A proposed memory entry with its evidence, awaiting the person's decision."""

    type: MemoryType
    name: str
    description: str
    body: str
    subject: str
    """What the proposal is about (e.g. ``contact:jane@acme.com``); part of the fingerprint."""
    key: str = ""
    """The key content that, when it changes, makes this a new question."""
    scope: str = "global"
    confidence: float = 0.5
    evidence: tuple[Evidence, ...] = ()
    flags: tuple[str, ...] = ()
    supersedes: str | None = None
    """Name of the memory entry this proposal replaces (an update, not a second entry)."""
    derived_at: datetime | None = None
    supersedes_fingerprint: str | None = None
    """Fingerprint of the superseded proposal when memseed proposed it (the writer's key to the
    entry it wrote); ``None`` when the old entry came from harness memory memseed did not write."""
    previous: str = ""
    """What the superseded entry said (description, then body), shown beside the new text."""
    evidence_from: datetime | None = None
    evidence_to: datetime | None = None
    """Date range of the evidence (oldest, newest): how long the fact has held, as far as we saw."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", MemoryType(self.type))
        object.__setattr__(self, "name", slugify(self.name))
        object.__setattr__(self, "confidence", max(0.0, min(1.0, float(self.confidence))))
        if self.derived_at is None:
            object.__setattr__(self, "derived_at", datetime.now(UTC).replace(microsecond=0))
        dates = [e.date for e in self.evidence if e.date is not None]
        if dates and self.evidence_to is None:
            object.__setattr__(self, "evidence_to", max(dates))
        if dates and (self.evidence_from is None or self.evidence_from > min(dates)):
            object.__setattr__(self, "evidence_from", min(dates))

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.type, self.subject, self.key)

    @property
    def id(self) -> str:
        """Short id people type on the command line (first 8 chars of the fingerprint)."""
        return self.fingerprint[:8]

    @property
    def sensitive(self) -> bool:
        return "sensitive" in self.flags

    def to_json(self) -> dict[str, Any]:
        """The JSON Lines record of DESIGN §4 (plus subject/key/derived_at for round trips)."""
        return {
            "id": self.id,
            "fingerprint": self.fingerprint,
            "type": str(self.type),
            "name": self.name,
            "description": self.description,
            "body": self.body,
            "scope": self.scope,
            "confidence": round(self.confidence, 3),
            "evidence": [e.to_json() for e in self.evidence],
            "flags": list(self.flags),
            "supersedes": self.supersedes,
            "subject": self.subject,
            "key": self.key,
            "derived_at": self.derived_at.isoformat() if self.derived_at else None,
            "supersedes_fingerprint": self.supersedes_fingerprint,
            "previous": self.previous,
            "evidence_from": self.evidence_from.isoformat() if self.evidence_from else None,
            "evidence_to": self.evidence_to.isoformat() if self.evidence_to else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Proposal:
        derived = data.get("derived_at")
        since, until = data.get("evidence_from"), data.get("evidence_to")
        return cls(
            type=MemoryType(data["type"]),
            name=str(data["name"]),
            description=str(data.get("description", "")),
            body=str(data.get("body", "")),
            subject=str(data.get("subject") or data.get("fingerprint") or data["name"]),
            key=str(data.get("key", "")),
            scope=str(data.get("scope", "global")),
            confidence=float(data.get("confidence", 0.5)),
            evidence=tuple(Evidence.from_json(e) for e in data.get("evidence", [])),
            flags=tuple(data.get("flags", [])),
            supersedes=data.get("supersedes"),
            derived_at=datetime.fromisoformat(derived) if derived else None,
            supersedes_fingerprint=data.get("supersedes_fingerprint"),
            previous=str(data.get("previous") or ""),
            evidence_from=datetime.fromisoformat(since) if since else None,
            evidence_to=datetime.fromisoformat(until) if until else None,
        )


class DecisionStatus(StrEnum):
    APPROVED = "approved"
    EDITED = "edited"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Decision:
    """The person's verdict on a proposal, keyed by fingerprint and kept forever.

    ``edited`` holds the person's version (name/description/body) when status is EDITED.
    """

    fingerprint: str
    status: DecisionStatus
    at: datetime
    edited: dict[str, str] | None = None

    @property
    def approved(self) -> bool:
        return self.status in (DecisionStatus.APPROVED, DecisionStatus.EDITED)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = str(self.status)
        data["at"] = self.at.isoformat()
        return data
