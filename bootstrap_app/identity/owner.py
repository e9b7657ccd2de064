"""The resolved owner: which addresses, Slack ids and names are theirs, and who wrote an item.

Why apart from :mod:`bootstrap_app.identity.resolve`: the collector there streams evidence and decides
once; everything after that decision (signal analyzers, extractors, the scan report) only asks
this record "is this person the owner?" and "did the owner write this item?". Keeping the
question apart from how the answer was found lets those modules depend on a small, frozen
record instead of the collector's counters and heuristics. Why only strong evidence puts an
address here is explained in :mod:`bootstrap_app.identity.resolve`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import cast

from bootstrap_app.identity.names import name_key
from bootstrap_app.types import ChatMessage, Document, Event, Item, Message, Person, Repo

__all__ = ["OwnerCandidate", "OwnerIdentity"]


@dataclass(frozen=True)
class OwnerCandidate:
    """Someone who may be the owner when nothing proves who is (a list archive, a bare Slack
    export, a calendar alone): offered with its evidence, picked by ``--owner`` or the wizard.

    ``owner`` is what to pass to ``--owner`` (an address or a Slack user id); ``kind`` is
    ``email`` or ``slack``; ``name`` the display name shown with it, if any."""

    owner: str
    kind: str
    evidence: str
    name: str = ""

    def to_json(self) -> dict[str, str]:
        return {"owner": self.owner, "kind": self.kind, "name": self.name, "evidence": self.evidence}


@dataclass(frozen=True)
class OwnerIdentity:
    """The resolved owner. ``reasons`` maps each address to the strong evidence that makes it the
    owner's; ``suggested`` maps each *candidate* alias (never treated as the owner's until the
    person confirms it) to the evidence that brought it up."""

    names: tuple[str, ...] = ()
    addresses: frozenset[str] = frozenset()
    slack_ids: frozenset[str] = frozenset()
    reasons: dict[str, str] = field(default_factory=dict)
    ordered: tuple[str, ...] = ()
    """The addresses, most used first (for display)."""
    suggested: dict[str, str] = field(default_factory=dict)
    candidates: tuple[OwnerCandidate, ...] = ()
    """When nothing proves an owner: who it likely is, best first (see :mod:`bootstrap_app.identity.hints`)."""
    unknown_why: str = ""
    """Why no owner was found (a mailing-list archive, no mail or profile naming one)."""
    unmatched: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """``--owner`` values that matched nobody in the sources -> the nearest names, ids and addresses."""

    @property
    def name(self) -> str:
        return self.names[0] if self.names else ""

    @property
    def known(self) -> bool:
        return bool(self.addresses or self.slack_ids)

    def _name_matches(self, name: str) -> bool:
        if not name or not self.names:
            return False
        key = name_key(name)
        return bool(key) and any(key == name_key(n) for n in self.names)

    def is_owner(self, person: Person | None) -> bool:
        """True for one of the owner's addresses / Slack ids, or (no address) the owner's name."""
        if person is None:
            return False
        if person.address:
            return person.address in self.addresses or person.address in self.slack_ids
        return self._name_matches(person.name)

    def is_owner_address(self, address: str) -> bool:
        address = address.lower()
        return address in self.addresses or address in self.slack_ids

    def authored(self, item: Item) -> bool | None:
        """Whether the owner wrote ``item`` (None: cannot tell), by the item's kind."""
        return _AUTHORED[item.kind](self, item)

    def mark(self, item: Item) -> Item:
        """The item with ``authored_by_owner`` set (a new record; items are frozen)."""
        owned = self.authored(item)
        if owned == item.authored_by_owner:
            return item
        return replace(item, authored_by_owner=owned)


def _message_authored(owner: OwnerIdentity, item: Item) -> bool | None:
    # the owner's address on a message that arrived from outside, failed authentication or sits in
    # the inbox is someone else's text: From is typed by whoever sends the mail
    msg = cast(Message, item)
    return owner.is_owner(msg.sender) and not msg.third_party_reason


def _event_authored(owner: OwnerIdentity, item: Item) -> bool | None:
    ev = cast(Event, item)
    if ev.organizer is not None and (ev.organizer.address or ev.organizer.name):
        return owner.is_owner(ev.organizer)
    return bool(ev.calendar_owner) and owner.is_owner_address(ev.calendar_owner)


def _memory_authored(_owner: OwnerIdentity, item: Item) -> bool | None:
    return True if item.authored_by_owner is None else item.authored_by_owner


_AUTHORED: dict[str, Callable[[OwnerIdentity, Item], bool | None]] = {
    "message": _message_authored,
    "chatmessage": lambda owner, item: owner.is_owner(cast(ChatMessage, item).user),
    "event": _event_authored,
    "repo": lambda owner, item: any(owner.is_owner(Person(n, e)) for n, e, c in cast(Repo, item).authors if c > 0),
    # kept in the owner's folder is not the same as written by the owner: only a matching author
    "document": lambda owner, item: any(owner.is_owner(p) for p in cast(Document, item).people),
    "memoryentry": _memory_authored,
    # a turn is the person's when the reader found it typed by them (no command, paste or meta mark)
    "agentturn": lambda owner, item: bool(getattr(item, "own_words", False)),
}
"""Item kind -> who wrote it; a table instead of an isinstance chain, one entry per item class."""
