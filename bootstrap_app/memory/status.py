"""The state of memseed at a glance: what ``memseed status`` and the notebooks show.

Why one place: what waits for review, when each source was last read, what was last written,
which written entries went stale, and whether the start-up hook and the re-seed timer are in
place were spread over ``schedule --status``, ``sources``, ``verify`` and ``hook``. A person
coming back after a week asks one question — "where do I stand?" — so this module answers it
from the store and the agents' settings files, read-only: a fresh app dir is reported as such
and no ``state.db`` is created by asking.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.fsutil import read_bytes
from bootstrap_app.memory import schedule
from bootstrap_app.memory.freshness import check_written
from bootstrap_app.memory.hooks import HOOKS, MARKS, hook_settings_path
from bootstrap_app.report.scan import run_outcome
from bootstrap_app.store import Store, WriteRecord

__all__ = ["HookState", "SourceState", "Status", "format_status", "memseed_status"]


@dataclass(frozen=True)
class SourceState:
    location: str
    added: str
    last_scanned: str
    """ISO time of the last scan that read it ("" when never scanned)."""
    parts: int
    """Sources found under the location at its last scan (0 when never scanned)."""
    exists: bool


@dataclass(frozen=True)
class HookState:
    target: str
    settings_file: str
    installed: bool


@dataclass
class Status:
    """Everything ``memseed status`` reports; ``to_json`` is its ``--json`` form."""

    home: str
    fresh: bool
    """No ``state.db`` yet: nothing was ever scanned with this app dir."""
    waiting: dict[str, int] = field(default_factory=dict)
    """Undecided proposals per memory type."""
    decided: dict[str, int] = field(default_factory=dict)
    """Decisions per status (approved, rejected, edited ...)."""
    sources: list[SourceState] = field(default_factory=list)
    last_run: dict[str, Any] | None = None
    """The newest scan or reseed: kind, started, finished, status (``finished``/``failed``: whether it
    got to its end) and outcome (:func:`~bootstrap_app.report.scan.run_outcome`: complete, partial
    with what could not be read, failed with why)."""
    last_write: WriteRecord | None = None
    """The newest write as the journal has it (target, time, status, files)."""
    written_entries: int = 0
    stale: list[dict[str, str]] = field(default_factory=list)
    hooks: list[HookState] = field(default_factory=list)
    schedule: str = ""
    """The installed re-seed timer ("" when none)."""
    next_run: str = ""
    system: str = ""

    @property
    def waiting_total(self) -> int:
        return sum(self.waiting.values())

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["waiting_total"] = self.waiting_total
        return data


def hook_states() -> list[HookState]:
    """Whether memseed's start-up hook is in each agent's settings file (read, never written)."""
    states = []
    for target in HOOKS:
        path = hook_settings_path(target)
        text = (read_bytes(path) or b"").decode("utf-8", "replace")
        states.append(HookState(target, str(path), any(mark in text for mark in MARKS)))
    return states


def _store_part(status: Status, store: Store, now: datetime | None) -> None:
    undecided = store.proposals(status="undecided")
    status.waiting = dict(sorted(Counter(str(p.proposal.type) for p in undecided).items()))
    decisions: Counter[str] = Counter()
    for stored in store.proposals():
        if stored.decision is not None:
            decisions[stored.decision.status.value] += 1
    status.decided = dict(sorted(decisions.items()))
    for row in store.sources():
        location = row["location"]
        local = "://" not in location and not location.endswith(":")  # a cloud account is not a path
        status.sources.append(SourceState(location, row["added"] or "", row["last_scanned"] or "",
                                          len(row["parts"] or ()), Path(location).exists() if local else True))
    run = next((r for r in store.runs(limit=50) if r["kind"] in ("scan", "reseed", "demo")), None)
    if run:
        status.last_run = {**{k: run[k] for k in ("kind", "started", "finished", "status")},
                           "outcome": run_outcome(run)}
    status.last_write = next(iter(store.writes(limit=1)), None)
    status.written_entries = len(store.written())
    _checked, stale = check_written(store, now=now)
    status.stale = [{"target": s.target, "name": s.name, "what": s.what, "detail": s.detail} for s in stale]


def memseed_status(settings: Settings, *, now: datetime | None = None, system: str | None = None,
                   user_home: Path | None = None) -> Status:
    """Where the person stands: review queue, sources, last run and write, stale entries, hook,
    timer. Never creates the store; a locked or unreadable one is a :class:`StoreError`."""
    now = now or datetime.now().astimezone()
    status = Status(home=str(settings.home), fresh=not settings.db_path.exists())
    if not status.fresh:
        try:
            probe = sqlite3.connect(f"{settings.db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
            probe.close()
        except sqlite3.Error:
            pass  # Store() below raises the clear StoreError
        with Store(settings.db_path) as store:
            _store_part(status, store, now)
    status.hooks = hook_states()
    status.system = system or schedule.system_name()
    installed = schedule.installed(status.system, user_home)
    if installed:
        status.schedule = installed.describe()
        status.next_run = schedule.next_run(installed, now).strftime("%Y-%m-%d %H:%M")
    return status


def format_status(status: Status) -> list[str]:
    """The lines ``memseed status`` prints."""
    lines = [f"app dir: {status.home}" + ("  (fresh: nothing scanned yet — `memseed scan PATH`)"
                                          if status.fresh else "")]
    if status.waiting_total:
        parts = ", ".join(f"{n} {kind}" for kind, n in status.waiting.items())
        lines.append(f"waiting for review: {status.waiting_total} ({parts}) — `memseed review`")
    else:
        lines.append("waiting for review: nothing")
    if status.decided:
        lines.append("decided: " + ", ".join(f"{n} {kind}" for kind, n in status.decided.items()))
    if status.sources:
        lines.append(f"sources ({len(status.sources)}):")
        for src in status.sources:
            when = src.last_scanned or "never scanned"
            missing = "" if src.exists else "  (missing now)"
            lines.append(f"  {src.location}: last read {when}{missing}")
    else:
        lines.append("sources: none remembered")
    run = status.last_run
    lines.append(f"last run: {run['kind']} {run['started']} ({run['outcome']})" if run
                 else "last run: never")
    write = status.last_write
    lines.append(f"last write: {write.target} {write.at} ({write.status}, {len(write.files)} file(s))" if write
                 else "last write: never")
    lines.append(f"written entries: {status.written_entries}; stale: {len(status.stale)}"
                 + (" — `memseed verify`" if status.stale else ""))
    for stale in status.stale[:10]:
        lines.append(f"  stale: {stale['target']}: {stale['name']}: {stale['what']} {stale['detail']}")
    hooked = [h.target for h in status.hooks if h.installed]
    lines.append("start-up hook: " + (", ".join(hooked) if hooked else
                                      "none (`memseed hook install --target claude-code`)"))
    lines.append(f"schedule: {status.schedule}, next run {status.next_run} ({status.system})" if status.schedule
                 else f"schedule: none ({status.system}; `memseed schedule --daily HH:MM`)")
    return lines
