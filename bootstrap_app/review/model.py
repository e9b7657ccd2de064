"""The review model behind the app: rows, filters, pages, bulk selection, budgets, write previews.

Why a plain module and not code in the Streamlit views: the app is a thin shell (DESIGN §1.7).
Everything the Review and Write pages decide — which proposals a filter shows, which ones a
bulk action touches, whether the approved set still fits Hermes's character caps — lives here
as pure functions on plain data, so the CLI, notebooks and tests get the same answers and the
UI callbacks only call one function each.

The store is the truth (DESIGN §7): :func:`load_rows` reads proposals joined with their
decisions on every run. Decisions themselves are recorded by :mod:`bootstrap_app.review.decisions`
(the same functions the CLI uses, committed before they return), so a rerun of the page — or
another process opening the store — sees a decision at once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bootstrap_app.errors import CapacityExceeded, MemseedError
from bootstrap_app.harnesses import WriteOptions, get_harness
from bootstrap_app.memory.write import plan_write
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType, Proposal

__all__ = [
    "STATUSES",
    "BudgetLine",
    "PageSlice",
    "ReviewFilter",
    "ReviewRow",
    "TargetPlan",
    "budget",
    "budget_key",
    "bulk_ids",
    "default_selected",
    "facet_counts",
    "filter_rows",
    "group_by_type",
    "load_rows",
    "paginate",
    "plan_targets",
]

STATUSES = ("undecided", "approved", "rejected", "all")
"""Status filter values: 'approved' includes edited proposals."""


@dataclass(frozen=True)
class ReviewRow:
    """One proposal as the Review page shows it: the proposal plus its current decision."""

    proposal: Proposal
    status: str = "undecided"
    """'undecided', 'approved', 'edited' or 'rejected'."""
    effective: Proposal | None = None
    """The person's edited version (``StoredProposal.effective``), when it differs."""

    @property
    def current(self) -> Proposal:
        """What a writer would write: the edited version if there is one."""
        return self.effective or self.proposal

    @property
    def fingerprint(self) -> str:
        return self.proposal.fingerprint

    @property
    def approved(self) -> bool:
        return self.status in ("approved", "edited")

    @property
    def decided(self) -> bool:
        return self.status != "undecided"

    def matches(self, needle: str) -> bool:
        """Case-insensitive search over name, description, body, flags and evidence sources."""
        if not needle:
            return True
        shown, original = self.current, self.proposal
        hay = " ".join([shown.name, shown.description, shown.body, " ".join(original.flags), original.id,
                        " ".join(e.source for e in original.evidence)]).lower()
        return all(word in hay for word in needle.lower().split())


def load_rows(store: Store) -> list[ReviewRow]:
    """Every stored proposal with its decision, in review order.

    Review order: by type (user, feedback, project, reference — the order the page shows its
    sections), then most confident first, then by name; so page 1 holds the strongest
    proposals of the first types rather than whatever sorts first alphabetically.
    """
    order = {t: i for i, t in enumerate(MemoryType)}
    rows: list[ReviewRow] = []
    for stored in store.proposals():
        decision = stored.decision
        status = str(decision.status) if decision else "undecided"
        edited = decision is not None and bool(decision.edited)
        rows.append(ReviewRow(stored.proposal, status, stored.effective if edited else None))
    rows.sort(key=lambda r: (order[r.proposal.type], -r.proposal.confidence, r.current.name))
    return rows


@dataclass(frozen=True)
class ReviewFilter:
    """What the person asked to see. Empty ``types``/``flags`` mean "any"."""

    types: tuple[str, ...] = ()
    status: str = "undecided"
    flags: tuple[str, ...] = ()
    text: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status filter {self.status!r}; use one of {STATUSES}")


def filter_rows(rows: Iterable[ReviewRow], flt: ReviewFilter) -> list[ReviewRow]:
    """The rows a filter shows, in their original order."""
    wanted_types = {str(MemoryType(t)) for t in flt.types}
    wanted_flags = set(flt.flags)
    out: list[ReviewRow] = []
    for row in rows:
        if wanted_types and str(row.proposal.type) not in wanted_types:
            continue
        if flt.status == "undecided" and row.decided:
            continue
        if flt.status == "approved" and not row.approved:
            continue
        if flt.status == "rejected" and row.status != "rejected":
            continue
        if wanted_flags and not wanted_flags & set(row.proposal.flags):
            continue
        if not row.matches(flt.text.strip()):
            continue
        out.append(row)
    return out


def facet_counts(rows: Iterable[ReviewRow]) -> dict[str, Counter[str]]:
    """Counts for the filter labels: by type, by status (edited counts as approved), by flag."""
    by_type: Counter[str] = Counter()
    by_status: Counter[str] = Counter()
    by_flag: Counter[str] = Counter()
    for row in rows:
        by_type[str(row.proposal.type)] += 1
        by_status["approved" if row.approved else row.status] += 1
        by_flag.update(row.proposal.flags)
    return {"type": by_type, "status": by_status, "flag": by_flag}


@dataclass(frozen=True)
class PageSlice:
    """One page of rows. ``page`` is 1-based and clamped into ``1..pages``."""

    rows: list[ReviewRow]
    page: int
    pages: int
    total: int
    start: int
    """Index (0-based) of the first row of this page within the filtered list."""


