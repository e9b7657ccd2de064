"""Correspondents ranked by *reciprocal* exchange, and the owner's manager.

Volume alone ranks newsletters and HR systems first; what marks a collaborator is that the
owner writes to them *and* they write back. So the analyzer counts directed pairs
(sender -> recipient) while items stream, without knowing yet who the owner is, and ranks at
the end: reciprocal mail = min(mails to the owner, mails from the owner), plus chat threads
shared and small meetings attended together. Bulk senders (``Message.is_bulk``, list ids,
no-reply / notification addresses) never rank.

One-to-many mail is no exchange: a message with no visible recipient (everyone in Bcc) or more
than ``_BROADCAST`` of them creates no pair, so an announcement sender who is never answered
cannot rank however much they send. "Never answered" is only evidence when answers could be
seen: an archive holding almost none of the owner's own mail (an exported inbox) says nothing
about whom they answer. There, and only there, repeated *direct* mail (the owner among at most
``_SMALL_MEETING`` recipients) from a person-shaped, non-bulk sender ranks too, below any
two-way exchange.

Automated senders never rank, however personal their mail looks: besides the header
conventions above, a sender whose subjects fill one template and who is never answered is a
machine (:mod:`.automated`). Nor does any address memseed holds as the owner's, proven or only
*suggested* (an alias waiting for confirmation is most likely the owner writing to themself).

Direct exchange ranks above mere presence: a mail counts 1 when the person (or the owner) is in
``To`` of a small mail, 0.6 in ``Cc``, 0.3 on a group mail; replies add a little on top. The counts go
into the evidence ("9 to you (7 To, 2 Cc), 3 from you, 2 replies") so the ranking can be checked.

Only names, addresses, dates and counts are kept.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.identity.resolve import name_key, normal_name
from bootstrap_app.types import ChatMessage, Event, Item, Message, Person

from .analyzer import Analyzer
from .automated import SubjectShapes
from .base import Ref, is_owner_key, is_person, person_key

__all__ = ["Contact", "ContactsAccumulator", "ContactsSignal", "ManagerGuess", "find_manager", "latest"]

_MAX_PAIR_REFS = 3
_SMALL_MEETING = 6
_BROADCAST = 15
"""More recipients than this and a mail is an announcement, not an exchange."""
_ANSWERS_SEEN = 0.1
"""The owner's mail to others must be at least this share of others' mail to the owner before
"never answered" counts against a sender (below it the archive is an inbox export)."""
_MIN_DIRECT = 3
_REPLY = re.compile(r"^\s*(?:re|aw|sv|vs)\s*(?:\[\d+\])?\s*:", re.I)
"""A subject answering an earlier mail (English, German, Nordic prefixes), for mail without In-Reply-To."""


@dataclass(frozen=True)
class Contact:
    key: str
    name: str
    to_owner: int
    from_owner: int
    chat: int
    meetings: int
    score: float
    refs: tuple[Ref, ...] = ()
    cc: int = 0
    """Of the mails exchanged, how many had the person (or the owner) only in Cc."""
    group: int = 0
    """Of the mails exchanged, how many went to more than a small meeting's worth of people."""
    replies: int = 0
    """Of the mails exchanged, how many answered an earlier mail."""

    @property
    def address(self) -> str:
        return "" if self.key.startswith("name:") else self.key

    @property
    def label(self) -> str:
        return f"{self.name} <{self.address}>" if self.name and self.address else (self.name or self.address)

    @property
    def evidence(self) -> str:
        """The counts the rank comes from, for a person to check (never any mail text):
        ``"9 mails to the owner, 3 from the owner (2 in Cc, 4 replies), 2 shared meetings"``."""
        bits = [f"{n} {what}" for n, what in ((self.to_owner, "mails to the owner"),
                                              (self.from_owner, "from the owner")) if n]
        how = [f"{n} {what}" for n, what in ((self.cc, "in Cc"), (self.group, "group mail"),
                                             (self.replies, "replies")) if n]
        if bits and how:
            bits[-1] += f" ({', '.join(how)})"
        bits += [f"{n} {what}" for n, what in ((self.chat, "shared chat threads"),
                                               (self.meetings, "shared meetings")) if n]
        return ", ".join(bits)


