"""Memory read from agents becomes proposals: gated, and never proposed twice.

Why a step of its own: a memory entry is already a memory, so it needs no signal or rule to
become a proposal (:func:`connectors.harness_memory.import_entries` makes one per entry, type
kept or inferred, citing file and line). What it does need is what every proposal gets — the
safety gate (an agent's memory file is untrusted text like any other) — and three checks a
carried-over entry needs more than a fresh one: is it already in the target, is it the same
memory another source gave (the same fact in Claude Code and in Hermes), and did the person
already decide on it. Each entry ends with an :class:`EntryOutcome`, so an import can account
for every entry it read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bootstrap_app.safety.gate import Quarantined, gate
from bootstrap_app.types import MemoryEntry, Proposal
from connectors.harness_memory import EntryOutcome, import_entries

from .dedup import dedup_against_memory

__all__ = ["Carried", "carry_over"]


@dataclass
class Carried:
    """The proposals to ask about (or write, when approved before) and one outcome per entry read."""

    proposals: list[Proposal] = field(default_factory=list)
    """Undecided: for review."""
    approved: list[Proposal] = field(default_factory=list)
    """Approved in an earlier run: ready for the write."""
    outcomes: list[EntryOutcome] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)


def _as_entry(p: Proposal, source: str) -> MemoryEntry:
    return MemoryEntry(source=source, ref=p.evidence[0].ref if p.evidence else p.id, harness="",
                       name=p.name, description=p.description, memory_type=p.type, body=p.body,
                       path=p.evidence[0].ref if p.evidence else "")


def carry_over(read: Sequence[MemoryEntry], target: Sequence[MemoryEntry] = (),
               approved: Sequence[Proposal] = (), decided: frozenset[str] = frozenset()) -> Carried:
    """Proposals for the memory entries ``read``; ``target`` is what the target already holds,
    ``approved`` what the person approved before (each a memory already on its way), ``decided``
    every fingerprint with a decision (approved or rejected)."""
    proposals, outcomes = import_entries(read)
    where = {o.fingerprint: i for i, o in enumerate(outcomes) if o.status == "proposed"}
    out = Carried(outcomes=outcomes)

    def report(p: Proposal, status: str, reason: str) -> None:
        i = where[p.fingerprint]
        outcomes[i] = outcomes[i].but(status, reason)

    gated = gate(proposals)
    out.quarantined = list(gated.quarantined)
    passed = {p.fingerprint for p in gated.passed}
    reasons = {q.proposal_name: q.reason for q in gated.quarantined}
    for p in proposals:
        if p.fingerprint not in passed:
            report(p, "unsafe", f"held back by the safety gate: {reasons.get(p.name, 'unsafe content')}")
    approved_fp = {p.fingerprint for p in approved}
    ready = [p for p in gated.passed if p.fingerprint in approved_fp]
    for p in ready:
        report(p, "approved", "")
    held = [*target, *(_as_entry(p, "memseed:approved") for p in approved
                      if p.fingerprint not in where)]
    fresh = [p for p in gated.passed if p.fingerprint not in approved_fp]
    dedup = dedup_against_memory(fresh, held)
    for p, match in dedup.duplicates:
        where_from = "approved before" if match.source == "memseed:approved" else "already in the target"
        report(p, "duplicate", f"{where_from} as {match.name or match.path}")
    kept_fp = {p.fingerprint for p in dedup.kept}
    taken: list[MemoryEntry] = [_as_entry(p, p.evidence[0].source) for p in ready]
    for p in fresh:  # the original, not dedup's copy: an entry of another agent replaces nothing of memseed's
        if p.fingerprint not in kept_fp:
            continue
        source = p.evidence[0].source
        twin = dedup_against_memory([p], [e for e in taken if e.source != source]).duplicates
        if twin:
            report(p, "duplicate", f"the same memory as {twin[0][1].ref} ({twin[0][1].source.split(':', 1)[0]})")
            continue
        if p.fingerprint in decided:
            report(p, "decided", "rejected earlier; not asked again")
            continue
        taken.append(_as_entry(p, source))
        out.proposals.append(p)
    out.approved = ready
    return out
