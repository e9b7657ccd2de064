"""Documented steps read as the doc orders and scopes them, in repositories built with ``git``.

Shapes the second held-out set met: build-from-source steps under a README section whose
subsections are "Dependencies" and "Instructions" (kept whole and in order, submodules first,
whether or not CI runs them all); an agent file whose commands run through a version manager
(``fvm flutter test``) or in a folder its comment names (``# in packages/core``); one command per
platform in sibling sections (legs, not the build); a block comment saying the commands under it
test "a specific package"; a listing flag; a CI reporter flag; a Node version Volta pins; a
toolchain a manpage job pins.
"""

from __future__ import annotations

import json
from pathlib import Path

from bootstrap_app.signals.repo_docs import _candidates
from bootstrap_app.signals.repo_tools import runnable

from .gitrepo import facts_of

_AUTOTOOLS = {"configure.ac": "AC_INIT([tool], [1.0])\nAC_PROG_CC\n",
              "Makefile.am": "bin_PROGRAMS = tool\nTESTS = tests/run.sh\n", ".gitmodules": "[submodule \"vendor/lib\"]\n",
              "src/tool.c": "int main(void) { return 0; }\n", "tests/run.sh": "#!/bin/sh\n"}
_README = """# tool

A small tool.

## Installation

### Building from source

#### Dependencies

- autoconf
- automake

#### Instructions

```console
git submodule update --init    # if building from git
autoreconf -i                  # if building from git
./configure --with-lib=builtin
make -j8
make check
sudo make install
```

Build a statically linked version:

```console
make LDFLAGS=-all-static
```
"""
_MANPAGE = """name: Manpage
on: push
jobs:
  manpage:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: '3.11'
      - run: autoreconf -i
      - run: make jq.1.prebuilt
"""


def test_build_from_source_steps_are_kept_whole_and_in_order(tmp_path: Path) -> None:
    f = facts_of(tmp_path, {**_AUTOTOOLS, "README.md": _README, ".github/workflows/manpage.yml": _MANPAGE})
    assert f.build_steps == ("git submodule update --init", "autoreconf -i", "./configure --with-lib=builtin",
                             "make -j8", "make check")
    assert f.build_steps_where == "README.md:17"
    assert f.commands["test"][0] == "make check"
    # a variant build is not the build, and a manpage job's Python is not the project's floor
    assert not any("LDFLAGS" in c for alts in f.also.values() for c in alts)
    assert not any(v.startswith("Python") for v in f.min_versions)


_AGENTS = """# AGENTS.md

## Commands

Run from the repository root.

```bash
fvm flutter pub get
fvm flutter run
```

Checks (what CI runs):

```bash
fvm flutter analyze
fvm flutter test
```

Rust:

```bash
cargo test --features full       # in packages/core — see below
```
"""


def test_an_agent_files_commands_through_a_version_manager_and_in_a_named_folder(tmp_path: Path) -> None:
    files = {"AGENTS.md": _AGENTS, ".fvmrc": json.dumps({"flutter": "3.41.9"}),
             "pubspec.yaml": "name: app\nenvironment:\n  sdk: ^3.5.0\n", "lib/main.dart": "void main() {}\n",
             "Cargo.toml": "[workspace]\nmembers = [\"packages/core\"]\n",
             "packages/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"0.1.0\"\n[features]\nfull = []\n",
             "packages/core/src/lib.rs": "\n"}
    f = facts_of(tmp_path, files)
    assert f.commands["test"][0] == "fvm flutter test" and f.commands["lint"][0] == "fvm flutter analyze"
    every = {c for c, _ in f.commands.values()} | {c for alts in f.also.values() for c in alts}
    assert "fvm flutter run" not in every and "flutter run" not in every  # launching the app is not a check
    without = facts_of(tmp_path / "bare", {k: v for k, v in files.items() if k != ".fvmrc"})
    assert "fvm flutter test" not in {c for c, _ in without.commands.values()}  # no pin file: fvm is unknown
    # the comment names the folder the command runs in
    assert "cd packages/core && cargo test --features full" in [
        c.text for c in _candidates(_AGENTS, frozenset({"packages", "packages/core"}))]


_PLATFORMS = """# app

## Building

### Android

```bash
flutter build apk
```

### iOS

```bash
flutter build ipa
```

### macOS

```bash
flutter build macos
```
"""


