"""What each agent loads when a session starts in a folder: an oracle written from the harnesses' docs.

Why its own module and none of memseed's code: a test of *where memseed writes* is only worth
something if the reading side is independent. Each function follows the loading rule of the
reference (``shared/reference/harness-formats.md``), not the writer:

- Claude Code (§3.1, §3.2, §3.4): the user-level ``CLAUDE.md`` and ``rules/*.md`` of the config
  home; every ``CLAUDE.md`` / ``.claude/CLAUDE.md`` / ``CLAUDE.local.md`` / ``.claude/rules/*.md``
  from the launch folder up to ``/``; the auto memory of the *git root* of the launch folder
  (``projects/<every non-alphanumeric as '-'>/memory/MEMORY.md``, first 200 lines), and the topic
  files that index links to (read on demand, so reachable in that session).
- Codex (§1.11): the first non-empty of ``$CODEX_HOME/AGENTS.override.md`` / ``AGENTS.md``, then
  the project's ``AGENTS.md`` files from its git root down to the launch folder.
- Gemini CLI (§4.1): the global ``~/.gemini/GEMINI.md`` and every ``GEMINI.md`` from the launch
  folder up to the project root.
- Hermes (§2): the profile's ``memories/USER.md`` and ``memories/MEMORY.md``, in every session.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["loaded_text"]


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


def _codex(home: Path, cwd: Path) -> str:
    codex = home / ".codex"
    parts = [next((t for t in (_read(codex / "AGENTS.override.md"), _read(codex / "AGENTS.md")) if t.strip()), "")]
    root = _git_root(cwd)
    chain = [cwd, *[p for p in cwd.parents if p.is_relative_to(root)]]
    parts += [_read(folder / "AGENTS.md") for folder in reversed(chain)]
    return "\n".join(parts)


def _gemini(home: Path, cwd: Path) -> str:
    root = _git_root(cwd)
    chain = [cwd, *[p for p in cwd.parents if p.is_relative_to(root)]]
    return "\n".join([_read(home / ".gemini" / "GEMINI.md"), *(_read(f / "GEMINI.md") for f in chain)])


def _hermes(home: Path, cwd: Path) -> str:
    memories = home / ".hermes" / "memories"
    return _read(memories / "USER.md") + "\n" + _read(memories / "MEMORY.md")


_LOADERS = {"claude-code": _claude, "codex": _codex, "gemini": _gemini, "hermes": _hermes}


def loaded_text(target: str, home: Path, cwd: Path) -> str:
    """Everything ``target`` puts in front of the model for a session launched in ``cwd``
    (harness homes at their defaults under ``home``)."""
    return _LOADERS[target](home, cwd)
