"""Ecosystems known by their package manifest alone: Lua rocks, R packages, Erlang (rebar3),
Julia, Perl distributions, Crystal shards, Nim packages and Bazel modules.

None of them has a task runner memseed reads; what a contributor runs is written in the docs
(``luarocks make``, ``crystal spec``, ``rebar3 eunit``, ``nimble test``), and what this module
adds is what proves such a command and what the manifest states:

* **proof** — a builtin subcommand of the ecosystem's own tool, proven by the manifest
  (``rebar3 eunit`` by ``rebar.config``); a tool its config dotfile configures (``luacheck`` by
  ``.luacheckrc``); or a program of the ecosystem whose every path argument is a tracked file or
  folder (``busted spec``, ``prove -l t``): the command is proven against the files it names;
* **versions** — the language floor the manifest declares: a rockspec's ``lua >= 5.1``
  dependency, ``Depends: R (>= 4.1)``, ``{minimum_otp_vsn, "26"}``, ``[compat] julia``, a
  distribution's ``perl`` prerequisite or ``use 5.016``, a shard's ``crystal:``, a nimble's
  ``requires "nim >= …"``, ``.bazelversion``.

No defaults: an ecosystem's usual command is never proposed unless the docs or CI say it.
The manifests are read with small patterns: rockspecs, NimScript and Perl's ``Makefile.PL`` are
programs (Lua, Nim, Perl) no published Python parser reads, ``DESCRIPTION`` is a Debian-control
file; TOML and YAML manifests are parsed.
"""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_toml, load_yaml

__all__ = ["Bazel", "Crystal", "Erlang", "Julia", "Lua", "Nim", "Perl", "R"]


def _tracked(arg: str, view: RepoView) -> bool:
    """``arg`` names a tracked file or a folder holding tracked files."""
    path = arg.rstrip("/").removeprefix("./")
    return bool(path) and path not in (".", "..") and (path in view.listed or any(
        p.startswith(path + "/") for p in view.listed))


class _ManifestEcosystem(Ecosystem):
    """The shared proof: builtins by the manifest, a dotfile-configured tool, or named files."""

    dotfiles: dict[str, tuple[str, ...]] = {}
    """tool -> config files whose presence configures it (``luacheck`` -> ``.luacheckrc``)."""

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or not self.detected(view):
            return ""
        if found := super().prove(argv, view):
            return found
        for config in self.dotfiles.get(argv[0], ()):
            if view.has(config):
                return view.cite(config)
        if argv[0] in self.programs and argv[0] != self.package_manager:  # `luarocks remove busted` names a rock
            paths = [a for a in argv[1:] if not a.startswith("-") and ("/" in a or "." in a or _tracked(a, view))]
            if paths and all(_tracked(a, view) for a in paths):
                return view.cite(next(p for p in view.listed if p == paths[0].rstrip("/").removeprefix("./")
                                      or p.startswith(paths[0].rstrip("/").removeprefix("./") + "/")))
        return ""

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(tool for tool, configs in self.dotfiles.items() if any(view.has(c) for c in configs))


class Lua(_ManifestEcosystem):
    name = "lua"
    label = "Lua (LuaRocks)"
    languages = ("Lua",)
    detect = ("*.rockspec", "rockspecs/*.rockspec")
    reads = ("*.rockspec", ".luacheckrc", ".busted", ".stylua.toml", "stylua.toml", ".luacov")
    package_manager = "luarocks"
    programs = frozenset({"luarocks", "busted", "luacheck", "stylua", "lua", "luajit"})
    builtins = {"luarocks": frozenset({"make", "build", "test", "lint", "pack"})}
    tools = {"busted": "test", "luacheck": "lint", "stylua": "format"}
    manifests = ("*.rockspec",)
    dotfiles = {"luacheck": (".luacheckrc",), "busted": (".busted",), "stylua": (".stylua.toml", "stylua.toml")}
    invocations = {"luacheck": "luacheck .", "stylua": "stylua --check ."}

    def versions(self, view: RepoView) -> tuple[str, ...]:
        for path in view.matching("*.rockspec"):
            if m := re.search(r"""["']lua\s*(>=|~>|==|>)\s*([\d.]+)["']""", view.files.get(path, "")):
                return (f"Lua {m.group(1)} {m.group(2)}",)
        return ()


class R(_ManifestEcosystem):
    name = "r"
    label = "R package"
    languages = ("R",)
    detect = ("DESCRIPTION",)
    reads = ("DESCRIPTION", "air.toml", ".lintr")
    builtins = {"R": frozenset({"CMD"})}
    dotfiles = {"air": ("air.toml",), "lintr": (".lintr",)}
    tools = {"air": "format", "lintr": "lint"}
    programs = frozenset({"R", "Rscript", "air"})
    expression = ("Rscript", "-e")
    calls = r"[A-Za-z][\w.]*::[A-Za-z][\w.]*\(\)"  # `devtools::check()`: a package's function on this package

    def detected(self, view: RepoView) -> bool:
        return bool(re.search(r"^Package:\s*\S", view.files.get("DESCRIPTION", ""), re.M))

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := re.search(r"^Depends:[^\n]*(?:\n[ \t][^\n]*)*?\bR\s*\(\s*(>=|>)\s*([\d.]+)\s*\)",
                          view.files.get("DESCRIPTION", ""), re.M):
            return (f"R {m.group(1)} {m.group(2)}",)
        return ()


