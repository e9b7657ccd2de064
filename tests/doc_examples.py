"""Load the worked examples of docs/extending.md as modules, so the tests run the docs' own code."""

from __future__ import annotations

import sys
import types
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def load_example(heading: str) -> types.ModuleType:
    """The first ``python`` block under ``## <heading>`` in docs/extending.md, executed as a module."""
    text = DOC.read_text(encoding="utf-8")
    marker = f"\n## {heading}\n"
    assert marker in text, f"docs/extending.md has no section {heading!r}"
    section = text.split(marker, 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    module = types.ModuleType("doc_example_" + heading.lower().replace(" ", "_"))
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(code, str(DOC), "exec"), module.__dict__)
    return module
