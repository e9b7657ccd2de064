"""Review state: the proposals a scan made and the decisions the person made on them.

Why together: a proposal is only ever read with its decision (the LEFT JOIN in ``_SELECT``), and
"undecided / approved / rejected" is a property of the pair. Decisions are kept forever, keyed by
fingerprint, so a re-seed never asks twice about a fact already approved or rejected.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ..errors import StoreError, UnknownProposal
from ..types import Decision, DecisionStatus, MemoryType, Proposal
from .schema import StoreBase, now

__all__ = ["ReviewMixin", "StoredProposal", "nearest_ids"]


def nearest_ids(key: str, ids: Iterable[str], n: int = 3) -> list[str]:
    """The ``n`` ids closest to a mistyped ``key``: longest shared start first, then most alike.

    Ids are hex digests, so a typo keeps the start (``3f2a9c1b`` for ``3f2a9c1c``) or swaps two
    characters; both rank the meant id first."""
    low = key.strip().lower()

    def shared(i: str) -> int:
        return next((k for k, (a, b) in enumerate(zip(i, low, strict=False)) if a != b), min(len(i), len(low)))

    return sorted(set(ids), key=lambda i: (-shared(i), -difflib.SequenceMatcher(None, i, low).ratio(), i))[:n]


def _decision(fingerprint: str, status: str, at: str, edited: str | None) -> Decision:
    """A ``decisions`` row (status, at, edited JSON) as a :class:`Decision`."""
    return Decision(fingerprint, DecisionStatus(status), datetime.fromisoformat(at),
                    json.loads(edited) if edited else None)


@dataclass(frozen=True)
class StoredProposal:
    """A proposal as the store knows it, with the decision made on it (if any)."""

    proposal: Proposal
    run_id: int
    decision: Decision | None
    first_seen: str
    last_seen: str

    @property
    def fingerprint(self) -> str:
        return self.proposal.fingerprint

    @property
    def effective(self) -> Proposal:
        """The proposal with the person's edits applied (what a writer should write)."""
        if self.decision and self.decision.edited:
            edited = self.decision.edited
            return replace(self.proposal,
                           name=edited.get("name", self.proposal.name),
                           description=edited.get("description", self.proposal.description),
                           body=edited.get("body", self.proposal.body))
        return self.proposal




