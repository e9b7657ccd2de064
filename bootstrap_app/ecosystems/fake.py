"""A small ecosystem shipped for tests, docs and notebooks: a made-up build tool called ``toy``.

Why ship a fake: the ecosystem contract (:mod:`.base`) is easiest to learn from a module with
nothing else in it, and the contract test needs one whose every answer is known. ``toy`` keeps
its tasks in ``toy.toml`` (``[tasks] check = "toy-lint src"``) and its language version in
``[toolchain] toy = ">= 2"``; ``toy test`` and ``toy build`` always exist. It is not in the
registry: tests add it to a view explicitly (or install it as a plugin, see ``test_ecosystems``).
"""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_toml

__all__ = ["FakeEcosystem"]


class FakeEcosystem(Ecosystem):
    name = "toy"
    label = "Toy"
    languages = ("Toy",)
    detect = ("toy.toml",)
    reads = ("toy.toml", ".toy-lint.toml")
    package_manager = "toy"
    describes = (("toy.toml", "toy.about"),)
    programs = frozenset({"toy", "toy-lint"})
    builtins = {"toy": frozenset({"test", "build", "install"})}
    tools = {"toy-lint": "lint", "toy test": "test"}
    manifests = ("toy.toml",)

    def targets(self, view: RepoView) -> list[Target]:
        tasks = load_toml(view.files.get("toy.toml", "")).get("tasks")
        return [Target(str(n), f"toy run {n}", str(body), view.cite("toy.toml", rf"^{re.escape(str(n))}\s*="))
                for n, body in (tasks.items() if isinstance(tasks, dict) else [])]

    def versions(self, view: RepoView) -> tuple[str, ...]:
        chain = load_toml(view.files.get("toy.toml", "")).get("toolchain")
        value = chain.get("toy") if isinstance(chain, dict) else None
        return (f"Toy {value}",) if isinstance(value, str) else ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return ("toy-lint",) if view.has(".toy-lint.toml") else ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"setup": "toy install", "test": "toy test", "build": "toy build"}
