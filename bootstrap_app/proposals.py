"""What memseed derives from items and what the person decides: evidence, proposals, decisions.

Why a module of its own: these records are the review half of memseed (extractors make
proposals, the safety gate judges their evidence, the store keeps decisions forever, writers
turn approved proposals into harness memory), while :mod:`bootstrap_app.items` is what sources
yield. Proposals build on items (their ``MemoryType``); items never refer back here.
``slugify`` lives here because a proposal's name is a slug (and writers reuse it for file names).

Why frozen: a stage never edits an earlier stage's proposal; it makes a new one with
:func:`dataclasses.replace`, and the fingerprint (type + subject + key) stays the stable id of
"the same question" across runs.

Callers import these names from :mod:`bootstrap_app.types`, the stable public path.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import PureWindowsPath
from typing import Any

from bootstrap_app.items import MemoryType

__all__ = ["Decision", "DecisionStatus", "Evidence", "Proposal", "fingerprint_of", "legacy_repo_subject",
           "repo_subject", "slugify"]


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


def repo_subject(path: str, name: str, topic: str) -> str:
    """The subject of a fact about one repository checkout: ``repo:<checkout path>:<topic>``.

    Why the path and not the folder name (what memseed used before schema 3): two checkouts
    called ``api`` (``~/work/api``, ``~/oss/api``) with the same commands got one fingerprint,
    so deciding one decided the other and the second was never proposed. Why the path and not
    the remote URL + root commit: the entry is written to *that checkout's* project memory
    (Claude Code keys project memory by path), so two clones or worktrees of one remote are two
    places that each need the entry; keyed by remote they would collide again. A moved
    checkout is asked about again, which is right: its memory folder did not move with it.
    ``name`` is the fallback when a repository has no path (a snapshot from elsewhere).
    """
    return f"repo:{path or name}:{topic}"


def legacy_repo_subject(subject: str, scope: str) -> str | None:
    """The new subject for a subject in the old ``repo:<folder name>[:<topic>]`` form, or None.

    Old only when the middle part is a bare folder name equal to the last part of the
    proposal's absolute ``scope`` (the checkout path the old proposal was scoped to): then the
    fact is about that checkout, and :func:`repo_subject` names it. Anything else (already a
    path, an LLM subject, no scope) is left as it is.
    """
    if not subject.startswith("repo:") or not (scope.startswith("/") or PureWindowsPath(scope).is_absolute()):
        return None
    rest = subject[len("repo:"):]
    name, _, topic = rest.rpartition(":") if ":" in rest else (rest, "", "")
    folder = re.split(r"[\\/]", scope.rstrip("/\\"))[-1]
    if not name or "/" in name or "\\" in name or name != folder:
        return None
    return repo_subject(scope, name, topic) if topic else f"repo:{scope}"


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
