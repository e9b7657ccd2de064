"""Harnesses: one class per agent harness, the contract in ``base``, the list in ``registry``.

``get_harness(name)`` returns the harness for "claude-code", "codex", "hermes", "gemini" or
"markdown" (or an alias). Each class says where its memory lives, reads it, plans a write
(pure: bytes and a diff), reports capacity and audits a folder (``doctor``); ``apply`` and
``undo`` are shared, atomic and journaled. ``fake.FakeHarness`` is an in-memory harness for
tests and docs; it is not in the registry.
"""

from __future__ import annotations

from .base import Capacity, FileChange, Harness, LocalMemory, Plan, WriteOptions, WriteOutcome
from .registry import HARNESS_CLASSES, HARNESSES, get_harness, harness_class, labels

__all__ = [
    "HARNESSES",
    "HARNESS_CLASSES",
    "Capacity",
    "FileChange",
    "Harness",
    "LocalMemory",
    "Plan",
    "WriteOptions",
    "WriteOutcome",
    "get_harness",
    "harness_class",
    "labels",
]