@dataclass(frozen=True)
class ContactsSignal:
    ranked: tuple[Contact, ...] = ()
    excluded_bulk: int = 0
    excluded_automated: dict[str, str] = field(default_factory=dict)
    """Senders left out because their mail is templated and never answered (key -> why)."""


_Cited = tuple[str, str, datetime | None, str, str, str]
"""A mail a pair cites: source, ref, timestamp, sender key, sender name, recipient as named."""


class _Pair:
    """What the mail from one address to another says: mails, their weight by how direct they were
    (To 1, Cc 0.6, group 0.3), how many had the recipient in Cc, went to a group (more than
    ``_SMALL_MEETING`` people) or answered an earlier mail, how many were small (direct), and up to
    ``_MAX_PAIR_REFS`` of them to cite. One object per pair instead of a counter per number: each
    mail then looks its pair up once."""

    __slots__ = ("cc", "direct", "group", "mails", "refs", "replies", "weight")

    def __init__(self) -> None:
        self.mails = self.cc = self.group = self.replies = self.direct = 0
        self.weight = 0.0
        self.refs: list[_Cited] = []


@dataclass
class ContactsAccumulator(Analyzer):
    """Directed pair counts over mail, shared chat threads and small shared meetings."""

    signal = "contacts"
    consumes = frozenset({"message", "chatmessage", "event"})

    pairs: dict[tuple[str, str], _Pair] = field(default_factory=dict)
    """(sender, recipient) -> what their mail says, in the order the pairs first appeared."""
    sent: Counter[str] = field(default_factory=Counter)
    bulk: Counter[str] = field(default_factory=Counter)
    names: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    threads: defaultdict[tuple[str, str], dict[str, Ref]] = field(default_factory=lambda: defaultdict(dict))
    """(channel, thread) -> each user who wrote in it, with their first message there (the
    evidence of a shared thread is a message in a thread the owner also wrote in: issue 30)."""
    meet_pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    meet_refs: dict[tuple[str, str], Ref] = field(default_factory=dict)
    """(a, b) -> the first small meeting they were both on (cited for the pair, never for one alone)."""
    seen_series: set[str] = field(default_factory=set)
    shapes: SubjectShapes = field(default_factory=SubjectShapes)
    keys: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict, repr=False)
    """(name, address) as shown -> (its :func:`person_key`, the normal name it counts under, or
    ``""``): a mailbox shows a few thousand people hundreds of thousands of times, so each is
    worked out once."""

    def _key(self, person: Person) -> str:
        shown = (person.name, person.address)
        found = self.keys.get(shown)
        if found is None:
            key = person_key(person)
            counted = normal_name(person.name) if key and person.name and person.name.lower() != person.address else ""
            found = self.keys[shown] = (key, counted)
        key, counted = found
        if counted:
            self.names[key][counted] += 1
        return key

    def observe(self, item: Item) -> None:
        if isinstance(item, Message):
            self._message(item)
        elif isinstance(item, ChatMessage):
            user = self._key(item.user)
            if user and item.thread_ts:
                thread = self.threads[(item.channel, item.thread_ts)]
                if user not in thread:
                    thread[user] = Ref(item.source, item.ref, item.timestamp, user, f"chat message in #{item.channel}")
        elif isinstance(item, Event):
            self._event(item)

    def _message(self, msg: Message) -> None:
        sender = self._key(msg.sender)
        if not sender:
            return
        self.sent[sender] += 1
        if msg.is_bulk or msg.list_id:
            self.bulk[sender] += 1
            return
        is_reply = bool(msg.in_reply_to) or _REPLY.match(msg.subject or "") is not None
        self.shapes.add(sender, msg.subject, is_reply)
        recipients = (*msg.to, *msg.cc)
        if not recipients or len(recipients) > _BROADCAST:
            return  # one-to-many: an announcement, nobody exchanged anything
        small = len(recipients) <= _SMALL_MEETING
        weight = 0.3 if not small else 1.0  # 0.6 in Cc, below
        n_to = len(msg.to)
        for i, person in enumerate(recipients):
            rcpt = self._key(person)
            if not rcpt or rcpt == sender:
                continue
            pair = self.pairs.get((sender, rcpt))
            if pair is None:
                pair = self.pairs[(sender, rcpt)] = _Pair()
            cc = i >= n_to
            pair.mails += 1
            pair.weight += 0.6 if cc and small else weight
            pair.cc += cc
            pair.group += not small
            pair.replies += is_reply
            pair.direct += small
            self._cite(pair.refs, msg, sender, person, rcpt)

    @staticmethod
    def _cite(refs: list[_Cited], msg: Message, sender: str, person: Person, rcpt: str) -> None:
        """Keep ``msg`` among a pair's first refs, or as its last one when it is newer (mail comes
        mostly oldest first, so that is nearly every mail: only what a :class:`Ref` is made of is
        kept here, and the ref made once, in :meth:`result`)."""
        if len(refs) < _MAX_PAIR_REFS:
            refs.append((msg.source, msg.ref, msg.timestamp, sender, msg.sender.name, person.name or rcpt))
        elif msg.timestamp and (refs[-1][2] is None or msg.timestamp > refs[-1][2]):
            refs[-1] = (msg.source, msg.ref, msg.timestamp, sender, msg.sender.name, person.name or rcpt)

    def _event(self, ev: Event) -> None:
        if ev.published:  # a feed or a calendar marked shared: no meeting of the person's
            return
        people = {k for p in (*ev.attendees, *((ev.organizer,) if ev.organizer else ()))
                  if not (p.address and p.address in ev.declined) and (k := self._key(p))}
        if not 2 <= len(people) <= _SMALL_MEETING:
            return
        if ev.series_uid:
            if ev.series_uid in self.seen_series:
                return
            self.seen_series.add(ev.series_uid)
        when = ev.start or ev.timestamp
        note = f"meeting on {when.date().isoformat()}" if when else "meeting"
        ref = Ref(ev.source, ev.ref, when, "", note, owner=False)
        for a in people:
            for b in people:
                if a < b:
                    self.meet_pairs[(a, b)] += 1
                    self.meet_refs.setdefault((a, b), ref)

    # -- decision ------------------------------------------------------------------------
    def _alias(self) -> dict[str, str]:
        """Map ``name:`` keys to the one address shown with that name, when unambiguous."""
        by_name: defaultdict[str, set[str]] = defaultdict(set)
        for key, names in self.names.items():
            if key.startswith("name:"):
                continue
            for n in names:
                if nk := name_key(n):
                    by_name[nk].add(key)
        alias = {f"name:{nk}": next(iter(addrs)) for nk, addrs in by_name.items() if len(addrs) == 1}
        # "Roe, Nadia" shown without an address is nadia.roe@... when exactly one address fits
        by_local: defaultdict[str, set[str]] = defaultdict(set)
        for key in self.sent.keys() | {r for _, r in self.pairs}:
            if "@" in key and (nk := name_key(" ".join(re.split(r"[._-]+", key.partition("@")[0])))):
                by_local[nk].add(key)
        for key in {k for pair in self.pairs for k in pair if k.startswith("name:")}:
            if key not in alias and len(by_local.get(key[5:], ())) == 1:
                alias[key] = next(iter(by_local[key[5:]]))
        return alias

    def result(self, owner: OwnerIdentity, limit: int = 12) -> ContactsSignal:
        alias = self._alias()

        def canon(k: str) -> str:
            return alias.get(k, k)

        def own(k: str) -> bool:
            # a suggested alias is most likely the owner writing to themself: never a collaborator,
            # and (unless it imitates a proven address) its mail counts as the owner's side here
            return is_owner_key(k, owner) or "LOOKALIKE" not in owner.suggested.get(k, "LOOKALIKE")

        to_owner: Counter[str] = Counter()
        from_owner: Counter[str] = Counter()
        w_to: defaultdict[str, float] = defaultdict(float)
        w_from: defaultdict[str, float] = defaultdict(float)
        cc: Counter[str] = Counter()
        group: Counter[str] = Counter()
        replies: Counter[str] = Counter()
        direct: Counter[str] = Counter()
        refs: defaultdict[str, list[Ref]] = defaultdict(list)
        for (s, r), pair in self.pairs.items():
            s, r = canon(s), canon(r)
            s_own, r_own = own(s), own(r)
            if s_own == r_own:
                continue
            other = r if s_own else s
            (from_owner if s_own else to_owner)[other] += pair.mails
            (w_from if s_own else w_to)[other] += pair.weight
            cc[other] += pair.cc
            group[other] += pair.group
            replies[other] += pair.replies
            if not s_own:
                direct[other] += pair.direct
            refs[other].extend(_mail_ref(*cited) for cited in pair.refs)
        answers_seen = sum(from_owner.values()) >= _ANSWERS_SEEN * sum(to_owner.values())
        chat: Counter[str] = Counter()
        shared: dict[str, Ref] = {}  # per contact: their message in a thread the owner wrote in
        for thread in self.threads.values():
            users = {canon(u): said for u, said in thread.items()}
            if any(own(u) for u in users):
                for u, said in users.items():
                    if not own(u):
                        chat[u] += 1
                        shared.setdefault(u, said)
        meetings: Counter[str] = Counter()
        met: dict[str, Ref] = {}  # per contact: a meeting they and the owner were both on
        for (a, b), n in self.meet_pairs.items():
            ref = self.meet_refs[(a, b)]
            a, b = canon(a), canon(b)
            if own(a) and not own(b):
                meetings[b] += n
                met.setdefault(b, ref)
            elif own(b) and not own(a):
                meetings[a] += n
                met.setdefault(a, ref)
        candidates = set(to_owner) | set(from_owner) | set(chat) | set(meetings)
        reverse: defaultdict[str, list[str]] = defaultdict(list)
        for k, v in alias.items():
            reverse[v].append(k)
        ranked: list[Contact] = []
        excluded = 0
        automated: dict[str, str] = {}
        for key in candidates:
            if own(key):
                continue
            names = self.names.get(key) or Counter()
            for k in reverse.get(key, ()):
                names = names + self.names.get(k, Counter())
            name = names.most_common(1)[0][0] if names else _name_from_address(key)
            if not is_person(key, name) or (self.sent[key] and self.bulk[key] / self.sent[key] >= 0.3):
                excluded += 1
                continue
            if not from_owner[key] and (why := self.shapes.templated(key)):
                automated[key] = why
                continue
            # two-way mail: its weighted volume, plus a bonus for reciprocity that saturates (a
            # single group mail back does not make a close collaborator of a one-off contact)
            two_way = min(w_to[key], w_from[key])
            volume = min(w_to[key] + w_from[key], 40) + 2.0 * min(two_way, 3) if two_way else 0.0
            one_way = 0.0 if answers_seen or direct[key] < _MIN_DIRECT else 0.5 * min(w_to[key], 20)
            score = (volume + one_way + 0.25 * min(replies[key], 20) + 1.0 * min(chat[key], 50)
                     + 1.5 * min(meetings[key], 20))
            if not two_way and not one_way and chat[key] < 2 and meetings[key] < 2:
                continue
            extra = [r for r in (shared.get(key), met.get(key)) if r]
            ranked.append(Contact(key, name, to_owner[key], from_owner[key], chat[key], meetings[key],
                                  score, tuple(refs[key][:6] + extra), cc=cc[key], group=group[key],
                                  replies=replies[key]))
        ranked.sort(key=lambda c: (-c.score, c.key))
        return ContactsSignal(tuple(ranked[:limit]), excluded, dict(sorted(automated.items())))


