"""The owner's profile: name, addresses, employer, title, team, timezone, working hours.

While items stream, the analyzer keeps what signature blocks *state* (title, team,
organisation lines parsed on the spot; the rest of the text is dropped at once), what contact
blocks and Slack profiles say, and hands each activity time to its :class:`~.clock.ActivityClock`.
Which author is the owner is decided at the end, so the working-hours window and the timezone
are computed only over the owner's own activity (see :mod:`.clock`: the calendar's zone, else
the owner's Slack zone checked against their sent mail's offsets, else that offset written as
``UTC-06:00``). The title comes from the owner's signature, else their account's directory
entry, else their Slack profile, else what two people's contact blocks state.

The text parsers (signature blocks, Slack titles, manager mentions) live in :mod:`.signature`
and the clock in :mod:`.clock`: they know nothing of signatures or of each other; this module
is the accumulator and the late decision.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.identity.resolve import name_key
from bootstrap_app.types import ChatMessage, Item, Message

from .account_directory import AccountDirectory
from .analyzer import Analyzer
from .base import Ref, person_key, received_key
from .clock import ActivityClock
from .contact_blocks import ContactDirectory, org_from_domain
from .newest import NewestPerSender
from .rhythms import zone
from .signature import parse_slack_title
from .textfacts import mail_text

__all__ = ["ProfileAccumulator", "ProfileSignal"]

@dataclass(frozen=True)
class ProfileSignal:
    """Who the owner is, as the footprint shows it; ``*_from`` fields say where each fact came from."""

    name: str = ""
    addresses: tuple[str, ...] = ()
    employer: str = ""
    employer_from: str = ""
    title: str = ""
    team: str = ""
    signatures: int = 0
    timezone: str = ""
    timezone_from: str = ""
    timezone_note: str = ""
    """Why no timezone was derived (e.g. the archive rewrote every Date header)."""
    title_from: str = ""
    slack_title: str = ""
    """The owner's Slack profile title as typed (kept even when it names no role)."""
    slack_tz: str = ""
    """The owner's Slack profile timezone (IANA), used as corroboration."""
    hours: tuple[str, str] | None = None
    hours_samples: int = 0
    hours_days: str = ""
    """The weekdays the hours hold on ("Monday to Friday", "every day", "Monday, Saturday and Sunday")."""
    hours_evidence: str = ""
    """What the hours rest on: the sources, their counts, and the fewest activities on a day named."""
    hours_note: str = ""
    """Why no working hours were proposed (too few dates per weekday, activity at every hour)."""
    manager_mentions: tuple[tuple[str, int], ...] = ()
    refs: tuple[Ref, ...] = ()
    activity_refs: tuple[Ref, ...] = ()


