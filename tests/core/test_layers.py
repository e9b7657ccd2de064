"""Every module of bootstrap_app has a place in the import-linter layers (a new module must pick one)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_top_level_module_is_in_a_layer() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    placed = {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}
    package = ROOT / "bootstrap_app"
    modules = {f"bootstrap_app.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {f"bootstrap_app.{p.name}" for p in package.iterdir() if (p / "__init__.py").is_file()}
    missing = sorted(modules - placed)
    assert missing == [], f"add these to a layer in pyproject.toml [tool.importlinter]: {missing}"
    assert "connectors" in placed


def test_no_function_level_imports_of_memseed_modules() -> None:
    """An import inside a function that names memseed's own code is how a cycle gets hidden; the
    layers make every such import possible at the top. (Optional third-party libraries, imported
    where they are needed, are fine.)"""
    found = []
    for path in (*ROOT.joinpath("bootstrap_app").rglob("*.py"), *ROOT.joinpath("connectors").rglob("*.py")):
        finder = _InnerImports()
        finder.visit(ast.parse(path.read_text(encoding="utf-8")))
        found += [f"{path.relative_to(ROOT)}:{line}" for line in finder.lines]
    assert found == [], f"function-level imports of memseed modules: {found}"


class _InnerImports(ast.NodeVisitor):
    """Line numbers of imports of memseed's own modules inside a function body."""

    def __init__(self) -> None:
        self.depth = 0
        self.lines: list[int] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _check(self, node: ast.Import | ast.ImportFrom, names: list[str]) -> None:
        if self.depth and any(n == "." or n.split(".")[0] in ("bootstrap_app", "connectors", "prompts") for n in names):
            self.lines.append(node.lineno)

    def visit_Import(self, node: ast.Import) -> None:
        self._check(node, [alias.name for alias in node.names])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._check(node, [node.module or ""] if node.level == 0 else ["."])