def _mail_ref(source: str, ref: str, when: datetime | None, sender: str, sender_name: str, rcpt: str) -> Ref:
    date = when.date().isoformat() if when else "undated"
    return Ref(source, ref, when, sender, f"mail from {sender_name or sender} to {rcpt}, {date}")


def _name_from_address(key: str) -> str:
    """``nadia.roe@halvard.example`` -> ``Nadia Roe`` (only for first.last shaped local parts)."""
    parts = [p for p in re.split(r"[._-]+", key.partition("@")[0]) if p]
    if "@" not in key or len(parts) < 2 or any(not p.isalpha() for p in parts):
        return ""
    return " ".join(p.capitalize() for p in parts)


def latest(refs: tuple[Ref, ...]) -> datetime | None:
    dates = [r.date for r in refs if r.date]
    return max(dates) if dates else None


@dataclass(frozen=True)
class ManagerGuess:
    key: str
    name: str
    score: float
    reasons: tuple[str, ...]
    refs: tuple[Ref, ...] = ()


def _newest_said(top: str, scores: Counter[str], refs: dict[str, list[Ref]], owner_refs: tuple[Ref, ...],
                 resolve: Callable[[str], str], owner_mentions: dict[str, int],
                 reasons: dict[str, list[str]]) -> str:
    """A manager changes: when the owner's newest "my manager is X" comes after every piece of
    evidence for the best-scored candidate (their 1:1s stopped before it), X is the manager now."""
    said = [(r.date, name) for r in owner_refs if r.date for name in owner_mentions
            if r.note == f"mentions manager {name}"]
    if not said:
        return top
    when, name = max(said)
    key = resolve(name)
    if key == top or scores.get(key, 0) < 3:
        return top
    before = [r.date for r in refs.get(top, []) if r.date]
    if before and max(before) >= when:
        return top
    reasons[key].append(f"you named them your manager on {when.date().isoformat()}, after the last sign of {top}")
    return key


