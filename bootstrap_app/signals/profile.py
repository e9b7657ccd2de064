"""The owner's profile: name, addresses, employer, title, team, timezone, working hours.

While items stream, the analyzer keeps per-author activity timestamps (mail sent, chat posted)
and what signature blocks *state* (title, team, organisation lines parsed on the spot; the
rest of the text is dropped at once). Which author is the owner is decided at the end, so
the working-hours window is computed only over the owner's own activity: the 2nd–98th
percentile of local minute-of-day on weekdays, rounded to 30 minutes (see ``working_hours`` for
why not the 10th-90th).

The timezone comes from the calendar's zone, else the owner's own Slack profile zone (checked
against the offsets of their sent mail), else the usual offset of their sent mail written as
``UTC-06:00`` — never an IANA name guessed from an offset, and nothing at all when every sender
in the archive carries the same offsets (rewritten headers) or Slack and mail disagree
(see ``resolve_timezone``). The title comes from the owner's signature, else their account's
directory entry, else their Slack profile.

The text parsers (signature blocks, Slack titles, manager mentions) live in :mod:`.signature`:
they know nothing of owners or streams; this module is the accumulator and the late decision.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

from bootstrap_app.identity import name_key
from bootstrap_app.owner import OwnerIdentity
from bootstrap_app.text.mail import own_text
from bootstrap_app.types import ChatMessage, Item, Message

from .account_directory import AccountDirectory
from .analyzer import Analyzer
from .base import Ref, person_key
from .contact_blocks import FREE_MAIL, ContactDirectory, contact_blocks, domain_label, org_from_domain
from .rhythms import offset_name, zone
from .signature import MANAGER_MENTION, parse_signature, parse_slack_title

__all__ = ["ProfileAccumulator", "ProfileSignal", "received_key"]

_MAX_STAMPS = 4000
_RECEIVED = "#received"


def received_key(key: str) -> str:
    """Where facts from *received* mail of ``key`` are filed: never one of the owner's keys."""
    return key + _RECEIVED


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
    manager_mentions: tuple[tuple[str, int], ...] = ()
    refs: tuple[Ref, ...] = ()
    activity_refs: tuple[Ref, ...] = ()