def test_one_command_per_platform_and_a_specific_package_are_not_the_build_or_the_tests(tmp_path: Path) -> None:
    guide = ("# Contributing\n\n### Run Unit Tests\n\n```sh\n# Run all unit tests\nnpm test\n\n"
             "# Test a specific project or package\nnpx nx test core\n```\n\n"
             "## Building\n\n### Android\n\n```sh\nflutter build apk\n```\n\n### iOS\n\n```sh\nflutter build ipa\n```\n\n"
             "### macOS\n\n```sh\nflutter build macos\n```\n\nList the tasks with `npm run --list`.\n")
    pkg = {"name": "w", "scripts": {"test": "vitest run", "build": "tsc"}, "devDependencies": {"nx": "^20"}}
    f = facts_of(tmp_path, {"CONTRIBUTING.md": guide, "package.json": json.dumps(pkg, indent=2),
                            "pubspec.yaml": "name: app\n", "README.md": _PLATFORMS})
    every = {c for c, _ in f.commands.values()} | {c for alts in f.also.values() for c in alts}
    assert f.commands["test"][0] == "npm test"
    assert not any(c.startswith("flutter build") for c in every), every
    assert "npx nx test core" not in every and not any("--list" in c for c in every)


def test_ci_reporters_are_dropped_and_volta_pins_node(tmp_path: Path) -> None:
    assert runnable("prove --merge --formatter TAP::Formatter::GitHubActions -l t") == "prove --merge -l t"
    assert runnable("mocha --reporter=junit test") == "mocha test"
    assert runnable("mocha --reporter spec test") == "mocha --reporter spec test"  # a person's reporter stays
    pkg = {"name": "w", "scripts": {"test": "vitest run"}, "volta": {"node": "22.13.0"}}
    f = facts_of(tmp_path, {"package.json": json.dumps(pkg)})
    assert "Node 22.13.0" in f.min_versions


def test_a_plain_text_readme_a_long_readme_and_a_requirements_list(tmp_path: Path) -> None:
    readme = ("tool 1.0 by A. Author\n\nThis version is portable across Unix systems.\n\n"
              'Type "make" in this directory to build the "tool" executable.\n')
    f = facts_of(tmp_path, {"README": readme, "Makefile": "tool: tool.c\n\tcc -o tool tool.c\n\ntest: tool\n\t./tool -t\n",
                            "tool.c": "int main(void) { return 0; }\n"})
    assert f.commands["build"][0] == "make" and f.commands["build"][1].startswith("README:5")
    # the README's "Building" section sits past 16 kB; a requirements list states the floor without a verb
    long = "# lib\n\n" + "Lorem ipsum dolor sit amet.\n\n" * 800 + "## Building\n\nThe project requires JDK 8 to build.\n"
    guide = "# Contributing\n\n### Requirements\n\n- Erlang/OTP 27+\n- rebar3\n"
    g = facts_of(tmp_path / "long", {"README.md": long, "CONTRIBUTING.md": guide, "DEVELOPMENT.md": guide,
                                     "build.gradle.kts": "plugins { java }\n"})
    assert any(v.startswith("JDK 8 (README.md:") for v in g.min_versions), g.min_versions
    assert [v for v in g.min_versions if v.startswith("Erlang/OTP 27 or newer")] == [
        "Erlang/OTP 27 or newer (CONTRIBUTING.md:5)"]  # once, though two docs say it


def test_a_version_managers_install_is_the_setup(tmp_path: Path) -> None:
    guide = "# Contributing\n\n## Setup\n\nFrom the repository root, run:\n\n```shell\nmise install\n```\n"
    f = facts_of(tmp_path, {"CONTRIBUTING.md": guide, "mise.toml": '[tools]\ngo = "1.24"\n',
                            "go.mod": "module example.org/x\n\ngo 1.24\n", "x.go": "package x\n"})
    assert f.commands["setup"][0] == "mise install"


