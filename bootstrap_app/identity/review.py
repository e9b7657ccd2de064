"""Who memseed thinks you are, shown and corrected before any proposal about you is reviewed.

Why a step of its own: every address memseed takes as the owner's turns its mail into "your own
words" and its calendar into "your working hours". A calendar export's account, an inbox's most
frequent recipient or a shared mailbox can name somebody else, and a proposal built on that is
wrong in a way the person only notices when it is already in front of them. So the wizard shows
the identity first — each name and address with the evidence that made it yours and the kind of
source it came from — and lets the person settle it: confirm or reject suggested aliases (in
bulk, with undo), type an address, say that a source is not theirs or is shared. A source marked
so keeps giving items, but none of its *owner evidence* (its account, its Sent folder, its most
frequent recipient) makes anybody the owner (the pipeline reads :meth:`Store.source_ownership`).
Until the identity has been shown once, :func:`hold_back_about_you` keeps the proposals about
"you" out of the review.

Everything here reads and writes the store; the wizard's Identity page only renders it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bootstrap_app.errors import ConfigError
from bootstrap_app.identity.aliases import AliasSuggestion, confirm_alias, list_aliases, reject_alias
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType

__all__ = ["OWNERSHIP", "IdentityAddress", "IdentityView", "add_address", "decide_aliases", "hold_back_about_you",
           "identity_shown", "identity_view", "mark_identity_shown", "owner_candidates", "set_source_ownership",
           "undo_alias"]

OWNERSHIP: dict[str, str] = {
    "mine": "mine",
    "shared": "shared (a team mailbox, a family calendar): its account is not proof of who I am",
    "not-mine": "not mine: its account and Sent folder are someone else's",
}
"""What a person can say about a source, with the label the wizard shows."""

_SHOWN = "identity.shown_for_run"

_REASON_KINDS: tuple[tuple[str, str], ...] = (
    ("given as owner", "you (settings or --owner)"),
    ("alias confirmed", "you (confirmed alias)"),
    ("Sent folder", "mail (Sent folder)"),
    ("most frequent recipient", "mail (whose inbox)"),
    ("git user.email", "repository (git config)"),
    ("exported calendar", "calendar (its account)"),
    ("Slack", "chat (Slack profile)"),
    ("send-as", "mail account (send-as alias)"),
)
"""Evidence text (``identity.IdentityCollector``) -> the kind of source it came from, for display."""


def _source_of(reason: str) -> str:
    return next((kind for needle, kind in _REASON_KINDS if needle.lower() in reason.lower()), "")


@dataclass(frozen=True)
class IdentityAddress:
    """One address memseed takes as yours, why, and from which kind of source."""

    address: str
    evidence: str
    source: str


@dataclass
class IdentityView:
    """Everything the Identity page shows, from the last scan and the store."""

    run_id: int | None = None
    names: list[str] = field(default_factory=list)
    addresses: list[IdentityAddress] = field(default_factory=list)
    suggested: list[AliasSuggestion] = field(default_factory=list)
    confirmed: list[AliasSuggestion] = field(default_factory=list)
    rejected: list[AliasSuggestion] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    """Owner candidates the scan offers when nothing proves an owner (address, evidence)."""
    unknown_why: str = ""
    """Why the scan could not tell who the owner is (when it says so)."""
    sources: list[dict[str, str]] = field(default_factory=list)
    """Remembered locations with ``location``, ``kinds`` and ``ownership`` (see :data:`OWNERSHIP`)."""

    @property
    def known(self) -> bool:
        return bool(self.addresses)


def owner_candidates(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The scan's owner candidates (when nothing proved an owner), as ``{address, evidence}``.

    Read from the scan summary's ``owner.owner_candidates`` (``OwnerCandidate.to_json``: ``owner``
    — an address or a Slack id —, ``kind``, ``name``, ``evidence``); an older summary's
    ``owner.candidates`` (addresses, or dicts with ``address``) is read too; absent, none.
    """
    owner = summary.get("owner") or {}
    out: list[dict[str, Any]] = []
    for entry in [*(owner.get("owner_candidates") or []), *(owner.get("candidates") or [])]:
        if isinstance(entry, str):
            out.append({"address": entry, "evidence": ""})
        elif isinstance(entry, dict) and (entry.get("owner") or entry.get("address")):
            name = str(entry.get("name") or "")
            why = str(entry.get("evidence") or entry.get("why") or entry.get("reason") or "")
            out.append({"address": str(entry.get("owner") or entry["address"]),
                        "evidence": f"{name} — {why}" if name and why else name or why})
    return out


