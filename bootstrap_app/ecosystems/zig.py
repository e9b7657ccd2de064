"""Zig packages: ``build.zig`` (its named steps are the project's tasks) and ``build.zig.zon``.

A Zig project has no task runner beside its build script: every task a contributor runs is a
*step* the script declares with ``b.step("name", "description")`` and runs as ``zig build
name`` — ``zig build test`` exists only when the script declares a ``test`` step, so the steps
are read rather than assumed. ``build.zig.zon`` is the package manifest: its
``.minimum_zig_version`` is the toolchain floor and its ``.dependencies`` the packages it pulls.
"""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target

__all__ = ["Zig"]

_STEP = re.compile(r"""\bb\.step\(\s*"([\w.:-]+)"\s*,\s*"([^"\n]*)\"""")
_MIN_VERSION = re.compile(r"""\.minimum_zig_version\s*=\s*"(\d+\.\d+(?:\.\d+)?[\w.+-]*)\"""")


class Zig(Ecosystem):
    name = "zig"
    label = "Zig"
    languages = ("Zig",)
    detect = ("build.zig", "build.zig.zon")
    reads = ("build.zig", "build.zig.zon")
    package_manager = "zig"
    programs = frozenset({"zig"})
    # `zig build` alone runs the default install step; its named steps are targets (below)
    builtins = {"zig": frozenset({"fmt", "fetch", "test", "version", "env"})}
    tools = {"zig fmt": "format", "zig test": "test"}

    def targets(self, view: RepoView) -> list[Target]:
        text = view.files.get("build.zig", "")
        out: list[Target] = [Target(name="build", command="zig build", body="the default install step",
                                    where="build.zig:1")] if text else []
        for m in _STEP.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(Target(name=m.group(1), command=f"zig build {m.group(1)}", body=m.group(2),
                              where=f"build.zig:{line}"))
        return out

    def prove(self, argv: list[str], view: RepoView) -> str:
        """``zig build STEP`` is proven by the line declaring STEP (its flags may follow), never by
        the bare ``zig build`` target; any other step name is not this project's."""
        if argv[:2] == ["zig", "build"]:
            step = next((a for a in argv[2:] if not a.startswith("-")), "build")
            return next((t.where for t in self.targets(view) if t.name == step), "")
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := _MIN_VERSION.search(view.files.get("build.zig.zon", "")):
            return (f"Zig >= {m.group(1)}",)
        return ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        steps = {t.name for t in self.targets(view)}
        out = {"build": "zig build"} if "build" in steps else {}
        if "test" in steps:
            out["test"] = "zig build test"
        return out
