"""Deterministic aggregates over the scanned items: contacts, rhythms, repos, documents, chat, profile.

Usage: feed every item to :meth:`SignalBuilder.observe` while it streams, then call
:meth:`SignalBuilder.build` with the resolved :class:`~bootstrap_app.identity.resolve.OwnerIdentity`.
:data:`ANALYZERS` is the one list of analyzers; each declares the item kinds it consumes
(:mod:`.analyzer` holds the contract), so an item only reaches the analyzers that want it.
Each analyzer keeps counters keyed by address (never whole items, never third-party free
text), so the owner can be decided *after* the stream: see :mod:`bootstrap_app.identity.resolve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from datetime import UTC, datetime
from typing import Any, cast

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import Item

from .analyzer import Analyzer, KindRouter
from .base import Ref, is_bulk_address, person_key, refs_to_evidence
from .chat import ChannelFacts, ChatAccumulator, ChatSignal
from .contacts import Contact, ContactsAccumulator, ContactsSignal, ManagerGuess, find_manager
from .documents import DocFacts, DocumentsAccumulator
from .profile import ProfileAccumulator, ProfileSignal
from .repos import RepoFacts, ReposAccumulator, repo_facts
from .rhythms import RhythmsAccumulator, RhythmSignal, Ritual
from .rules import Rule, RulesAccumulator
from .sessions import SessionsAccumulator

__all__ = [
    "ANALYZERS",
    "Analyzer",
    "ChannelFacts",
    "ChatSignal",
    "Contact",
    "ContactsSignal",
    "DocFacts",
    "KindRouter",
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
    extra: dict[str, Any] = field(default_factory=dict)
    """Results of registered analyzers that have no field of their own, by ``signal`` name."""

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
            **{name: _plain_data(value) for name, value in self.extra.items()},
        }
        result: dict[str, Any] = strip(data)
        return result


ANALYZERS: tuple[type[Analyzer], ...] = (
    ContactsAccumulator,
    RhythmsAccumulator,
    ReposAccumulator,
    DocumentsAccumulator,
    ChatAccumulator,
    ProfileAccumulator,
    RulesAccumulator,
    SessionsAccumulator,
)
"""The analyzer registry: every analyzer a scan runs, in one explicit list (no import side effects)."""

_SIGNAL_FIELDS = frozenset(f.name for f in fields(Signals))


def _plain_data(value: Any) -> Any:
    """A dataclass result as a dict (tuples of dataclasses as lists of dicts); anything else as is."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, list | tuple):
        return [_plain_data(v) for v in value]
    return value


class SignalBuilder:
    """Every registered analyzer behind one ``observe`` / ``build`` pair.

    ``observe`` routes an item to the analyzers that declared its kind (:class:`KindRouter`);
    ``build`` asks each for its result once the owner is known. Profile, rhythms and contacts
    feed each other (the calendar's timezone, the owner's last activity, 1:1s for the manager
    guess), so they are composed here by name; every other analyzer's result lands in the
    :class:`Signals` field of its ``signal`` name, or in ``Signals.extra``.
    """

    def __init__(self, known_owners: tuple[str, ...] | frozenset[str] = (),
                 analyzers: Sequence[type[Analyzer]] = ANALYZERS) -> None:
        known = frozenset(a.lower() for a in known_owners)
        self.router = KindRouter(cls(known_owners=known) for cls in analyzers)
        self.by_signal = {a.signal: a for a in self.router.analyzers}
        self.profile = cast(ProfileAccumulator, self.by_signal["profile"])
        self.rhythms = cast(RhythmsAccumulator, self.by_signal["rhythms"])

    def observe(self, item: Item) -> None:
        self.router.observe(item)

    def build(self, owner: OwnerIdentity, now: datetime | None = None) -> Signals:
        tz_calendar, _, _ = self.rhythms.calendar_timezone(owner)
        profile = self.profile.result(owner, tz_calendar)
        now = now or datetime.now(UTC)
        active_until = self.profile.last_activity(owner)
        cutoffs = (min(now, active_until) if active_until else now, now)
        rhythms = self.rhythms.result(owner, profile.timezone, now, active_until)
        results = {name: a.result(owner) for name, a in self.by_signal.items() if name not in ("profile", "rhythms")}
        contacts = cast(ContactsSignal, results.pop("contacts"))
        one_on_ones = []
        for r in rhythms.rituals:
            if r.kind == "1:1" and len(r.attendees) == 1 and r.cadence in ("weekly", "every two weeks"):
                key, name = r.attendees[0]
                one_on_ones.append((key, name, bool(r.organizer) and r.organizer == key, r.refs, r.title))
        manager = find_manager(contacts, one_on_ones, dict(profile.manager_mentions),
                               dict(self.profile.third_party_manager_mentions(owner)), profile.refs)
        named: dict[str, Any] = {k: v for k, v in results.items() if k in _SIGNAL_FIELDS}
        return Signals(owner=owner, profile=profile, contacts=contacts, manager=manager, rhythms=rhythms,
                       titles={c.key: t for c in contacts.ranked if (t := self.profile.title_of(c.key, c.name))},
                       cutoffs=cutoffs, extra={k: v for k, v in results.items() if k not in _SIGNAL_FIELDS},
                       **named)
