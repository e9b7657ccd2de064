"""Existing harness memory as a source: Claude Code, Codex, Hermes, Gemini.

Why read other harnesses at all: the best memory of a person is the one their current agent
already keeps. Reading it lets memseed move memory from one harness to another (each entry
becomes a proposal the person approves for the new target, via :func:`import_entries`; the
scan does this for every memory entry it reads, ``memseed import`` runs it for one target)
and lets the pipeline deduplicate new proposals against what a target already holds.

URIs: ``claude-code:`` (every project memory folder under the config home) or
``claude-code:PROJECT``; ``codex:``; ``hermes:`` or ``hermes:PROFILE``; ``gemini:``. A folder
given as a path is sniffed: a Claude Code ``memory/`` folder (``MEMORY.md`` + frontmatter
files), a Hermes home or ``memories/`` folder (``§``-delimited files), a Codex home. Parsing is
done by the harness readers in ``bootstrap_app.harnesses`` (one parser per format, shared by
writer and reader).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import ClassVar

from bootstrap_app.errors import SourceNotFound
from bootstrap_app.harnesses.base import Harness
from bootstrap_app.harnesses.claude_code import ClaudeCodeHarness
from bootstrap_app.harnesses.codex import CodexHarness
from bootstrap_app.harnesses.common import infer_type
from bootstrap_app.harnesses.gemini import GeminiHarness
from bootstrap_app.harnesses.hermes import HermesHarness
from bootstrap_app.harnesses.registry import HARNESS_CLASSES
from bootstrap_app.types import Evidence, Item, MemoryEntry, Proposal, slugify

from .base import ReadContext, Source

__all__ = [
    "ClaudeCodeMemory",
    "CodexMemory",
    "EntryOutcome",
    "GeminiMemory",
    "HermesMemory",
    "cite",
    "entries_to_proposals",
    "import_entries",
]


class _HarnessSource(Source, priority=20, cursor_doc=""):
    """Shared read loop: harness reader -> cleaned MemoryEntry items, skips reported.

    Everything format-specific (the home and its env vars, what a location names, the shape
    sniffing, the parser) is the harness class's; a subclass only names its harness. No cursor:
    memory folders are small, so every read is a full read.
    """

    harness: ClassVar[type[Harness]]
    """The harness whose reader parses these files (one parser per format)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """kind, URI scheme and form, and description are the harness's own (``Harness.name`` ...)."""
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "harness"):
            return  # an intermediate base (_WithSessions) names no harness yet
        cls.kind = cls.harness.name
        cls.uri_schemes = (cls.harness.name,)
        cls.uri_form = cls.harness.source_uri or f"{cls.harness.name}:"
        cls.description = cls.harness.source_description

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return cls.harness.sniff(path)

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        """``kind:`` names the harness's own home; ``kind:WHERE`` a project, profile or folder."""
        return [cls(uri.partition(":")[2])]

    def _root(self) -> Path:
        """The folder the location names (``Harness.locate``), else (a bare ``kind:`` URI) the home."""
        return self.harness.locate(self.location) if self.location else self.harness.home()

    @cached_property
    def id(self) -> str:
        """``kind:<resolved folder>`` (a bare ``claude-code:`` URI names the config home)."""
        return f"{self.kind}:{self._root().expanduser().absolute()}"

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self._root()
        if not root.exists():
            raise SourceNotFound(f"{self.kind}: {root} does not exist",
                                 hint=f"is {self.kind} installed and has it written memory yet?")
        entries, skipped = self.harness().read_with_skips(root)
        ctx.find(len(entries) + len({ref for ref, _ in skipped}))  # the ledger: entries and what failed
        for ref, reason in skipped:
            ctx.skip(self.id, ref, reason)
        texts: dict[str, list[str]] = {}
        for count, entry in enumerate(entries, 1):
            if ctx.should_stop():
                return
            if ctx.since and entry.timestamp and entry.timestamp < ctx.since:
                ctx.pass_over("older than --since")
                continue
            where = cite(entry, texts)
            line = where.rpartition(":")[2]
            yield replace(entry, source=self.id, body=ctx.clean(entry.body),
                          description=ctx.clean(entry.description, 500),
                          line=int(line) if line.isdigit() and where != (entry.path or entry.ref) else 0)
            ctx.progress(self.id, count)


class _WithSessions(_HarnessSource):
    """A harness that also keeps the person's sessions: its URI reads memory *and* sessions (the
    registry adds the session source, :func:`connectors.sessions.sources.sessions_home_sources`,
    since the session readers build on these memory readers and not the other way round)."""


class ClaudeCodeMemory(_WithSessions):
    harness = ClaudeCodeHarness


class CodexMemory(_WithSessions):
    harness = CodexHarness


class HermesMemory(_HarnessSource):
    harness = HermesHarness


