"""Frozen records that flow through memseed: items, evidence, proposals, decisions.

This is the one import path for the core records (``from bootstrap_app.types import Proposal``):
connectors, analyzers, writers, tests, notebooks and the package's public API all use it, so it
stays stable while the records themselves live in two modules split along the real seam:

* :mod:`bootstrap_app.items` -- what sources yield (items, people, skips, ``MemoryType``);
* :mod:`bootstrap_app.proposals` -- what memseed derives and the person decides (evidence,
  proposals, fingerprints, decisions).

Why frozen dataclasses and not dicts: every stage passes these between each other, and
notebooks inspect them; immutability means a stage can never quietly edit what an earlier
stage produced (it makes a new record with :func:`dataclasses.replace` instead).
"""

from __future__ import annotations

from bootstrap_app.items import (
    ITEM_KINDS,
    SENT_LABELS,
    ChatMessage,
    Document,
    Event,
    Item,
    MemoryEntry,
    MemoryType,
    Message,
    Person,
    Repo,
    Skip,
    is_sent_label,
    utc,
)
from bootstrap_app.proposals import (
    Decision,
    DecisionStatus,
    Evidence,
    Proposal,
    fingerprint_of,
    legacy_repo_subject,
    repo_subject,
    slugify,
)

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
    "legacy_repo_subject",
    "repo_subject",
    "slugify",
    "utc",
]
