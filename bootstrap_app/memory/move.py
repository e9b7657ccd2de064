"""Move memory from one agent to another: the scan -> review -> write path, for one target.

Why not a copy: another agent's memory is text memseed did not write and the person may not
remember writing either. So an import is the ordinary path with the target fixed: the scan
reads the source (each entry a proposal citing file and line, gated, deduplicated against
the target and across sources: ``extract.imported``), the person approves each one (the CLI's
review loop, the wizard's Review page, or ``memseed approve``), and the write is the ordinary
journaled write, so ``memseed undo`` restores every file byte for byte.

What makes it an import is the account it keeps: one :class:`EntryOutcome` per entry read,
which ends either ``moved`` (or ``to-write`` before the write) or reported with its reason —
unsafe, duplicate, rejected, waiting for review, over the target's cap, not written by the
target (the plan's note says why). :meth:`ImportRun.counts` is what the CLI prints: moved +
reported = read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.harnesses import Plan, WriteOptions, get_harness
from bootstrap_app.memory import write as writing
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanEvent, ScanResult
from bootstrap_app.store import Store, StoredProposal
from bootstrap_app.types import MemoryEntry, Proposal
from connectors.harness_memory import EntryOutcome

__all__ = ["PARTIAL", "ImportRun", "apply_import", "plan_import", "start_import", "target_entries"]

READY = ("proposed", "approved")
"""Outcomes still on their way to the target (everything else is a reported reason)."""
PARTIAL = ("unsafe", "over-cap", "not-written")
"""Outcomes that make an import partial: the entry was meant to move but could not (blocked by a
safety check, no room in the target, not taken by it). Duplicates, rejected and waiting entries
are the person's choices, not a shortfall."""


@dataclass
class ImportRun:
    """One import: where from, where to, what the scan found, and what became of each entry."""

    source: str
    target: str
    project: Path | None = None
    profile: str | None = None
    result: ScanResult | None = None
    outcomes: list[EntryOutcome] = field(default_factory=list)
    plan: Plan | None = None

    @property
    def read(self) -> int:
        return len(self.outcomes)

    def counts(self) -> Counter[str]:
        return Counter(o.status for o in self.outcomes)

    def reported(self) -> list[EntryOutcome]:
        return [o for o in self.outcomes if o.status not in ("moved", "to-write")]

    @property
    def partial(self) -> bool:
        """True when some entry could not move for a reason in :data:`PARTIAL` (exit status 3)."""
        return any(o.status in PARTIAL for o in self.outcomes)

    def fingerprints(self, *statuses: str) -> list[str]:
        return [o.fingerprint for o in self.outcomes if o.status in statuses]

    def options(self) -> WriteOptions:
        return WriteOptions(project=self.project.expanduser() if self.project else None, profile=self.profile)


def target_entries(target: str, project: Path | None = None, profile: str | None = None) -> list[MemoryEntry]:
    """What ``target`` holds now where this import would write (empty when it holds nothing yet)."""
    harness = get_harness(target)
    try:
        root = harness.memory_root(project, WriteOptions(project=project, profile=profile))
        return harness.read(root) if root.exists() else []
    except MemseedError:  # no folder yet, or one the reader refuses: nothing to deduplicate against
        return []


def start_import(source: str, target: str, *, settings: Settings, store: Store, project: Path | str | None = None,
                 profile: str | None = None, on_event: Callable[[ScanEvent], None] | None = None) -> ImportRun:
    """Scan ``source`` with ``target``'s memory as what is already held; proposals wait for review."""
    get_harness(target)  # an unknown target fails before anything is read
    run = ImportRun(source, target, Path(project).expanduser() if project else None, profile)
    held = target_entries(target, run.project, profile)
    run.result = scan([source], settings=settings, store=store, existing_memory=held, run_kind="import",
                      on_event=on_event)
    run.outcomes = list(run.result.imported)
    return run