def paginate(rows: Sequence[ReviewRow], page: int, per_page: int = 25) -> PageSlice:
    """Cut the filtered rows into pages so 500 proposals never render at once."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    pages = max(1, math.ceil(len(rows) / per_page))
    page = min(max(1, int(page)), pages)
    start = (page - 1) * per_page
    return PageSlice(list(rows[start:start + per_page]), page, pages, len(rows), start)


def group_by_type(rows: Iterable[ReviewRow]) -> list[tuple[MemoryType, list[ReviewRow]]]:
    """Rows grouped by memory type in the fixed order user, feedback, project, reference."""
    groups: dict[MemoryType, list[ReviewRow]] = {t: [] for t in MemoryType}
    for row in rows:
        groups[row.proposal.type].append(row)
    return [(t, items) for t, items in groups.items() if items]


def default_selected(row: ReviewRow) -> bool:
    """Is a row ticked for bulk actions before the person touches it? Never when sensitive."""
    return not row.proposal.sensitive


def bulk_ids(rows: Iterable[ReviewRow], selection: Mapping[str, bool] | None = None) -> list[str]:
    """Fingerprints a bulk action applies to: ticked rows, sensitive ones only if ticked by hand.

    ``selection`` maps fingerprint -> the person's explicit tick; rows absent from it use
    :func:`default_selected`, so a sensitive proposal is never bulk-approved by default.
    """
    chosen = selection or {}
    return [row.fingerprint for row in rows if chosen.get(row.fingerprint, default_selected(row))]


# -- budgets for capped targets ---------------------------------------------------------
@dataclass(frozen=True)
class BudgetLine:
    """One capped file: how much it holds now, after adding the approved set, and its limit."""

    target: str
    file: str
    limit: int
    used: int
    """Size of the file now (in ``unit``)."""
    after: int
    """Size after adding every approved entry not yet there."""
    entries: list[tuple[str, str, int]] = field(default_factory=list)
    """(id, name, size) of each entry that would be added, in write order."""
    fits: list[str] = field(default_factory=list)
    """Ids of the entries that fit, taken in order, under the limit."""
    unit: str = "chars"

    @property
    def name(self) -> str:
        return Path(self.file).name

    @property
    def folder(self) -> str:
        """The folder the capped file is in (two Claude Code projects both have a ``MEMORY.md``)."""
        return str(Path(self.file).parent)

    @property
    def ok(self) -> bool:
        return self.after <= self.limit

    @property
    def ratio(self) -> float:
        return self.after / self.limit if self.limit else 0.0

    def fitting(self) -> tuple[list[str], list[str]]:
        """Names of the entries that fit (in order) and of those that do not."""
        fit = set(self.fits)
        return ([n for i, n, _ in self.entries if i in fit], [n for i, n, _ in self.entries if i not in fit])


def budget_key(rows: Iterable[ReviewRow], target: str = "hermes", written: Iterable[str] = ()) -> tuple[Any, ...]:
    """Everything :func:`budget` depends on, as a hashable value (for caching it between reruns).

    The approved rows' text, what was already written, and the size and mtime of the files the
    target's capacity depends on (``Harness.capacity_files``) — so an edit, a decision or a
    change to the files outside memseed all show.
    """
    texts = tuple((r.fingerprint, r.current.name, r.current.description, r.current.body, str(r.proposal.type)) for r in rows if r.approved)
    stats = []
    for path in get_harness(target).capacity_files():
        try:
            st = path.stat()
            stats.append((st.st_mtime_ns, st.st_size))
        except OSError:
            stats.append((0, -1))
    return (target, texts, tuple(sorted(written)), tuple(stats))


def budget(rows: Iterable[ReviewRow], target: str = "hermes", written: Iterable[str] = (),
           root: Path | None = None) -> list[BudgetLine]:
    """Budget lines of the approved rows for ``target`` (its ``Harness.capacity``).

    The harness's own renderer, parser and files as they are now, so the meter and the writer
    can never disagree. ``written`` holds the fingerprints memseed already wrote there.
    Targets without a cap give ``[]``.
    """
    approved = [r.current for r in rows if r.approved]
    report = get_harness(target).capacity(approved, WriteOptions(root=root, written=frozenset(written)))
    return [BudgetLine(target, c.file, c.limit, c.used, c.after, list(c.entries), list(c.fits), c.unit)
            for c in report]


# -- write planning for several targets ------------------------------------------------
@dataclass
class TargetPlan:
    """The preview of one target: its plan, or the error that stopped it (with what fits)."""

    target: str
    plan: Any = None
    error: MemseedError | None = None

    @property
    def capacity(self) -> bool:
        return isinstance(self.error, CapacityExceeded)


def plan_targets(store: Store, targets: Sequence[str], project: str | Path | None = None, *,
                 roots: Mapping[str, str | Path] | None = None, **options: Any) -> list[TargetPlan]:
    """Plan a write to each target; an error (capacity, missing folder) is kept per target.

    ``roots`` gives a folder for targets that need one chosen (the markdown folder); blank
    entries are ignored so the writer's own default applies.
    """
    proj = Path(project).expanduser() if project else None
    out: list[TargetPlan] = []
    for target in targets:
        extra = dict(options)
        root = (roots or {}).get(target)
        if root:
            extra["root"] = Path(root).expanduser()
        try:
            out.append(TargetPlan(target, plan_write(store, target, project=proj, **extra)))
        except MemseedError as exc:
            out.append(TargetPlan(target, None, exc))
    return out
