"""Prerequisites: a command that runs a file the repository does not track comes with the step that makes it.

Generated autotools repositories (real ``git``, read back through the git source): ``configure``
is not tracked, so ``./configure`` is proposed behind the step the docs give for making it, and
the tools of the repository's other build (CMake in CI) are not this build's.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems import RepoView
from bootstrap_app.ecosystems.native import Autotools
from bootstrap_app.signals.repo_prereqs import runs_file, with_prerequisites
from bootstrap_app.signals.repo_tasks import Task

from .gitrepo import facts_of

_AUTOTOOLS = {
    "configure.ac": "AC_INIT([tool],[1.0])\nAM_INIT_AUTOMAKE\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
    "Makefile.am": "bin_PROGRAMS = tool\ntool_SOURCES = tool.c\nTESTS = t.sh\n",
    "tool.c": "int main(void) { return 0; }\n",
    "t.sh": "#!/bin/sh\nexit 0\n",
}
_CMAKE_TOO = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(tool C)\nadd_executable(tool tool.c)\n",
    ".github/workflows/ci.yml": "on: [push]\njobs:\n  cmake:\n    runs-on: ubuntu-latest\n    steps:\n"
                                "      - run: cmake -B build -G Ninja\n      - run: ninja -C build\n",
}


def test_configure_comes_behind_the_bootstrap_step_the_readme_gives(tmp_path: Path) -> None:
    readme = "# tool\n\nA tool.\n\n## Building\n\n```\nsh autogen.sh\n./configure\nmake\nmake check\n```\n"
    facts = facts_of(tmp_path, {**_AUTOTOOLS, **_CMAKE_TOO, "autogen.sh": "#!/bin/sh\nautoreconf -fi\n",
                                "README.md": readme})
    build, where = facts.commands["build"]
    assert build.startswith("sh autogen.sh && ./configure") and where.startswith("README.md:")
    # cmake and ninja run CMake's build of the same repository, not this one
    assert not {"cmake", "ninja"} & set(facts.tools.get("build", ()))


def test_without_a_bootstrap_script_the_docs_autoreconf_makes_configure(tmp_path: Path) -> None:
    readme = "# tool\n\n## Building\n\nGenerate the build files with `autoreconf -fi`, then run:\n\n```\n./configure\nmake\n```\n"
    facts = facts_of(tmp_path, {**_AUTOTOOLS, "README.md": readme})
    assert facts.commands["build"][0].startswith("autoreconf -fi && ./configure")


def test_a_tracked_configure_needs_no_step_and_a_missing_one_is_no_command() -> None:
    tracked = RepoView.of({**_AUTOTOOLS, "configure": "#!/bin/sh\n"})
    task = Task("build", "./configure", source="README.md:3")
    assert with_prerequisites(task, {}, tracked, (Autotools(),)) == task
    bare = RepoView.of({"tool.c": "int main(void) { return 0; }\n"})
    assert with_prerequisites(task, {}, bare, (Autotools(),)) is None  # nothing in the tree makes ./configure
    # an earlier part may build what a later one runs
    chained = Task("test", "cmake --build build && build/tests", source="README.md:3")
    assert with_prerequisites(chained, {}, bare, (Autotools(),)) == chained
    made = with_prerequisites(task, {}, RepoView.of(_AUTOTOOLS), (Autotools(),))
    assert made is not None and made.command == "autoreconf -fi && ./configure"


def test_the_autotools_default_build_generates_configure_first() -> None:
    assert Autotools().defaults(RepoView.of(_AUTOTOOLS))["build"] == "autoreconf -fi && ./configure && make"
    with_script = RepoView.of({**_AUTOTOOLS, "bootstrap": "#!/bin/sh\n"})
    assert Autotools().defaults(with_script)["build"] == "./bootstrap && ./configure && make"
    assert Autotools().defaults(RepoView.of({**_AUTOTOOLS, "configure": "#!/bin/sh\n"}))["build"] == "./configure && make"


def test_the_file_a_command_runs() -> None:
    assert runs_file(["./configure", "--enable-x"]) == "configure"
    assert runs_file(["sh", "autogen.sh"]) == "autogen.sh"
    assert runs_file(["make", "check"]) == "" and runs_file(["cd", "build"]) == ""


def test_a_documented_locked_install_needs_its_lockfile_tracked(tmp_path: Path) -> None:
    guide = "# Contributing\n\n## Setup\n\nInstall the dependencies:\n\n```\nnpm ci\n```\n\nRun the tests with `npm test`.\n"
    pkg = '{"name": "x", "scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "^2.0.0"}}\n'
    files: dict[str, str | bytes] = {"package.json": pkg, "CONTRIBUTING.md": guide, "index.js": "export {};\n"}
    unlocked = facts_of(tmp_path / "unlocked", files)
    assert unlocked.commands.get("setup", ("",))[0] != "npm ci"  # no package-lock.json: `npm ci` stops at once
    locked = facts_of(tmp_path / "locked", {**files, "package-lock.json": '{"lockfileVersion": 3}\n'})
    assert locked.commands["setup"][0] == "npm ci"


def test_a_ci_step_running_configure_comes_behind_the_bootstrap_script(tmp_path: Path) -> None:
    ci = ("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./autogen.sh\n"
          "      - name: Build\n        run: ./configure\n")
    facts = facts_of(tmp_path, {**_AUTOTOOLS, "autogen.sh": "#!/bin/sh\nautoreconf -fi\n", ".github/workflows/ci.yml": ci})
    assert facts.commands["build"][0].startswith("./autogen.sh && ./configure")


def test_the_docs_step_is_found_past_its_trailing_comment(tmp_path: Path) -> None:
    readme = ("# tool\n\n## Building\n\n```\nautoreconf -i        # if building from git\n"
              "./configure --enable-x\nmake\n```\n")
    facts = facts_of(tmp_path, {**_AUTOTOOLS, "README.md": readme})
    assert facts.commands["build"][0].startswith("autoreconf -i && ./configure --enable-x")


def test_a_ci_step_running_configure_comes_behind_the_maker_that_job_runs(tmp_path: Path) -> None:
    ci = ("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Build\n"
          "        run: |\n          autoreconf -i\n          ./configure --enable-x\n          make\n")
    facts = facts_of(tmp_path, {**_AUTOTOOLS, ".github/workflows/ci.yml": ci})
    assert facts.commands["build"][0].startswith("autoreconf -i && ./configure --enable-x")


def test_a_chain_the_docs_wrote_keeps_its_first_command_as_a_command() -> None:
    from bootstrap_app.signals.repo_prereqs import completed

    view = RepoView.of({**_AUTOTOOLS, "configure": "#!/bin/sh\n"})
    alone = Task("build", "./configure", source="README.md:3")
    chain = Task("build", "./configure && make", source="README.md:9")
    assert completed((alone, chain), {}, view, (Autotools(),)) == (alone, chain)
    # a step put in front by the prerequisite rule is absorbed into the command it now heads
    made = RepoView.of(_AUTOTOOLS)
    step = Task("build", "autoreconf -fi", source="README.md:2")
    assert [t.command for t in completed((step, alone), {}, made, (Autotools(),))] == ["autoreconf -fi && ./configure"]
