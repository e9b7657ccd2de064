"""Claude Code auto memory: ``<config home>/projects/<key>/memory/`` (harness-formats.md §3).

Which folder a project's memory lives in (its key, relocations) is ``claude_paths``; this
module holds the format: one topic file per fact plus an index line, through ``topicdir``.

Where a fact goes is decided by where Claude Code will *load* it (formats doc §3.1, §3.4).
Auto memory is keyed by the git root (or launch folder) of a session, so a project's folder is
only read in that project — the home directory's folder only when Claude Code starts in the
home directory itself. Facts about the person (user type) and facts tied to no project must
reach every session, so by default (``user_facts="claude-md"``) they go into a marked block
of the user-level ``<config home>/CLAUDE.md``, which every session loads. A fact about one
repository goes to that repository's folder; ``--project`` is where unscoped facts go when the
person names a project. ``user_facts="project"`` keeps the old placement (the home directory's
project folder) for those who want it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bootstrap_app.errors import MemseedError
from bootstrap_app.fsutil import refuse_symlinks
from bootstrap_app.safety.doctor import instruction_file_findings, sorted_findings, topic_folder_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal

from .base import Capacity, FileChange, Harness, LocalMemory, Plan, WriteOptions, new_entries, select_entries
from .block import BEGIN, END, plan_block
from .claude_paths import find_project_dir, git_root, memory_override, project_key, session_cwd
from .common import (
    count_files,
    derived_date,
    flatten,
    guard_imports,
    head_text,
    line_entry,
    one_line,
    read_text,
)
from .projectfile import repo_root, repo_scope
from .topicdir import FolderPlan, IndexStyle, plan_folder, read_folder

__all__ = ["ClaudeCodeHarness", "config_home", "find_project_dir", "git_root", "memory_override", "project_key"]

MAX_INDEX_LINES = 200
MAX_INDEX_BYTES = 25_000
MAX_LINE_CHARS = 150


def _metadata(p: Proposal) -> dict[str, Any]:
    return {"type": str(p.type), "derived": derived_date(p), "source": "memseed", "memseed_id": p.id}


def _title(p: Proposal) -> str:
    return p.name.replace("-", " ").capitalize()


def _index_line(p: Proposal, filename: str) -> str:
    head = f"- [{_title(p)}]({filename}) — "
    hook = flatten(p.description) or _title(p)
    room = MAX_LINE_CHARS - len(head)
    if len(hook) > room:
        hook = hook[: max(room - 1, 10)].rstrip() + "…"
    return head + hook


def _claude_md_section(p: Proposal, key: str) -> str:
    """A fact in the CLAUDE.md block: ``### key`` and one line (``@`` imports neutralised), led by
    its type's label (``User:``, ``Preference:`` …) so the agent — and a read-back — knows what it is."""
    return f"### {key}\n{guard_imports(one_line(p))}"


def _claude_md_entries(path: Path, harness: str) -> list[MemoryEntry]:
    """The facts of memseed's block in a user-level ``CLAUDE.md`` (one line per ``### key``)."""
    _, text = read_text(path)
    inner = text[text.find(BEGIN) + len(BEGIN):text.find(END)] if 0 <= text.find(BEGIN) < text.find(END) else ""
    out = []
    for key, fact in re.findall(r"^### (\S+)\n(.+)$", inner, re.MULTILINE):
        entry = line_entry(f"{harness}:{path.parent}", f"CLAUDE.md#{key}", path, harness, fact.strip())
        out.append(replace(entry, name=key, scope="global"))
    return out


STYLE = IndexStyle(metadata=_metadata, index_line=_index_line, max_lines=MAX_INDEX_LINES,
                   max_bytes=MAX_INDEX_BYTES, harness="claude-code")


def _folders(root: Path) -> list[Path]:
    """The memory folders under ``root``: a config home (every project), a project folder, or one folder."""
    if (root / "MEMORY.md").is_file() or root.name == "memory":
        return [root]
    if (root / "memory").is_dir():
        return [root / "memory"]
    if (root / "projects").is_dir():
        return sorted(p / "memory" for p in (root / "projects").iterdir() if (p / "memory").is_dir())
    if (root / "CLAUDE.md").is_file():  # a config home with no project memory yet: nothing else to check
        return []
    return [root]


