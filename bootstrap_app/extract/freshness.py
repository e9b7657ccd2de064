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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from bootstrap_app.errors import UnknownProposal
from bootstrap_app.harnesses import HARNESSES
from bootstrap_app.store import Store
from bootstrap_app.types import Proposal

from .verify import stale_references

__all__ = ["Stale", "check_written"]

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


def _passed(text: str, today: date) -> list[str]:
    out = []
    for match in _DEADLINE.finditer(text):
        try:
            when = date.fromisoformat(match.group(1))
        except ValueError:
            continue
        if when < today:
            out.append(match.group(1))
    return out


def _entry_stale(target: str, fp: str, location: str, p: Proposal, today: date) -> list[Stale]:
    def found(what: str, detail: str) -> Stale:
        return Stale(target, p.name, fp, location, what, detail)

    out: list[Stale] = []
    if location and not Path(location.split("#", 1)[0]).exists():
        return [found("file", "is gone (removed since memseed wrote it)")]
    for ref in stale_references(p.body, p.scope):
        out.append(found("path" if "/" in ref or "." in ref.split()[0] else "command", f"`{ref}` no longer holds"))
    for source in dict.fromkeys(e.source for e in p.evidence):
        path = _local_source(source)
        if path is not None and not path.exists():
            out.append(found("source", f"{source} is gone"))
    out += [found("date", f"{when} has passed") for when in _passed(p.body, today)]
    return out


def check_written(store: Store, target: str | None = None, project: Path | None = None,
                  now: datetime | None = None) -> tuple[int, list[Stale]]:
    """(entries checked, what went stale) over every entry memseed wrote (to ``target`` only, when
    given; about ``project`` only — scoped to it or written under it — when given)."""
    today = (now or datetime.now(UTC)).date()
    replaced = {row["old_fingerprint"] for row in store.superseded()}
    checked = 0
    stale: list[Stale] = []
    where = str(project.expanduser().resolve()) if project else ""
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
            checked += 1
            stale += _entry_stale(name, fp, location, p, today)
    return checked, stale
