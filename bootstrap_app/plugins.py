"""Third-party extensions from package entry points (``importlib.metadata``).

Why entry points: someone can add an ecosystem, a source or a harness by installing a package
that declares one (``[project.entry-points."memseed.harnesses"]``), without forking memseed —
the way simonw/llm loads model plugins. Each registry calls :func:`load_plugins` with its group
and base class; what fails to import or is not a subclass is skipped with its reason, never
raised, so a broken plugin cannot stop a scan or a write.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TypeVar

__all__ = ["load_plugins"]

T = TypeVar("T")


def load_plugins(group: str, base: type[T]) -> tuple[tuple[type[T], ...], tuple[str, ...]]:
    """(the classes the ``group`` entry points name, why each other one was skipped)."""
    found: list[type[T]] = []
    problems: list[str] = []
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:
            problems.append(f"{group}:{ep.name}: failed to load ({type(exc).__name__}: {exc})")
            continue
        if isinstance(obj, type) and issubclass(obj, base) and obj is not base:
            found.append(obj)
        else:
            problems.append(f"{group}:{ep.name}: {ep.value} is not a {base.__name__} subclass")
    return tuple(found), tuple(problems)