def find_manager(contacts: ContactsSignal, one_on_ones: list[tuple[str, str, bool, tuple[Ref, ...], str]],
                 owner_mentions: dict[str, int], other_mentions: dict[str, int],
                 owner_refs: tuple[Ref, ...] = ()) -> ManagerGuess | None:
    """Score candidates: a weekly 1:1 they organise (+5; +1 when the owner organises it),
    the owner calling them manager (+4), other mail naming them the owner's manager (+2).

    ``one_on_ones``: (key, name, organised_by_them, refs, ritual title).
    """
    scores: Counter[str] = Counter()
    names: dict[str, str] = {}
    reasons: defaultdict[str, list[str]] = defaultdict(list)
    refs: defaultdict[str, list[Ref]] = defaultdict(list)
    by_name = {name_key(c.name): c for c in contacts.ranked if c.name}

    def resolve(name: str) -> str:
        c = by_name.get(name_key(name))
        key = c.key if c else f"name:{name_key(name)}"
        names.setdefault(key, c.name if c else normal_name(name))
        return key

    for key, name, theirs, ritual_refs, title in one_on_ones:
        scores[key] += 5 if theirs else 1
        names.setdefault(key, name)
        reasons[key].append(f"weekly 1:1 '{title}'" + (" they organise" if theirs else ""))
        refs[key].extend(ritual_refs)
    for mentions, points, reason, cited in ((owner_mentions, 4, "you call them your manager", owner_refs),
                                            (other_mentions, 2, "named as your manager in mail", ())):
        for name, n in mentions.items():
            if not name_key(name):
                continue
            key = resolve(name)
            scores[key] += points
            reasons[key].append(f"{reason} ({n}x)")
            refs[key].extend(r for r in cited if name in r.note)
    if not scores:
        return None
    key, score = max(scores.items(), key=lambda kv: (kv[1], kv[0]))
    if score < 3:
        return None
    key = _newest_said(key, scores, refs, owner_refs, resolve, owner_mentions, reasons)
    score = scores[key]
    contact = next((c for c in contacts.ranked if c.key == key), None)
    return ManagerGuess(key, names.get(key) or (contact.name if contact else ""), float(score),
                        tuple(reasons[key]), tuple(refs[key]) + (contact.refs[:2] if contact else ()))
