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


def _module_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (anywhere in the file, ``TYPE_CHECKING`` blocks and
    ``importlib.import_module("…")`` by name too: a cycle hidden there is still a cycle a reader
    has to untangle)."""
    modules: dict[str, tuple[Path, bool]] = {}
    for top in ("bootstrap_app", "connectors"):
        for path in ROOT.joinpath(top).rglob("*.py"):
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            is_package = dotted.endswith(".__init__")
            modules[dotted.removesuffix(".__init__")] = (path, is_package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "import_module" and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                targets = [node.args[0].value]  # importlib.import_module("bootstrap_app..."): an import too
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_between_the_projects_modules() -> None:
    graph = _module_graph()
    assert len(graph) > 200 and graph["connectors.local.mbox"], "the graph did not see the project"
    assert "bootstrap_app.memory.hooks" in graph["bootstrap_app.hookcheck"], "import_module edges are not seen"
    assert _cycles(graph) == [], "import cycles (a module above imports one that imports it back)"


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_of_a_layered_package_is_in_one_of_its_layers() -> None:
    """identity/, cache/, report/ and memory/ order their own modules: a new one must pick a place."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    containers = [c for c in config["contracts"] if c["type"] == "layers" and c.get("containers")]
    assert {c["containers"][0] for c in containers} >= {"bootstrap_app.identity", "bootstrap_app.cache",
                                                          "bootstrap_app.report", "bootstrap_app.memory"}
    for contract in containers:
        (container,) = contract["containers"]
        placed = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
        folder = ROOT.joinpath(*container.split("."))
        modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        assert modules - placed == set(), f"{container}: add these to its layers in pyproject.toml"