class Erlang(_ManifestEcosystem):
    name = "erlang"
    label = "Erlang (rebar3)"
    languages = ("Erlang",)
    detect = ("rebar.config",)
    reads = ("rebar.config", "elvis.config")
    package_manager = "rebar3"
    programs = frozenset({"rebar3", "erl"})
    builtins = {"rebar3": frozenset({"compile", "eunit", "ct", "dialyzer", "xref", "fmt", "lint", "edoc", "ex_doc",
                                     "proper", "cover", "check", "get-deps", "upgrade", "as", "do"})}
    tools = {"rebar3 eunit": "test", "rebar3 ct": "test", "rebar3 dialyzer": "typecheck", "rebar3 xref": "lint",
             "rebar3 fmt": "format", "elvis": "lint"}
    dotfiles = {"elvis": ("elvis.config",)}

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := re.search(r"""\{\s*minimum_otp_vsn\s*,\s*"([\d.]+)"\s*\}""", view.files.get("rebar.config", "")):
            return (f"Erlang/OTP {m.group(1)}",)
        return ()


class Julia(_ManifestEcosystem):
    name = "julia"
    label = "Julia"
    languages = ("Julia",)
    detect = ("Project.toml", "JuliaProject.toml")
    reads = ("Project.toml", "JuliaProject.toml", "docs/make.jl", "test/runtests.jl")
    package_manager = "Pkg"
    programs = frozenset({"julia"})
    expression = ("julia", "--project", "-e")
    # `using Pkg; Pkg.test()`: the module loaded, then one call of it with no argument
    calls = r"(?:using|import) ([A-Z]\w*); ?\1(?:\.\w+)+\(\)"

    def detected(self, view: RepoView) -> bool:
        data = load_toml(view.text("*Project.toml")[1])
        return bool(data.get("uuid") or isinstance(data.get("compat"), dict))

    def versions(self, view: RepoView) -> tuple[str, ...]:
        compat = load_toml(view.text("*Project.toml")[1]).get("compat")
        julia = compat.get("julia") if isinstance(compat, dict) else None
        return (f"Julia {julia}",) if isinstance(julia, str) and re.fullmatch(r"[\d.,\s^~=<>-]{1,30}", julia) else ()


class Perl(_ManifestEcosystem):
    name = "perl"
    label = "Perl"
    languages = ("Perl",)
    detect = ("Makefile.PL", "Build.PL", "cpanfile", "dist.ini")
    reads = ("Makefile.PL", "Build.PL", "cpanfile", "dist.ini", ".perltidyrc", ".perlcriticrc")
    package_manager = "cpanm"
    programs = frozenset({"perl", "prove", "cpanm", "perltidy", "perlcritic", "dzil"})
    tools = {"prove": "test", "perltidy": "format", "perlcritic": "lint"}
    dotfiles = {"perltidy": (".perltidyrc",), "perlcritic": (".perlcriticrc",)}
    manifests = ("cpanfile", "Makefile.PL", "Build.PL", "dist.ini")

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv[:1] == ["cpanm"] and "--installdeps" in argv and argv[-1] == "." and self.detected(view):
            return self.cite_manifest(view)  # the distribution's own prerequisites
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        for path in ("Makefile.PL", "Build.PL", "cpanfile", "dist.ini"):
            text = view.files.get(path, "")
            m = re.search(r"""\bMIN_PERL_VERSION\W+([\d.]+)|\bperl['"]?\s*(?:=>|,)\s*['"]?v?([\d.]+)""", text) \
                or re.search(r"^\s*use\s+v?(5\.[\d.]+)\s*;", text, re.M)
            if m:
                return (f"Perl {next(g for g in m.groups() if g)}",)
        return ()


