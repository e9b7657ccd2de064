"""Task runners any ecosystem may use: Make, just, Task, and the scripts a repository keeps in its tree."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_yaml
from .syntax import make_rules, make_variables

__all__ = ["Just", "Make", "Nix", "PreCommit", "Scripts", "TaskRunner", "taskfile_tasks"]

_SCRIPT_SUFFIXES = frozenset({"", "sh", "bash", "py", "ps1", "cmd", "bat", "pl", "rb", "zsh"})
"""What a script run by its path looks like (a ``.md`` or a ``.test.ts`` file named in a doc is not a command)."""


class Make(Ecosystem):
    name = "make"
    label = "Make"
    detect = ("Makefile", "makefile", "GNUmakefile")
    reads = ("Makefile", "makefile", "GNUmakefile")
    programs = frozenset({"make", "gmake"})

    def targets(self, view: RepoView) -> list[Target]:
        """Every named target of the Makefile's rules, read by Make's grammar (:func:`syntax.make_rules`)."""
        path, text = next(((p, view.files[p]) for p in self.detect if p in view.files), ("", ""))
        return [Target(t, f"make {t}", rule.recipe, f"{path}:{rule.line}") for rule in make_rules(text) if text
                for t in rule.targets if t[0].isalnum() and "$" not in t]

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] not in self.programs:
            return ""
        names = [a for a in argv[1:] if not a.startswith("-") and "=" not in a]
        known = {t.name: t.where for t in self.targets(view)}
        if not names:  # the default goal: `.DEFAULT_GOAL := x`, else the first target
            text = next((view.files[p] for p in self.detect if p in view.files), "")
            goal = make_variables(text).get(".DEFAULT_GOAL", "") if text else ""
            return known.get(goal, "") if goal else next(iter(known.values()), "")
        return known[names[0]] if all(n in known for n in names) else ""


class Just(Ecosystem):
    """``just`` recipes. No grammar for justfiles is published as a Python wheel (the tree-sitter one
    is not packaged), so a recipe header is matched by one small pattern: a name at the start of a
    line, its parameters, then ``:``."""

    name = "just"
    label = "just"
    detect = ("justfile", "Justfile", ".justfile")
    reads = detect
    programs = frozenset({"just"})

    def targets(self, view: RepoView) -> list[Target]:
        path, text = next(((p, view.files[p]) for p in self.detect if p in view.files), ("", ""))
        return [Target(m.group(1), f"just {m.group(1)}", "", f"{path}:{text.count(chr(10), 0, m.start()) + 1}")
                for m in re.finditer(r"^@?([A-Za-z_][\w-]*)(?:\s+[^:\n=]*)?:(?!=)", text, re.M)]


_TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml")


def _included(ref: object, files: dict[str, str]) -> str:
    """The tracked Taskfile an ``includes:`` entry names (a file, or a folder holding one), else ``""``."""
    spec = ref.get("taskfile") if isinstance(ref, dict) else ref
    if not isinstance(spec, str) or "://" in spec or "{{" in spec or spec.startswith(("/", "~")):
        return ""
    path = spec.removeprefix("./").rstrip("/")
    if ".." in path.split("/"):
        return ""
    if path.endswith((".yml", ".yaml")):
        return path if path in files else ""
    return next((f"{path}/{n}" for n in _TASKFILES if f"{path}/{n}" in files), "")


def taskfile_tasks(files: dict[str, str]) -> list[tuple[str, object, str]]:
    """(the name ``task`` is called with, the task's spec, the Taskfile declaring it) for every task of
    the root Taskfile and of the Taskfiles its ``includes:`` name, read by the YAML parser. An
    included task is called by its namespace (``website:build``); an included ``default`` task also
    by the namespace alone (``task website``)."""
    root = next((p for p in _TASKFILES if p in files), "")
    data = load_yaml(files.get(root, "")) if root else None
    if not isinstance(data, dict):
        return []
    out: list[tuple[str, object, str]] = []
    tasks = data.get("tasks")
    out += [(str(n), spec, root) for n, spec in (tasks.items() if isinstance(tasks, dict) else ())]
    includes = data.get("includes")
    for ns, ref in (includes.items() if isinstance(includes, dict) else ()):
        path = _included(ref, files)
        inner = load_yaml(files.get(path, "")) if path else None
        inner_tasks = inner.get("tasks") if isinstance(inner, dict) else None
        for n, spec in (inner_tasks.items() if isinstance(inner_tasks, dict) else ()):
            out.append((f"{ns}:{n}", spec, path))
            if n == "default":
                out.append((str(ns), spec, path))
    return out


class TaskRunner(Ecosystem):
    name = "task"
    label = "Task"
    detect = _TASKFILES
    reads = (*_TASKFILES, *(f"*/{n}" for n in _TASKFILES))  # an included Taskfile one folder down
    programs = frozenset({"task"})

    def targets(self, view: RepoView) -> list[Target]:
        return [Target(n, f"task {n}", "", view.cite(path, rf"^\s+{re.escape(n.rsplit(':', 1)[-1] if ':' in n else n)}\s*:")
                       or view.cite(path, r"^\s+default\s*:"))
                for n, _spec, path in taskfile_tasks(view.files)]


class Scripts(Ecosystem):
    """A script tracked in the repository, run by its path (``./build.sh``, ``scripts/test``)."""

    name = "scripts"
    label = "scripts"

    def detected(self, view: RepoView) -> bool:
        return True

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv:
            return ""
        first = argv[1] if argv[0] in ("bash", "sh") and len(argv) > 1 else argv[0]
        path = first.removeprefix("./")
        suffix = path.rsplit("/", 1)[-1].rpartition(".")[2] if "." in path.rsplit("/", 1)[-1] else ""
        if ("/" in first or first.startswith("./")) and ".." not in path.split("/") and path in view.listed \
                and suffix in _SCRIPT_SUFFIXES:
            return f"{path}:1"
        return ""


class PreCommit(Ecosystem):
    """pre-commit (or prek) hooks: whatever the language, ``pre-commit run`` runs the configured hooks."""

    name = "pre-commit"
    label = "pre-commit"
    detect = (".pre-commit-config.yaml", ".pre-commit-config.yml")
    reads = detect
    programs = frozenset({"pre-commit", "prek"})
    builtins = {"pre-commit": frozenset({"run", "install"}), "prek": frozenset({"run", "install"})}
    tools = {"pre-commit": "lint", "prek": "lint"}

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"lint": "pre-commit run --all-files"}


class Nix(Ecosystem):
    """Nix flakes and shells: ``nix run .#format`` runs an app the flake declares."""

    name = "nix"
    label = "Nix"
    detect = ("flake.nix", "default.nix", "shell.nix", "devenv.nix")
    reads = detect
    package_manager = "nix"
    programs = frozenset({"nix", "nix-shell", "nix-build"})
    builtins = {"nix": frozenset({"develop", "flake", "fmt"}), "nix-shell": frozenset({""}), "nix-build": frozenset({""})}

    def prove(self, argv: list[str], view: RepoView) -> str:
        if len(argv) >= 2 and argv[0] in PreCommit.programs and argv[1] in ("run", "install"):
            return self.hooks(view)
        if len(argv) >= 3 and argv[0] == "nix" and argv[1] in ("run", "build", "develop") and argv[2].startswith(".#"):
            attr = argv[2][2:].split(".")[-1]
            return view.cite("flake.nix", rf"(?<![\w-]){re.escape(attr)}(?![\w-])") if attr else ""
        return super().prove(argv, view)

    def hooks(self, view: RepoView) -> str:
        """``file:line`` where a Nix file wires pre-commit hooks (cachix's git-hooks.nix, formerly
        pre-commit-hooks.nix, also devenv's ``git-hooks.hooks`` / ``pre-commit.hooks``): its shell hook writes ``.pre-commit-config.yaml`` on entering the
        shell, so the repository tracks no config and ``pre-commit run`` is still the project's."""
        rx = r"(?<![\w-])(?:git-hooks|pre-commit-hooks)(?:\.nix)?(?![\w-])|^\s*pre-commit\.hooks\b"  # devenv's option
        return next((w for p in self.detect if (w := view.cite(p, rx))), "")
