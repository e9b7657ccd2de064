"""What a contributor guide points to, and what a repository's own files declare.

A CONTRIBUTING that links to the repository's AI policy makes that policy part of the guides
(relative, root-relative and ``github.com/…/blob/…`` links; never README, LICENSE or the code of
conduct, which have roles of their own). A Deno or Dart pub workspace declares its packages in
its own manifest; Sphinx is configured by ``docs/conf.py``; an rst ```pre-commit`_`` is a link,
not a command.
"""

from __future__ import annotations

import json

from bootstrap_app.signals.repo_conventions import config_tools, linked_guides, workspace_packages
from bootstrap_app.signals.repos import repo_facts
from bootstrap_app.types import Repo

_GUIDE = """# Contributing

Please read our [AI Policy](/.github/AI_POLICY.md), the [release notes](../docs/dev/releasing.md)
and the [style guide][style], as well as our [Code of Conduct](CODE_OF_CONDUCT.md) and the [README](../README.md).

[style]: https://github.com/acme/proj/blob/main/STYLE.md
"""


def test_docs_a_guide_links_to_are_guides_too() -> None:
    listed = {".github/CONTRIBUTING.md", ".github/AI_POLICY.md", "docs/dev/releasing.md", "STYLE.md",
              ".github/CODE_OF_CONDUCT.md", "README.md"}
    found = linked_guides({".github/CONTRIBUTING.md": _GUIDE}, (".github/CONTRIBUTING.md",), listed)
    assert found == (".github/AI_POLICY.md", "docs/dev/releasing.md", "STYLE.md")
    assert linked_guides({".github/CONTRIBUTING.md": _GUIDE}, (".github/CONTRIBUTING.md",), {"README.md"}) == ()
    f = repo_facts(Repo(source="git:/x", ref="x", path="/code/x", name="x", default_branch="main",
                        files={".github/CONTRIBUTING.md": _GUIDE}, file_list=tuple(sorted(listed))))
    assert ".github/AI_POLICY.md" in f.guides


def test_deno_and_dart_workspaces_and_a_sphinx_config() -> None:
    deno = {"deno.json": json.dumps({"workspace": ["./packages/*", "./www"], "tasks": {"test": "deno test"}})}
    assert workspace_packages(deno, {}) == ("./packages/*", "./www")
    pub = {"pubspec.yaml": "name: root\nenvironment:\n  sdk: ^3.6.0\nworkspace:\n  - packages/a\n  - packages/b\n"}
    assert workspace_packages(pub, {}) == ("packages/a", "packages/b")
    assert "sphinx" in config_tools({"docs/conf.py", "docs/index.rst"}, {}, "", {})
    assert "sphinx" not in config_tools({"conf.py"}, {}, "", {})


_HOOKS = """repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.9.0
    hooks:
      - id: ruff
"""


def test_an_rst_link_to_a_tool_is_not_a_command() -> None:
    guide = ("Code Style\n~~~~~~~~~~\n\nWe orchestrate our linters with `pre-commit`_. It can be installed locally and "
             "run over your changes.\n\n.. _pre-commit: https://pre-commit.com/\n")
    f = repo_facts(Repo(source="git:/x", ref="x", path="/code/x", name="x", default_branch="main",
                        files={"docs/contributing.rst": guide, ".pre-commit-config.yaml": _HOOKS,
                               "pyproject.toml": "[project]\nname = 'x'\n"},
                        file_list=("docs/contributing.rst", ".pre-commit-config.yaml", "pyproject.toml")))
    assert all(cmd != "pre-commit" for cmd, _ in f.commands.values()), f.commands
