"""Deterministic aggregates over the scanned items: contacts, rhythms, repos, documents, chat, profile.

Usage: feed every item to :meth:`SignalBuilder.observe` while it streams, then call
:meth:`SignalBuilder.build` with the resolved :class:`~bootstrap_app.identity.OwnerIdentity`.
Each analyzer keeps counters keyed by address (never whole items, never third-party free
text), so the owner can be decided *after* the stream: see :mod:`bootstrap_app.identity`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bootstrap_app.identity import OwnerIdentity
from bootstrap_app.types import Item

from .base import Ref, is_bulk_address, person_key, refs_to_evidence
from .chat import ChannelFacts, ChatAccumulator, ChatSignal
from .contacts import Contact, ContactsAccumulator, ContactsSignal, ManagerGuess, find_manager
from .documents import DocFacts, DocumentsAccumulator
from .profile import ProfileAccumulator, ProfileSignal
from .repos import RepoFacts, ReposAccumulator, repo_facts
from .rhythms import RhythmsAccumulator, RhythmSignal, Ritual
from .rules import Rule, RulesAccumulator

__all__ = [
    "ChannelFacts",
    "ChatSignal",
    "Contact",
    "ContactsSignal",
    "DocFacts",
    "ManagerGuess",
    "ProfileSignal",
    "Ref",
    "RepoFacts",
    "RhythmSignal",
    "Ritual",
    "Rule",
    "SignalBuilder",
    "Signals",
    "is_bulk_address",
    "person_key",
    "refs_to_evidence",
    "repo_facts",
]


@dataclass(frozen=True)
class Signals:
    owner: OwnerIdentity
    profile: ProfileSignal
    contacts: ContactsSignal
    manager: ManagerGuess | None
    rhythms: RhythmSignal
    repos: tuple[RepoFacts, ...] = ()
    documents: tuple[DocFacts, ...] = ()
    chat: ChatSignal = field(default_factory=ChatSignal)
    titles: dict[str, str] = field(default_factory=dict)
    """Contact key -> the title their own signature states."""
    rules: tuple[Rule, ...] = ()
    """Working rules in the owner's own words."""
    cutoffs: tuple[datetime | None, ...] = ()
    """(owner's last activity or now, now): evidence is cited from on or before these, newest
    first; later items (calendar occurrences expanded ahead) only when nothing earlier exists."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data (names, titles, counts, no refs) for the LLM digest and notebooks."""
        def strip(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: strip(v) for k, v in value.items() if k != "refs"}
            if isinstance(value, (list, tuple)):
                return [strip(v) for v in value]
            if isinstance(value, datetime):
                return value.isoformat()
            if isinstance(value, (set, frozenset)):
                return sorted(value)
            return value

        data = {
            "owner": {"names": list(self.owner.names), "addresses": sorted(self.owner.addresses),
                      "slack_ids": sorted(self.owner.slack_ids)},
            "profile": asdict(self.profile),
            "contacts": [asdict(c) | {"title": self.titles.get(c.key, "")} for c in self.contacts.ranked],
            "manager": asdict(self.manager) if self.manager else None,
            "rituals": [asdict(r) for r in self.rhythms.rituals],
            "timezone_calendar": self.rhythms.timezone,
            "repos": [asdict(r) for r in self.repos],
            "documents": [asdict(d) for d in self.documents],
            "channels_active": [asdict(c) for c in self.chat.active],
            "channels_lurking": [asdict(c) for c in self.chat.lurking],
            "rules": [r.text for r in self.rules],
        }
        result: dict[str, Any] = strip(data)
        return result


class SignalBuilder:
    """All analyzers behind one ``observe`` / ``build`` pair."""

    def __init__(self, known_owners: tuple[str, ...] | frozenset[str] = ()) -> None:
        self.rules = RulesAccumulator(frozenset(a.lower() for a in known_owners))
        self.contacts = ContactsAccumulator()
        self.rhythms = RhythmsAccumulator()
        self.repos = ReposAccumulator()
        self.documents = DocumentsAccumulator()
        self.chat = ChatAccumulator()
        self.profile = ProfileAccumulator()
        self._all = (self.contacts, self.rhythms, self.repos, self.documents, self.chat, self.profile, self.rules)

    def observe(self, item: Item) -> None:
        for acc in self._all:
            acc.observe(item)

    def build(self, owner: OwnerIdentity, now: datetime | None = None) -> Signals:
        tz_calendar, _ = self.rhythms.calendar_timezone()
        profile = self.profile.result(owner, tz_calendar)
        now = now or datetime.now(UTC)
        active_until = self.profile.last_activity(owner)
        cutoffs = (min(now, active_until) if active_until else now, now)
        rhythms = self.rhythms.result(owner, profile.timezone, now, active_until)
        contacts = self.contacts.result(owner)
        one_on_ones = []
        for r in rhythms.rituals:
            if r.kind == "1:1" and len(r.attendees) == 1 and r.cadence in ("weekly", "every two weeks"):
                key, name = r.attendees[0]
                one_on_ones.append((key, name, bool(r.organizer) and r.organizer == key, r.refs, r.title))
        manager = find_manager(contacts, one_on_ones, dict(profile.manager_mentions),
                               dict(self.profile.third_party_manager_mentions(owner)), profile.refs)
        return Signals(owner=owner, profile=profile, contacts=contacts, manager=manager, rhythms=rhythms,
                       repos=tuple(self.repos.result(owner)), documents=tuple(self.documents.result(owner)),
                       chat=self.chat.result(owner),
                       titles={c.key: t for c in contacts.ranked if (t := self.profile.title_of(c.key, c.name))},
                       rules=tuple(self.rules.result(owner)), cutoffs=cutoffs)
