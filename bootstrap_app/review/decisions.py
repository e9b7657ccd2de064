"""The person's decisions on proposals: approve, reject, edit — persisted at once.

Why a module of its own: the CLI review loop, ``memseed approve``/``reject`` and the app all
record decisions the same way, by fingerprint, committed before the call returns
(``Store.decide``), so a crash or a page rerun never loses one and re-seeding never asks again.
Edited text is the person's, but it still goes into an agent's prompt, so it must pass the
same writer-side injection scan as everything else before it is accepted.
"""

from __future__ import annotations

from collections.abc import Iterable

from bootstrap_app.errors import UnknownProposal
from bootstrap_app.harnesses.common import scan_entry
from bootstrap_app.store import Store, StoredProposal
from bootstrap_app.types import Decision, DecisionStatus, MemoryType, slugify

__all__ = ["approve", "approve_all_of_type", "edit", "reject", "undecide"]


def _resolve(store: Store, ids: Iterable[str]) -> list[StoredProposal]:
    found = [store.get(i) for i in ids]
    if not found:
        raise UnknownProposal("no proposal ids given", hint="run `memseed review --list` to see ids")
    return found


def approve(store: Store, ids: Iterable[str]) -> list[Decision]:
    """Approve each proposal (an earlier edit is kept: approving an edited one keeps the edit)."""
    out = []
    for sp in _resolve(store, ids):
        if sp.decision and sp.decision.status is DecisionStatus.EDITED:
            out.append(sp.decision)
            continue
        out.append(store.decide(sp.fingerprint, DecisionStatus.APPROVED))
    return out


def reject(store: Store, ids: Iterable[str]) -> list[Decision]:
    """Reject each proposal; a rejected fingerprint is never proposed again."""
    return [store.decide(sp.fingerprint, DecisionStatus.REJECTED) for sp in _resolve(store, ids)]


def undecide(store: Store, ids: Iterable[str]) -> None:
    """Forget the decisions (the proposals become undecided again)."""
    for sp in _resolve(store, ids):
        store.undecide(sp.fingerprint)


def edit(store: Store, id: str, *, name: str | None = None, description: str | None = None,
         body: str | None = None) -> Decision:
    """Record the person's version of a proposal (status EDITED, which counts as approved).

    Raises :class:`~bootstrap_app.errors.BlockedContent` when the edited text fails the
    writer-side injection scan, and records nothing in that case.
    """
    sp = store.get(id)
    base = sp.effective
    fields = dict(sp.decision.edited) if sp.decision and sp.decision.edited else {}
    if name is not None:
        fields["name"] = slugify(name)
    if description is not None:
        fields["description"] = " ".join(description.split())
    if body is not None:
        fields["body"] = body.replace("\r\n", "\n").strip()
    if not fields:
        fields = {"name": base.name, "description": base.description, "body": base.body}
    text = "\n".join([fields.get("name", base.name), fields.get("description", base.description),
                      fields.get("body", base.body)])
    scan_entry(text, f"edited proposal {sp.proposal.id}")
    return store.decide(sp.fingerprint, DecisionStatus.EDITED, edited=fields)


def approve_all_of_type(store: Store, memory_type: MemoryType | str, *,
                        include_sensitive: bool = False) -> list[Decision]:
    """Approve every undecided proposal of one type.

    Proposals flagged ``sensitive`` are left undecided unless ``include_sensitive``: personal
    data is never selected by default (DESIGN §6).
    """
    out = []
    for sp in store.proposals(status="undecided", memory_type=memory_type):
        if sp.proposal.sensitive and not include_sensitive:
            continue
        out.append(store.decide(sp.fingerprint, DecisionStatus.APPROVED))
    return out
