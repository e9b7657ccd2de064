"""Claude Code auto memory: ``<config home>/projects/<key>/memory/`` (harness-formats.md §3).

Which folder a project's memory lives in (its key, relocations) is ``claude_paths``; this
module holds the format: one topic file per fact plus an index line, through ``topicdir``.

User-type facts are global: they go to the home directory's project folder, or (option
``user_facts="claude-md"``) into a marked block in ``<config home>/CLAUDE.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bootstrap_app.fsutil import refuse_symlinks
from bootstrap_app.safety.doctor import sorted_findings, topic_folder_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal

from .base import Capacity, FileChange, Harness, LocalMemory, Plan, WriteOptions, new_entries, select_entries
from .block import plan_block
from .claude_paths import find_project_dir, git_root, memory_override, project_key, session_cwd
from .common import count_files, derived_date, flatten, guard_imports, head_text, one_line, read_text
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
    """A user fact in the CLAUDE.md block: ``### key`` and one line (``@`` imports neutralised)."""
    return f"### {key}\n{guard_imports(one_line(p, label=False))}"


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

    def _groups(self, chosen: Sequence[Proposal], options: WriteOptions) -> tuple[dict[Path, list[Proposal]],
                                                                                  list[Proposal]]:
        """Entries per memory folder, and the user facts bound for CLAUDE.md."""
        groups: dict[Path, list[Proposal]] = {}
        claude_md: list[Proposal] = []
        home_folder = self.memory_root(None, options)
        for p in chosen:
            if p.type is MemoryType.USER:
                if options.user_facts == "claude-md":
                    claude_md.append(p)
                else:
                    groups.setdefault(home_folder, []).append(p)
                continue
            # An entry about one repository belongs to that repository's memory wherever it
            # still exists on this machine; --project is where the unscoped ones go.
            scoped = p.scope not in ("", "global") and Path(p.scope).is_absolute() and Path(p.scope).is_dir()
            project = Path(p.scope) if scoped else options.project
            folder = self.memory_root(project, options) if project is not None else home_folder
            groups.setdefault(folder, []).append(p)
        return groups, claude_md

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        home = self.memory_home(options)
        refuse_symlinks(home)
        chosen = select_entries(entries, options)
        plan = Plan(target=self.name, root=home, anchor=home)
        plan.notes.extend(memory_override(home)[1])
        groups, claude_md = self._groups(chosen, options)
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
        groups, _ = self._groups(select_entries(entries, options), options)
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
                           "About me (approved in memseed)").encode("utf-8")
        if after != (before or b""):
            plan.files.append(FileChange(path, before, after))
        plan.notes.append(f"{len(entries)} user fact(s) -> marked block in {path} (option user_facts=claude-md)")

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
        return (path / "projects").is_dir() or (path / "memory" / "MEMORY.md").is_file()

    def find_local(self) -> list[LocalMemory]:
        projects = self.home() / "projects"
        if not projects.is_dir():
            return []
        return [LocalMemory(self.name, memory, str(memory), count) for memory in sorted(projects.glob("*/memory"))
                if memory.is_dir() and not memory.is_symlink() and (count := count_files(memory))]

    def doctor(self, root: Path) -> list[Finding]:
        out: list[Finding] = []
        for folder in _folders(root):
            out.extend(topic_folder_findings(folder, index_caps=(MAX_INDEX_LINES, MAX_INDEX_BYTES), claude=True))
        return sorted_findings(out)


def config_home() -> Path:
    """``$CLAUDE_CONFIG_DIR`` or ``~/.claude``."""
    return ClaudeCodeHarness.home()