class Crystal(_ManifestEcosystem):
    name = "crystal"
    label = "Crystal (shards)"
    languages = ("Crystal",)
    detect = ("shard.yml",)
    reads = ("shard.yml", ".ameba.yml")
    package_manager = "shards"
    programs = frozenset({"crystal", "shards", "ameba"})
    builtins = {"crystal": frozenset({"spec", "build", "tool", "docs", "run"}),
                "shards": frozenset({"install", "build", "update", "check", "prune"})}
    tools = {"crystal spec": "test", "crystal tool format": "format", "ameba": "lint"}

    @staticmethod
    def _dependency_bin(path: str, view: RepoView) -> str:
        """The shard a ``bin/<name>`` comes from: ``shards install`` puts a dependency's executables
        in ``bin/``, so ``bin/ameba`` exists once a (development) dependency ``ameba`` is installed."""
        name = path.removeprefix("./").removeprefix("bin/")
        if not path.removeprefix("./").startswith("bin/") or "/" in name:
            return ""
        data = load_yaml(view.files.get("shard.yml", ""))
        if not isinstance(data, dict):
            return ""
        deps = [d for key in ("dependencies", "development_dependencies") if isinstance(d := data.get(key), dict)]
        return name if any(name in d for d in deps) else ""

    def prove(self, argv: list[str], view: RepoView) -> str:
        # a dependency's executable is proven by the shard.yml line that declares the dependency
        if argv and self.detected(view) and (dep := self._dependency_bin(argv[0], view)):
            return view.cite("shard.yml", rf"^\s*{re.escape(dep)}\s*:")
        return super().prove(argv, view)

    def makers(self, path: str, view: RepoView) -> tuple[str, ...]:
        return ("shards install",) if self.detected(view) and self._dependency_bin(path, view) else ()

    def versions(self, view: RepoView) -> tuple[str, ...]:
        data = load_yaml(view.files.get("shard.yml", ""))
        crystal = data.get("crystal") if isinstance(data, dict) else None
        return (f"Crystal {crystal}",) if isinstance(crystal, str) and len(crystal) <= 30 else ()


class Nim(_ManifestEcosystem):
    name = "nim"
    label = "Nim (nimble)"
    languages = ("Nim",)
    detect = ("*.nimble",)
    reads = ("*.nimble", "config.nims")
    package_manager = "nimble"
    programs = frozenset({"nimble", "nim"})
    builtins = {"nimble": frozenset({"install", "build", "test", "develop", "check", "setup"})}
    tools = {"nimble test": "test"}

    def targets(self, view: RepoView) -> list[Target]:
        """``task name, "description":`` blocks of the ``.nimble`` file (NimScript; no Python parser reads it)."""
        out: list[Target] = []
        for path in view.matching("*.nimble"):
            text = view.files.get(path, "")
            for m in re.finditer(r'^task\s+(\w+)\s*,\s*"([^"\n]*)"\s*:', text, re.M):
                out.append(Target(m.group(1), f"nimble {m.group(1)}", m.group(2),
                                  f"{path}:{text.count(chr(10), 0, m.start()) + 1}"))
        return out

    def versions(self, view: RepoView) -> tuple[str, ...]:
        for path in view.matching("*.nimble"):
            if m := re.search(r"""\brequires\s*\(?\s*["']nim\s*(>=|>|==|\^=|~=)\s*([\d.]+)""", view.files.get(path, "")):
                return (f"Nim {m.group(1)} {m.group(2)}",)
        return ()


class Bazel(_ManifestEcosystem):
    name = "bazel"
    label = "Bazel"
    languages = ("Starlark",)
    detect = ("MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", ".bazelversion")
    reads = ("MODULE.bazel", ".bazelversion", ".bazelrc", ".bazelci/presubmit.yml", ".bazelci/presubmit.yaml")
    package_manager = "bazel"
    programs = frozenset({"bazel", "bazelisk"})
    builtins = {"bazel": frozenset({"build", "test", "run", "query", "mod", "coverage"}),
                "bazelisk": frozenset({"build", "test", "run", "query", "mod", "coverage"})}
    tools = {"bazel test": "test", "bazel build": "build"}

    def targets(self, view: RepoView) -> list[Target]:
        """What the project's Bazel CI runs: ``.bazelci/presubmit.yml`` (the file format of Bazel's
        own CI) lists per task the ``build_targets`` and ``test_targets`` (a list, or the keys of a
        YAML set); the first task that lists them gives ``bazel build`` / ``bazel test`` with them."""
        path = next((p for p in (".bazelci/presubmit.yml", ".bazelci/presubmit.yaml") if p in view.files), "")
        data = load_yaml(view.files.get(path, "")) if path else None
        tasks = data.get("tasks") if isinstance(data, dict) else None
        out: list[Target] = []
        for verb in ("build", "test"):
            for task in (tasks.values() if isinstance(tasks, dict) else ()):
                listed = task.get(f"{verb}_targets") if isinstance(task, dict) else None
                names = [str(t) for t in (listed or ())] if isinstance(listed, (list, dict)) else []
                if names and all(re.fullmatch(r"--|-?@?[\w.-]*//[\w./-]*(?::[\w.-]+)?", t) for t in names):
                    line = view.cite(path, rf"^\s*{verb}_targets\s*:") or f"{path}:1"
                    out.append(Target(verb, f"bazel {verb} {' '.join(names)}", "", line))
                    break
        return out

    def versions(self, view: RepoView) -> tuple[str, ...]:
        version = view.files.get(".bazelversion", "").strip().split("\n")[0]
        return (f"Bazel {version}",) if re.fullmatch(r"[\w.+-]{1,20}", version) else ()
