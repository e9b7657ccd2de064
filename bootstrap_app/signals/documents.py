"""Documents the owner wrote or keeps that an agent should know where to find.

Runbooks, design docs, RFCs, ADRs, post-mortems and guides are recognised by file name and
title. A document whose author is somebody else is not the owner's (it may sit in a shared
folder); one without a stated author, in a folder the owner scanned, counts as *kept*. Only
titles, paths, kinds and dates are kept, never the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import PurePath

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import Document, Item

from .analyzer import Analyzer
from .base import Ref

__all__ = ["DocFacts", "DocumentsAccumulator", "doc_kind"]

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("runbook", re.compile(r"run-?books?|play-?books?|on-?call|incident response|sop\b", re.I)),
    ("rfc", re.compile(r"\brfc[-_ ]?\d+|request for comments|\brfcs?\b", re.I)),
    ("adr", re.compile(r"\badr[-_ ]?\d+|decision record", re.I)),
    ("postmortem", re.compile(r"post-?mortem|incident review|retrospective", re.I)),
    ("design", re.compile(r"design|architecture|tech(?:nical)? spec|\bspec\b", re.I)),
)
_PER_KIND = 5


def doc_kind(path: str, title: str) -> str:
    """``runbook``, ``rfc``, ``adr``, ``postmortem``, ``design`` or ``""`` (vendor guides and READMEs
    are not the owner's reference documents)."""
    hay = f"{PurePath(path).as_posix()} {title}"
    return next((kind for kind, rx in _KINDS if rx.search(hay)), "")


@dataclass(frozen=True)
class DocFacts:
    path: str
    title: str
    kind: str
    authors: tuple[str, ...]
    authored: bool
    kept: bool
    modified: datetime | None
    refs: tuple[Ref, ...] = ()


@dataclass
class DocumentsAccumulator(Analyzer):
    signal = "documents"
    consumes = frozenset({"document"})

    docs: dict[str, tuple[Document, str]] = field(default_factory=dict)
    total: int = 0

    def observe(self, item: Item) -> None:
        if not isinstance(item, Document):
            return
        self.total += 1
        kind = doc_kind(item.path or item.ref, item.title)
        if kind:
            # keep only the metadata: a copy without text
            self.docs[item.path or item.ref] = (replace(item, text=""), kind)

    def result(self, owner: OwnerIdentity) -> tuple[DocFacts, ...]:
        out: list[DocFacts] = []
        for path, (doc, kind) in sorted(self.docs.items()):
            authors = tuple(p.label for p in doc.people if p.label)
            authored = any(owner.is_owner(p) for p in doc.people)
            kept = authored or not doc.people
            if not kept:
                continue
            title = doc.title.strip() or PurePath(path).stem.replace("-", " ").replace("_", " ")
            # the title is in the proposal already; the pointer says only what and when
            note = f"{kind} document" + (f", modified {doc.timestamp.date().isoformat()}" if doc.timestamp else "")
            ref = Ref(doc.source, doc.ref, doc.timestamp, "", note, owner=authored)
            out.append(DocFacts(path, title, kind, authors, authored, kept, doc.timestamp, (ref,)))
        out.sort(key=lambda d: (not d.authored, -(d.modified.timestamp() if d.modified else 0.0), d.path))
        counts: dict[str, int] = {}
        kept_docs = []
        for d in out:
            counts[d.kind] = counts.get(d.kind, 0) + 1
            if counts[d.kind] <= _PER_KIND:
                kept_docs.append(d)
        return tuple(kept_docs)
