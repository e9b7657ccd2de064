"""Is what memseed wrote still true? Every written entry against the file system and its sources.

Why a check of its own besides the scan's (``extract.verify``, which turns a stale path or
command into a fix proposal): stale memory is the most common complaint about agent memory,
and the person — or the agent's start-up hook — wants to know *now*, without a full scan,
whether anything memseed wrote has gone stale. This reads only the store and stats a few
files, so it is cheap enough for a SessionStart hook.

What counts as stale, per written entry (the store's ``written`` table, per target):

- ``path`` / ``command`` — a backticked path or runner command that no longer holds
  (:func:`~bootstrap_app.extract.verify.stale_references`, the scan's own rule; a repository
  that is gone is reported as a missing path);
- ``source`` — a local source the entry was drawn from (its evidence ``kind:/path``) is gone;
- ``date`` — a date the entry gives as a deadline (``due``, ``until``, ``deadline``,
  ``expires`` … ``YYYY-MM-DD``) has passed;
- ``file`` — the memory file memseed wrote it to is gone (removed by the person or the agent).

Each entry is first turned into a record of what to look at (:func:`_record`), and the
findings come from those records (:func:`bootstrap_app.memory.watch.findings`). The same records,
saved in the store by :func:`refresh_watch`, are what the agents' start-up hook re-checks
without importing this package: one rule for ``verify`` and for the hook.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from bootstrap_app.errors import UnknownProposal
from bootstrap_app.extract.verify import declared_commands, reference_checks, stale_references, task_paths
from bootstrap_app.harnesses import HARNESSES
from bootstrap_app.memory.watch import WATCH_VERSION, findings, signature
from bootstrap_app.store import Store
from bootstrap_app.types import Proposal

__all__ = ["Stale", "check_written", "keep_watch", "refresh_watch"]

_DEADLINE = re.compile(r"\b(?:due|deadline|until|till|expires?|expiring|ends?|by)\b[^.\n`]{0,20}?(\d{4}-\d{2}-\d{2})",
                       re.IGNORECASE)


@dataclass(frozen=True)
class Stale:
    """One thing a written entry says that no longer holds."""

    target: str
    name: str
    fingerprint: str
    location: str
    what: str
    """``path``, ``command``, ``source``, ``date`` or ``file``."""
    detail: str

    def line(self) -> str:
        return f"{self.target}: {self.name} ({self.location}): {self.what} {self.detail}"


def _local_source(source: str) -> Path | None:
    """The path of a local source id (``git:/home/me/app``; an archive member's id names its
    archive: ``takeout:/x/t.zip!Takeout/...``); ``None`` for accounts and URIs."""
    _, sep, rest = source.partition(":")
    return Path(rest.split("!", 1)[0]) if sep and rest.startswith("/") else None


def _passed(text: str) -> list[str]:
    """The deadline dates ``text`` gives (whether passed is decided when checked)."""
    out = []
    for match in _DEADLINE.finditer(text):
        try:
            date.fromisoformat(match.group(1))
        except ValueError:
            continue
        out.append(match.group(1))
    return out


def _kind(ref: str) -> str:
    return "path" if "/" in ref or "." in ref.split()[0] else "command"


def _record(target: str, fp: str, location: str, p: Proposal, sigs: dict[str, list[list[Any]]],
            commands: dict[str, set[str] | None]) -> dict[str, Any]:
    """What to look at again for one written entry, in the order findings are reported (see
    :func:`bootstrap_app.memory.watch.findings`): the memory file, the paths and commands it names,
    its local sources, its deadlines. Command verdicts are made now; ``sig`` is the stat of the
    task files they rest on."""
    checks: list[list[Any]] = []
    sig: list[list[Any]] | None = None
    gone = False

    def declared(scope: Path) -> set[str] | None:
        nonlocal sig, gone
        key = str(scope)
        if key not in commands:
            sigs[key] = signature(task_paths(scope))
            commands[key] = declared_commands(scope)
        sig, gone = sigs[key], commands[key] is None
        return commands[key]

    refs = reference_checks(p.body, p.scope)
    stale = set(stale_references(p.body, p.scope, declared))
    if gone:  # the repository itself is gone: that is the one finding (its return may change it: sig)
        checks.append(["held", True, _kind(p.scope), f"`{p.scope}` no longer holds"])
    else:
        for ref, path in refs:
            detail = f"`{ref}` no longer holds"
            checks.append(["path", str(path), _kind(ref), detail] if path is not None
                          else ["held", ref in stale, _kind(ref), detail])
    for source in dict.fromkeys(e.source for e in p.evidence):
        local = _local_source(source)
        if local is not None:
            checks.append(["path", str(local), "source", f"{source} is gone"])
    checks += [["date", when, "date", f"{when} has passed"] for when in _passed(p.body)]
    return {"t": target, "n": p.name, "fp": fp, "loc": location, "file": location.split("#", 1)[0],
            "sig": sig, "checks": checks}


def _records(store: Store, target: str | None = None, project: Path | None = None) -> list[dict[str, Any]]:
    replaced = {row["old_fingerprint"] for row in store.superseded()}
    where = str(project.expanduser().resolve()) if project else ""
    sigs: dict[str, list[list[Any]]] = {}
    commands: dict[str, set[str] | None] = {}
    out = []
    for name in [target] if target else list(HARNESSES):
        for fp, location in store.written(name).items():
            if fp in replaced:  # replaced in place by a later entry: that one is what holds now
                continue
            try:
                p = store.get(fp).effective
            except UnknownProposal:
                continue
            if where and not (p.scope.startswith(where) or location.startswith(where)):
                continue
            out.append(_record(name, fp, location, p, sigs, commands))
    return out


def check_written(store: Store, target: str | None = None, project: Path | None = None,
                  now: datetime | None = None) -> tuple[int, list[Stale]]:
    """(entries checked, what went stale) over every entry memseed wrote (to ``target`` only, when
    given; about ``project`` only — scoped to it or written under it — when given)."""
    today = (now or datetime.now(UTC)).date()
    records = _records(store, target, project)
    stale = [Stale(r["t"], r["n"], r["fp"], r["loc"], what, detail)
             for r in records for what, detail in findings(r, today, recheck=False)]
    return len(records), stale


def refresh_watch(store: Store, wait: float | None = None) -> None:
    """Rebuild the start-up hook's summary (what :mod:`bootstrap_app.hookcheck` looks at again),
    inside one write transaction so that no write lands between reading and saving it.
    ``wait``: how long to wait for the write lock (seconds; the store's default when ``None``)."""
    store.save_watch(lambda: json.dumps({"v": WATCH_VERSION, "entries": _records(store)}, ensure_ascii=False),
                     wait=wait)


def keep_watch(store: Store) -> bool:
    """Refresh the hook's summary right after a write or an undo, best effort: the write already
    landed, so a busy or failing store costs only this refresh (the next session start then runs
    the full check once, as before). Without it, the first session after every write pays for
    the full check (about 0.65 s on a 100x demo store) instead of the summary's ~50 ms."""
    try:
        refresh_watch(store, wait=1.0)
    except Exception:  # the write is done; the hook falls back to the full check
        return False
    return True
