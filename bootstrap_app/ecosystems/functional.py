"""Haskell (cabal, stack) and OCaml (dune, opam): builtins, formatter configs, compiler versions."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView

__all__ = ["Haskell", "OCaml"]


class Haskell(Ecosystem):
    name = "haskell"
    label = "Haskell"
    languages = ("Haskell",)
    detect = ("*.cabal", "cabal.project", "stack.yaml", "package.yaml")
    reads = ("*.cabal", "cabal.project", "stack.yaml", "package.yaml", ".hlint.yaml", "fourmolu.yaml", ".ormolu",
             ".stylish-haskell.yaml")
    package_manager = "cabal"
    programs = frozenset({"cabal", "stack", "hlint", "ormolu", "fourmolu", "stylish-haskell"})
    builtins = {"cabal": frozenset({"build", "test", "run", "update", "haddock", "bench", "repl", "format"}),
                "stack": frozenset({"build", "test", "haddock", "bench"})}
    """``stack install`` / ``cabal install`` are left out: they copy the built executables into the
    user's ``~/.local/bin`` (an install into the system, like ``make install``), not a contributor's step."""
    tools = {"hlint": "lint", "ormolu": "format", "fourmolu": "format", "stylish-haskell": "format",
             "cabal test": "test", "stack test": "test", "cabal build": "build", "stack build": "build",
             "cabal haddock": "docs", "stack haddock": "docs"}
    manifests = ("*.cabal", "package.yaml", "cabal.project")
    _CONFIGS = (("hlint", ".hlint.yaml"), ("fourmolu", "fourmolu.yaml"), ("ormolu", ".ormolu"),
                ("stylish-haskell", ".stylish-haskell.yaml"))
    """Each tool's own config file at the root: its presence is the project choosing that tool."""

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] == "stack":
            return view.cite("stack.yaml") if len(argv) > 1 and argv[1] in self.builtins["stack"] else ""
        if argv and argv[0] == "hlint":
            return view.cite(".hlint.yaml")
        if argv and argv[0] == "fourmolu":
            return view.cite("fourmolu.yaml")
        if argv and argv[0] == "stylish-haskell":
            return view.cite(".stylish-haskell.yaml")
        return super().prove(argv, view)

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(tool for tool, path in self._CONFIGS if view.has(path))

    def versions(self, view: RepoView) -> tuple[str, ...]:
        out = []
        for path in view.matching("*.cabal"):
            if m := re.search(r"^tested-with\s*:\s*(.+)$", view.files.get(path, ""), re.M | re.I):
                out.append("tested with " + " ".join(m.group(1).split())[:60])
                break
        if m := re.search(r"^(?:resolver|snapshot)\s*:\s*(\S{1,30})", view.files.get("stack.yaml", ""), re.M):
            out.append(f"stack {m.group(1)}")
        return tuple(out)

    def defaults(self, view: RepoView) -> dict[str, str]:
        if view.has("*.cabal") or view.has("cabal.project"):
            out = {"build": "cabal build all", "test": "cabal test all"}
        else:
            out = {"build": "stack build", "test": "stack test"}
        if view.has(".stylish-haskell.yaml"):  # stylish-haskell's own config: it formats in place, tree-wide
            out["format"] = "stylish-haskell --inplace --recursive ."
        return out


class OCaml(Ecosystem):
    name = "ocaml"
    label = "OCaml"
    languages = ("OCaml",)
    detect = ("dune-project", "*.opam")
    reads = ("dune-project", "*.opam", ".ocamlformat")
    package_manager = "opam"
    programs = frozenset({"dune", "opam", "ocamlformat"})
    builtins = {"dune": frozenset({"build", "test", "runtest", "fmt", "clean", "exec", "doc"}),
                "opam": frozenset({"install", "switch", "exec", "pin"})}
    tools = {"ocamlformat": "format", "dune fmt": "format", "dune test": "test", "dune runtest": "test"}
    manifests = ("*.opam", "dune-project")

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv[:1] == ["dune"] and (argv[1:2] == ["fmt"] or argv[1:3] == ["build", "@fmt"]):
            return view.cite(".ocamlformat") or view.cite("dune-project")
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        out = []
        for path in view.matching("*.opam"):
            if m := re.search(r'"ocaml"\s*\{\s*([^}]{1,30})\}', view.files.get(path, "")):
                out.append("OCaml " + " ".join(m.group(1).replace('"', "").split()))
                break
        if m := re.search(r"\(lang dune ([\d.]+)\)", view.files.get("dune-project", "")):
            out.append(f"dune {m.group(1)}")
        return tuple(out)

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return ("ocamlformat",) if view.has(".ocamlformat") else ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"setup": "opam install . --deps-only --with-test", "build": "dune build", "test": "dune test"}
        if view.has(".ocamlformat"):
            out["format"] = "dune fmt"
        return out
