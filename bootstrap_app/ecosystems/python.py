"""Python: uv/poetry/pdm/hatch/pip, tox envs, nox sessions, pdm/poe scripts, tools in the manifest."""

from __future__ import annotations

import ast
import configparser
import re

from .base import Ecosystem, RepoView, Target, load_toml

__all__ = ["Python"]

_RUNNERS = {"uv": "run", "poetry": "run", "pdm": "run", "hatch": "run", "pipenv": "run"}


class Python(Ecosystem):
    name = "python"
    label = "Python"
    languages = ("Python",)
    detect = ("pyproject.toml", "setup.py", "setup.cfg", "requirements*.txt", "tox.ini", "noxfile.py")
    reads = ("pyproject.toml", "setup.cfg", "setup.py", "requirements*.txt", "tox.ini", "noxfile.py",
             "requirements/*.txt")
    package_manager = "pip"
    describes = (("pyproject.toml", "project.description"), ("pyproject.toml", "tool.poetry.description"))
    programs = frozenset({"python", "python3", "pip", "uv", "uvx", "poetry", "pdm", "hatch", "tox", "nox", "pytest",
                          "ruff", "mypy", "pyright", "black", "isort", "flake8", "pylint", "pre-commit", "prek", "pipenv",
                          "coverage", "towncrier", "mkdocs", "sphinx-build"})
    builtins = {"uv": frozenset({"sync", "build", "lock"}), "poetry": frozenset({"install", "build", "lock"}),
                "pdm": frozenset({"install", "sync", "build", "lock"}), "hatch": frozenset({"build", "test", "fmt"}),
                "tox": frozenset({""}), "pip": frozenset({"install"})}
    tools = {"pytest": "test", "ruff": "lint", "mypy": "typecheck", "pyright": "typecheck", "black": "format",
             "isort": "format", "flake8": "lint", "pylint": "lint", "pre-commit": "lint", "prek": "lint",
             "coverage": "test", "towncrier": "release", "mkdocs": "build", "sphinx-build": "build", "nox": "test"}
    manifests = ("pyproject.toml", "setup.cfg", "requirements*.txt", "requirements/*.txt", "tox.ini",
                 ".pre-commit-config.yaml")

    def targets(self, view: RepoView) -> list[Target]:
        out: list[Target] = []
        tool = load_toml(view.files.get("pyproject.toml", "")).get("tool", {})
        for table, prefix in (("pdm", "pdm run"), ("poe", "poe")):
            section = tool.get(table, {}) if isinstance(tool, dict) else {}
            scripts = section.get("scripts" if table == "pdm" else "tasks", {}) if isinstance(section, dict) else {}
            for name, spec in scripts.items() if isinstance(scripts, dict) else []:
                where = view.cite("pyproject.toml", rf"^\s*{re.escape(str(name))}\s*=|^\[tool\.{table}\.\w+\.{re.escape(str(name))}\]")
                out.append(Target(str(name), f"{prefix} {name}", str(spec), where))
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(view.files.get("tox.ini", ""))
        except configparser.Error:
            parser = configparser.ConfigParser()
        for section in parser.sections():
            if section.startswith("testenv:"):
                env = section.split(":", 1)[1]
                out.append(Target(env, f"tox -e {env}", parser.get(section, "commands", fallback=""),
                                  view.cite("tox.ini", rf"^\[{re.escape(section)}\]")))
        try:
            tree = ast.parse(view.files.get("noxfile.py", ""))
        except (SyntaxError, ValueError):
            tree = ast.parse("")
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any("session" in ast.unparse(d) for d in node.decorator_list):
                out.append(Target(node.name, f"nox -s {node.name}", "", f"noxfile.py:{node.lineno}"))
        return out

    def needs(self, argv: list[str]) -> tuple[str, ...]:
        """``uv sync --locked``/``--frozen``, ``pdm sync`` and ``pdm install --frozen-lockfile`` install the lockfile as it is."""
        if argv[:2] == ["uv", "sync"] and {"--locked", "--frozen"} & set(argv):
            return ("uv.lock",)
        if argv[:2] == ["pdm", "sync"] or (argv[:2] == ["pdm", "install"] and "--frozen-lockfile" in argv):
            return ("pdm.lock",)
        return ()

    def prove(self, argv: list[str], view: RepoView) -> str:
        if len(argv) >= 3 and _RUNNERS.get(argv[0]) == argv[1]:
            own = next((t.where for t in self.targets(view) if t.command == " ".join(argv[:3])), "")
            return own or self.prove(argv[2:], view)
        if len(argv) >= 3 and argv[0] in ("python", "python3") and argv[1] == "-m":
            return self.prove(argv[2:], view) if argv[2] != "pip" else self.cite_manifest(view)
        if argv[:1] == ["tox"] and len(argv) >= 3 and argv[1] == "-e":
            envs = {t.name: t.where for t in self.targets(view) if t.command.startswith("tox -e")}
            return envs.get(argv[2], "") if "," not in argv[2] else ""
        if argv[:1] == ["nox"]:
            return view.cite("noxfile.py")
        if argv[:1] == ["uvx"] and len(argv) > 1:
            return self.declares(argv[1], view)
        if argv and argv[0] in ("pre-commit", "prek"):
            return view.cite(".pre-commit-config.yaml") or self.declares(argv[0], view)
        if argv and argv[0] in self.tools:
            return self.declares(argv[0], view) or view.cite("pyproject.toml", rf"^\[tool\.{re.escape(argv[0])}\b")
        return super().prove(argv, view)

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {}
