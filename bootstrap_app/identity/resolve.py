"""Who the owner is, across every source: addresses, names, Slack ids — proven, not guessed.

Why a collector plus a late decision (and no second read of the sources): the scan streams
items once and never holds them all. :class:`IdentityCollector` sees every item as it passes
and keeps only small per-address counters (how often an address sends, receives, carries a
"Sent" label, which display names go with it). The signal analyzers likewise aggregate *by
address*, so authorship does not have to be known while items stream: it is decided at
aggregation time, when :meth:`IdentityCollector.resolve` has seen everything. A re-read of
headers would double the I/O of the biggest sources (mailboxes) for no better answer.

Why only strong evidence makes an address the owner's: every address in
:attr:`OwnerIdentity.addresses` turns its mail into "the owner's own words", which the safety
gate trusts with instructions. So only evidence a stranger cannot produce counts: addresses the
person gives (``--owner``, settings, the wizard) or confirmed earlier (the store's confirmed
aliases), the sender of mail filed in the Sent folder / labelled Sent that did not arrive from
outside (``Message.third_party_reason``), a repository's git ``user.email``, the account owner
of an exported calendar, the Slack profile email of the owner's Slack id, and account send-as
aliases reported through :meth:`IdentityCollector.account_alias`. Anything a stranger *can*
produce — the owner's name at another domain, their surname at a free-mail provider, their
name in a display field — becomes an :attr:`OwnerIdentity.suggested` alias with its evidence,
shown in ``memseed sources`` and the wizard, and counts only once the person confirms it.

The no-hint inbox (say an Enron mailbox export): with no strong evidence at all, the address
most of the mailbox's non-list mail is addressed *to* names the owner. That is accepted because
it answers "whose mailbox is this", which only the mailbox holder's own address can dominate; it
is not evidence of authorship by anyone else. Mail *to* the owner is not written by the owner,
so the fallback never adds an address by name, and mail *from* it still has to pass
``Message.third_party_reason`` (an inbox copy is someone else's text). When the Sent folder
names the owner, or a proven address is already delivered to about as often, the most frequent
recipient is only a suggestion (one flooding a lookalike address cannot outvote the Sent folder).

The decision's result, :class:`~bootstrap_app.identity.owner.OwnerIdentity`, lives in
:mod:`bootstrap_app.identity.owner`: every analyzer and extractor needs to ask "is this the owner?", none
needs the collector. It is still importable from here.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.identity.confusables import imitates
from bootstrap_app.identity.hints import given_key, list_addresses, match_given, owner_candidates
from bootstrap_app.identity.names import FREE_MAIL, local_part_matches, name_key, name_tokens, normal_name
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import SENT_LABELS, ChatMessage, Event, Item, Message, Person, Repo

__all__ = ["ACCOUNT_ALIAS", "SENT_LABELS", "IdentityCollector", "OwnerIdentity", "name_key", "name_tokens",
           "normal_name"]

ACCOUNT_ALIAS = "account send-as alias"
"""The reason an account's own send-as aliases carry (cloud connectors report them; strong)."""
_UNSEEN: Any = object()
"""What :attr:`IdentityCollector.shown` gives for a person not seen yet (None is an answer there)."""


def _is_address(text: str) -> bool:
    return "@" in text and "." in text.split("@")[-1]


