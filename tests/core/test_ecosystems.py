"""The ecosystem contract: every module (built-in, the fake, an installed plugin) in one test.

For each ecosystem a realistic minimal project of its kind is built with ``git`` and read
through the real git source; the contract is that the module detects it, the git source read
the files it answers from, every default command it offers is *proven* in that project by its
own :meth:`prove`, a made-up command is not, and nothing it says comes from a file it did not
declare. Then per-module checks of what each ecosystem's own files state.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bootstrap_app.ecosystems import ECOSYSTEM_CLASSES, Ecosystem, RepoView, detected, registry
from bootstrap_app.ecosystems.fake import FakeEcosystem
from bootstrap_app.signals.repo_docs import prove
from tests.doc_examples import load_example
from tests.pipeline.gitrepo import build, read

# one small project per ecosystem, in the shape its maintainers keep
SAMPLES: dict[str, dict[str, str]] = {
    "make": {"Makefile": "all: build\nbuild:\n\tcc -o x x.c\ntest: build\n\t./x --self-test\n"},
    "just": {"justfile": "test:\n    cargo test\n"},
    "task": {"Taskfile.yml": "version: '3'\ntasks:\n  test:\n    cmds: [go test ./...]\n"},
    "python": {"pyproject.toml": '[project]\nname = "p"\n[dependency-groups]\ndev = ["pytest>=8"]\n',
               "tox.ini": "[tox]\nenvlist = py\n[testenv]\ncommands = pytest\n[testenv:lint]\ncommands = ruff check\n"},
    "node": {"package.json": '{\n  "name": "p",\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n'},
    "deno": {"deno.json": '{\n  "tasks": {\n    "ok": "deno fmt --check && deno lint"\n  }\n}\n'},
    "bun": {"package.json": '{"name": "p", "scripts": {"dev": "bun run src/index.ts"}}\n', "bun.lock": "{}\n"},
    "rust": {"Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\n', "src/lib.rs": "\n"},
    "go": {"go.mod": "module example.org/p\n\ngo 1.22\n", "p.go": "package p\n"},
    "gradle": {"gradlew": "#!/bin/sh\n", "settings.gradle.kts": 'rootProject.name = "p"\n',
               "build.gradle.kts": "plugins { `java-library`; id(\"com.diffplug.spotless\") }\n"
                                   "java { toolchain { languageVersion.set(JavaLanguageVersion.of(21)) } }\n"},
    "maven": {"pom.xml": "<project>\n  <properties>\n    <maven.compiler.release>17</maven.compiler.release>\n"
                         "  </properties>\n</project>\n"},
    "ruby": {"Gemfile": 'source "https://rubygems.org"\ngemspec\ngem "rspec"\ngem "rubocop"\n',
             "p.gemspec": 'Gem::Specification.new do |s|\n  s.required_ruby_version = ">= 3.1"\nend\n',
             "Rakefile": 'require "rspec/core/rake_task"\nRSpec::Core::RakeTask.new(:spec)\ntask default: :spec\n'},
    "php": {"composer.json": '{\n  "require": {"php": "^8.1"},\n  "require-dev": {"phpunit/phpunit": "^10"},\n'
                             '  "scripts": {\n    "test": "phpunit"\n  }\n}\n'},
    "elixir": {"mix.exs": 'defmodule P.MixProject do\n  def project do\n    [app: :p, elixir: "~> 1.15", aliases: aliases()]\n'
                          '  end\n\n  defp aliases do\n    [\n      lint: ["format --check-formatted", "credo"]\n    ]\n'
                          '  end\nend\n', ".formatter.exs": "[inputs: [\"lib/**/*.ex\"]]\n"},
    "cmake": {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(p CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
                                "enable_testing()\nadd_test(NAME t COMMAND t)\n",
              "CMakePresets.json": '{"version": 3, "configurePresets": [{"name": "dev"}]}\n'},
    "meson": {"meson.build": "project('p', 'c')\n"},
    "autotools": {"configure.ac": "AC_INIT([p], [1])\n", "Makefile.am": "SUBDIRS = src\n", "autogen.sh": "#!/bin/sh\n"},
    "dotnet": {"global.json": '{"sdk": {"version": "8.0.100"}}\n', "P.sln": "\n",
               "src/P/P.csproj": "<Project><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n"},
    "swift": {"Package.swift": "// swift-tools-version:5.9\nimport PackageDescription\n"},
    "haskell": {"p.cabal": "cabal-version: 3.0\nname: p\ntested-with: GHC ==9.6.4\n"},
    "ocaml": {"dune-project": "(lang dune 3.10)\n", "p.opam": 'depends: [\n  "ocaml" {>= "4.14"}\n]\n',
              ".ocamlformat": "profile = default\n"},
    "dart": {"pubspec.yaml": "name: p\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\n"},
    "scala": {"build.sbt": 'scalaVersion := "3.3.1"\naddCommandAlias("ci", "test; scalafmtCheckAll")\n',
              "project/build.properties": "sbt.version=1.9.7\n"},
    "clojure": {"project.clj": "(defproject p \"0.1.0\")\n"},
    "scripts": {"scripts/test.sh": "#!/bin/sh\n"},
    "pre-commit": {".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks: []\n"},
    "nix": {"flake.nix": "{\n  outputs = { self }: {\n    apps.x86_64-linux.format = {};\n  };\n}\n"},
    "toy": {"toy.toml": '[toolchain]\ntoy = ">= 2"\n[tasks]\ncheck = "toy-lint src"\n', ".toy-lint.toml": "\n"},
    "zig": {"build.zig": 'pub fn build(b: *std.Build) void {\n    const t = b.step("test", "Run tests");\n}\n',
            "build.zig.zon": '.{\n    .minimum_zig_version = "0.13.0",\n}\n'},
    "nim": {"demo.nimble": 'version = "0.1.0"\nrequires "nim >= 2.0.0"\n\ntask docs, "Build the docs":\n'
                           '  exec "nim doc src/demo.nim"\n'},
    "lua": {"demo-scm-1.rockspec": 'package = "demo"\ndependencies = {\n  "lua >= 5.1",\n}\n',
            ".luacheckrc": "std = 'max'\n"},
    "r": {"DESCRIPTION": "Package: demo\nVersion: 0.1\nDepends: R (>= 4.1)\n", "air.toml": "[format]\n"},
    "erlang": {"rebar.config": '{deps, []}.\n{minimum_otp_vsn, "26"}.\n'},
    "julia": {"Project.toml": 'name = "Demo"\nuuid = "0f0e0d0c-0b0a-0908-0706-050403020100"\n[compat]\njulia = "1.6"\n'},
    "perl": {"Makefile.PL": "use 5.016;\nWriteMakefile(NAME => 'Demo');\n", ".perltidyrc": "-l=100\n",
             "t/basic.t": "use Test::More;\n"},
    "crystal": {"shard.yml": 'name: demo\nversion: 0.1.0\ncrystal: ">= 1.12.0"\n'},
    "bazel": {"MODULE.bazel": 'module(name = "demo")\n', ".bazelversion": "8.x\n"},
    "earthly": {"Earthfile": "VERSION 0.8\n\ndocs:\n    RUN make docs\n\ntest:\n    RUN make test\n"},
}
EARTHLY = load_example("Add an ecosystem").Earthly
ALL = (*ECOSYSTEM_CLASSES, FakeEcosystem, EARTHLY)


def _view(tmp_path: Path, files: dict[str, str], via_git: bool = True) -> RepoView:
    if not via_git:  # an ecosystem outside the registry: the git source does not know its files
        return RepoView.of(files)
    repo, _ = read(build(tmp_path, files))
    return RepoView.of(repo.files, repo.file_list)


def test_every_ecosystem_has_a_sample_and_unique_names() -> None:
    names = [cls.name for cls in ALL]  # the doc's example is a language memseed does not build in
    assert len(set(names)) == len(names) and set(names) == set(SAMPLES)
    assert all(cls.label for cls in ALL)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
def test_contract(cls: type[Ecosystem], tmp_path: Path) -> None:
    eco = cls()
    view = _view(tmp_path, SAMPLES[cls.name], via_git=cls in ECOSYSTEM_CLASSES)
    assert eco.detected(view), f"{cls.name} does not detect its own sample"
    for pattern in (*cls.detect, *cls.reads):  # the git source read every declared file present
        for path in view.matching(pattern):
            assert path in view.files, f"{path} (declared by {cls.name}) was not read"
    for kind, command in eco.defaults(view).items():
        if cls in ECOSYSTEM_CLASSES:  # the fake is not in the registry, so the shared prover does not know it
            assert prove(command, view, detected(view), {}), f"{cls.name} default {kind} `{command}` unproven"
        assert all(eco.prove(part.split(), view) for part in command.split(" && ")), command
    assert eco.prove(["frobnicate", "--everything"], view) == ""
    for target in eco.targets(view):
        path, _, line = target.where.rpartition(":")
        assert path in view.files and int(line) >= 1, target
    assert not eco.detected(RepoView.of({"README.md": "# nothing\n"})) or cls.name == "scripts"
    if cls is EARTHLY:
        assert eco.prove(["earthly", "+docs"], view) == "Earthfile:3" and eco.versions(view) == ("Earthly 0.8",)
        assert eco.prove(["earthly", "+test"], view) == "Earthfile:6" and eco.defaults(view) == {"test": "earthly +test"}
    if cls.name == "nim":
        assert eco.prove(["nimble", "docs"], view) == "demo.nimble:4" and eco.versions(view) == ("Nim >= 2.0.0",)
        assert eco.prove(["nimble", "publish"], view) == ""


def test_what_each_ecosystem_reads_from_its_own_files(tmp_path: Path) -> None:
    def answers(name: str) -> tuple[Ecosystem, RepoView]:
        cls = next(c for c in ALL if c.name == name)
        return cls(), _view(tmp_path / name, SAMPLES[name])

    ruby, view = answers("ruby")
    assert ruby.versions(view) == ("Ruby >= 3.1",)
    assert ruby.prove(["bundle", "exec", "rake", "spec"], view) == "Rakefile:2"
    assert ruby.prove(["bundle", "exec", "rake", "release"], view) == ""
    assert ruby.prove(["bundle", "exec", "rubocop"], view) == "Gemfile:4"
    php, view = answers("php")
    assert php.prove(["composer", "test"], view) == "composer.json:5" and php.versions(view) == ("PHP ^8.1",)
    assert php.prove(["vendor/bin/phpstan"], view) == ""  # not required
    elixir, view = answers("elixir")
    assert elixir.prove(["mix", "lint"], view) == "mix.exs:8" and elixir.versions(view) == ("Elixir ~> 1.15",)
    assert elixir.prove(["mix", "credo"], view) == ""  # credo is not a dependency
    assert elixir.configured(view) == ("mix format",)
    docs = RepoView.of({"mix.exs": SAMPLES["elixir"]["mix.exs"].replace(
        "  defp aliases", '  defp deps do\n    [{:ex_doc, "~> 0.30", only: :docs}]\n  end\n\n  defp aliases')})
    assert elixir.configured(docs) == ("ex_doc",)  # the docs generator the package declares
    gradle, view = answers("gradle")
    assert gradle.prove(["./gradlew", "spotlessApply"], view) == "gradlew:1"
    assert gradle.prove(["./gradlew", "nativeCompile"], view) == "" and gradle.versions(view) == ("JDK 21 (toolchain)",)
    maven, view = answers("maven")
    assert maven.prove(["mvn", "verify"], view) == "pom.xml:1" and maven.versions(view) == ("Java 17",)
    cmake, view = answers("cmake")
    assert cmake.prove(["cmake", "--preset", "dev"], view) == "CMakePresets.json:1"
    assert cmake.prove(["cmake", "--preset", "ci"], view) == "" and cmake.versions(view) == ("CMake 3.20", "C++17")
    assert cmake.prove(["make", "test"], view) == "CMakeLists.txt:4" and cmake.prove(["make", "doc"], view) == ""
    dotnet, view = answers("dotnet")
    assert dotnet.versions(view) == (".NET SDK 8.0.100", "targets net8.0")
    scala, view = answers("scala")
    assert scala.prove(["sbt", "ci"], view) == "build.sbt:2" and scala.versions(view) == ("sbt 1.9.7", "Scala 3.3.1")
    ocaml, view = answers("ocaml")
    assert ocaml.versions(view) == ("OCaml >= 4.14", "dune 3.10") and ocaml.prove(["dune", "fmt"], view) == ".ocamlformat:1"
    swift, view = answers("swift")
    assert swift.versions(view) == ("swift-tools-version 5.9",)
    # nicklockwood's SwiftFormat keeps `.swiftformat`; Apple's swift-format `.swift-format`: each names its own tool
    nick = RepoView.of({**SAMPLES["swift"], ".swiftformat": "--indent 4\n--self insert\n"})
    assert swift.configured(nick) == ("swiftformat",) and swift.prove(["swiftformat", "."], nick) == ".swiftformat:1"
    assert swift.prove(["swift-format", "."], nick) == "" and swift.configured(view) == ()
    deno, view = answers("deno")
    assert deno.prove(["deno", "task", "ok"], view) == "deno.json:3" and deno.prove(["deno", "task", "nope"], view) == ""
    nix, view = answers("nix")
    assert nix.prove(["nix", "run", ".#format"], view) == "flake.nix:3" and nix.prove(["nix", "run", ".#lint"], view) == ""
    rust, view = answers("rust")
    assert rust.prove(["cargo", "test", "-p", "p"], view) and rust.prove(["cargo", "test", "-p", "other"], view) == ""
    assert rust.versions(view) == ()  # no edition declared: none reported
    assert rust.versions(RepoView.of({"Cargo.toml": '[package]\nname = "p"\nedition = "2021"\n'})) == ("Rust edition 2021",)
    assert rust.versions(RepoView.of({"Cargo.toml": '[workspace]\nmembers = ["a"]\n[workspace.package]\nedition = "2024"\n'})) \
        == ("Rust edition 2024",)


def test_each_manifest_declares_the_projects_description() -> None:
    """Every ecosystem that keeps a one-line description in its manifest says where (:attr:`describes`)."""
    said = "A tiny parser for config files"
    manifests = {
        "rust": {"Cargo.toml": f'[package]\nname = "p"\ndescription = "{said}"\n'},
        "php": {"composer.json": f'{{\n  "name": "a/p",\n  "description": "{said}"\n}}\n'},
        "node": {"package.json": f'{{"name": "p", "description": "{said}"}}\n'},
        "python": {"pyproject.toml": f'[project]\nname = "p"\ndescription = "{said}"\n'},
        "ruby": {"p.gemspec": f'Gem::Specification.new do |spec|\n  spec.name = "p"\n  spec.summary = "{said}"\nend\n'},
        "elixir": {"mix.exs": f'defmodule P.MixProject do\n  def project do\n    [app: :p, description: "{said}"]\n  end\nend\n'},
        "maven": {"pom.xml": f"<project>\n  <parent>\n    <description>The parent</description>\n  </parent>\n"
                             f"  <description>{said}</description>\n</project>\n"},
        "dotnet": {"P.csproj": f"<Project>\n  <PropertyGroup>\n    <Description>{said}</Description>\n"
                               f"  </PropertyGroup>\n</Project>\n"},
        "toy": {"toy.toml": f'[toy]\nabout = "{said}"\n'},
        "dart": {"pubspec.yaml": f"name: p\ndescription: {said}\nversion: 1.0.0\n"},
    }
    lines = {"rust": "Cargo.toml:3", "php": "composer.json:3", "node": "package.json:1", "python": "pyproject.toml:3",
             "ruby": "p.gemspec:3", "elixir": "mix.exs:3", "maven": "pom.xml:5", "dotnet": "P.csproj:3",
             "toy": "toy.toml:2", "dart": "pubspec.yaml:2"}
    for cls in ALL:
        eco = cls()
        files = manifests.get(cls.name, SAMPLES[cls.name])
        expected = (said, lines[cls.name]) if cls.name in manifests else ("", "")
        assert eco.description(RepoView.of(files)) == expected, cls.name
        assert bool(cls.describes) == (cls.name in manifests), cls.name


def test_proofs_from_a_build_systems_own_conventions(tmp_path: Path) -> None:
    """``make check`` needs tests declared to automake; ``stack install`` installs into the user's
    system; a Nix shell that wires pre-commit hooks proves ``pre-commit run`` with no config tracked."""
    autotools = next(c for c in ALL if c.name == "autotools")()
    bare = _view(tmp_path / "bare", SAMPLES["autotools"])
    assert autotools.prove(["make", "check"], bare) == "" and "test" not in autotools.defaults(bare)
    assert autotools.prove(["make"], bare) == "Makefile.am:1"
    tested = _view(tmp_path / "tested", {**SAMPLES["autotools"], "tests/Makefile.am": "check_PROGRAMS = t\nTESTS = t\n"})
    assert autotools.prove(["make", "check"], tested) == "tests/Makefile.am:1"
    assert autotools.defaults(tested)["test"] == "make check"
    local = _view(tmp_path / "local", {**SAMPLES["autotools"], "Makefile.am": "SUBDIRS = src\n\ncheck-local:\n\t./t.sh\n"})
    assert autotools.prove(["make", "check"], local) == "Makefile.am:3"
    haskell = next(c for c in ALL if c.name == "haskell")()
    stack = _view(tmp_path / "stack", {**SAMPLES["haskell"], "stack.yaml": "resolver: lts-22.0\n"})
    assert haskell.prove(["stack", "build"], stack) == "stack.yaml:1" and haskell.prove(["stack", "install"], stack) == ""
    meson = next(c for c in ALL if c.name == "meson")()
    built = _view(tmp_path / "meson", SAMPLES["meson"])
    assert meson.prove(["meson", "test", "-C", "build"], built) and meson.prove(["meson", "install"], built) == ""
    flake = "{\n  inputs.git-hooks.url = \"github:cachix/git-hooks.nix\";\n  outputs = { self, git-hooks }: {};\n}\n"
    hooked = _view(tmp_path / "hooked", {"flake.nix": flake})
    assert prove("pre-commit run -a", hooked, detected(hooked), {}) == "flake.nix:2"
    devenv = _view(tmp_path / "devenv", {"devenv.nix": "{ pkgs, ... }: {\n  languages.rust.enable = true;\n"
                                                         "  pre-commit.hooks.rustfmt.enable = true;\n}\n"})
    assert prove("pre-commit run", devenv, detected(devenv), {}) == "devenv.nix:3"
    plain = _view(tmp_path / "plain", SAMPLES["nix"])
    assert prove("pre-commit run", plain, detected(plain), {}) == ""


def test_a_cross_built_scala_library_states_each_scala_and_platform(tmp_path: Path) -> None:
    scala = next(c for c in ALL if c.name == "scala")()
    build = ('val scala213 = "2.13.18"\ndef scala3 = "3.3.8"\nval junitVersion = "4.13.2"\n'
             'val scalafmtVersion = "3.7.17"\nval scalaJSVersion = "1.16.0"\n'
             'crossScalaVersions := Seq(scala213, "2.12.21")\n')
    plugins = ('addSbtPlugin("org.scala-js" % "sbt-scalajs" % "1.22.0")\n'
               'addSbtPlugin("org.scala-native" % "sbt-scala-native" % "0.5.12")\n')
    view = _view(tmp_path, {"build.sbt": build, "project/plugins.sbt": plugins})
    assert scala.versions(view) == ("Scala 2.13.18, 3.3.8, 2.12.21", "Scala.js 1.22.0", "Scala Native 0.5.12")


def test_formatters_and_doc_tools_a_build_configures(tmp_path: Path) -> None:
    gradle = next(c for c in ALL if c.name == "gradle")()
    spotless = ('plugins { id("com.diffplug.spotless") }\nspotless {\n  java { googleJavaFormat("1.22.0") }\n'
                '  kotlin { ktfmt(libs.ktfmt.get().version).googleStyle() }\n}\n')
    view = _view(tmp_path / "gradle", {"gradlew": "#!/bin/sh\n", "build.gradle.kts": spotless})
    assert gradle.configured(view) == ("spotless", "ktfmt", "google-java-format")
    ruby = next(c for c in ALL if c.name == "ruby")()
    yard = _view(tmp_path / "ruby", {**SAMPLES["ruby"], ".yardopts": "--markup markdown\n"})
    assert "yard" in ruby.configured(yard) and "yard" not in ruby.configured(_view(tmp_path / "plain", SAMPLES["ruby"]))


def _install_plugin(root: Path, name: str, body: str, value: str) -> None:
    (root / f"{name}.py").write_text(body, encoding="utf-8")
    info = root / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[memseed.ecosystems]\n{name} = {value}\n", encoding="utf-8")


def test_an_installed_plugin_joins_the_registry_and_a_broken_one_is_reported(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install_plugin(site, "toyplug", "from bootstrap_app.ecosystems.fake import FakeEcosystem as ToyEcosystem\n",
                    "toyplug:ToyEcosystem")
    _install_plugin(site, "brokenplug", "raise RuntimeError('boom')\n", "brokenplug:Nothing")
    monkeypatch.syspath_prepend(str(site))
    registry.reload()
    try:
        names = [e.name for e in registry.ecosystems()]
        assert names[-1] == "toy" and names[:-1] == [c.name for c in ECOSYSTEM_CLASSES]
        assert any("brokenplug" in p and "RuntimeError" in p for p in registry.plugin_problems())
        view = _view(tmp_path, SAMPLES["toy"])
        assert [e.name for e in detected(view)] == ["scripts", "toy"]
        assert prove("toy run check", view, detected(view), {}) == "toy.toml:4"
    finally:
        sys.modules.pop("toyplug", None)
        monkeypatch.undo()
        registry.reload()
    assert "toy" not in [e.name for e in registry.ecosystems()]
