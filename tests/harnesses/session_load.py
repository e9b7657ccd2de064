"""What each agent loads when a session starts in a folder: an oracle written from the harnesses' docs.

Why its own module and none of memseed's code: a test of *where memseed writes* is only worth
something if the reading side is independent. Each function follows the loading rule of the
reference (``shared/reference/harness-formats.md``), not the writer:

- Claude Code (§3.1, §3.2, §3.4): the user-level ``CLAUDE.md`` and ``rules/*.md`` of the config
  home; every ``CLAUDE.md`` / ``.claude/CLAUDE.md`` / ``CLAUDE.local.md`` / ``.claude/rules/*.md``
  from the launch folder up to ``/``; the auto memory of the *git root* of the launch folder
  (``projects/<every non-alphanumeric as '-'>/memory/MEMORY.md``, first 200 lines), and the topic
  files that index links to (read on demand, so reachable in that session).
- Codex (§1.11, developers.openai.com/codex/guides/agents-md): the first non-empty of
  ``$CODEX_HOME/AGENTS.override.md`` / ``AGENTS.md``, then per folder from the git root down to
  the launch folder the first non-empty of ``AGENTS.override.md`` / ``AGENTS.md``.
- Gemini CLI (§4.1, geminicli.com/docs/cli/gemini-md): the global ``~/.gemini/GEMINI.md`` and
  every ``GEMINI.md`` from the launch folder up to the project root.
- Hermes (§2, and ``build_context_files_prompt`` in hermes-agent's ``agent/prompt_builder.py``):
  the profile's ``memories/USER.md`` and ``memories/MEMORY.md`` in every session, plus ONE kind
  of project context, the first found: the nearest ``.hermes.md`` / ``HERMES.md`` up to the git
  root; else per folder from the git root down to the launch folder the first non-empty of
  ``AGENTS.override.md`` / ``AGENTS.md`` / ``agents.md``; else ``CLAUDE.md`` of the launch
  folder; else its ``.cursorrules``.

``EVERY_SESSION`` lists, per agent, the files it loads whatever folder a session starts in.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["EVERY_SESSION", "loaded_text"]

EVERY_SESSION: dict[str, tuple[str, ...]] = {
    "claude-code": (".claude/CLAUDE.md", ".claude/rules"),
    "codex": (".codex/AGENTS.override.md", ".codex/AGENTS.md", ".codex/memories"),
    "gemini": (".gemini/GEMINI.md",),
    "hermes": (".hermes/memories", ".hermes/SOUL.md", ".hermes/AGENTS.md"),
}
"""Per agent, the files and folders under the home that it loads in every session, wherever it starts."""


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _git_root(cwd: Path) -> Path:
    for folder in (cwd, *cwd.parents):
        if (folder / ".git").exists():
            return folder
    return cwd


def _claude(home: Path, cwd: Path) -> str:
    config = home / ".claude"
    parts = [_read(config / "CLAUDE.md")]
    parts += [_read(p) for p in sorted((config / "rules").rglob("*.md"))] if (config / "rules").is_dir() else []
    for folder in (cwd, *cwd.parents):
        for name in ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"):
            parts.append(_read(folder / name))
        rules = folder / ".claude" / "rules"
        if rules.is_dir():
            parts += [_read(p) for p in sorted(rules.rglob("*.md"))]
    key = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(_git_root(cwd)))
    memory = config / "projects" / key / "memory"
    index = "\n".join(_read(memory / "MEMORY.md").split("\n")[:200])
    parts.append(index)
    for link in re.findall(r"\]\(([^)\s]+\.md)\)", index):
        parts.append(_read(memory / link))
    return "\n".join(parts)


def _first(folder: Path, names: tuple[str, ...]) -> str:
    """The first of ``names`` in ``folder`` with something in it ("" when none)."""
    return next((t for t in (_read(folder / n) for n in names) if t.strip()), "")


def _down_from_root(cwd: Path) -> list[Path]:
    """The folders from the git root down to ``cwd`` (``cwd`` alone outside a repository)."""
    root = _git_root(cwd)
    return list(reversed([cwd, *[p for p in cwd.parents if p.is_relative_to(root)]]))


def _codex(home: Path, cwd: Path) -> str:
    codex = home / ".codex"
    parts = [_first(codex, ("AGENTS.override.md", "AGENTS.md"))]
    parts += [_first(folder, ("AGENTS.override.md", "AGENTS.md")) for folder in _down_from_root(cwd)]
    return "\n".join(parts)


def _gemini(home: Path, cwd: Path) -> str:
    root = _git_root(cwd)
    chain = [cwd, *[p for p in cwd.parents if p.is_relative_to(root)]]
    return "\n".join([_read(home / ".gemini" / "GEMINI.md"), *(_read(f / "GEMINI.md") for f in chain)])


def _hermes_project(cwd: Path) -> str:
    has_root = any((f / ".git").exists() for f in (cwd, *cwd.parents))
    for folder in _down_from_root(cwd)[::-1] if has_root else [cwd]:
        found = next((f for f in (folder / ".hermes.md", folder / "HERMES.md") if f.is_file()), None)
        if found is not None:
            if _read(found).strip():
                return _read(found)
            break
    chain = "\n".join(_first(f, ("AGENTS.override.md", "AGENTS.md", "agents.md")) for f in _down_from_root(cwd))
    return chain if chain.strip() else (_first(cwd, ("CLAUDE.md", "claude.md")) or _read(cwd / ".cursorrules"))


def _hermes(home: Path, cwd: Path) -> str:
    memories = home / ".hermes" / "memories"
    return "\n".join([_read(memories / "USER.md"), _read(memories / "MEMORY.md"), _hermes_project(cwd)])


_LOADERS = {"claude-code": _claude, "codex": _codex, "gemini": _gemini, "hermes": _hermes}


def loaded_text(target: str, home: Path, cwd: Path) -> str:
    """Everything ``target`` puts in front of the model for a session launched in ``cwd``
    (harness homes at their defaults under ``home``)."""
    return _LOADERS[target](home, cwd)
