"""Owner hints: list addresses that are nobody's, ``--owner`` values matched, candidates offered.

Why apart from :mod:`bootstrap_app.identity.resolve`: the collector there decides on *proof*; this
module handles the cases where proof is missing or given in another form, all from the same
streamed counters:

- **A mailing list is never an owner.** Its address is read from the structure of list mail:
  the ``List-Id`` (RFC 2919, ``<name.domain>`` -> ``name@domain``) and the one address that
  nearly every message of a list carries among its recipients (the list's posting address, in
  ``To`` or ``Cc``). An archive in which every message went to such an address is nobody's
  inbox, and its top recipient names nobody.
- **``--owner`` in any form.** An e-mail address, a Slack user id, a Slack handle or a real name
  each resolve to the same person: the name through the Slack profile's real name or the display
  name the address is shown with. A value that matches nothing is reported with the nearest
  addresses, ids and names, so a typo does not silently scan as nobody.
- **Candidates.** When nothing proves an owner, the likely ones are offered with their evidence:
  the most written-to personal addresses, an exported calendar's account, the Slack profiles that
  wrote the most. :func:`owner_candidates` is what the CLI summary, ``--json-summary`` and the
  wizard show; one ``--owner`` (or one click) picks one.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from typing import Protocol

from bootstrap_app.errors import OwnerNotFound
from bootstrap_app.identity.names import name_key, written_address
from bootstrap_app.identity.owner import OwnerCandidate, OwnerIdentity


class IdentityCollector(Protocol):
    """What these hints read of :class:`bootstrap_app.identity.resolve.IdentityCollector` (a protocol, so
    this module sits below the collector that calls it)."""

    @property
    def messages(self) -> int: ...
    @property
    def seen(self) -> set[str]: ...
    @property
    def to_counts(self) -> Counter[str]: ...
    @property
    def calendar_owners(self) -> Counter[str]: ...
    @property
    def chat_users(self) -> Mapping[str, set[str]]: ...
    @property
    def chat_names(self) -> Mapping[str, str]: ...
    @property
    def chat_counts(self) -> Counter[str]: ...
    @property
    def names(self) -> Mapping[str, Counter[str]]: ...
    @property
    def list_messages(self) -> Counter[str]: ...
    @property
    def list_rcpts(self) -> Mapping[str, Counter[str]]: ...
    @property
    def git_emails(self) -> Counter[str]: ...
    @property
    def bare_names(self) -> Counter[str]: ...
    @property
    def repo_authors(self) -> set[tuple[str, str]]: ...

__all__ = ["check_given", "given_key", "list_addresses", "match_given", "owner_candidates"]

_LIST_SHARE = 0.8
"""An address among the recipients of this share of a list's messages is the list's own."""
_MAX_CANDIDATES = 5
_SLACK_ID = re.compile(r"^[uw](?=[a-z0-9]*\d)[a-z0-9]{5,}$")
"""A Slack user id as memseed keeps it (lower-cased): U or W, then letters and digits."""


def list_addresses(collector: IdentityCollector) -> frozenset[str]:
    """Addresses that are mailing lists, read from the list mail itself (see the module docstring)."""
    found: set[str] = set()
    for list_id, n in collector.list_messages.items():
        label, _, domain = list_id.partition(".")
        if label and "." in domain:
            found.add(f"{label}@{domain}")
        for address, k in collector.list_rcpts.get(list_id, Counter()).items():
            # the list's own domain: people Cc'd on every mail of a short thread are not a list
            if n >= 3 and k >= _LIST_SHARE * n and address.partition("@")[2] in list_id:
                found.add(address)
    return frozenset(found)


def _known(collector: IdentityCollector) -> dict[str, str]:
    """Every address / Slack id / handle / name the sources showed -> the key it stands for.

    Everything the scan itself takes as evidence of someone is here: the addresses of mail and
    calendars, a repository's git ``user.email`` and its commit authors (address and name), Slack
    ids, handles, profile e-mails and real names, and the display names addresses are shown
    with. What is missing here cannot be given as ``--owner``, so this is the one list to extend
    when a reader learns a new kind of evidence."""
    known: dict[str, str] = {}
    for address in collector.seen:
        known.setdefault(address, address)
    for address in collector.git_emails:
        known.setdefault(address, address)
    for _name, email in sorted(collector.repo_authors):
        if email:
            known.setdefault(email, email)
    for uid, aliases in collector.chat_users.items():
        known.setdefault(uid, uid)
        for alias in aliases:
            known.setdefault(alias, uid)
    for uid, name in collector.chat_names.items():
        known.setdefault(name.lower(), uid)
    for address, names in collector.names.items():
        for name, _ in names.most_common(2):
            known.setdefault(name.lower(), address)
    return known


def given_key(value: str) -> str:
    """How a ``--owner`` value is looked up: an address in any written form the readers accept
    (:func:`~bootstrap_app.identity.names.written_address`), else the value lower-cased, without a
    handle's ``@``."""
    return written_address(value) or value.strip().lower().removeprefix("@")


