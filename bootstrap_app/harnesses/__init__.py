"""Harness writers: one module per agent harness, behind the small interface in ``base``.

``get_harness(name)`` returns a writer for "claude-code", "codex", "hermes", "gemini" or
"markdown". Each writer's ``plan`` is pure (reads only) and ``apply`` is shared, atomic and
journaled; ``read`` turns the harness's files back into :class:`MemoryEntry` items.
"""

from __future__ import annotations

from bootstrap_app.errors import TargetNotFound

from .base import FileChange, Harness, Plan, WriteOptions, WriteOutcome
from .claude_code import ClaudeCodeHarness
from .codex import CodexHarness
from .gemini import GeminiHarness
from .hermes import HermesHarness
from .markdown_dir import MarkdownDirHarness

__all__ = ["HARNESSES", "FileChange", "Harness", "Plan", "WriteOptions", "WriteOutcome", "get_harness"]

HARNESSES: dict[str, type[Harness]] = {
    "claude-code": ClaudeCodeHarness,
    "codex": CodexHarness,
    "hermes": HermesHarness,
    "gemini": GeminiHarness,
    "markdown": MarkdownDirHarness,
}
_ALIASES = {"claude": "claude-code", "claude_code": "claude-code", "markdown-dir": "markdown",
            "markdown_dir": "markdown", "md": "markdown"}


def get_harness(name: str) -> Harness:
    """The writer for ``name`` (case-insensitive; a few aliases such as ``claude`` accepted)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in HARNESSES:
        raise TargetNotFound(f"unknown target {name!r}",
                             hint="choose one of: " + ", ".join(HARNESSES))
    return HARNESSES[key]()