@dataclass
class ProfileAccumulator(Analyzer):
    signal = "profile"
    consumes = frozenset({"message", "chatmessage"})

    stamps: defaultdict[str, list[tuple[float, int | None]]] = field(default_factory=lambda: defaultdict(list))
    """Per author: (UTC timestamp, the sender's UTC offset in minutes when the mail said)."""
    seen: Counter[str] = field(default_factory=Counter)
    offset_counts: defaultdict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    """Per sender: how often each Date-header offset occurs (the owner's is decided late)."""
    sig: defaultdict[str, Counter[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    sig_refs: dict[str, list[Ref]] = field(default_factory=lambda: defaultdict(list))
    manager: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    manager_refs: dict[str, list[Ref]] = field(default_factory=lambda: defaultdict(list))
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    author_refs: defaultdict[str, list[Ref]] = field(default_factory=lambda: defaultdict(list))
    latest: dict[str, float] = field(default_factory=dict)
    """Per author: the newest mail/chat timestamp (the reservoir of ``stamps`` may miss it)."""
    slack: defaultdict[str, Counter[tuple[str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    """Per chat author: (Slack profile title, Slack tz) as their messages carry them."""
    slack_refs: dict[str, Ref] = field(default_factory=dict)
    """Per chat author: their newest message carrying a Slack profile (cited first, as current)."""
    directory: ContactDirectory = field(default_factory=ContactDirectory)
    """What contact blocks in anyone's mail state, who stated it, whom each sender wrote to."""
    account: AccountDirectory = field(default_factory=AccountDirectory)
    """What the signed-in account's directory entry says of the owner (handed over by the scan)."""

    def _author_ref(self, key: str, ref: Ref) -> None:
        """Keep the three newest items of each author as evidence pointers."""
        refs = self.author_refs[key]
        refs.append(ref)
        if len(refs) > 3:
            refs.sort(key=lambda r: r.date.timestamp() if r.date else float("-inf"), reverse=True)
            del refs[3:]

    def _stamp(self, key: str, when: datetime | None, offset: int | None = None) -> None:
        """One activity time of ``key``; ``offset`` is the sender's clock (mail Date header)."""
        if not key or when is None:
            return
        self.seen[key] += 1
        value = when.timestamp()
        if value > self.latest.get(key, float("-inf")):
            self.latest[key] = value
        bucket = self.stamps[key]
        if len(bucket) < _MAX_STAMPS:
            bucket.append((value, offset))
        else:  # reservoir sampling keeps the sample uniform without holding everything
            j = self.rng.randrange(self.seen[key])
            if j < _MAX_STAMPS:
                bucket[j] = (value, offset)
        if offset is not None:
            self.offset_counts[key][offset] += 1

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
                self.offset_counts[key][offset] += 1  # newsletters show what other clocks say
            if item.is_bulk or not key:
                return
            self._stamp(key, item.timestamp, offset)
            when = item.timestamp.date().isoformat() if item.timestamp else "undated"
            self._author_ref(key, Ref(item.source, item.ref, item.timestamp, key, f"mail sent {when}"))
            text = own_text(item.body)
            hint = domain_label(item.sender.address) if item.sender.address else ""
            hint = "" if hint in FREE_MAIL else hint
            sig = parse_signature(text, hint)
            if sig and not item.subject.lower().startswith(("fw", "fwd")):
                signer = name_key(sig["signer"])
                for field_name in ("title", "team", "org"):
                    if field_name in sig:
                        self.sig[key][(field_name, sig[field_name], signer)] += 1
                if len(self.sig_refs[key]) < 3:
                    self.sig_refs[key].append(Ref(item.source, item.ref, item.timestamp, key,
                                                  f"signature: {sig['signer']}, {sig['title']}"))
            # a message's closing signature is its sender's claim about *themselves* (kept in
            # ``sig`` under the sender's key), not a statement about someone else: a lookalike
            # signing as the owner must not hand the owner a title (issue 14)
            self.directory.mail(item, key, contact_blocks(text, hint), name_key(sig["signer"]) if sig else "")
            for m in MANAGER_MENTION.finditer(text):
                name = next(g for g in m.groups() if g)
                self.manager[key][name] += 1
                # per name, the newest mention is kept: a new manager is said after the old one
                refs = self.manager_refs[key]
                refs.append(Ref(item.source, item.ref, item.timestamp, key, f"mentions manager {name}"))
                newest: dict[str, Ref] = {}
                for r in sorted(refs, key=lambda r: r.date.timestamp() if r.date else float("-inf")):
                    newest[r.note] = r
                refs[:] = sorted(newest.values(), key=lambda r: r.date.timestamp() if r.date else float("-inf"))[-3:]
        elif isinstance(item, ChatMessage):
            key = person_key(item.user)
            self._stamp(key, item.timestamp)
            if key and (item.user_title or item.user_tz):
                self.slack[key][(item.user_title, item.user_tz)] += 1
                prev = self.slack_refs.get(key)  # the newest message: cited first, as current
                if prev is None or (item.timestamp and (prev.date is None or item.timestamp > prev.date)):
                    self.slack_refs[key] = Ref(item.source, item.ref, item.timestamp, key,
                                               f"Slack profile of {item.user.name or key}"
                                               + (f": {item.user_title[:80]}" if item.user_title else ""))
            if key:
                when = item.timestamp.date().isoformat() if item.timestamp else "undated"
                self._author_ref(key, Ref(item.source, item.ref, item.timestamp, key,
                                          f"chat message in #{item.channel}, {when}"))

    def account_directory(self, facts: dict[str, str], label: str, source: str) -> None:
        """An account source's directory entry of its signed-in owner (title, employer)."""
        self.account.add(facts, label, source)

    # -- decision ------------------------------------------------------------------------
    def owner_keys(self, owner: OwnerIdentity) -> list[str]:
        name_keys = {f"name:{name_key(n)}" for n in owner.names if name_key(n)}
        return [k for k in self.seen if owner.is_owner_address(k) or k in name_keys]

    def last_activity(self, owner: OwnerIdentity) -> datetime | None:
        """When the owner last sent mail or posted in chat (None when never seen)."""
        values = [self.latest[k] for k in self.owner_keys(owner) if k in self.latest]
        return datetime.fromtimestamp(max(values), UTC) if values else None

    def mail_offset(self, keys: list[str]) -> tuple[int | None, str]:
        """The owner's usual Date-header offset, or (None, why not).

        Never an IANA zone: an offset says "UTC-06:00", not Chicago versus Mexico City. And an
        offset counts only when it tells the owner apart from everyone else: when at least 97%
        of the mail from 8 or more other domains carries the very offsets the owner's mail
        does, the archive rewrote every Date header into one zone (the Enron corpus did, to US
        Pacific time) and the offsets say nothing about where the owner is.
        """
        mine: Counter[int] = Counter()
        for k in keys:
            mine.update(self.offset_counts.get(k, Counter()))
        total = sum(mine.values())
        if total < 5:
            return None, "too few sent mails with a dated offset"
        if all(off == 0 for off in mine):
            return None, "sent mail is stamped +0000 (servers do that)"
        own = set(keys)
        others = [(k, c) for k, c in self.offset_counts.items() if k not in own]
        everyone: Counter[int] = Counter()
        for _, c in others:
            everyone.update(c)
        # one clock for the whole archive: its most common offset, plus the one an hour away
        # when that is next (the same zone in summer / winter time)
        top = [off for off, _ in everyone.most_common(2)]
        clock = {top[0]} | ({top[1]} if len(top) > 1 and abs(top[0] - top[1]) == 60 else set()) if top else set()
        domains = {k.removesuffix(_RECEIVED).rpartition("@")[2] for k, _ in others if "@" in k}
        n_others = sum(everyone.values())
        same = sum(n for off, n in everyone.items() if off in clock)
        usual = {off for off, n in mine.items() if n >= 0.05 * total}
        if len(domains) >= 8 and n_others >= 30 and same >= 0.97 * n_others and usual <= clock:
            return None, (f"{same} of {n_others} mails from {len(domains)} other domains carry the same "
                          "offsets: the archive rewrote the Date headers")
        return mine.most_common(1)[0][0], "Date headers of sent mail"

    def slack_profile(self, keys: list[str]) -> tuple[str, str]:
        """(title, IANA tz) of the owner's own Slack profile, the most common across workspaces."""
        facts: Counter[tuple[str, str]] = Counter()
        for k in keys:
            facts.update(self.slack.get(k, Counter()))
        titles = Counter({t: n for (t, _), n in facts.items() if t})
        zones = Counter({z: n for (_, z), n in facts.items() if z and zone(z)})
        return (titles.most_common(1)[0][0] if titles else "", zones.most_common(1)[0][0] if zones else "")

    def _zone_matches_mail(self, keys: list[str], tz_name: str) -> bool:
        """True when ``tz_name`` gives the offset of at least 80% of the owner's dated mails."""
        tz = zone(tz_name)
        samples = [(ts, off) for k in keys for ts, off in self.stamps.get(k, []) if off is not None]
        if tz is None or not samples:
            return False
        hits = 0
        for ts, off in samples:
            delta = datetime.fromtimestamp(ts, tz).utcoffset()
            hits += int(delta is not None and int(delta.total_seconds() // 60) == off)
        return hits >= 0.8 * len(samples)

    def resolve_timezone(self, keys: list[str], tz_calendar: str, tz_slack: str = "") -> tuple[str, str, str]:
        """(timezone, where from, why none).

        The calendar's zone first (Slack agreeing is noted). Else the owner's Slack zone when
        their sent mail's offsets match it, or when no mail offset says anything; the mail
        offset alone (``UTC-06:00``) when Slack names no zone. When Slack and the mail offsets
        disagree nothing is proposed: one of them is stale and we cannot tell which.
        """
        if tz_calendar:
            if tz_slack and zone(tz_slack) and zone(tz_calendar) and tz_slack == tz_calendar:
                return tz_calendar, "calendar, matching the Slack profile", ""
            return tz_calendar, "calendar", ""
        offset, why = self.mail_offset(keys)
        if tz_slack:
            if offset is None:
                return tz_slack, "Slack profile", ""
            if self._zone_matches_mail(keys, tz_slack):
                return tz_slack, "Slack profile, matching the Date headers of sent mail", ""
            return "", "", (f"sent mail is written at {offset_name(offset)}, which does not fit the Slack "
                            f"profile's {tz_slack}")
        if offset is None:
            return "", "", why
        return offset_name(offset), why, ""

    def result(self, owner: OwnerIdentity, tz_name: str = "") -> ProfileSignal:
        keys = self.owner_keys(owner)
        slack_title, slack_tz = self.slack_profile(keys)
        tz_name, tz_from, tz_note = self.resolve_timezone(keys, tz_name, slack_tz)
        hours, samples = self.working_hours(keys, tz_name)
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
        slack_used = False
        if not title and role:  # the signature says nothing: the owner's own Slack profile does
            title, slack_used = role, True
            if org and not employer:
                employer, employer_from = org, "Slack profile"
        if slack_used or (slack_tz and tz_from.startswith("Slack")):
            refs.extend(self.slack_refs[k] for k in keys if k in self.slack_refs)
        title_from = "Slack profile" if slack_used else title_from
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
                    domains[org] += 1 + self.seen.get(a, 0)
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
            timezone_from=tz_from, timezone_note=tz_note, hours=hours, hours_samples=samples,
            manager_mentions=tuple(mentions.most_common(3)), refs=tuple(refs),
            activity_refs=tuple(r for k in keys for r in self.author_refs.get(k, []))[:6])

    def title_of(self, key: str, name: str) -> str:
        """The job title a contact's own signature states (a title is allowed third-party data)."""
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
        out: Counter[str] = Counter()
        for key, names in self.manager.items():
            if not owner.is_owner_address(key):  # (received_key()s never are)
                out.update(names)
        return out

    def working_hours(self, keys: list[str], tz_name: str) -> tuple[tuple[str, str] | None, int]:
        """Weekday activity window in ``tz_name``. For a mail offset (``UTC+02:00``) each mail's
        own offset is used, so a summer-time switch inside the data does not shift the hours."""
        tz = zone(tz_name) or UTC
        own_clock = tz_name.startswith("UTC") and tz_name != "UTC"
        minutes: list[int] = []
        for k in keys:
            for ts, off in self.stamps.get(k, []):
                local = datetime.fromtimestamp(ts, timezone(timedelta(minutes=off)) if own_clock and off is not None
                                               else tz)
                if local.weekday() < 5:
                    minutes.append(local.hour * 60 + local.minute)
        if len(minutes) < 12:
            return None, len(minutes)
        minutes.sort()
        # The window holding 96% of weekday activity. The 10th-90th percentile window was
        # tried first and cuts off the first and last hour of an ordinary day (mail and chat
        # bunch up mid-day), so only the outer 2% on each side — a stray late mail — is dropped.
        lo = minutes[round(0.02 * (len(minutes) - 1))]
        hi = minutes[round(0.98 * (len(minutes) - 1))]

        def fmt(m: int) -> str:
            m = int(round(m / 30.0) * 30) % (24 * 60)
            return f"{m // 60:02d}:{m % 60:02d}"
        return (fmt(lo), fmt(hi)), len(minutes)
