"""Shared pieces of the signal analyzers: evidence pointers and person keys.

A :class:`Ref` points at one item (source, ref, date) with a short note made only of names,
dates, titles and counts. Analyzers keep Refs instead of items, so a signal never carries
third-party free text; the heuristic extractor turns Refs into :class:`~bootstrap_app.types.Evidence`
once authorship is known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.identity.resolve import name_key
from bootstrap_app.types import Evidence, Person

__all__ = ["BULK_LOCAL", "RECEIVED_SUFFIX", "Ref", "is_bulk_address", "is_owner_key", "is_person", "person_key",
           "prefer_past", "received_key", "refs_to_evidence"]

# Address shapes only, each a convention shared across mail systems (none is a word taken from a
# mailbox we test on): no-reply and notification senders, RFC 2142 role mailboxes (info, sales,
# support, webmaster, postmaster ...), list-manager addresses (-request, -bounces, owner-),
# bulk-mail providers' sending domains, and calendar-system organizers (Google's calendar domain,
# Exchange/Google resource calendars). A domain's *shape* (news., lists., mail2.) says nothing
# about the person at it — a journalist at news.example.com.au is a person — so bulk mail from
# such domains is left to the message's own headers (List-Id, List-Unsubscribe, Precedence ...).
BULK_LOCAL = re.compile(
    r"^(?:no[._-]?reply|do[._-]?not[._-]?reply|noreply|notifications?|notify|newsletters?|"
    r"news|mailer[._-]?daemon|postmaster|bounces?|info|updates?|alerts?|marketing|support|webmaster|"
    r"admin|system|auto(?:mated)?|billing|digest|listserv|majordomo|calendar|hello|"
    r"team|service|services|help|feedback|events?|invitations?|jobs|careers|sales|press|contact|"
    r"owner-.*|.*-request|.*-bounces|.*\+bounce.*|.*noreply.*|.*no-reply.*|.*notification.*)$")
_BULK_DOMAIN = re.compile(r"(?:^|\.)(?:bounces?|mailchimp|mcsv|mcdlv|rsgsv|sendgrid|amazonses|mailgun|"
                          r"sparkpostmail|mandrillapp|mailjet|sendinblue|constantcontact)\.")


_CALENDAR_SYSTEM = re.compile(r"(?:^|\.)calendar\.google\.com$|resource\.calendar|group\.v\.calendar")
# A display name holding a function word names a service, a room or a feed, not a person
# ("Booking for the Main Room", "The Ops Team"); so do two resource nouns ("Team Calendar") or a
# name that is a resource noun alone ("Support"). One such noun in a real name is a surname or a
# given name (Billie Holiday, Ada Room), so one alone does not decide.
_FUNCTION_WORD = re.compile(r"\b(?:for|the|of|and)\b", re.I)
_RESOURCE_NOUN = re.compile(r"\b(?:team|calendar|room|booking|reservations?|holidays?|events?|support|info|"
                            r"group)\b", re.I)


def is_bulk_address(address: str) -> bool:
    """True for no-reply / notification / newsletter / list-like / calendar-system addresses."""
    if "@" not in address:
        return False
    local, _, domain = address.lower().partition("@")
    return bool(BULK_LOCAL.match(local) or _BULK_DOMAIN.search(domain + ".") or _CALENDAR_SYSTEM.search(domain))


def is_person(key: str, name: str) -> bool:
    """False for keys/names that are clearly not a person: malformed addresses, services, rooms."""
    if "@" in key:
        local, _, domain = key.partition("@")
        if not local or local.endswith(".") or "." not in domain or is_bulk_address(key):
            return False
    if not name:
        return True
    nouns = len(_RESOURCE_NOUN.findall(name))
    return not (_FUNCTION_WORD.search(name) or nouns >= 2 or (nouns == 1 and len(name.split()) == 1))


def person_key(person: Person) -> str:
    """The address, or ``name:<first last>`` for people shown without one (Outlook exports)."""
    if person.address:
        return person.address
    key = name_key(person.name)
    return f"name:{key}" if key else ""


RECEIVED_SUFFIX = "#received"


def received_key(key: str) -> str:
    """Where facts from *received* mail of ``key`` are filed: never one of the owner's keys."""
    return key + RECEIVED_SUFFIX


def is_owner_key(key: str, owner: OwnerIdentity) -> bool:
    """True when a :func:`person_key` (address, Slack id or ``name:<first last>``) is the owner's."""
    if key.startswith("name:"):
        return any(f"name:{name_key(n)}" == key for n in owner.names)
    return owner.is_owner_address(key)


@dataclass(frozen=True, slots=True)
class Ref:
    """A pointer to an item; ``note`` holds only names, dates, titles and counts."""

    source: str
    ref: str
    date: datetime | None = None
    author: str = ""
    """Key of the person who wrote the item (address / ``name:``); owner-ness is decided late."""
    note: str = ""
    owner: bool | None = None
    """Known authorship (None: decide from ``author`` against the identity)."""
    structural: bool = False
    """A repository fact memseed derived from structure (see :attr:`Evidence.structural`)."""
    first: datetime | None = None
    """When the fact began to hold, if older than ``date`` (a repository's first commit)."""


def prefer_past(refs: list[Ref] | tuple[Ref, ...], cutoffs: tuple[datetime | None, ...] = ()) -> list[Ref]:
    """Refs ordered for citing: the newest *past* ones first, future ones only as a fallback.

    A calendar expands recurring series months ahead, so "the newest occurrence" is often a
    meeting that has not happened yet. ``cutoffs`` are tried in order (say the owner's last
    activity, then now): the first that has refs on or before it keeps only those (undated
    refs go last). When every dated ref lies after every cutoff the item is a plan, and its
    *earliest* occurrence comes first.
    """
    def newest_first(rs: list[Ref]) -> list[Ref]:
        return sorted(rs, key=lambda r: (r.date is None, -(r.date.timestamp() if r.date else 0.0)))

    refs = list(refs)
    active = [c for c in cutoffs if c is not None]
    if not active:
        return newest_first(refs)
    for cut in active:
        past = [r for r in refs if r.date is not None and r.date <= cut]
        if past:
            return newest_first(past) + [r for r in refs if r.date is None]
    dated = sorted((r for r in refs if r.date is not None), key=lambda r: r.date.timestamp() if r.date else 0.0)
    return dated + [r for r in refs if r.date is None]


def refs_to_evidence(refs: list[Ref] | tuple[Ref, ...], owner: OwnerIdentity, limit: int = 5,
                     cutoffs: tuple[datetime | None, ...] = ()) -> tuple[Evidence, ...]:
    """Evidence records for up to ``limit`` refs, newest past first (:func:`prefer_past`),
    authorship decided now."""
    ordered = prefer_past(refs, cutoffs)
    out: list[Evidence] = []
    seen: set[tuple[str, str]] = set()
    for r in ordered:
        if (r.source, r.ref) in seen:
            continue
        seen.add((r.source, r.ref))
        authored = r.owner if r.owner is not None else bool(r.author) and is_owner_key(r.author, owner)
        out.append(Evidence(source=r.source, ref=r.ref, date=r.date, authored_by_owner=authored,
                            excerpt=r.note[:200], structural=r.structural))
        if len(out) >= limit:
            break
    return tuple(out)