def match_given(collector: IdentityCollector, values: tuple[str, ...]) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(given value -> the address or chat id it names, unmatched value -> nearest matches).

    An address or id is matched in any written form (:func:`given_key`); anything else is a
    name, matched by its :func:`~bootstrap_app.identity.names.name_key` against Slack real names first (a
    workspace directory), then the display names addresses are shown with (the most used address
    winning), then the authors of the scanned repositories (their git user.email first); a name
    shown only without an address (Enron's ``X-To``) or spelled by an address (``first.last@``)
    matches but names no address (anyone can register such an address), so the
    owner's addresses come from the sources' own evidence, as without ``--owner``. This is
    the only matcher: the collector's decision and the ``--owner`` check (:func:`check_given`)
    both read its answer, so they cannot disagree.
    """
    resolved: dict[str, str] = {}
    unmatched: dict[str, tuple[str, ...]] = {}
    known = _known(collector)
    for value in values:
        key = given_key(value)
        if key in known:
            resolved[value] = known[key]
            continue
        by_name = name_key(value)
        slack = sorted(uid for uid, n in collector.chat_names.items() if by_name and name_key(n) == by_name)
        shown = Counter({a: sum(c.values()) for a, c in collector.names.items()
                         if by_name and any(name_key(n) == by_name for n in c)})
        authors = sorted({e for n, e in collector.repo_authors if e and by_name and name_key(n) == by_name},
                         key=lambda e: (-collector.git_emails[e], e))
        if slack or shown or authors:
            resolved[value] = slack[0] if slack else shown.most_common(1)[0][0] if shown else authors[0]
            continue
        if by_name and (any(name_key(n) == by_name for n in collector.bare_names) or by_name in _spelled_names(collector)):
            continue  # a name shown without an address, or spelled by one: it names someone, but no address
        unmatched[value] = tuple(difflib.get_close_matches(key, list(known), n=5, cutoff=0.5))
    return resolved, unmatched


def _spelled_names(collector: IdentityCollector) -> set[str]:
    """Name keys of the ``first.last`` local parts the sources show (``vince.kaminski@…``): how a
    scan names an owner whose mail carries no display name at all."""
    keys: set[str] = set()
    for address in collector.seen:
        toks = [t for t in re.split(r"[^a-z]+", address.partition("@")[0]) if t]
        if len(toks) >= 2 and (key := name_key(" ".join(toks))):
            keys.add(key)
    return keys


def owner_candidates(collector: IdentityCollector, lists: frozenset[str]) -> tuple[OwnerCandidate, ...]:
    """Who the owner likely is when nothing proves it, best first, each with its evidence."""
    found: dict[str, OwnerCandidate] = {}
    for address, n in collector.calendar_owners.most_common(_MAX_CANDIDATES):
        found[address] = OwnerCandidate(address, "email", f"account of the exported calendar ({n} events); "
                                        "no other source confirms it", _name(collector, address))
    personal = [(a, n) for a, n in collector.to_counts.most_common() if a not in lists and a not in found]
    for address, n in personal[:_MAX_CANDIDATES]:
        if n < 2:
            break
        found[address] = OwnerCandidate(address, "email", f"addressed personally in {n} of "
                                        f"{collector.messages} messages", _name(collector, address))
    for uid, n in collector.chat_counts.most_common(_MAX_CANDIDATES):
        # users are keyed by their profile e-mail when the export has it; offer the Slack id
        ids = sorted(a for a in collector.chat_users.get(uid, ()) if _SLACK_ID.match(a))
        pick = (ids[0] if ids else uid).upper() if (ids or _SLACK_ID.match(uid)) else uid
        extra = f", profile e-mail {uid}" if "@" in uid else ""
        found.setdefault(pick.lower(), OwnerCandidate(pick, "slack", f"wrote {n} chat messages{extra}",
                                                      collector.chat_names.get(uid, "")))
    return tuple(list(found.values())[: 2 * _MAX_CANDIDATES])


def _name(collector: IdentityCollector, address: str) -> str:
    names = [n for n, _ in collector.names.get(address, Counter()).most_common() if "@" not in n]
    return names[0] if names else ""


def check_given(owner: OwnerIdentity, given: tuple[str, ...]) -> None:
    """Raise :class:`OwnerNotFound` when a value the person gave (``--owner``) matched nobody.

    Only what this scan was given is checked: a configured owner address may belong to a source
    that is not part of this scan."""
    bad = {v: owner.unmatched[v] for v in given if v in owner.unmatched}
    if not bad:
        return
    parts = [f"{v!r}" + (f" (nearest: {', '.join(near)})" if near else " (nothing close)") for v, near in bad.items()]
    pick = ", ".join(c.owner for c in owner.candidates[:3])
    raise OwnerNotFound(f"--owner matched nobody in these sources: {'; '.join(parts)}",
                        hint="give an e-mail address, Slack user id, Slack handle or full name exactly as the "
                             "sources show it" + (f"; likely owners here: {pick}" if pick else ""))
