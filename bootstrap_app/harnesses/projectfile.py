"""A repository's facts in that repository's own instruction file, inside memseed's marked block.

Why: a fact about one repository (its commands, the absolute path of its clone) written into a
file an agent loads in *every* project is noise in every other project and a leak of one
project into the others. Codex, Gemini CLI and Hermes each load an instruction file from the
repository itself, only in sessions started inside it, so that is where such a fact goes
(docs/placement.md cites each agent's documentation):

- Codex: per folder from the git root down to the session folder, the first of
  ``AGENTS.override.md``, ``AGENTS.md`` and the ``project_doc_fallback_filenames`` of
  ``config.toml``;
- Hermes: the nearest ``.hermes.md`` / ``HERMES.md`` up to the git root, else the
  ``AGENTS.override.md`` / ``AGENTS.md`` chain from the git root, else ``CLAUDE.md`` — only
  the first of these kinds is loaded;
- Gemini CLI: every file named by ``context.fileName`` (default ``GEMINI.md``) from the session
  folder up to the project root.

The block goes into the file that agent already reads at the repository's root — never a new
file that would shadow one it reads now (a new ``AGENTS.md`` next to a fallback file, a new
``.hermes.md`` next to ``AGENTS.md``) — and is rendered the same for every agent, so Codex and
Hermes sharing one ``AGENTS.md`` keep one copy of each fact. Text outside the block is the
person's and is never touched; the plan says whether git tracks the file (it would show in
their diff). A fact about a repository that is not on this machine is not written at all:
there is no file of that repository an agent could load, and a global file is the wrong place.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bootstrap_app.fsutil import read_bytes, refuse_symlinks
from bootstrap_app.types import MemoryType, Proposal

from .block import plan_block
from .common import derived_date, flatten, guard_imports, read_text
from .files import FileChange
from .plan import Plan, WriteOptions

__all__ = ["TITLE", "Cap", "Chooser", "Split", "first_present", "plan_repo_files", "render_section", "repo_root", "repo_scope", "split_by_repo",
           "tracked_by_git"]

TITLE = "About this repository (approved in memseed)"

Chooser = Callable[[Path], tuple[Path, list[str]]]
"""repository root -> (the instruction file to put the block in, notes on why that one)."""


def repo_scope(p: Proposal) -> Path | None:
    """The folder ``p`` is about when it is about one repository (its scope is an absolute path);
    ``None`` for a fact about the person or tied to no repository. Facts about the person stay
    with the person whatever their scope."""
    if p.type is MemoryType.USER or p.scope in ("", "global"):
        return None
    path = Path(p.scope).expanduser()
    return path if path.is_absolute() else None


def repo_root(folder: Path) -> Path:
    """The nearest folder at or above ``folder`` holding ``.git`` (a checkout's own root, also
    for a worktree), else ``folder``: where the agents start looking for a project's files.

    A hidden folder (``.cursor``, ``.clinerules``: another agent's settings, where facts read
    from its rules are scoped) is never where a session starts, so its project is the folder
    that holds it."""
    while folder.name.startswith(".") and folder.parent != folder:
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


@dataclass
class Split:
    """Approved entries by where they belong."""

    everywhere: list[Proposal] = field(default_factory=list)
    """Facts for every session: the files the agent loads in every project."""
    repos: dict[Path, list[Proposal]] = field(default_factory=dict)
    """repository root -> its facts."""
    absent: list[tuple[Proposal, Path]] = field(default_factory=list)
    """Facts about a repository that is not on this machine (not written)."""


def split_by_repo(entries: Sequence[Proposal]) -> Split:
    """Sort ``entries`` into facts for every session and facts per repository."""
    out = Split()
    for p in entries:
        scope = repo_scope(p)
        if scope is None:
            out.everywhere.append(p)
        elif scope.is_dir():
            out.repos.setdefault(repo_root(scope), []).append(p)
        else:
            out.absent.append((p, scope))
    return out


def render_section(p: Proposal, key: str) -> str:
    """``### key (type)``, the description, the body as Markdown (its headings made bold so they
    cannot open a section) and the date: one rendering for every agent that reads the file."""
    lines = []
    for line in p.body.replace("\r\n", "\n").strip().splitlines():
        stripped = line.lstrip()
        lines.append(f"**{stripped.lstrip('#').strip()}**" if stripped.startswith("#") else line)
    body = guard_imports("\n".join(lines).strip())
    desc = guard_imports(flatten(p.description))
    text = f"### {key} ({p.type})\n{desc}"
    if body and flatten(body).lower() != desc.lower():
        text += f"\n\n{body}"
    return text + f"\n\n_memseed, {derived_date(p)}_"


def tracked_by_git(path: Path) -> bool | None:
    """Whether git tracks ``path`` (``None``: not in a repository, or git could not tell)."""
    try:
        done = subprocess.run(["git", "-C", str(path.parent), "ls-files", "--error-unmatch", "--", path.name],
                              capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode == 0:
        return True
    return False if b"did not match" in done.stderr else None


def first_present(root: Path, names: Sequence[str]) -> Path | None:
    """The first of ``names`` at ``root`` that is a file with something in it (agents skip empty ones)."""
    for name in names:
        path = root / name
        if path.is_file() and not path.is_symlink() and (read_bytes(path) or b"").strip():
            return path
    return None


def _git_note(path: Path, exists: bool) -> str:
    """What the person will see in git for the file a write changes (the dry run says it first)."""
    tracked = tracked_by_git(path)
    if tracked:
        return (f"{path} is tracked by git: the memseed block will show in your diff (commit it for your "
                "team, or keep it out of your commits)")
    state = "a new file" if not exists else "not tracked by git"
    if tracked is False:
        return (f"{path} is {state} in a git checkout: `git status` lists it (unless ignored) until you commit "
                "it or add it to .git/info/exclude")
    return f"{path} is {state} in a folder that is not a git checkout"


@dataclass(frozen=True)
class Cap:
    """How much of a project's instruction file an agent reads (beyond it the file is cut)."""

    limit: int
    unit: str
    """``bytes`` or ``chars``."""
    why: str


