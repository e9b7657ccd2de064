"""Ecosystems: one module per language or build system behind one contract (see :mod:`.base`).

Sits below both the git source (which reads the files an ecosystem names) and the repository
signals (which ask the ecosystems for tasks, versions, defaults and proofs of commands).
"""

from .base import Ecosystem, RepoView, Target
from .registry import ECOSYSTEM_CLASSES, ENTRY_POINT_GROUP, detected, ecosystems, plugin_problems, read_globs

__all__ = ["ECOSYSTEM_CLASSES", "ENTRY_POINT_GROUP", "Ecosystem", "RepoView", "Target", "detected", "ecosystems",
           "plugin_problems", "read_globs"]
