"""What a scan keeps of the stream besides signals: the LLM's sample and the memory already held.

Why a sample and not the items: the footprint can be hundreds of thousands of items and only
the owner's own words are worth sending. The owner is known only after the stream (see
:mod:`bootstrap_app.identity.resolve`), so the sample is kept per author and chosen at the end. It is
an analyzer (:class:`~bootstrap_app.signals.Analyzer`): it declares the kinds that carry an
author's text and the pipeline routes those to it, only when the LLM is switched on.

:class:`HeldMemory` keeps the entries a harness already holds (read by the harness-memory
source), so proposals are deduplicated against them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from bootstrap_app.identity.resolve import OwnerIdentity
from bootstrap_app.signals import Analyzer, person_key
from bootstrap_app.signals.session_words import is_acknowledgement
from bootstrap_app.types import AgentTurn, ChatMessage, Document, Item, MemoryEntry, Message

__all__ = ["SAMPLE_SIZE", "TEXT_CAP", "HeldMemory", "LlmSample"]

SAMPLE_SIZE = 200
"""At most this many of the owner's items reach the digest."""
TEXT_CAP = 2000
"""Characters of a body or document text kept per sampled item."""
_OWN_TURNS = "\x00agent-sessions"
"""The sample key of the turns a person typed to their agents: they are the owner's by how the
reader found them (no address to match), so this key is always the owner's and never an author's."""


@dataclass
class LlmSample(Analyzer):
    """Per-author uniform samples (reservoir sampling) of mail, chat, documents and agent turns.

    At most ``authors`` x ``per_author`` items, texts cut to :data:`TEXT_CAP` characters; an
    author already known to be the owner (Sent label, ``--owner``) gets room for the whole
    sample. Only the owner's samples (at most :data:`SAMPLE_SIZE`) ever leave this object.
    Of a session, only the turns the person typed (``own_words``) are kept: the assistant's
    text, tool output and marked turns (commands, pastes, summaries) never enter the sample, nor
    do bare acknowledgements ("ok", "continue"), which would take room and say nothing.
    """

    signal = "llm_sample"
    consumes = frozenset({"message", "chatmessage", "document", "agentturn"})

    per_author: int = 20
    authors: int = 200
    samples: dict[str, list[Item]] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)
    rng: random.Random = field(default_factory=lambda: random.Random(11))

    def _author(self, item: Item) -> tuple[str, Item | None]:
        """(author key, the item with its text capped), or no item when it is not sampled."""
        if isinstance(item, Message):
            if item.is_bulk or item.third_party_reason:
                return "", None  # received mail is never the owner's words: no room taken from theirs
            capped: Item = replace(item, body=item.body[:TEXT_CAP]) if len(item.body) > TEXT_CAP else item
            return person_key(item.sender), capped
        if isinstance(item, ChatMessage):
            return person_key(item.user), item
        if isinstance(item, AgentTurn):
            if not item.own_words or is_acknowledgement(item.text):
                return "", None  # "ok", "continue": a block of the digest that says nothing
            return _OWN_TURNS, replace(item, text=item.text[:TEXT_CAP]) if len(item.text) > TEXT_CAP else item
        if isinstance(item, Document) and item.people:
            capped = replace(item, text=item.text[:TEXT_CAP]) if len(item.text) > TEXT_CAP else item
            return person_key(item.people[0]), capped
        return "", None

    def observe(self, item: Item) -> None:
        key, kept = self._author(item)
        if kept is None or not key or (key not in self.samples and len(self.samples) >= self.authors
                                       and key != _OWN_TURNS):
            return
        cap = SAMPLE_SIZE if (item.authored_by_owner is True or key in self.known_owners
                              or key == _OWN_TURNS) else self.per_author
        bucket = self.samples.setdefault(key, [])
        self.seen[key] = self.seen.get(key, 0) + 1
        if len(bucket) < cap:
            bucket.append(kept)
        else:
            j = self.rng.randrange(self.seen[key])
            if j < len(bucket):
                bucket[j] = kept

    def result(self, owner: OwnerIdentity, limit: int = SAMPLE_SIZE) -> list[Item]:
        """The owner's sampled items, marked as theirs, at most ``limit``."""
        items = [owner.mark(i) for key, bucket in self.samples.items()
                 if key == _OWN_TURNS or owner.is_owner_address(key) for i in bucket]
        items = [i for i in items if i.authored_by_owner]
        if len(items) > limit:
            items = self.rng.sample(items, limit)
        return items


@dataclass
class HeldMemory(Analyzer):
    """Memory entries already held somewhere (at most ``limit``), to deduplicate proposals against.

    ``entries`` starts with the target's memory (given) and gains every entry the scan reads;
    ``read`` holds only the latter: each becomes a proposal of its own (``extract.imported``).
    """

    signal = "held_memory"
    consumes = frozenset({"memoryentry"})

    entries: list[MemoryEntry] = field(default_factory=list)
    read: list[MemoryEntry] = field(default_factory=list)
    limit: int = 20_000

    def observe(self, item: Item) -> None:
        if isinstance(item, MemoryEntry) and len(self.entries) < self.limit:
            self.entries.append(item)
            self.read.append(item)

    @property
    def given(self) -> list[MemoryEntry]:
        """The target's memory the scan started with: ``entries`` before what it read."""
        return self.entries[: len(self.entries) - len(self.read)]

    def result(self, owner: OwnerIdentity) -> list[MemoryEntry]:
        return self.entries