def identity_view(store: Store) -> IdentityView:
    """Who the last scan took you to be, the aliases waiting for you, and what you said per source."""
    runs = store.runs(limit=1)
    summary: dict[str, Any] = (runs[0].get("summary") or {}) if runs else {}
    owner = summary.get("owner") or {}
    reasons: dict[str, str] = summary.get("owner_reasons") or owner.get("reasons") or {}
    view = IdentityView(run_id=runs[0]["id"] if runs else None, names=list(owner.get("names") or []),
                        unknown_why=str(owner.get("unknown_why") or ""))
    for address in owner.get("addresses") or []:
        why = reasons.get(address, "")
        view.addresses.append(IdentityAddress(address, why, _source_of(why)))
    view.suggested = list_aliases(store, "suggested")
    view.confirmed = list_aliases(store, "confirmed")
    view.rejected = list_aliases(store, "rejected")
    known = {a.address for a in view.addresses}
    view.candidates = [c for c in owner_candidates(summary) if c["address"].lower() not in known]
    said = store.source_ownership()
    for entry in store.sources():
        kinds = sorted({kind for _, kind in entry.get("parts") or []})
        view.sources.append({"location": entry["location"], "kinds": ", ".join(kinds),
                             "ownership": said.get(entry["location"], "mine")})
    return view


def decide_aliases(store: Store, addresses: Iterable[str], confirm: bool) -> list[AliasSuggestion]:
    """Confirm (``confirm``) or reject every address in ``addresses`` at once."""
    decide = confirm_alias if confirm else reject_alias
    return [decide(store, a) for a in addresses]


def undo_alias(store: Store, address: str) -> None:
    """Take back a confirmation or rejection: the address is a suggestion again."""
    store.decide_alias(address, "suggested")


def add_address(store: Store, address: str) -> AliasSuggestion:
    """An address the person types as theirs: strong evidence from the next analysis on."""
    return confirm_alias(store, address)


def set_source_ownership(store: Store, location: str, ownership: str) -> None:
    """Record whether a remembered source is the person's, shared, or not theirs."""
    if ownership not in OWNERSHIP:
        raise ConfigError(f"unknown ownership {ownership!r}", hint="use one of: " + ", ".join(OWNERSHIP))
    path = Path(location).expanduser()
    key = str(path.resolve()) if path.exists() else location  # the form the scan remembers it under
    store.set_source_ownership(key, None if ownership == "mine" else ownership)


def mark_identity_shown(store: Store, run_id: int | None) -> None:
    """The person has seen who memseed thinks they are for this scan (see :func:`identity_shown`)."""
    store.set_pref(_SHOWN, run_id if run_id is not None else 0)


def identity_shown(store: Store) -> bool:
    """True once the identity has been shown (for any scan): proposals about "you" may be reviewed."""
    return store.pref(_SHOWN) is not None


T = TypeVar("T")


def hold_back_about_you(store: Store, rows: Sequence[T], type_of: Any = None) -> tuple[list[T], int]:
    """``rows`` without the proposals about the person (user type) while the identity was never
    shown, and how many were held back. ``type_of`` reads a row's type (default ``row.proposal.type``)."""
    if identity_shown(store):
        return list(rows), 0
    read = type_of or (lambda row: row.proposal.type)
    kept = [row for row in rows if read(row) is not MemoryType.USER]
    return kept, len(rows) - len(kept)
