"""Facts that change: a new proposal about something already approved is an *update*, not a twin.

A proposal's fingerprint is type + subject + key, so when a repository moves from npm to pnpm
its commands proposal keeps the subject (``repo:<checkout path>:commands``) and gets a new key: a new
question. Asked as a new entry, the agent's memory would end up holding both "npm" and "pnpm".
So before proposals are stored, each one that is not itself decided is matched against the
approved proposals in the store: the same type and subject (a new manager, a new toolchain), or
the same type and name under a new subject (a runbook whose path moved) — always within the
same ``scope``: two checkouts that share a folder name (``~/work/api`` and ``~/oss/api``) give
the same entry name (and, in stores from before schema 3, the same subject), yet each is
written to its own project's memory, so one must never replace the other. The newest approved
match is the entry that holds now; the new proposal then

* keeps that entry's (possibly edited) ``name``, so the entry is replaced in place,
* names it in ``supersedes`` (the entry name) and ``supersedes_fingerprint`` (the approved
  proposal's fingerprint — the key under which memseed recorded what it wrote),
* carries the old text in ``previous`` so review can show old against new,
* and is flagged ``update``.

The writer side (harness contract) replaces the superseded entry on approval and journals the
old text with the date it stopped being true (``evidence_from`` of the update, else now).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from bootstrap_app.types import Proposal

__all__ = ["Approved", "link_updates"]


@dataclass(frozen=True)
class Approved:
    """What an approved entry holds now: its proposal with edits applied, and when it was decided."""

    proposal: Proposal
    fingerprint: str
    decided_at: float


def _current(approved: Iterable[Approved]) -> dict[tuple[str, str, str], Approved]:
    """Per (type, scope, subject) and per (type, scope, name): the most recently approved entry."""
    out: dict[tuple[str, str, str], Approved] = {}
    for a in sorted(approved, key=lambda a: a.decided_at):
        out[(str(a.proposal.type), a.proposal.scope, "s:" + a.proposal.subject)] = a
        out[(str(a.proposal.type), a.proposal.scope, "n:" + a.proposal.name)] = a
    return out


def link_updates(proposals: Sequence[Proposal], approved: Iterable[Approved],
                 decided: Collection[str] = ()) -> tuple[list[Proposal], int]:
    """Mark proposals that replace an approved entry (see the module docstring). Returns
    (proposals, how many are updates). Proposals already decided are left as they are."""
    current = _current(approved)
    superseded_now = {a.fingerprint for a in current.values()}
    out: list[Proposal] = []
    updates = 0
    for p in proposals:
        kind = str(p.type)
        old = current.get((kind, p.scope, "s:" + p.subject)) or current.get((kind, p.scope, "n:" + p.name))
        if p.fingerprint in decided or old is None or old.fingerprint == p.fingerprint \
                or p.fingerprint in superseded_now:
            out.append(p)
            continue
        before = old.proposal
        out.append(replace(p, name=before.name, supersedes=before.name, supersedes_fingerprint=old.fingerprint,
                           previous=f"{before.description}\n{before.body}".strip(),
                           flags=tuple(dict.fromkeys([*p.flags, "update"]))))
        updates += 1
    return out, updates