def _size(data: bytes, unit: str) -> int:
    return len(data) if unit == "bytes" else len(data.decode("utf-8", "replace"))


def plan_repo_files(plan: Plan, split: Split, options: WriteOptions, choose: Chooser, agent: str,
                    cap: Cap | None = None) -> None:
    """Add to ``plan`` the marked block of each repository's instruction file ``choose`` names.

    Fills ``plan.written`` and notes like the global writers do; a repository's fact that is
    already in its block as memseed renders it is kept, one the person edited is left alone.
    A file that grows past what the agent reads (``cap``) is written with a warning: the
    person's own text comes first in it, and cutting memseed's block is theirs to weigh.
    """
    for p, scope in split.absent:
        plan.notes.append(f"{p.name}: about the repository {scope}, which is not on this machine; not written "
                          f"(a file {agent} loads in every project is the wrong place for it). Clone it there "
                          "and write again")
    for root, entries in split.repos.items():
        path, why = choose(root)
        refuse_symlinks(path, root)
        before, text = read_text(path)
        after = plan_block(plan, path, text, entries, options, render_section, TITLE).encode("utf-8")
        plan.notes.extend(why)
        plan.notes.append(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} about {root} -> marked block "
                          f"in {path} ({agent} loads it only in sessions inside that repository)")
        if after != (before or b""):
            plan.files.append(FileChange(path, before, after))
            plan.notes.append(_git_note(path, before is not None))
            if cap is not None:
                plan.budget.append({"file": str(path), cap.unit: _size(after, cap.unit), f"max_{cap.unit}": cap.limit})
                if _size(after, cap.unit) > cap.limit:
                    plan.notes.append(f"warning: {path} would be {_size(after, cap.unit):,} {cap.unit}; {cap.why}, "
                                      "so the end of the file is not read (write fewer of this repository's entries)")