@dataclass
class IdentityCollector:
    """Streaming evidence about the owner; :meth:`resolve` decides once everything was seen.

    ``explicit``: addresses the person gave; ``confirmed``: aliases they confirmed earlier (the
    store's); ``rejected``: aliases they said are not theirs (never suggested again).
    """

    explicit: tuple[str, ...] = ()
    confirmed: tuple[str, ...] = ()
    rejected: frozenset[str] = frozenset()
    messages: int = 0
    to_counts: Counter[str] = field(default_factory=Counter)
    sent_label: Counter[str] = field(default_factory=Counter)
    git_emails: Counter[str] = field(default_factory=Counter)
    calendar_owners: Counter[str] = field(default_factory=Counter)
    account_aliases: dict[str, str] = field(default_factory=dict)
    names: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    seen: set[str] = field(default_factory=set)
    repo_authors: set[tuple[str, str]] = field(default_factory=set)
    chat_users: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    chat_names: dict[str, str] = field(default_factory=dict)
    bare_names: Counter[str] = field(default_factory=Counter)
    activity: Counter[str] = field(default_factory=Counter)
    list_messages: Counter[str] = field(default_factory=Counter)
    """Per ``List-Id``: how many messages carried it."""
    list_rcpts: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Per ``List-Id``: how often each address was among its messages' recipients."""
    mail_seen: set[str] = field(default_factory=set)
    """Addresses that sent or received mail (what confirms a calendar's account)."""
    chat_counts: Counter[str] = field(default_factory=Counter)
    calendar_names: defaultdict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    """(address, name) -> up to two calendar series it is written on (see :meth:`_calendar_line`)."""
    shown: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)
    """(name, address) as shown -> the normal name it counts under (None: its name is not
    counted): a mailbox shows a few thousand people hundreds of thousands of times, so each name
    is normalised once."""

    def _person(self, person: Person) -> None:
        name, address = person.name, person.address
        counted = self.shown.get((name, address), _UNSEEN)
        if counted is _UNSEEN:
            counted = self.shown[(name, address)] = normal_name(name) if name and (
                not address or name.lower() != address) else None
        if not address:
            if counted is not None:
                self.bare_names[counted] += 1
            return
        self.seen.add(address)
        self.activity[address] += 1
        if counted is not None:
            self.names[address][counted] += 1

    def observe(self, item: Item) -> None:
        """Count what one item says about the owner (cheap; no text kept)."""
        handler = _OBSERVERS.get(item.kind)
        if handler is not None:
            handler(self, item)

    def account_alias(self, address: str, why: str = ACCOUNT_ALIAS) -> None:
        """Hook for account connectors: ``address`` is a send-as alias of the signed-in account
        (the provider says so, e.g. Gmail's ``users.settings.sendAs``), which is strong evidence."""
        if _is_address(address):
            self.account_aliases.setdefault(address.strip().lower(), why)

    def _message(self, item: Message) -> None:
        self.messages += 1
        self._person(item.sender)
        # who the mailbox is delivered to: a list is nobody's inbox, and the owner's own sent mail
        # (and mail to oneself) says who *they* write to, not whose mailbox this is
        delivered = not (item.is_bulk or item.list_id or item.in_sent or item.authored_by_owner is True)
        if item.list_id:
            self.list_messages[item.list_id.lower()] += 1
            self.list_rcpts[item.list_id.lower()].update({p.address for p in (*item.to, *item.cc) if p.address})
        sender, mail_seen = item.sender.address, self.mail_seen
        if sender:
            mail_seen.add(sender)
        for p in item.to:
            self._person(p)
            if p.address:
                mail_seen.add(p.address)
                if delivered and p.address != sender:
                    self.to_counts[p.address] += 1
        for p in item.cc:
            self._person(p)
            if p.address:
                mail_seen.add(p.address)
        # a Sent label / Sent-folder hint counts only on mail that did not arrive from outside
        if item.sender.address and not item.third_party_reason and (
                item.authored_by_owner is True or item.in_sent):
            self.sent_label[item.sender.address] += 1

    def _repo(self, item: Repo) -> None:
        if item.git_user_email:
            self.git_emails[item.git_user_email.lower()] += 1
        for name, email, _ in item.authors:
            self.repo_authors.add((normal_name(name), email.lower()))

    def _event(self, item: Event) -> None:
        if item.published:  # a venue's public feed: nobody in it is the person
            return
        if item.calendar_owner and _is_address(item.calendar_owner):
            self.calendar_owners[item.calendar_owner.lower()] += 1
        for p in (*item.attendees, *((item.organizer,) if item.organizer else ())):
            self._person(self._calendar_line(p, item.series_uid or item.ref))

    def _calendar_line(self, person: Person, series: str) -> Person:
        """The person, without the name until it is written on two different series: one
        ORGANIZER line repeats on every occurrence of its series, and must not name the owner."""
        if not (person.name and person.address):
            return person
        lines = self.calendar_names[(person.address.lower(), normal_name(person.name))]
        if len(lines) < 2:
            lines.add(series)
        return person if len(lines) >= 2 else Person(name="", address=person.address)

    def _chat(self, item: ChatMessage) -> None:
        uid = item.user.address
        if uid:
            if item.subtype != "bot_message":  # an integration posting is nobody's own words
                self.chat_counts[uid] += 1
            if item.user.name:
                self.chat_names[uid] = normal_name(item.user.name)
            aliases = self.chat_users[uid]  # every chat user is listed, with or without aliases
            aliases.update(p.address for p in item.people if p.address and p.address != uid)

    # -- decision ------------------------------------------------------------------------
    def _strong(self, given: dict[str, str]) -> dict[str, str]:
        reasons: dict[str, str] = {}
        for value in self.explicit:
            a = given.get(value, given_key(value))
            if value not in given and not _is_address(a):
                continue  # a name or id that matched nobody names nobody (owner_hints.check_given)
            reasons.setdefault(a, "given as owner" if a == given_key(value) else f"given as owner ({value})")
        for a in self.confirmed:
            reasons.setdefault(a.strip().lower(), "alias confirmed by the owner")
        for a, why in self.account_aliases.items():
            reasons.setdefault(a, why)
        for a, n in self.sent_label.items():
            reasons.setdefault(a, f"sender of {n} message(s) in the Sent folder")
        for a in self.git_emails:
            reasons.setdefault(a, "git user.email")
        # a calendar's account is proof only when another source shows the same address: a
        # calendar alone (a subscribed feed, someone else's export) says whose calendar, not who scans
        supported = set(reasons) | self.mail_seen | set(self.chat_users)
        for a in self.calendar_owners:
            if a in supported:
                reasons.setdefault(a, "owner of the exported calendar")
        return reasons

    def _fallback(self, lists: frozenset[str]) -> dict[str, int]:
        """The address most of the mailbox's person-to-person mail is addressed to, with its count
        (never a mailing list's: an archive of list mail is nobody's inbox)."""
        if self.messages < 5:
            return {}
        top = next(((a, n) for a, n in self.to_counts.most_common() if a not in lists), None)
        if top is None or top[1] < max(3, 0.2 * self.messages):
            return {}
        return {top[0]: top[1]}

    def _mailbox_holder_unknown(self, reasons: dict[str, str], count: int) -> bool:
        """True when no strong evidence says whose mailbox this is, so its top recipient may.

        The Sent folder settles it (its senders are the holder). Otherwise the holder is known only
        when a proven address is itself delivered to about as often (at least half as often) as
        the top recipient; an address given for another account (``--owner`` with a personal
        address, a git e-mail) leaves the mailbox's own address to be named by the fallback.
        """
        if self.sent_label:
            return False
        return not any(self.to_counts[a] * 2 >= count for a in reasons)

    def _names_for(self, addresses: Iterable[str]) -> list[str]:
        counts: Counter[str] = Counter()
        for a in addresses:
            for name, n in self.names.get(a, {}).items():
                if len(name_tokens(name)) >= 2 and "@" not in name:
                    counts[name] += n
        for a in addresses:
            for name, email in self.repo_authors:
                if email == a and len(name_tokens(name)) >= 2:
                    counts[name] += 1
        if not counts:
            counts = self._names_from_local_parts(addresses)
        merged: list[str] = []
        for candidate, _ in counts.most_common():
            if not any(name_key(candidate) == name_key(m) for m in merged):
                merged.append(candidate)
        return merged

    def _names_from_local_parts(self, addresses: Iterable[str]) -> Counter[str]:
        """No display name for the owner's address: find names elsewhere that fit its local part.

        ``t.marrow@halvard.example`` fits "Marrow, Theo J" (shown on other headers) by surname
        and initial; the more of the local part a name explains, and the more often it is
        seen, the better.
        """
        pool: Counter[str] = Counter(self.bare_names)
        for shown in self.names.values():
            pool.update(shown)
        best: Counter[str] = Counter()
        for address in addresses:
            parts = [p for p in re.split(r"[^a-z]+", address.partition("@")[0].lower()) if p]
            longest = max(parts, key=len, default="")
            if len(longest) < 3:
                continue
            for name, n in pool.items():
                toks = name_tokens(name)
                if len(toks) < 2 or longest not in toks:
                    continue
                fit = sum(1 for p in parts if p in toks or (len(p) == 1 and any(t.startswith(p) for t in toks)))
                best[name] += n * fit * fit
        return best

    def _surname_candidates(self, reasons: dict[str, str], domains: set[str]) -> tuple[dict[str, str], list[str]]:
        """No name anywhere (some exports' headers carry none): candidates by surname, and a name.

        The longest part of the owner's local part (``marrow`` in ``t.marrow``) is taken as
        the surname; addresses at the owner's domains or at free-mail providers whose local part
        holds its first six letters are *suggested* (``tmarro``, ``tmarrow@aol.com``: a
        stranger can register either), and the most used first.last-shaped one names the owner
        (``theo.marrow`` -> Theo Marrow; a name is only a label, it grants no authorship of
        addressed mail).
        """
        locals_ = [re.sub(r"[^a-z]", "", a.partition("@")[0]) for a in reasons]
        parts = [p for a in reasons for p in re.split(r"[^a-z]+", a.partition("@")[0]) if p]
        # the part most of the owner's local parts contain (marrow in tmarrow and t.marrow)
        surname = max(parts, key=lambda p: (sum(p in loc for loc in locals_), len(p)), default="")
        if len(surname) < 5:
            return {}, []
        stem = surname[:6]
        found: dict[str, str] = {}
        for address in sorted(self.seen):
            local, _, domain = address.partition("@")
            if address not in reasons and stem in re.sub(r"[^a-z]", "", local) and (
                    domain in domains or domain in FREE_MAIL or any(domain.endswith("." + d) for d in domains)):
                found[address] = f"address holding the owner's surname ({stem}…)"
        shaped: Counter[str] = Counter()
        for address in [*reasons, *found]:
            toks = [t for t in re.split(r"[^a-z]+", address.partition("@")[0]) if t]
            if len(toks) >= 2 and toks[-1].startswith(stem) and len(toks[0]) >= 3:
                shaped[" ".join(t.capitalize() for t in toks)] += self.activity[address] + 1
        return found, ([shaped.most_common(1)[0][0]] if shaped else [])

    def _name_candidates(self, reasons: dict[str, str], names: list[str], domains: set[str]) -> dict[str, str]:
        """Addresses that merely *look* like the owner's: shown with the owner's name, built from
        it, a git author by that name. Anyone can type a display name or register such an
        address at another domain, so these are suggestions, never owner addresses."""
        found: dict[str, str] = {}
        main_tokens = name_tokens(names[0]) if names else ()
        if not main_tokens:
            return found
        owner_key = name_key(names[0])
        for address in sorted(self.seen | set(self.git_emails)):
            if address in reasons or "@" not in address:
                continue
            shown: Counter[str] = self.names.get(address, Counter())
            if owner_key and any(name_key(n) == owner_key for n in shown):
                found[address] = f"shown with the owner's name ({self.activity[address]} time(s))"
                continue
            local, _, domain = address.partition("@")
            if local_part_matches(local, main_tokens) and (
                    domain in domains or domain in FREE_MAIL or len(re.sub(r"[^a-z]", "", local)) >= 7):
                found[address] = "address built from the owner's name"
        for name, email in self.repo_authors:
            if email and email not in reasons and owner_key and name_key(name) == owner_key:
                found.setdefault(email, "git author with the owner's name")
        return found

    def resolve(self) -> OwnerIdentity:
        given, unmatched = match_given(self, self.explicit)
        lists = list_addresses(self)
        reasons = self._strong(given)
        suggested: dict[str, str] = {a: "account of the exported calendar (no other source shows this address)"
                                     for a in self.calendar_owners if a not in reasons}
        for address, count in self._fallback(lists).items():
            why = f"most frequent recipient ({count} of {self.messages} messages)"
            if address in reasons:
                continue
            if self._mailbox_holder_unknown(reasons, count):  # see the module docstring
                reasons[address] = why
            else:
                suggested[address] = why
        # names and look-alike candidates grow from the proven addresses plus the mailbox's own
        # (most frequent recipient): a name is a label and a candidate only a suggestion
        anchors = {**reasons, **suggested}
        names = self._names_for(anchors)
        domains = {a.split("@")[-1] for a in anchors if "@" in a}
        if not names:
            by_surname, names = self._surname_candidates(anchors, domains)
            suggested.update({a: w for a, w in by_surname.items() if a not in suggested})
        for address, why in self._name_candidates(anchors, names, domains).items():
            suggested.setdefault(address, why)
        slack: set[str] = set()
        for uid, aliases in self.chat_users.items():
            if uid in reasons or aliases & set(reasons):
                slack.add(uid)
                if "@" in uid:  # the owner was given by Slack id; their profile names the address
                    reasons.setdefault(uid, "Slack profile email of the owner's Slack id")
        if names:
            owner_key = name_key(names[0])
            for uid, n in self.chat_names.items():
                if uid not in slack and uid not in reasons and owner_key and name_key(n) == owner_key:
                    suggested.setdefault(uid, "chat account shown with the owner's name")
        if not names:  # the Slack profile's real_name (chat users are keyed by their email when it is known)
            names = [n for uid in [*sorted(a for a in reasons if a in self.chat_names), *sorted(slack)]
                     if (n := self.chat_names.get(uid, ""))][:1]
        suggested = {a: _warned(a, w, reasons) for a, w in suggested.items() if a not in reasons
                     and a not in slack and a not in self.rejected}
        ordered = tuple(sorted(reasons, key=lambda a: (-self.activity[a], a)))
        known = bool(reasons or slack)
        why = "" if known else self._unknown_why(lists)
        return OwnerIdentity(names=tuple(names[:3]), addresses=frozenset(reasons),
                             slack_ids=frozenset(slack), reasons=dict(reasons), ordered=ordered,
                             suggested=dict(sorted(suggested.items())),
                             candidates=() if known else owner_candidates(self, lists), unknown_why=why,
                             unmatched=unmatched)

    def _unknown_why(self, lists: frozenset[str]) -> str:
        """Why nothing proves an owner, in the words the scan summary shows."""
        listed = sum(self.list_messages.values())
        if self.messages and (listed >= 0.5 * self.messages or (lists and any(
                self.to_counts[a] >= 0.5 * self.messages for a in lists))):
            names = ", ".join(sorted(lists)[:3])
            return (f"a mailing-list archive ({listed} of {self.messages} messages carry list headers"
                    + (f"; list address {names}" if names else "") + "): a list is nobody's inbox")
        if self.chat_counts and not self.messages:
            return "a chat export names no owner of its own"
        if self.calendar_owners and not self.messages and not self.chat_counts:
            return "a calendar's account alone is not proof"
        return "no sent mail, account, git e-mail or profile names the owner"


def _warned(address: str, why: str, reasons: dict[str, str]) -> str:
    """The evidence, plus a warning when the address imitates a proven one (hyphen, digit,
    homoglyph, punycode): the person confirming must not take a lookalike for their own."""
    original = imitates(address, frozenset(reasons), FREE_MAIL)
    return f"{why}; LOOKALIKE of {original}: confirm only if it is really yours" if original else why


_OBSERVERS: dict[str, Callable[[IdentityCollector, Any], None]] = {
    "message": IdentityCollector._message,
    "repo": IdentityCollector._repo,
    "event": IdentityCollector._event,
    "chatmessage": IdentityCollector._chat,
}
"""Item kind -> what it can tell about the owner (documents and existing memory tell nothing)."""
