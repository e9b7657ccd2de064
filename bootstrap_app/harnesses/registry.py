"""The one list of harnesses. Adding a harness = its module + one line in ``HARNESS_CLASSES``.

Everything that names harnesses derives from this tuple: ``memseed write --target`` and
``memseed doctor --target`` choices, the URI lines of ``memseed sources``, the app's target
list and labels, the harness folders the Sources page offers, the budget meters, and the
``harness_memory`` connectors. The order is the order the app and the CLI show them in.
"""

from __future__ import annotations

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.plugins import load_plugins

from .base import Harness
from .claude_code import ClaudeCodeHarness
from .codex import CodexHarness
from .gemini import GeminiHarness
from .hermes import HermesHarness
from .markdown_dir import MarkdownDirHarness

__all__ = ["HARNESSES", "HARNESS_CLASSES", "PLUGIN_PROBLEMS", "get_harness", "harness_class", "labels"]

_PLUGINS, PLUGIN_PROBLEMS = load_plugins("memseed.harnesses", Harness)
"""Harnesses installed packages declare (entry point group ``memseed.harnesses``), and why others were skipped."""

_BUILT_IN: tuple[type[Harness], ...] = (
    ClaudeCodeHarness,
    CodexHarness,
    HermesHarness,
    GeminiHarness,
    MarkdownDirHarness,
)
HARNESS_CLASSES: tuple[type[Harness], ...] = (
    *_BUILT_IN, *(p for p in _PLUGINS if p.name not in {cls.name for cls in _BUILT_IN}))

HARNESSES: dict[str, type[Harness]] = {cls.name: cls for cls in HARNESS_CLASSES}
"""name -> class, in registry order."""


def harness_class(name: str) -> type[Harness]:
    """The class for ``name`` or one of its aliases (case-insensitive, ``_`` = ``-``)."""
    key = name.strip().lower()
    for cls in HARNESS_CLASSES:
        if key in (cls.name, cls.name.replace("-", "_"), *cls.aliases):
            return cls
    raise TargetNotFound(f"unknown target {name!r}", hint="choose one of: " + ", ".join(HARNESSES))


def get_harness(name: str) -> Harness:
    """A writer for ``name`` (see :func:`harness_class`)."""
    return harness_class(name)()


def labels() -> dict[str, str]:
    """name -> display label, in registry order (the app's target list)."""
    return {cls.name: cls.label for cls in HARNESS_CLASSES}
