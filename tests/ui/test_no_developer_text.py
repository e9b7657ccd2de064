"""No page shows developer text: Streamlit's "magic" turns any bare expression in a page script
(a string under an assignment, a leftover variable) into ``st.write`` — the Review page once
showed a docstring to the person. Checked with Streamlit's own magic transform on every page."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.runtime.scriptrunner.magic import add_magic

import bootstrap_app.ui

UI = Path(bootstrap_app.ui.__file__).parent
PAGES = sorted([UI / "app.py", *(UI / "views").glob("*.py")])


def _magic_writes(path: Path) -> list[int]:
    tree = add_magic(path.read_text(encoding="utf-8"), str(path))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "transparent_write"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_page_has_no_magic_output(page: Path) -> None:
    assert _magic_writes(page) == [], f"{page.name}: a bare expression would be shown to the person"


def test_the_check_catches_a_stray_string(tmp_path: Path) -> None:
    page = tmp_path / "page.py"
    page.write_text('"""Docstring."""\nx = 1\n"""the :mod:`x` call"""\n', encoding="utf-8")
    assert _magic_writes(page) == [3]