def pending(run: ImportRun, store: Store) -> list[StoredProposal]:
    """This import's proposals nobody has decided yet (what the review loop shows)."""
    order = {fp: i for i, fp in enumerate(run.fingerprints("proposed"))}  # the source's own order
    return sorted((sp for sp in store.proposals(status="undecided") if sp.fingerprint in order),
                  key=lambda sp: order[sp.fingerprint])


def _over_cap(target: str, entries: Sequence[Proposal], options: WriteOptions) -> dict[str, str]:
    """fingerprint -> reason, for entries that do not fit the target's capped files.

    A harness that says which entries fit (Hermes: ``Capacity.fits``) is taken at its word;
    one that only says the file would overflow (Codex's AGENTS.md) is asked again entry by
    entry, in the source's order, keeping each one that still fits.
    """
    harness = get_harness(target)
    caps = [c for c in harness.capacity(entries, options) if c.overflow > 0]
    if not caps:
        return {}
    out: dict[str, str] = {}
    by_id = {p.id: p.fingerprint for p in entries}
    for cap in caps:
        for entry_id, _name, size in cap.entries:
            if entry_id not in cap.fits and entry_id in by_id:
                out[by_id[entry_id]] = (f"over the target's cap: {Path(cap.file).name} holds at most "
                                        f"{cap.limit:,} {cap.unit}; this {size:,}-{cap.unit} entry does not fit")
    if out or any(c.entries for c in caps):
        return out
    for p, full in harness.fit_in_order(entries, options):
        if full is not None:
            out[p.fingerprint] = (f"over the target's cap: {Path(full.file).name} holds at most "
                                  f"{full.limit:,} {full.unit} and is full before this entry")
    return out


def plan_import(run: ImportRun, store: Store) -> Plan | None:
    """Settle every entry (approved -> ``to-write``, or its reason) and plan the write of the
    approved ones that fit; ``None`` when nothing is to be written."""
    status = {sp.fingerprint: sp for sp in store.proposals()}
    approved: dict[str, Proposal] = {}
    for i, o in enumerate(run.outcomes):
        if o.status not in READY:
            continue
        sp = status.get(o.fingerprint)
        decision = str(sp.decision.status) if sp is not None and sp.decision else "undecided"
        if sp is None or decision == "undecided":
            run.outcomes[i] = o.but("not-approved", "waits for review (`memseed review`)")
        elif decision == "rejected":
            run.outcomes[i] = o.but("rejected", "rejected in review")
        else:
            approved[o.fingerprint] = sp.effective
    options = run.options()
    over = _over_cap(run.target, list(approved.values()), options)
    writable = [fp for fp in approved if fp not in over]
    plan = None
    if writable:
        plan = writing.plan_write(store, run.target, project=run.project, profile=run.profile,
                                  only=tuple(writable))
    new = {p.fingerprint for p in plan.entries} if plan else set()
    present = {fp for fp, _ in plan.written} if plan else set()
    for i, o in enumerate(run.outcomes):
        if o.fingerprint not in approved or o.status not in READY:
            continue
        p = approved[o.fingerprint]
        if o.fingerprint in over:
            run.outcomes[i] = o.but("over-cap", over[o.fingerprint])
        elif plan is not None and o.fingerprint in plan.blocked:
            run.outcomes[i] = o.but("unsafe", f"blocked by {run.target}'s safety check: {plan.blocked[o.fingerprint]}")
        elif o.fingerprint in new:
            run.outcomes[i] = o.but("to-write")
        elif o.fingerprint in present:
            run.outcomes[i] = o.but("duplicate", "already in the target (written before)")
        else:
            why = next((n for n in (plan.notes if plan else []) if n.startswith(f"{p.name}:")), "")
            run.outcomes[i] = o.but("not-written", why or f"{run.target} did not take it")
    run.plan = plan
    return plan


def apply_import(run: ImportRun, store: Store) -> int | None:
    """Write the planned entries (journaled: ``memseed undo`` restores every file); the write id."""
    if run.plan is None or run.plan.empty:
        return None
    outcome = writing.apply_write(store, run.plan)
    run.outcomes = [o.but("moved") if o.status == "to-write" else o for o in run.outcomes]
    return outcome.write_id
