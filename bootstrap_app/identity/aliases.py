"""The owner's suggested address aliases: listed with their evidence, confirmed or rejected by the person.

Why a person decides: an address that merely looks like the owner's (their name at another
domain, their surname at a free-mail provider, their name in a display field) is exactly what a
lookalike attacker registers, and an owner address turns its mail into trusted instructions. So
:mod:`bootstrap_app.identity.resolve` only *suggests* such addresses; a scan records them here, the
person confirms the ones that really are theirs (``memseed sources --confirm-alias``, or the
Confirm button on the wizard's Sources page, both calling :func:`confirm_alias`), and the next
scan takes every confirmed alias as strong evidence (:func:`alias_evidence`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.errors import ConfigError
from bootstrap_app.store import Store

__all__ = ["AliasSuggestion", "alias_evidence", "confirm_alias", "list_aliases", "record_suggestions",
           "reject_alias"]

_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$|^[A-Za-z0-9]{6,}$")


@dataclass(frozen=True)
class AliasSuggestion:
    address: str
    status: str
    """``suggested`` (waiting for the person), ``confirmed`` or ``rejected``."""
    evidence: str


def _checked(address: str) -> str:
    value = address.strip().lower()
    if not _ADDRESS.match(value):
        raise ConfigError(f"{address!r} is not an e-mail address or chat id",
                          hint="give the address exactly as `memseed sources` lists it")
    return value


def record_suggestions(store: Store, suggested: dict[str, str]) -> None:
    """Keep a scan's suggestions (address -> evidence); decisions already made are kept."""
    if suggested:
        store.suggest_aliases(suggested)


def list_aliases(store: Store, status: str | None = None) -> list[AliasSuggestion]:
    """Every alias the store knows, pending suggestions first."""
    return [AliasSuggestion(r["address"], r["status"], r["evidence"]) for r in store.aliases(status)]


def confirm_alias(store: Store, address: str) -> AliasSuggestion:
    """The person says ``address`` is theirs: from the next scan on its mail counts as theirs."""
    value = _checked(address)
    store.decide_alias(value, "confirmed")
    return next(a for a in list_aliases(store, "confirmed") if a.address == value)


def reject_alias(store: Store, address: str) -> AliasSuggestion:
    """The person says ``address`` is not theirs: it is never suggested again."""
    value = _checked(address)
    store.decide_alias(value, "rejected")
    return next(a for a in list_aliases(store, "rejected") if a.address == value)


def alias_evidence(store: Store) -> tuple[tuple[str, ...], frozenset[str]]:
    """(confirmed aliases, rejected aliases) for :class:`~bootstrap_app.identity.resolve.IdentityCollector`."""
    confirmed = tuple(a.address for a in list_aliases(store, "confirmed"))
    rejected = frozenset(a.address for a in list_aliases(store, "rejected"))
    return confirmed, rejected
