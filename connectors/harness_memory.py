"""Existing harness memory as a source: Claude Code, Codex, Hermes, Gemini.

Why read other harnesses at all: the best memory of a person is the one their current agent
already keeps. Reading it lets memseed move memory from one harness to another (each entry
becomes a proposal the person approves for the new target, via :func:`entries_to_proposals`)
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
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import ClassVar

from bootstrap_app.errors import SourceNotFound
from bootstrap_app.harnesses.base import Harness
from bootstrap_app.harnesses.claude_code import ClaudeCodeHarness, config_home, find_project_dir
from bootstrap_app.harnesses.codex import CodexHarness, codex_home
from bootstrap_app.harnesses.common import infer_type
from bootstrap_app.harnesses.gemini import HEADING, GeminiHarness, gemini_dir
from bootstrap_app.harnesses.hermes import DELIMITER, HermesHarness, hermes_home
from bootstrap_app.types import Evidence, Item, MemoryEntry, Proposal, slugify

from .base import ReadContext, Source

__all__ = [
    "ClaudeCodeMemory",
    "CodexMemory",
    "GeminiMemory",
    "HermesMemory",
    "entries_to_proposals",
]


def _head(path: Path, size: int = 4096) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(size).decode("utf-8", "replace")
    except OSError:
        return ""


def _memories_dir(path: Path) -> Path:
    """Codex and Hermes keep memory in a ``memories/`` folder of their home; either may be given."""
    return path / "memories" if (path / "memories").is_dir() else path


class _HarnessSource(Source):
    """Shared read loop: harness reader -> cleaned MemoryEntry items, skips reported."""

    priority = 20
    cursor_doc = ""  # memory folders are small: every read is a full read
    harness: ClassVar[type[Harness]]
    """The writer whose reader parses this harness's files (one parser per format)."""

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        """``kind:`` names the harness's own home; ``kind:WHERE`` a project, profile or folder."""
        return [cls(uri.partition(":")[2])]

    def _home(self) -> Path:  # pragma: no cover - overridden
        raise NotImplementedError

    def _root(self) -> Path:
        """The folder the location names, else (a bare ``kind:`` URI) the harness's own home."""
        return self._named(Path(self.location).expanduser()) if self.location else self._home()

    def _named(self, path: Path) -> Path:
        """The memory folder a given location names: the folder itself unless overridden."""
        return path

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
        for ref, reason in skipped:
            ctx.skip(self.id, ref, reason)
        for count, entry in enumerate(entries, 1):
            if ctx.should_stop():
                return
            if ctx.since and entry.timestamp and entry.timestamp < ctx.since:
                continue
            yield replace(entry, source=self.id, body=ctx.clean(entry.body),
                          description=ctx.clean(entry.description, 500))
            ctx.progress(self.id, count)


class ClaudeCodeMemory(_HarnessSource):
    kind = "claude-code"
    uri_schemes = ("claude-code",)
    uri_form = "claude-code:[PROJECT]"
    harness = ClaudeCodeHarness
    description = "Claude Code auto memory (projects/<key>/memory/)"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir() or not (path / "MEMORY.md").is_file():
            return False
        return any(_head(p, 64).startswith("---") for p in list(path.glob("*.md"))[:20] if p.name != "MEMORY.md")

    def _home(self) -> Path:
        return config_home()

    def _named(self, path: Path) -> Path:
        """A memory folder as given; a project folder maps to its ``projects/<key>/memory``."""
        if (path / "MEMORY.md").is_file() or path.name == "memory":
            return path
        return find_project_dir(self._home() / "projects", path) / "memory"


class CodexMemory(_HarnessSource):
    kind = "codex"
    uri_schemes = ("codex",)
    uri_form = "codex:"
    harness = CodexHarness
    description = "Codex CLI home (memories/, AGENTS.md)"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir():
            return False
        mem = _memories_dir(path)
        return (mem / "memory_summary.md").is_file() or (mem / "raw_memories.md").is_file() or \
            (mem / "extensions" / "ad_hoc").is_dir()

    def _home(self) -> Path:
        return codex_home()


class HermesMemory(_HarnessSource):
    kind = "hermes"
    uri_schemes = ("hermes",)
    uri_form = "hermes:[PROFILE]"
    harness = HermesHarness
    description = "Hermes agent memories (USER.md, MEMORY.md)"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir():
            return False
        mem = _memories_dir(path)
        files = [f for f in (mem / "USER.md", mem / "MEMORY.md") if f.is_file()]
        if not files:
            return False
        if any(_head(f, 64).startswith("---") for f in mem.glob("*.md") if f.name not in ("USER.md", "MEMORY.md")):
            return False
        if any(DELIMITER in _head(f, 1 << 16) for f in files):
            return True
        others = {p.name for p in mem.iterdir()} - {"USER.md", "MEMORY.md", "USER.md.lock", "MEMORY.md.lock"}
        return mem.name == "memories" and not {o for o in others if not o.startswith((".", "ARCHIVE"))}

    def _home(self) -> Path:
        return hermes_home()

    def _named(self, path: Path) -> Path:
        """A folder as given; any other location names a profile (``hermes:PROFILE``)."""
        if path.exists():
            return path
        return self._home() / "profiles" / slugify(self.location)


class GeminiMemory(_HarnessSource):
    kind = "gemini"
    uri_schemes = ("gemini",)
    uri_form = "gemini:"
    harness = GeminiHarness
    description = "Gemini CLI global memory (~/.gemini/GEMINI.md)"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        target = path if path.is_file() else path / "GEMINI.md"
        return target.name == "GEMINI.md" and target.is_file() and HEADING in _head(target, 1 << 20)

    def _home(self) -> Path:
        return gemini_dir()




def entries_to_proposals(entries: Iterable[MemoryEntry]) -> list[Proposal]:
    """Turn existing memory entries into proposals for another target.

    The type is kept (feedback stays feedback; untyped entries get one inferred from the file
    name or wording); the evidence is the memory file itself, owner-authored, since a person's
    own harness memory is theirs. The fingerprint rests on the entry's name and description,
    so the same memory read twice is the same question.
    """
    out: list[Proposal] = []
    seen: set[str] = set()
    for entry in entries:
        text = entry.body.strip() or entry.description.strip()
        if not text:
            continue
        mtype = entry.memory_type or infer_type(f"{entry.description} {text}", Path(entry.path).stem)
        stem = Path(entry.path).stem if entry.path.endswith(".md") else ""
        if stem and entry.harness in ("claude-code", "markdown") and stem != "MEMORY":
            for prefix in ("user_", "feedback_", "project_", "reference_"):
                stem = stem.removeprefix(prefix)
            name = slugify(stem)
        else:
            name = slugify(entry.name or entry.description or text[:40])
        description = " ".join((entry.description or text).split())
        if len(description) > 200:
            description = description[:199].rstrip() + "…"
        proposal = Proposal(
            type=mtype, name=name, description=description, body=text,
            subject=f"memory:{mtype}:{name}", key=description, scope=entry.scope or "global",
            confidence=0.9,
            evidence=(Evidence(source=entry.source, ref=entry.path or entry.ref, date=entry.timestamp,
                               authored_by_owner=True, excerpt=" ".join(text.split())[:200]),),
            derived_at=entry.timestamp.replace(microsecond=0) if entry.timestamp else None)
        if proposal.fingerprint in seen:
            continue
        seen.add(proposal.fingerprint)
        out.append(proposal)
    return out