@dataclass
class ProfileAccumulator(Analyzer):
    signal = "profile"
    consumes = frozenset({"message", "chatmessage"})

    clock: ActivityClock = field(default_factory=ActivityClock)
    """When each author writes: the timezone and working hours are decided from it at the end."""
    sig: defaultdict[str, Counter[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    sig_refs: dict[str, list[Ref]] = field(default_factory=lambda: defaultdict(list))
    manager: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    manager_refs: dict[str, list[Ref]] = field(default_factory=lambda: defaultdict(list))
    author_refs: defaultdict[str, list[tuple[float, str, str, datetime | None, str | None]]] = field(
        default_factory=lambda: defaultdict(list))
    """Per author: (POSIX time, source, ref, timestamp, chat channel or None for mail) of their
    three newest items, the evidence pointers of their activity (:meth:`_activity_refs`)."""
    slack: defaultdict[str, Counter[tuple[str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    """Per chat author: (Slack profile title, Slack tz) as their messages carry them."""
    slack_refs: dict[str, Ref] = field(default_factory=dict)
    """Per chat author: their newest message carrying a Slack profile (cited first, as current)."""
    directory: ContactDirectory = field(default_factory=ContactDirectory)
    """What contact blocks in anyone's mail state, who stated it, whom each sender wrote to."""
    account: AccountDirectory = field(default_factory=AccountDirectory)
    """What the signed-in account's directory entry says of the owner (handed over by the scan)."""
    newest: NewestPerSender[Message] = field(default_factory=NewestPerSender)
    """Per sender of received mail: its newest messages, read at the end (:meth:`_defer`)."""
    _ranked: set[str] = field(default_factory=set, repr=False)
    """Authors whose kept activities are ordered newest first (they had a fourth)."""

    def _keep_activity(self, key: str, value: float, item: Message | ChatMessage, channel: str | None) -> None:
        """Keep ``item`` (dated ``value``, POSIX time) if it is among the three newest of its
        author; ``channel``: the chat channel, None for mail.

        The place is the one appending it and stable-sorting newest first gives (an item as new
        as a kept one goes after it), as this did once, but without a sort and an evidence
        ``Ref`` per message: from the fourth item on the three are kept ordered (``_ranked``),
        and the Refs are built at the end. Before the fourth they stay in the order they came."""
        kept = self.author_refs[key]
        if len(kept) < 3:
            kept.append((value, item.source, item.ref, item.timestamp, channel))
            return
        if key not in self._ranked:  # the fourth item: order the first three, as the stable sort would
            kept.sort(key=itemgetter(0), reverse=True)
            self._ranked.add(key)
        for slot, entry in enumerate(kept):
            if entry[0] < value:
                kept.insert(slot, (value, item.source, item.ref, item.timestamp, channel))
                del kept[3:]
                return

    def _activity_refs(self, key: str) -> list[Ref]:
        """The evidence pointers to ``key``'s kept activities (built only now: most are replaced)."""
        refs = []
        for _, source, ref, stamp, channel in self.author_refs.get(key, []):
            when = stamp.date().isoformat() if stamp else "undated"
            note = f"mail sent {when}" if channel is None else f"chat message in #{channel}, {when}"
            refs.append(Ref(source, ref, stamp, key, note))
        return refs

    def observe(self, item: Item) -> None:
        if isinstance(item, Message):
            # what received mail shows of its sender (send times, signature, "my manager") is filed
            # apart: it may describe a colleague, never the owner, whatever its From says (issue 14)
            key = person_key(item.sender)
            key = received_key(key) if key and item.third_party_reason else key
            offset = item.utc_offset_minutes
            if offset is None and item.timestamp is not None and item.timestamp.tzinfo not in (None, UTC):
                delta = item.timestamp.utcoffset()  # items built with a local time (notebooks, tests)
                offset = int(delta.total_seconds() // 60) if delta is not None else None
            if key and offset is not None and item.is_bulk:
                self.clock.note_offset(key, offset)  # newsletters show what other clocks say
            if item.is_bulk or not key:
                return
            stamp = item.timestamp
            value = stamp.timestamp() if stamp is not None else float("-inf")
            if stamp is not None:
                self.clock.stamp_at(key, value, offset)
            self._keep_activity(key, value, item, None)
            if item.third_party_reason and self._defer(key, item, value):
                return  # received mail: its text is read at the end if it is among its sender's newest
            self._read_text(item, key)
        elif isinstance(item, ChatMessage):
            key = person_key(item.user)
            self.clock.stamp(key, item.timestamp, kind="chat messages")
            if key and (item.user_title or item.user_tz):
                self.slack[key][(item.user_title, item.user_tz)] += 1
                prev = self.slack_refs.get(key)  # the newest message: cited first, as current
                if prev is None or (item.timestamp and (prev.date is None or item.timestamp > prev.date)):
                    self.slack_refs[key] = Ref(item.source, item.ref, item.timestamp, key,
                                               f"Slack profile of {item.user.name or key}"
                                               + (f": {item.user_title[:80]}" if item.user_title else ""))
            if key:
                self._keep_activity(key, item.timestamp.timestamp() if item.timestamp else float("-inf"), item,
                                      item.channel)

    def _defer(self, key: str, item: Message, value: float) -> bool:
        """Keep ``item`` among the newest :data:`~bootstrap_app.signals.newest.NEWEST_PER_SENDER` received messages of ``key``
        (True), or say that it must be read now (False: too many senders kept already).

        Why: what received mail states (a colleague's signature, contact blocks, "my manager")
        is read from each sender's newest messages, not from every one of the thousands, so a
        body the reader decodes late (:mod:`connectors.local.lazybody`) is decoded only for
        those. The owner's own mail (never judged received) is always read in full.
        """
        held, _dropped = self.newest.offer(key, value, item)
        return held

    def _settle(self) -> None:
        """Read the kept received messages, in the order they came (called before any result)."""
        for item in self.newest.take():
            key = person_key(item.sender)
            self._read_text(item, received_key(key) if key else key)

    def _read_text(self, item: Message, key: str) -> None:
        """What one message's text states: its signature, contact blocks and manager mentions."""
        facts = mail_text(item)  # worked out where the message was read when it could be (.textfacts)
        sig = facts.signature
        if sig and not item.subject.lower().startswith(("fw", "fwd")):
            signer = name_key(sig["signer"])
            for field_name in ("title", "team", "org"):
                if field_name in sig:
                    self.sig[key][(field_name, sig[field_name], signer)] += 1
            if len(self.sig_refs[key]) < 3:
                self.sig_refs[key].append(Ref(item.source, item.ref, item.timestamp, key,
                                              f"signature: {sig['signer']}, {sig.get('title') or sig.get('org') or sig.get('team')}"))
        # a message's closing signature is its sender's claim about *themselves* (kept in
        # ``sig`` under the sender's key), not a statement about someone else: a lookalike
        # signing as the owner must not hand the owner a title (issue 14)
        self.directory.mail(item, key, facts.blocks, name_key(sig["signer"]) if sig else "")
        for name in facts.managers:
            self.manager[key][name] += 1
            # per name, the newest mention is kept: a new manager is said after the old one
            refs = self.manager_refs[key]
            refs.append(Ref(item.source, item.ref, item.timestamp, key, f"mentions manager {name}"))
            newest: dict[str, Ref] = {}
            for r in sorted(refs, key=lambda r: r.date.timestamp() if r.date else float("-inf")):
                newest[r.note] = r
            refs[:] = sorted(newest.values(), key=lambda r: r.date.timestamp() if r.date else float("-inf"))[-3:]

    def account_directory(self, facts: dict[str, str], label: str, source: str) -> None:
        """An account source's directory entry of its signed-in owner (title, employer)."""
        self.account.add(facts, label, source)

    # -- decision ------------------------------------------------------------------------
    def owner_keys(self, owner: OwnerIdentity) -> list[str]:
        name_keys = {f"name:{name_key(n)}" for n in owner.names if name_key(n)}
        return [k for k in self.clock.seen if owner.is_owner_address(k) or k in name_keys]

    def last_activity(self, owner: OwnerIdentity) -> datetime | None:
        """When the owner last sent mail or posted in chat (None when never seen)."""
        return self.clock.last_activity(self.owner_keys(owner))

    def slack_profile(self, keys: list[str]) -> tuple[str, str]:
        """(title, IANA tz) of the owner's own Slack profile, the most common across workspaces."""
        facts: Counter[tuple[str, str]] = Counter()
        for k in keys:
            facts.update(self.slack.get(k, Counter()))
        titles = Counter({t: n for (t, _), n in facts.items() if t})
        zones = Counter({z: n for (_, z), n in facts.items() if z and zone(z)})
        return (titles.most_common(1)[0][0] if titles else "", zones.most_common(1)[0][0] if zones else "")

    def result(self, owner: OwnerIdentity, tz_name: str = "") -> ProfileSignal:
        self._settle()
        keys = self.owner_keys(owner)
        slack_title, slack_tz = self.slack_profile(keys)
        tz_name, tz_from, tz_note = self.clock.resolve_timezone(keys, tz_name, slack_tz)
        worked = self.clock.hours(keys, tz_name)
        owner_keys = {name_key(n) for n in owner.names} | {name_key(n.split()[0] + " " + n.split()[-1])
                                                           for n in owner.names if len(n.split()) > 1}
        sig: Counter[tuple[str, str]] = Counter()
        refs: list[Ref] = []
        for k in keys:
            for (kind, value, signer), n in self.sig.get(k, Counter()).items():
                if signer in owner_keys:  # the owner's own signature, not a forwarded one
                    sig[(kind, value)] += n
            if sig:
                refs.extend(self.sig_refs.get(k, []))

        def best(kind: str) -> str:
            options = [(n, v) for (f, v), n in sig.items() if f == kind]
            return max(options)[1] if options else ""

        employer, title = best("org"), best("title")
        # the account's own directory entry fills what the owner's signature leaves (account_directory.py)
        title, title_from, employer, employer_from, account_refs = self.account.fill(
            title, "signature" if title else "", employer, "signature" if employer else "")
        refs.extend(account_refs)
        role, org = parse_slack_title(slack_title)
        if not title and role:  # the signature says nothing: the owner's own Slack profile does
            title, title_from = role, "Slack profile"
        if org and not employer:  # where they work in their own words, before others' or a domain's
            employer, employer_from = org, "Slack profile"
        slack_used = "Slack profile" in (title_from, employer_from)
        if slack_used or (slack_tz and "Slack" in tz_from):
            refs.extend(self.slack_refs[k] for k in keys if k in self.slack_refs)
        if not title or not employer:  # what others' mail states about the owner beats the domain
            d_title, d_org, d_refs = self.directory.entry(owner_keys, keys, owner.addresses)
            if d_title and not title:
                title, title_from = d_title, "contact block in mail"
                refs.extend(d_refs)
            if d_org and not employer:
                employer, employer_from = d_org, "contact block in mail"
                refs.extend(r for r in d_refs if r not in refs)
        if not employer:
            domains: Counter[str] = Counter()
            for a in owner.addresses:  # one per address, and the inbox the owner is most reached at counts most
                if org := org_from_domain(a):
                    domains[org] += 1 + self.clock.seen.get(a, 0)
            if domains:
                employer, employer_from = domains.most_common(1)[0][0], "email domain"
        mentions: Counter[str] = Counter()
        for k in keys:
            mentions.update(self.manager.get(k, Counter()))
            refs.extend(self.manager_refs.get(k, []))
        return ProfileSignal(
            name=owner.name, addresses=tuple(a for a in (owner.ordered or sorted(owner.addresses))
                                                  if re.fullmatch(r"[\w.+-]+@[\w.-]+", a) and ".." not in a), employer=employer,
            employer_from=employer_from, title=title, title_from=title_from, team=best("team"),
            slack_title=slack_title, slack_tz=slack_tz,
            signatures=sum(n for (f, _), n in sig.items() if f == "title"), timezone=tz_name,
            timezone_from=tz_from, timezone_note=tz_note, hours=worked.window if worked else None,
            hours_samples=worked.samples if worked else 0, hours_days=worked.days_text if worked else "",
            hours_evidence=worked.evidence if worked else "", hours_note=self.clock.no_hours,
            manager_mentions=tuple(mentions.most_common(3)), refs=tuple(refs),
            activity_refs=tuple(r for k in keys for r in self._activity_refs(k))[:6])

    def title_of(self, key: str, name: str) -> str:
        """The job title a contact's own signature states (a title is allowed third-party data)."""
        self._settle()
        wanted = name_key(name)
        titles: Counter[tuple[str, str]] = Counter()
        for k in (key, received_key(key)):
            titles.update({(f, v): n for (f, v, signer), n in self.sig.get(k, Counter()).items()
                           if f in ("title", "org") and wanted and signer == wanted})
        title = max(((n, v) for (f, v), n in titles.items() if f == "title"), default=(0, ""))[1]
        org = max(((n, v) for (f, v), n in titles.items() if f == "org"), default=(0, ""))[1]
        return f"{title}, {org}" if title and org else title

    def third_party_manager_mentions(self, owner: OwnerIdentity) -> Counter[str]:
        """Names other people's mail calls the owner's manager (names only)."""
        self._settle()
        out: Counter[str] = Counter()
        for key, names in self.manager.items():
            if not owner.is_owner_address(key):  # (received_key()s never are)
                out.update(names)
        return out
