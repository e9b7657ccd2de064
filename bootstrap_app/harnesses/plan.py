"""What a write is made of: the options a plan takes, the plan itself, and the rules plans share.

Kept apart from the ``Harness`` class (``base``) so a reader sees the data first: a
:class:`Plan` is the exact bytes per file plus why (notes), what is present afterwards
(``written``), what it replaced (``superseded``) and the budget; :class:`WriteOptions` is
everything a plan may be told. ``select_entries``, ``placement`` and ``new_entries`` are the
three rules every harness's ``plan`` applies the same way.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bootstrap_app.types import Proposal

from .files import FileChange

__all__ = [
    "Capacity",
    "LocalMemory",
    "Plan",
    "Supersession",
    "WriteOptions",
    "WriteOutcome",
    "follow_renames",
    "home_or",
    "is_removal",
    "new_entries",
    "placement",
    "prefix_matcher",
    "select_entries",
]


def _no_record(_path: str) -> bytes | None:
    return None


@dataclass(frozen=True)
class WriteOptions:
    """Everything a writer may be told. Library callers can leave all of it at the defaults."""

    project: Path | None = None
    """The project the entries are about (Claude Code project folder); ``None`` = home folder."""
    root: Path | None = None
    """Override of the harness home (tests, the markdown folder target)."""
    only: tuple[str, ...] = ()
    """Proposal ids / fingerprint prefixes to write (others are left for later)."""
    exclude: tuple[str, ...] = ()
    user_facts: str = "claude-md"
    """Claude Code: ``claude-md`` (user-level ``CLAUDE.md``, loaded by every session) or ``project``
    (the home directory's auto-memory folder, loaded only when Claude Code starts there)."""
    profile: str | None = None
    """Hermes profile name (``profiles/<name>/memories``)."""
    now: datetime | None = None
    """Clock for Codex note names (tests pin it)."""
    written: frozenset[str] = frozenset()
    """Fingerprints memseed already wrote to this target: kept if present, never re-added."""
    last_after: Callable[[str], bytes | None] = _no_record
    """What memseed last wrote to a path (``Store.last_after``): tells our files from others'."""
    replaces: Mapping[str, Proposal] = field(default_factory=dict)
    """new fingerprint -> the entry memseed wrote earlier that it supersedes (replaced in place)."""
    renamed_ids: Mapping[str, str] = field(default_factory=dict)
    """old short id -> new short id of proposals a store migration re-keyed: a file memseed wrote
    under the old id (``memseed_id:``/``memseed-id:``) is still that entry's file."""


def follow_renames(owned: dict[str, Any], options: WriteOptions) -> None:
    """Make entries found under an id a store migration retired findable under the new id too."""
    for old, new in options.renamed_ids.items():
        if old in owned and new not in owned:
            owned[new] = owned[old]


@dataclass(frozen=True)
class Supersession:
    """An entry replaced in place: the old text is journaled with the date it stopped being true."""

    old_fingerprint: str
    new_fingerprint: str
    location: str
    old_text: str
    until: str


@dataclass
class Plan:
    """What a write would do: the exact bytes per file, and why."""

    target: str
    root: Path
    files: list[FileChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    budget: list[dict[str, Any]] = field(default_factory=list)
    entries: list[Proposal] = field(default_factory=list)
    """Entries this plan writes for the first time."""
    written: list[tuple[str, str]] = field(default_factory=list)
    """(fingerprint, location) of every entry present after the write (new and kept)."""
    superseded: list[Supersession] = field(default_factory=list)
    locks: list[Path] = field(default_factory=list)
    anchor: Path | None = None
    blocked: dict[str, str] = field(default_factory=dict)
    """fingerprint -> why the writer's safety check refused the entry; the plan writes the rest
    (``writing.plan_write`` fills it: one blocked entry never stops the others)."""

    @property
    def empty(self) -> bool:
        return not self.files

    def diff(self) -> str:
        """Unified diff of every file (new files diffed against /dev/null)."""
        chunks: list[str] = []
        for change in self.files:
            before = (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
            after = (change.after or b"").decode("utf-8", "replace").splitlines(keepends=True)
            old = str(change.path) if change.before is not None else "/dev/null"
            new = str(change.path) if change.after is not None else "/dev/null"
            lines = difflib.unified_diff(before, after, fromfile=old, tofile=new)
            chunks.append("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                                  for line in lines))
        return "".join(chunks)

    def supersede(self, new: Proposal, old: Proposal, location: str, old_text: str) -> None:
        """Record that ``new`` took ``old``'s place; the old fact stopped holding when ``new``'s evidence begins."""
        dates = [e.date for e in new.evidence if e.date is not None]
        when = min(dates) if dates else new.derived_at
        self.superseded.append(Supersession(old.fingerprint, new.fingerprint, location, old_text,
                                            when.date().isoformat() if when else ""))
        if is_removal(new):
            self.notes.append(f"{old.name}: no longer holds; removed ({location}), `memseed undo` brings it back")
        else:
            self.notes.append(f"{new.name}: replaces {old.name} in place ({location})")


@dataclass(frozen=True)
class WriteOutcome:
    write_id: int | None
    paths: list[str]


@dataclass(frozen=True)
class Capacity:
    """One capped file: how much it holds now and after the approved entries (a budget meter)."""

    file: str
    unit: str
    limit: int
    used: int
    after: int
    entries: tuple[tuple[str, str, int], ...] = ()
    """(id, name, size) of each entry that would be added."""
    fits: tuple[str, ...] = ()
    """Ids of the entries that fit, in order."""

    @property
    def overflow(self) -> int:
        return max(0, self.after - self.limit)


@dataclass(frozen=True)
class LocalMemory:
    """A harness's memory found on this machine, offered as a source."""

    harness: str
    path: Path
    location: str
    """What to add as a source (the folder path, or a harness URI)."""
    entries: int
    """Files that look like memory entries (a quick count, not a parse)."""


def prefix_matcher(keys: Iterable[str]) -> Callable[[str], bool]:
    """fingerprint -> does one of ``keys`` (short ids or fingerprint prefixes, any case) start it.

    One set lookup per distinct key length, not one test per key: ``--only`` with every id of a
    large import would otherwise make selecting entries quadratic."""
    wanted: dict[int, set[str]] = {}
    for key in keys:
        if key.strip():
            wanted.setdefault(len(key.strip()), set()).add(key.strip().lower())
    return lambda fingerprint: any(fingerprint[:n] in ks for n, ks in wanted.items())


def select_entries(entries: Sequence[Proposal], options: WriteOptions) -> list[Proposal]:
    """Apply ``--only`` / ``--exclude`` (by short id or fingerprint prefix) and drop duplicates."""
    only, exclude = prefix_matcher(options.only), prefix_matcher(options.exclude)
    out: list[Proposal] = []
    seen: set[str] = set()
    for p in entries:
        fingerprint = p.fingerprint
        if fingerprint in seen:
            continue
        if options.only and not only(fingerprint) and fingerprint not in options.written:
            continue
        if options.exclude and exclude(fingerprint):
            continue
        seen.add(fingerprint)
        out.append(p)
    return out


def new_entries(plan: Plan, chosen: Sequence[Proposal], options: WriteOptions) -> list[Proposal]:
    """``Plan.entries``: the chosen entries present after the write that memseed never wrote before.

    Every writer ends its ``plan`` with this, so "new" means the same for the CLI's count, the
    journal (``apply`` records only these) and undo.
    """
    new = {fp for fp, _ in plan.written} - options.written
    return [p for p in chosen if p.fingerprint in new]


def placement(plan: Plan, p: Proposal, options: WriteOptions, present: Container[str],
              render: Callable[[Proposal], str]) -> tuple[str, Proposal | None]:
    """Where ``p`` goes in a store of rendered entries: ``keep``, ``gone``, ``replace``, ``remove`` or ``add``.

    One rule for every harness that stores an entry as one rendered piece of text: already
    there -> keep; memseed wrote it and the person removed it since -> gone (noted, never
    re-added); the entry it supersedes is there exactly as memseed wrote it -> replace (the old
    entry is returned); otherwise add. An approved removal (:func:`is_removal`) is never written:
    ``remove`` with the old entry when it is there exactly as memseed wrote it (the caller deletes
    it and calls :meth:`Plan.supersede`), else ``gone`` with a note (the person's edit is kept).
    """
    if is_removal(p):
        gone = options.replaces.get(p.fingerprint)
        if gone is not None and render(gone) in present:
            return "remove", gone
        plan.notes.append(f"{p.name}: the entry this removal names is not there as memseed wrote it (edited or "
                          "removed since); kept as it is, remove it by hand if it no longer holds")
        return "gone", None
    if render(p) in present:
        return "keep", None
    if p.fingerprint in options.written:
        plan.notes.append(f"{p.name}: memseed wrote it before and it was removed since; not re-added")
        return "gone", None
    old = options.replaces.get(p.fingerprint)
    if old is not None and render(old) in present:
        return "replace", old
    return "add", None


def is_removal(p: Proposal) -> bool:
    """An approved ``remove`` proposal (see ``extract.verify``): the entry it supersedes is deleted,
    not replaced by the removal note; the note itself is never written."""
    return "remove" in p.flags


def home_or(options: WriteOptions | None, default: Callable[[], Path]) -> Path:
    """The harness home: ``options.root`` when given, else the harness's default, ``~`` expanded."""
    return (options.root if options and options.root else default()).expanduser()
