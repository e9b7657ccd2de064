"""A plain Markdown memory folder: ``<name>.md`` per fact and a ``MEMORY.md`` index.

Why: a harness-neutral export the person can keep in a repo, read in any editor, or point a
harness without native memory at (Cline's memory bank, an ``@import`` from CLAUDE.md/AGENTS.md).
Same file rules as Claude Code (see ``topicdir``), simpler frontmatter (``name``,
``description``, ``type``), index lines ``- [name](name.md) -- description``, no caps.

The folder is ``options.root`` when given, else ``<project>/memory``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.safety.doctor import sorted_findings, topic_folder_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, Proposal

from .base import Harness, Plan, WriteOptions, new_entries
from .common import flatten
from .topicdir import IndexStyle, plan_folder, read_folder

__all__ = ["MarkdownDirHarness"]


def _index_line(p: Proposal, filename: str) -> str:
    return f"- [{Path(filename).stem}]({filename}) -- {flatten(p.description) or p.name}"


STYLE = IndexStyle(metadata=lambda p: None, index_line=_index_line, harness="markdown")


class MarkdownDirHarness(Harness, name="markdown",
                         label="Markdown folder",
                         aliases=("markdown-dir", "markdown_dir", "md"),
                         entry_format="one <name>.md per fact (frontmatter name, description, type) "
                                      "and a MEMORY.md index",
                         file_per_entry=True):
    """A plain folder of Markdown notes and an index (see the module docstring)."""

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        if options and options.root:
            return options.root.expanduser()
        if project is not None:
            return project.expanduser() / "memory"
        raise TargetNotFound("the markdown target needs a folder",
                             hint="memseed write --target markdown --project DIR  (writes DIR/memory/)")

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options, folder, chosen, plan = self.start_plan(entries, options)
        result = plan_folder(folder, chosen, options, STYLE)
        plan.files, plan.notes, plan.written = result.files, result.notes, result.written
        for new, old, location, old_text in result.replaced:
            plan.supersede(new, old, location, old_text)
        plan.notes.append(f"{len(chosen)} entries -> {folder}")
        plan.entries = new_entries(plan, chosen, options)
        return plan

    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        if root is None:
            raise TargetNotFound("which folder?", hint="pass the memory folder to read")
        return read_folder(root, self.name)

    def doctor(self, root: Path) -> list[Finding]:
        return sorted_findings(topic_folder_findings(root))
