"""Memory of agents memseed does not write to: Cline's memory bank and Cursor's project rules.

Why read them: people move between agents, and what they told one agent is worth carrying to
the next (``memseed import --from cline:~/code/app --to claude-code``). memseed only reads
these; it writes agents it has a harness for.

- **Cline memory bank** (a documented convention, not a feature): ``memory-bank/*.md`` in the
  project root — ``projectbrief.md``, ``productContext.md``, ``activeContext.md``,
  ``systemPatterns.md``, ``techContext.md``, ``progress.md`` plus any extra file — and rules in
  ``.clinerules/*.md`` (or one ``.clinerules`` file). A memory-bank file is a document of
  ``##`` sections, so each section is one memory (the part before the first section too, when
  it has text); the type is inferred from the wording. A rule file is one instruction set:
  one entry of type feedback.
- **Cursor project rules**: ``.cursor/rules/*.mdc`` (plain ``.md`` there is ignored by Cursor),
  YAML frontmatter ``description`` / ``globs`` / ``alwaysApply`` and a Markdown body: one rule,
  one entry of type feedback.

Located as ``cline:PROJECT`` / ``cursor:PROJECT`` or by giving the ``memory-bank`` or
``.cursor/rules`` folder itself. A file that is not UTF-8 or has broken frontmatter is skipped
with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import ClassVar

import frontmatter
import yaml

from bootstrap_app.errors import SourceNotFound
from bootstrap_app.harnesses.common import infer_type
from bootstrap_app.types import Item, MemoryEntry, MemoryType, slugify

from .base import ReadContext, Source

__all__ = ["CLINE_CORE", "ClineMemoryBank", "CursorRules"]

CLINE_CORE = ("projectbrief.md", "productContext.md", "activeContext.md", "systemPatterns.md",
              "techContext.md", "progress.md")
"""The memory bank's documented core files (Cline docs, "Memory Bank")."""

_SECTION = re.compile(r"^##\s+(.+?)\s*#*\s*$", re.MULTILINE)


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def _sections(text: str) -> list[tuple[str, str, int]]:
    """(heading, text, first line number) per ``##`` section; the part before the first one is
    headed by the document's ``#`` title (or nothing)."""
    marks = list(_SECTION.finditer(text))
    out: list[tuple[str, str, int]] = []
    head = text[: marks[0].start()] if marks else text
    title = next((ln.lstrip("#").strip() for ln in head.splitlines() if ln.startswith("# ")), "")
    lead = "\n".join(ln for ln in head.splitlines() if not ln.startswith("# ")).strip()
    if lead:
        out.append((title, lead, 1))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[mark.end():end].strip()
        if body:
            out.append((mark.group(1).strip(), body, text.count("\n", 0, mark.start()) + 1))
    return out


class _AgentFolder(Source, priority=19, cursor_doc=""):
    """Shared: a project (``kind:PROJECT``) or the agent's own folder given as a path."""

    folder: ClassVar[str] = ""
    """The agent's folder inside a project (``memory-bank``, ``.cursor/rules``)."""

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        return [cls(uri.partition(":")[2] or ".")]

    def _root(self) -> Path:
        """The agent's folder: the location itself when it is that folder, else PROJECT/folder."""
        path = Path(self.location).expanduser()
        return path if path.as_posix().endswith(self.folder) else path / self.folder

    @cached_property
    def id(self) -> str:
        return f"{self.kind}:{self._root().absolute()}"

    def _files(self, pattern: str) -> list[Path]:
        root = self._root()
        if not root.is_dir():
            raise SourceNotFound(f"{self.kind}: {root} does not exist",
                                 hint=f"give the project folder holding {self.folder}/")
        return sorted(p for p in root.glob(pattern) if p.is_file() and not p.is_symlink())

    @staticmethod
    def _text(ctx: ReadContext, source: str, path: Path) -> str | None:
        try:
            return path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError:
            ctx.skip(source, path.name, "not UTF-8 text")
        except OSError as exc:
            ctx.skip(source, path.name, f"unreadable ({exc.strerror})")
        return None

    def _entry(self, ctx: ReadContext, path: Path, ref: str, name: str, body: str,
               mtype: MemoryType | None, description: str = "") -> MemoryEntry:
        body = ctx.clean(body)
        summary = " ".join((description or body).split())
        return MemoryEntry(source=self.id, ref=ref, timestamp=_mtime(path), authored_by_owner=True,
                           harness=self.kind, name=slugify(name), memory_type=mtype,
                           description=ctx.clean(summary if len(summary) <= 150 else summary[:149] + "…", 500),
                           body=body, scope=str(self._root().parent.absolute()), path=str(path))


class ClineMemoryBank(_AgentFolder, kind="cline", uri_schemes=("cline",), uri_form="cline:PROJECT",
                      description="Cline memory bank (memory-bank/*.md) and rules (.clinerules)"):
    """One entry per section of each memory-bank file, one per rule file."""

    folder = "memory-bank"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return path.name == cls.folder and path.is_dir() and any((path / f).is_file() for f in CLINE_CORE)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        files = self._files("*.md")
        rules = self._root().parent / ".clinerules"
        rule_files = sorted(rules.glob("*.md")) if rules.is_dir() else ([rules] if rules.is_file() else [])
        for path in files:
            text = self._text(ctx, self.id, path)
            if text is None:
                ctx.find()  # the ledger: a file that cannot be read is one unit lost
                continue
            sections = _sections(text)
            ctx.find(len(sections) or 1)  # each section is an entry; a file with none is passed over
            if not sections:
                ctx.pass_over("files with no text")
            for heading, body, line in sections:
                name = f"{path.stem}-{heading}" if heading else path.stem
                yield self._entry(ctx, path, f"{path.name}:{line}", name, f"{heading}\n{body}" if heading else body,
                                  infer_type(body, path.stem))
        for path in rule_files:
            ctx.find()
            text = self._text(ctx, self.id, path)
            if text is not None and text.strip():
                yield self._entry(ctx, path, path.name, f"rule-{path.stem}", text.strip(), MemoryType.FEEDBACK)
            elif text is not None:
                ctx.pass_over("files with no text")


class CursorRules(_AgentFolder, kind="cursor", uri_schemes=("cursor",), uri_form="cursor:PROJECT",
                  description="Cursor project rules (.cursor/rules/*.mdc)"):
    """One entry per ``.mdc`` rule: its description and body."""

    folder = ".cursor/rules"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return (path.name == "rules" and path.parent.name == ".cursor" and path.is_dir()
                and any(path.glob("*.mdc")))

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        for path in self._files("*.mdc"):
            ctx.find()  # the ledger: each rule file ends as an entry or a skip with its reason
            text = self._text(ctx, self.id, path)
            if text is None:
                continue
            try:
                post = frontmatter.loads(text)
            except (yaml.YAMLError, ValueError) as exc:
                ctx.skip(self.id, path.name, f"frontmatter is not valid YAML ({type(exc).__name__})")
                continue
            body = post.content.strip()
            if not body:
                ctx.skip(self.id, path.name, "rule has no text")
                continue
            globs = post.get("globs")
            description = str(post.get("description") or "")
            if globs and not description:
                description = f"for files {globs}"
            yield self._entry(ctx, path, path.name, path.stem, body, MemoryType.FEEDBACK, description)