class ClaudeCodeHarness(Harness, name="claude-code",
                        label="Claude Code",
                        aliases=("claude", "claude_code"),
                        home_env=("CLAUDE_CONFIG_DIR",),
                        default_home=".claude",
                        entry_format="one <name>.md per fact (frontmatter name, description, metadata.type) in "
                                     "projects/<key>/memory/, one '- [Title](file.md) — hook' line in MEMORY.md "
                                     "(200 lines / 25 KB)",
                        source_uri="claude-code:[PROJECT]",
                        source_description="Claude Code auto memory (projects/<key>/memory/)",
                        file_per_entry=True):
    """Claude Code's auto memory: a file per fact and the ``MEMORY.md`` index it loads."""

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        home = self.memory_home(options)
        override, _ = memory_override(home)
        if override is not None:
            return override
        return find_project_dir(home / "projects", project if project is not None else Path.home()) / "memory"

    def memory_home(self, options: WriteOptions | None = None) -> Path:
        """The config home (``options.root`` or ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)."""
        return (options.root if options and options.root else self.home()).expanduser()

    @classmethod
    def locate(cls, location: str) -> Path:
        """A memory folder as given; a project folder maps to its ``projects/<key>/memory``."""
        path = Path(location).expanduser()
        if (path / "MEMORY.md").is_file() or path.name == "memory":
            return path
        return find_project_dir(cls.home() / "projects", path) / "memory"

    def doctor_root(self, project: Path | None = None) -> Path:
        """With no project named, every project's memory folder (the config home)."""
        return self.home() if project is None else self.memory_root(project)

    def doctor_roots(self, project: Path | None = None) -> list[Path]:
        """A project's memory folder *and* the user-level ``CLAUDE.md``: a write for that project
        puts facts in both, and a project memseed wrote nothing to may have no folder at all."""
        if project is None:
            return [self.home()]
        found = [p for p in (self.memory_root(project), self.home() / "CLAUDE.md") if p.exists()]
        return found or [self.memory_root(project)]

    def doctor_path(self, written: Path) -> Path:
        """A topic file or index: its memory folder; the user-level ``CLAUDE.md``: that file."""
        return written if written.name == "CLAUDE.md" else written.parent

    def _groups(self, chosen: Sequence[Proposal], options: WriteOptions) -> tuple[dict[Path, list[Proposal]],
                                                                                  list[Proposal], list[str]]:
        """Entries per memory folder, the facts bound for CLAUDE.md, and notes on entries left out."""
        groups: dict[Path, list[Proposal]] = {}
        claude_md: list[Proposal] = []
        notes: list[str] = []
        everywhere = options.user_facts != "project"  # the user-level CLAUDE.md, loaded by every session
        home_folder = self.memory_root(None, options)
        for p in chosen:
            if p.type is MemoryType.USER:
                if everywhere:
                    claude_md.append(p)
                else:
                    groups.setdefault(home_folder, []).append(p)
                continue
            # An entry about one repository belongs to that repository's memory, loaded only in
            # sessions there; when the repository is not on this machine it is not written at all
            # (neither CLAUDE.md, loaded in every project, nor another project named by --project).
            # --project is where the unscoped ones go, and with no project they are facts for
            # every session (the user-level CLAUDE.md).
            scope = repo_scope(p)
            if scope is not None and not scope.is_dir():
                notes.append(f"{p.name}: about the repository {scope}, which is not on this machine; not written "
                             "(clone it there and write again)")
                continue
            project = repo_root(scope) if scope is not None else options.project
            if project is None and everywhere:
                claude_md.append(p)
                continue
            folder = self.memory_root(project, options) if project is not None else home_folder
            groups.setdefault(folder, []).append(p)
        return groups, claude_md, notes

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        home = self.memory_home(options)
        refuse_symlinks(home)
        chosen = select_entries(entries, options)
        plan = Plan(target=self.name, root=home, anchor=home)
        plan.notes.extend(memory_override(home)[1])
        groups, claude_md, left_out = self._groups(chosen, options)
        plan.notes.extend(left_out)
        for folder, group in groups.items():
            refuse_symlinks(folder, home)
            folder_plan = plan_folder(folder, group, options, STYLE)
            self._merge(plan, folder, folder_plan)
            plan.notes.append(f"{len(group)} entr{'y' if len(group) == 1 else 'ies'} -> {folder}")
        if claude_md:
            self._plan_claude_md(plan, home, claude_md, options)
        plan.entries = new_entries(plan, chosen, options)
        return plan

    @staticmethod
    def _merge(plan: Plan, folder: Path, folder_plan: FolderPlan) -> None:
        plan.files.extend(folder_plan.files)
        plan.written.extend(folder_plan.written)
        plan.notes.extend(folder_plan.notes)
        for new, old, location, old_text in folder_plan.replaced:
            plan.supersede(new, old, location, old_text)
        plan.budget.append({"file": str(folder / "MEMORY.md"), "lines": folder_plan.index_lines,
                            "max_lines": MAX_INDEX_LINES, "bytes": folder_plan.index_bytes,
                            "max_bytes": MAX_INDEX_BYTES})

    def capacity(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[Capacity]:
        """Lines of each MEMORY.md index the entries go to, against the 200 lines Claude Code loads."""
        options = options or WriteOptions()
        groups, _, _ = self._groups(select_entries(entries, options), options)
        out = []
        for folder, group in groups.items():
            result = plan_folder(folder, group, options, STYLE, enforce=False)
            new = [p for p in group if p.fingerprint not in options.written]
            room = MAX_INDEX_LINES - result.used_lines
            out.append(Capacity(str(folder / "MEMORY.md"), "lines", MAX_INDEX_LINES, result.used_lines,
                                result.index_lines, tuple((p.id, p.name, 1) for p in new),
                                tuple(p.id for p in new[:max(room, 0)])))
        return out

    def capacity_files(self, options: WriteOptions | None = None) -> list[Path]:
        """The home folder's index by its computed key: cheap (asked on every app rerun), so no
        folder scan; a relocated or hash-suffixed folder is caught by the settings file's stamp."""
        home = self.memory_home(options)
        key = project_key(git_root(options.project if options and options.project else Path.home()))
        return [home / "projects" / key / "memory" / "MEMORY.md", home / "settings.json"]

    def _plan_claude_md(self, plan: Plan, home: Path, entries: list[Proposal], options: WriteOptions) -> None:
        path = home / "CLAUDE.md"
        refuse_symlinks(path, home)
        before, text = read_text(path)
        after = plan_block(plan, path, text, entries, options, _claude_md_section,
                           "About me and how I work (approved in memseed)").encode("utf-8")
        if after != (before or b""):
            plan.files.append(FileChange(path, before, after))
        plan.notes.append(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} for every session -> marked "
                          f"block in {path} (the user-level CLAUDE.md Claude Code loads in every project)")

    # -- reading, finding, auditing ---------------------------------------------------------
    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        """``root``: the config home (every project), a ``projects/<key>`` folder or a memory folder."""
        root = root or self.home()
        if (root / "projects").is_dir():
            folders = sorted(p / "memory" for p in (root / "projects").iterdir() if (p / "memory").is_dir())
        elif (root / "memory").is_dir():
            folders = [root / "memory"]
        else:
            folders = [root]
        entries: list[MemoryEntry] = []
        skipped: list[tuple[str, str]] = []
        user_level = root / "CLAUDE.md"
        if user_level.is_file() and not user_level.is_symlink():  # facts for every session
            try:
                entries.extend(_claude_md_entries(user_level, self.name))
            except MemseedError as exc:
                skipped.append((str(user_level), str(exc.args[0]) if exc.args else "unreadable"))
        home_key = project_key(git_root(Path.home()))
        for folder in folders:
            if folder.is_symlink():
                skipped.append((str(folder), "symbolic link; not followed"))
                continue
            cwd = session_cwd(folder.parent)
            scope = "global" if folder.parent.name == home_key else (cwd or "global")
            found, skips = read_folder(folder, self.name, scope)
            entries.extend(found)
            skipped.extend(skips)
        return entries, skipped

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir() or not (path / "MEMORY.md").is_file():
            return False
        return any(head_text(p, 64).startswith("---") for p in list(path.glob("*.md"))[:20] if p.name != "MEMORY.md")

    @classmethod
    def owns(cls, path: Path) -> bool:
        """A config home (``projects/``) or a project folder with ``memory/MEMORY.md``; a bare folder of
        topic files is as much a markdown folder, so it is not claimed."""
        return ((path / "projects").is_dir() or (path / "memory" / "MEMORY.md").is_file()
                or path.expanduser().resolve() == cls.home().resolve())

    def find_local(self) -> list[LocalMemory]:
        projects = self.home() / "projects"
        if not projects.is_dir():
            return []
        return [LocalMemory(self.name, memory, str(memory), count) for memory in sorted(projects.glob("*/memory"))
                if memory.is_dir() and not memory.is_symlink() and (count := count_files(memory))]

    def doctor(self, root: Path) -> list[Finding]:
        if root.is_file():  # the user-level CLAUDE.md (or any instruction file)
            return sorted_findings(instruction_file_findings(root))
        out: list[Finding] = []
        # a config home: its user-level CLAUDE.md too (a project root's CLAUDE.md is the person's own)
        if (root / "CLAUDE.md").is_file() and ((root / "projects").is_dir() or not _folders(root)):
            out.extend(instruction_file_findings(root / "CLAUDE.md"))
        for folder in _folders(root):
            out.extend(topic_folder_findings(folder, index_caps=(MAX_INDEX_LINES, MAX_INDEX_BYTES), claude=True))
        return sorted_findings(out)


def config_home() -> Path:
    """``$CLAUDE_CONFIG_DIR`` or ``~/.claude``."""
    return ClaudeCodeHarness.home()
