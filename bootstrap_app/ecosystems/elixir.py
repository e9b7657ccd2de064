"""Elixir: mix tasks and aliases, ``.formatter.exs``, Credo, Dialyxir, the ``elixir:`` requirement."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target
from .buildscripts import mix_aliases

__all__ = ["Elixir"]

_MIX_BUILTINS = frozenset({"test", "compile", "deps.get", "deps.compile", "deps.update", "format", "run", "docs",
                           "hex.publish", "clean", "", "xref", "release", "deps.unlock", "help", "escript.build"})
_DEP_TASKS = {"credo": "credo", "dialyzer": "dialyxir", "docs": "ex_doc", "coveralls": "excoveralls",
              "sobelow": "sobelow"}


class Elixir(Ecosystem):
    name = "elixir"
    label = "Elixir"
    languages = ("Elixir",)
    detect = ("mix.exs",)
    reads = ("mix.exs", ".formatter.exs", ".credo.exs", ".tool-versions")
    package_manager = "mix"
    describes = (("mix.exs", "description"),)
    programs = frozenset({"mix", "iex", "elixir"})
    tools = {"credo": "lint", "dialyzer": "typecheck", "mix format": "format", "mix test": "test",
             "excoveralls": "test", "sobelow": "lint"}
    manifests = ("mix.exs",)

    def targets(self, view: RepoView) -> list[Target]:
        """The aliases ``mix.exs`` defines, read by the Elixir grammar (:func:`syntax.mix_aliases`)."""
        return [Target(name, f"mix {name}", body, f"mix.exs:{line}")
                for name, body, line in mix_aliases(view.files.get("mix.exs", ""))]

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] != "mix" or not view.has("mix.exs"):
            return super().prove(argv, view)
        task = argv[1] if len(argv) > 1 else ""
        aliases = {t.name: t.where for t in self.targets(view)}
        if task in aliases:
            return aliases[task]
        if task in _DEP_TASKS and task != "docs":
            return self.declares(_DEP_TASKS[task], view)
        if task == "format":
            return view.cite(".formatter.exs") or view.cite("mix.exs")
        return view.cite("mix.exs") if task in _MIX_BUILTINS else ""

    def declares(self, tool: str, view: RepoView) -> str:
        """A dependency is a ``{:name, …}`` tuple in ``mix.exs`` (not any mention of the word)."""
        return view.cite("mix.exs", rf"\{{\s*:{re.escape(tool)}\s*,") if re.fullmatch(r"\w+", tool) else ""

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := re.search(r'\belixir:\s*"([^"]{1,20})"', view.files.get("mix.exs", "")):
            return (f"Elixir {m.group(1)}",)
        if m := re.search(r"^elixir\s+(\S{1,20})", view.files.get(".tool-versions", ""), re.M):
            return (f"Elixir {m.group(1)}",)
        return ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        out = ["mix format"] if view.has(".formatter.exs") else []
        # ex_doc is the docs generator a package declares to publish its HexDocs: the project documents with it
        out += [t for t, dep in (("credo", "credo"), ("dialyzer", "dialyxir"), ("ex_doc", "ex_doc"))
                if self.declares(dep, view)]
        return tuple(out)

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"setup": "mix deps.get", "test": "mix test", "build": "mix compile"}
        if view.has(".formatter.exs"):
            out["format"] = "mix format"
        if self.declares("credo", view):
            out["lint"] = "mix credo"
        return out
