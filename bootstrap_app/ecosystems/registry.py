"""The one list of ecosystems, plus third-party ones installed as package entry points.

Adding an ecosystem is one module (a subclass of :class:`~.base.Ecosystem`) and one line in
:data:`ECOSYSTEM_CLASSES`. A package may also add one without forking memseed by declaring an
entry point in the ``memseed.ecosystems`` group (``[project.entry-points."memseed.ecosystems"]``,
``toy = "toy_pkg:ToyEcosystem"``); :func:`ecosystems` loads those after the built-in ones. A
plugin that fails to load, or is not an :class:`Ecosystem` subclass, is skipped and reported in
:func:`plugin_problems` — a broken third-party package never stops a scan.
"""

from __future__ import annotations

from functools import cache

from bootstrap_app.plugins import load_plugins

from .base import Ecosystem, RepoView
from .dart import Dart
from .dotnet import DotNet
from .elixir import Elixir
from .functional import Haskell, OCaml
from .javascript import Bun, Deno, Node
from .jvm import Gradle, Maven
from .native import Autotools, CMake, Meson
from .packages import Bazel, Crystal, Erlang, Julia, Lua, Nim, Perl, R
from .php import Php
from .python import Python
from .ruby import Ruby
from .runners import Just, Make, Nix, PreCommit, Scripts, TaskRunner
from .scala import Clojure, Scala
from .swift import Swift
from .systems import Go, Rust
from .zig import Zig

__all__ = ["ECOSYSTEM_CLASSES", "ENTRY_POINT_GROUP", "detected", "ecosystems", "plugin_problems", "read_globs", "reload"]

ECOSYSTEM_CLASSES: tuple[type[Ecosystem], ...] = (
    Make, Just, TaskRunner, Scripts, PreCommit, Nix,
    Python, Node, Deno, Bun, Rust, Go,
    Gradle, Maven, Ruby, Php, Elixir, CMake, Meson, Autotools, DotNet, Swift, Haskell, OCaml, Dart, Scala, Clojure,
    Zig, Lua, R, Erlang, Julia, Perl, Crystal, Nim, Bazel,
)
ENTRY_POINT_GROUP = "memseed.ecosystems"


def reload() -> None:
    """Forget the plugins found so far (after installing one into a running process; tests)."""
    _loaded.cache_clear()
    read_globs.cache_clear()


@cache
def _loaded() -> tuple[tuple[type[Ecosystem], ...], tuple[str, ...]]:
    plugins, problems = load_plugins(ENTRY_POINT_GROUP, Ecosystem)
    known = {cls.name for cls in ECOSYSTEM_CLASSES}
    return tuple(p for p in plugins if p.name and p.name not in known), problems


def ecosystems() -> tuple[Ecosystem, ...]:
    """One instance of every built-in ecosystem, then every installed plugin, in that order."""
    return tuple(cls() for cls in (*ECOSYSTEM_CLASSES, *_loaded()[0]))


def plugin_problems() -> tuple[str, ...]:
    """Why each ``memseed.ecosystems`` entry point that did not load was skipped."""
    return _loaded()[1]


def detected(view: RepoView) -> tuple[Ecosystem, ...]:
    """The ecosystems whose detecting files the repository holds (task runners included)."""
    return tuple(e for e in ecosystems() if e.detected(view))


@cache
def read_globs() -> tuple[str, ...]:
    """Every file pattern some ecosystem answers from: what the git source reads beside its own list."""
    return tuple(dict.fromkeys(g for e in ecosystems() for g in (*e.detect, *e.reads)))
