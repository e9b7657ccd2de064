"""Commands written as a call of the project's language: ``devtools::check()``, ``julia --project -e '…'``.

Generated R and Julia packages (real ``git``, read back through the git source). The docs of an R
package say "run `devtools::check()`" — an R expression, not a shell command — and a Julia
package's docs quote the call behind ``julia -e``. Such a call is proposed through the language's
own program, quoted once, and only when it is a plain call with no argument that could carry data.
"""

from __future__ import annotations

from pathlib import Path

from .gitrepo import facts_of

_DESCRIPTION = "Package: tool\nTitle: A Tool\nVersion: 0.1.0\nDepends:\n    R (>= 4.1)\nSuggests:\n    testthat\n"
_GUIDE = ("# Contributing\n\n*   Install all development dependencies with `devtools::install_dev_deps()`, "
          "and then make sure the package passes R CMD check by running `devtools::check()`.\n"
          "*   Start a branch with `usethis::pr_init(\"my-change\")`.\n")


def test_a_bare_r_call_in_the_guide_is_run_by_rscript(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"DESCRIPTION": _DESCRIPTION, "R/tool.R": "tool <- function() 1\n",
                                ".github/CONTRIBUTING.md": _GUIDE})
    test, where = facts.commands["test"]
    assert test == "Rscript -e 'devtools::check()'" and where.startswith(".github/CONTRIBUTING.md:3")
    assert facts.commands["setup"][0] == "Rscript -e 'devtools::install_dev_deps()'"
    # a call with an argument (text that could carry anything) is never made a command
    assert not any("pr_init" in c for c, _ in facts.commands.values())


def test_a_quoted_julia_call_is_read_and_anything_else_quoted_is_not(tmp_path: Path) -> None:
    project = 'name = "Tool"\nuuid = "3f1a2b9c-0000-4000-8000-000000000001"\n\n[compat]\njulia = "1.6"\n'
    guide = ("# Contributing\n\n## Testing\n\nRun the tests with:\n\n```sh\njulia --project -e 'using Pkg; Pkg.test()'\n```\n\n"
             "## Cleaning\n\nRun:\n\n```sh\njulia -e 'run(`rm -rf build`)'\n```\n")
    facts = facts_of(tmp_path, {"Project.toml": project, "src/Tool.jl": "module Tool\nend\n",
                                "test/runtests.jl": "using Test\n", "CONTRIBUTING.md": guide})
    assert facts.commands["test"][0] == "julia --project -e 'using Pkg; Pkg.test()'"
    assert not any("rm -rf" in c for c, _ in facts.commands.values())


def test_a_path_through_the_clone_folder_is_read_inside_the_checkout(tmp_path: Path) -> None:
    readme = ("# app\n\n## Setting up for development\n\n* Check out project code:\n\n  ```sh\n"
              "  git clone https://github.com/example/app.git\n  ```\n\n* Install requirements into the virtualenv:\n\n"
              "  ```sh\n  pip install -r app/requirements.txt -r app/requirements-dev.txt\n  ```\n")
    facts = facts_of(tmp_path, {"README.md": readme, "requirements.txt": "Django==5.0\n",
                                "requirements-dev.txt": "pytest\n", "manage.py": "import django\n"})
    assert "pip install -r requirements.txt -r requirements-dev.txt" in {c for c, _ in facts.commands.values()}