class GeminiMemory(_WithSessions):
    harness = GeminiHarness


_FILE_PER_ENTRY = {cls.name for cls in HARNESS_CLASSES if cls.file_per_entry}


@dataclass(frozen=True)
class EntryOutcome:
    """What became of one memory entry read for moving: proposed, moved, or the reason it was not.

    One per entry read, so an import can show that moved + reported = read. ``status`` is
    ``proposed`` (waits for review), ``approved`` (ready to write), ``moved``, or a reported reason: ``empty``, ``duplicate``, ``unsafe``,
    ``decided`` (rejected before), ``over-cap``, ``type`` (the target cannot hold it),
    ``not-approved``, ``not-written``.
    """

    source: str
    ref: str
    """``file:line`` where the entry begins."""
    name: str
    status: str
    reason: str = ""
    fingerprint: str = ""

    def but(self, status: str, reason: str = "") -> EntryOutcome:
        return replace(self, status=status, reason=reason)


def cite(entry: MemoryEntry, texts: dict[str, list[str]] | None = None) -> str:
    """``path:line`` of the entry's first body line in its file (``path`` alone when not found).

    Why search rather than keep a line from each parser: every reader (frontmatter files, ``§``
    stores, bullets, marked blocks) already returns the body; finding its first line in the file
    gives every format the same citation without touching six parsers.
    """
    path = entry.path or entry.ref
    if entry.line:  # found when the entry was read (a replayed entry opens no file)
        return f"{path}:{entry.line}"
    cache = texts if texts is not None else {}
    if path not in cache:
        try:
            cache[path] = Path(path).read_text("utf-8", "replace").splitlines()
        except OSError:
            cache[path] = []
    first = next((ln.strip() for ln in entry.body.splitlines() if ln.strip()), "")
    probe = first[:60]
    if probe:
        for number, line in enumerate(cache[path], 1):
            if probe in line:
                return f"{path}:{number}"
    return path


def _proposal(entry: MemoryEntry, text: str, ref: str) -> Proposal:
    mtype = entry.memory_type or infer_type(f"{entry.description} {text}", Path(entry.path).stem)
    stem = Path(entry.path).stem if entry.path.endswith(".md") else ""
    if stem and entry.harness in _FILE_PER_ENTRY and stem != "MEMORY":
        for prefix in ("user_", "feedback_", "project_", "reference_"):
            stem = stem.removeprefix(prefix)
        name = slugify(stem)
    else:
        name = slugify(entry.name or entry.description or text[:40])
    description = " ".join((entry.description or text).split())
    if len(description) > 200:
        description = description[:199].rstrip() + "…"
    return Proposal(
        type=mtype, name=name, description=description, body=text,
        subject=f"memory:{mtype}:{name}", key=description, scope=entry.scope or "global",
        confidence=0.9,
        evidence=(Evidence(source=entry.source, ref=ref, date=entry.timestamp,
                           authored_by_owner=True, excerpt=" ".join(text.split())[:200]),),
        derived_at=entry.timestamp.replace(microsecond=0) if entry.timestamp else None)


def import_entries(entries: Iterable[MemoryEntry]) -> tuple[list[Proposal], list[EntryOutcome]]:
    """One proposal per memory entry, and one outcome per entry read (``proposed``, or why not).

    The type is kept (feedback stays feedback; untyped entries get one inferred from the file
    name or wording); the evidence is the memory file itself at the entry's line, owner-authored,
    since a person's own harness memory is theirs. The fingerprint rests on the entry's name and
    description, so the same memory read twice is the same question — and a second entry with
    the same fingerprint (the same memory copied twice) is reported as a duplicate.
    """
    out: list[Proposal] = []
    outcomes: list[EntryOutcome] = []
    seen: dict[str, str] = {}
    texts: dict[str, list[str]] = {}
    for entry in entries:
        ref = cite(entry, texts)
        text = entry.body.strip() or entry.description.strip()
        if not text:
            outcomes.append(EntryOutcome(entry.source, ref, entry.name, "empty", "no text to carry over"))
            continue
        proposal = _proposal(entry, text, ref)
        first = seen.get(proposal.fingerprint)
        if first is not None:
            outcomes.append(EntryOutcome(entry.source, ref, proposal.name, "duplicate", f"same memory as {first}",
                                         proposal.fingerprint))
            continue
        seen[proposal.fingerprint] = ref
        out.append(proposal)
        outcomes.append(EntryOutcome(entry.source, ref, proposal.name, "proposed", "", proposal.fingerprint))
    return out, outcomes


def entries_to_proposals(entries: Iterable[MemoryEntry]) -> list[Proposal]:
    """Turn existing memory entries into proposals for another target (see :func:`import_entries`)."""
    return import_entries(entries)[0]