class ReviewMixin(StoreBase):
    """Proposals and decisions (see the module docstring)."""

    # -- proposals ---------------------------------------------------------------------
    def save_proposals(self, run_id: int, proposals: Iterable[Proposal]) -> int:
        stamp = now()
        count = 0
        with self.transaction() as db:
            for p in proposals:
                db.execute(
                    "INSERT INTO proposals(fingerprint, id, run_id, type, name, data, first_seen, last_seen) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(fingerprint) DO UPDATE SET "
                    "run_id=excluded.run_id, data=excluded.data, name=excluded.name, last_seen=excluded.last_seen",
                    (p.fingerprint, p.id, run_id, str(p.type), p.name, json.dumps(p.to_json()), stamp, stamp))
                count += 1
        return count

    def retire_undecided(self, run_id: int) -> int:
        """Delete the undecided proposals of earlier runs that run ``run_id`` could have derived
        again — every source their evidence cites was read in it — but did not; return how many.

        Why: a re-analysis after the person marked a calendar as not theirs no longer derives the
        zone and rituals from it, and a proposal left over from the run before must not stay in
        the review as if it still held (issue 30). A proposal citing a source this run did not
        read (another scan's location) is kept; decided ones are never touched (decisions are
        kept forever, and a written fact is re-checked by ``extract.verify``).
        """
        read = {r[0] for r in self._db.execute("SELECT DISTINCT source FROM items WHERE run_id=?", (run_id,))}
        stale = []
        for fingerprint, data in self._db.execute(
                "SELECT p.fingerprint, p.data FROM proposals p LEFT JOIN decisions d ON d.fingerprint = p.fingerprint "
                "WHERE d.status IS NULL AND p.run_id <> ?", (run_id,)).fetchall():
            sources = {e.get("source", "") for e in json.loads(data).get("evidence", [])}
            if sources and sources <= read:
                stale.append(fingerprint)
        with self.transaction() as db:
            db.executemany("DELETE FROM proposals WHERE fingerprint=?", ((f,) for f in stale))
        return len(stale)

    def proposal_fingerprints(self) -> set[str]:
        """Every fingerprint ever proposed (cheap: no JSON decoding)."""
        return {r[0] for r in self._db.execute("SELECT fingerprint FROM proposals")}

    def _row_to_stored(self, row: tuple[Any, ...]) -> StoredProposal:
        data, run_id, first_seen, last_seen, d_status, d_at, d_edited = row
        proposal = Proposal.from_json(json.loads(data))
        decision = _decision(proposal.fingerprint, d_status, d_at, d_edited) if d_status else None
        return StoredProposal(proposal, run_id, decision, first_seen, last_seen)

    _SELECT = ("SELECT p.data, p.run_id, p.first_seen, p.last_seen, d.status, d.at, d.edited "
               "FROM proposals p LEFT JOIN decisions d ON d.fingerprint = p.fingerprint")

    def proposals(self, *, run_id: int | None = None, status: str | None = None,
                  memory_type: MemoryType | str | None = None) -> list[StoredProposal]:
        """Stored proposals. ``status``: 'undecided', 'approved' (incl. edited), 'rejected'."""
        where: list[str] = []
        args: list[Any] = []
        if run_id is not None:
            where.append("p.run_id = ?")
            args.append(run_id)
        if memory_type is not None:
            where.append("p.type = ?")
            args.append(str(MemoryType(memory_type)))
        if status == "undecided":
            where.append("d.status IS NULL")
        elif status == "approved":
            where.append("d.status IN ('approved', 'edited')")
        elif status == "rejected":
            where.append("d.status = 'rejected'")
        elif status is not None:
            raise StoreError(f"unknown proposal status filter {status!r}",
                             hint="use 'undecided', 'approved' or 'rejected', or no filter")
        sql = self._SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY p.type, p.name"
        return [self._row_to_stored(r) for r in self._db.execute(sql, args).fetchall()]

    def get(self, id_or_fingerprint: str) -> StoredProposal:
        """Look a proposal up by its short id, a fingerprint, or an unambiguous prefix."""
        key = id_or_fingerprint.strip().lower()
        if not key:
            raise UnknownProposal("empty proposal id", hint="run `memseed review --list` to see ids")
        pattern = key.replace("%", "").replace("_", "") + "%"
        rows = self._db.execute(self._SELECT + " WHERE p.fingerprint LIKE ? LIMIT 3", (pattern,)).fetchall()
        if not rows:  # an id from before a store migration re-keyed it (see store.migrations)
            rows = self._db.execute(self._SELECT + " JOIN fingerprint_renames r ON r.new = p.fingerprint "
                                    "WHERE r.old LIKE ? LIMIT 3", (pattern,)).fetchall()
        if not rows:
            near = nearest_ids(key, (r[0][:8] for r in self._db.execute("SELECT fingerprint FROM proposals")))
            raise UnknownProposal(f"no proposal with id {id_or_fingerprint!r}"
                                  + (f" (nearest: {', '.join(near)})" if near else ""),
                                  hint="run `memseed review --list` to see ids")
        if len(rows) > 1:
            raise UnknownProposal(f"id {id_or_fingerprint!r} matches several proposals",
                                  hint="type more characters of the id")
        return self._row_to_stored(rows[0])

    def renamed_ids(self) -> dict[str, str]:
        """old short id -> new short id of every proposal a store migration re-keyed."""
        return {old[:8]: new[:8] for old, new in self._db.execute("SELECT old, new FROM fingerprint_renames")}

    # -- decisions ---------------------------------------------------------------------
    def decide(self, fingerprint: str, status: DecisionStatus | str,
               edited: dict[str, str] | None = None) -> Decision:
        """Record a decision at once (committed before returning). Kept forever."""
        status = DecisionStatus(status)
        if status is DecisionStatus.EDITED and not edited:
            raise StoreError("an edited decision needs the edited fields",
                             hint="pass the new name, description and/or body, or decide 'approved'")
        at = datetime.now(UTC).replace(microsecond=0)
        self._db.execute(
            "INSERT INTO decisions(fingerprint, status, at, edited) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(fingerprint) DO UPDATE SET status=excluded.status, at=excluded.at, edited=excluded.edited",
            (fingerprint, str(status), at.isoformat(), json.dumps(edited) if edited else None))
        return Decision(fingerprint, status, at, edited)

    def undecide(self, fingerprint: str) -> None:
        self._db.execute("DELETE FROM decisions WHERE fingerprint=?", (fingerprint,))

    def decision(self, fingerprint: str) -> Decision | None:
        row = self._db.execute("SELECT status, at, edited FROM decisions WHERE fingerprint=?",
                               (fingerprint,)).fetchone()
        return _decision(fingerprint, *row) if row else None

    def decided_fingerprints(self) -> set[str]:
        return {r[0] for r in self._db.execute("SELECT fingerprint FROM decisions")}