def test_pinned_toolchains_state_their_version(tmp_path: Path) -> None:
    f = facts_of(tmp_path, {".fvmrc": json.dumps({"flutter": "3.41.9"}), "pubspec.yaml": "name: app\n",
                            "rust-toolchain.toml": '[toolchain]\nchannel = "1.97.1"\n',
                            "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n'})
    assert "Flutter 3.41.9 (.fvmrc)" in f.min_versions and "Rust 1.97.1 (rust-toolchain.toml)" in f.min_versions


def test_a_one_target_build_is_a_variant_never_the_build(tmp_path: Path) -> None:
    readme = ("# tool\n\nA tool.\n\n## Building\n\nA fully static executable:\n\n```\n"
              "$ rustup target add x86_64-unknown-linux-musl\n$ cargo build --release --target x86_64-unknown-linux-musl\n```\n")
    f = facts_of(tmp_path, {"README.md": readme, "Cargo.toml": '[package]\nname = "tool"\nversion = "0.1.0"\n',
                            "src/main.rs": "fn main() {}\n"})
    every = {c for c, _ in f.commands.values()} | {c for alts in f.also.values() for c in alts}
    assert not any("--target" in c for c in every), every


def test_a_guide_stating_conventional_commits_is_the_convention(tmp_path: Path) -> None:
    guide = "# Contributing\n\n### Title Format\n\nWe use [Conventional Commits](https://www.conventionalcommits.org/) for PR titles.\n"
    f = facts_of(tmp_path, {"CONTRIBUTING.md": guide, "README.md": "# x\n"})
    assert f.commit_convention == "stated in CONTRIBUTING.md:5"
    loose = "# Contributing\n\nIf unsure, check out Conventional Commits. This style is not enforced.\n"
    assert facts_of(tmp_path / "loose", {"CONTRIBUTING.md": loose}).commit_convention == ""


def test_signed_commits_a_guide_requires(tmp_path: Path) -> None:
    guide = ("# Contribution guidelines\n\n### Sign your commits\n\nWe use commit signature verification, which will"
             " block commits from being merged via the UI unless they are signed.\n")
    assert facts_of(tmp_path, {"CONTRIBUTING.md": guide}).signoff == "signed commits (GPG/SSH signature)"
    site = "# Contributing\n\nAll commits must be signed off (Developer Certificate of Origin).\n"
    assert facts_of(tmp_path / "dco", {"website/docs/contributing.md": site}).signoff == "DCO"


def test_the_local_environment_template_is_stated(tmp_path: Path) -> None:
    f = facts_of(tmp_path, {".env.local.example": "DATABASE_URL=\n", ".env.test.example": "X=\n",
                            "package.json": json.dumps({"name": "app", "scripts": {"test": "vitest run"}})})
    assert f.env_templates == (".env.local.example", ".env.test.example")
    assert facts_of(tmp_path / "none", {".env": "X=1\n", "README.md": "# x\n"}).env_templates == ()


def test_a_getting_started_page_does_not_silence_the_readmes_contributing_section(tmp_path: Path) -> None:
    readme = ("# lib\n\nA library.\n\n## Contributing\n\nWhen submitting pull requests, please add test cases for any"
              " new features or fixes.\n")
    f = facts_of(tmp_path, {"README.md": readme, "docs/src/getting_started.md": "# Getting started\n\nInstall it.\n"})
    assert any("add test cases" in r.text for r in f.rules), f.rules


def test_a_ci_matrix_value_is_resolved_to_the_lowest_version_tested(tmp_path: Path) -> None:
    ci = ("name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n"
          "      matrix:\n        otp: [\"28.0\", \"27.2\", \"29.0\"]\n    steps:\n      - uses: erlef/setup-beam@v1\n"
          "        with:\n          otp-version: ${{ matrix.otp }}\n      - run: rebar3 eunit\n")
    f = facts_of(tmp_path, {"rebar.config": "{deps, []}.\n", ".github/workflows/ci.yml": ci,
                            "src/app.erl": "-module(app).\n"})
    assert "OTP 27.2 (CI: .github/workflows/ci.yml:8)" in f.min_versions, f.min_versions


def test_a_workflow_run_only_by_hand_pins_no_floor(tmp_path: Path) -> None:
    steps = ("    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n"
             "          java-version: {v}\n      - run: rebar3 eunit\n")
    manual = "name: Package\non:\n  workflow_dispatch:\njobs:\n  package:\n" + steps.format(v="17")
    checks = "name: CI\non: [push, pull_request]\njobs:\n  test:\n" + steps.format(v="11")
    base = {"rebar.config": "{deps, []}.\n", "src/app.erl": "-module(app).\n"}
    alone = facts_of(tmp_path / "alone", {**base, ".github/workflows/package.yml": manual})
    assert not any(v.startswith("Java") for v in alone.min_versions), alone.min_versions
    both = facts_of(tmp_path / "both", {**base, ".github/workflows/package.yml": manual, ".github/workflows/ci.yml": checks})
    assert "Java 11 (CI: .github/workflows/ci.yml:9)" in both.min_versions, both.min_versions
