"""What is *not* the project's command: CI's dressed-up variants and special-purpose tasks.

A newcomer is told ``make test``; CI's ``make ci`` (the same pytest line plus a JUnit report),
a pre-commit run with CI's colour and diff flags, an example app's build, the website's build,
a publish dry-run, a check of the published release and a docs-site deploy script are not
commands a contributor runs. Each case is a small, realistic file set read by the real parsers.
"""

from __future__ import annotations

import json

from bootstrap_app.signals.repo_tasks import special_purpose
from bootstrap_app.signals.repo_tools import kind_of_name, runnable
from bootstrap_app.signals.repos import RepoFacts, repo_facts
from bootstrap_app.types import Repo

_WORKFLOW = """name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run tests
        run: make ci
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pre-commit run --show-diff-on-failure --color=always --all-files
"""


def facts(files: dict[str, str], listed: tuple[str, ...] = ()) -> RepoFacts:
    return repo_facts(Repo(source="git:/x", ref="x", path="/code/x", name="x", default_branch="main",
                           files=files, file_list=(*files, *listed), languages={"Python": 10}))


def test_ci_presentation_flags_are_not_part_of_the_command() -> None:
    assert runnable("pre-commit run --show-diff-on-failure --color=always --all-files") == "pre-commit run --all-files"
    assert runnable("python -m pytest tests --junitxml=report.xml") == "python -m pytest tests"
    assert runnable("mvn --batch-mode --no-transfer-progress verify") == "mvn verify"
    assert runnable("pytest -k color") == "pytest -k color"  # a value, not a flag: kept


def test_a_ci_target_that_reruns_the_tests_with_a_report_is_not_a_second_command() -> None:
    f = facts({"Makefile": "init:\n\tpython -m pip install -r requirements-dev.txt\ntest:\n\tpython -m pytest tests\n\n"
                           "ci:\n\tpython -m pytest tests --junitxml=report.xml\n",
               ".github/workflows/ci.yml": _WORKFLOW, ".pre-commit-config.yaml": "repos: []\n",
               "pyproject.toml": "[project]\nname = 'x'\n"})
    assert f.commands["test"][0] == "make test"
    assert "test" not in f.ci_commands and "make ci" not in f.also.get("test", ())
    assert f.commands["lint"][0] == "pre-commit run --all-files"


def test_a_ci_target_that_runs_something_else_is_still_named() -> None:
    f = facts({"Makefile": "test:\n\tpython -m pytest tests\nci:\n\tpython -m pytest tests -m slow\n",
               ".github/workflows/ci.yml": _WORKFLOW, "pyproject.toml": "[project]\nname = 'x'\n"})
    assert f.ci_commands.get("test") == "make ci"


def test_an_example_app_or_website_build_is_not_the_project_build() -> None:
    pkg = {"name": "x", "scripts": {"build:example:apk": "flutter build apk", "build-www": "cd www && vite build",
                                    "test": "vitest run"}}
    f = facts({"package.json": json.dumps(pkg)})
    assert "build" not in f.commands, f.commands
    pkg["scripts"]["bundle"] = "tsup src/index.ts"
    assert facts({"package.json": json.dumps(pkg)}).commands["build"][0] == "npm run bundle"
    assert special_purpose("melos run build:example:apk", "build") and special_purpose("deno task build-www", "build")
    assert not special_purpose("make docs", "docs") and not special_purpose("npm run test:coverage", "test")


def test_a_release_rehearsal_or_a_check_of_the_release_is_neither_release_nor_tests() -> None:
    assert kind_of_name("publish-dry-run") == "" and kind_of_name("test-release") == ""
    assert kind_of_name("publish") == "release" and kind_of_name("build-release") == "release"
    f = facts({"bin/test-release.sh": "#!/bin/sh\ncoursier fetch x\n", "scripts/publish-dry-run.sh": "#!/bin/sh\n",
               "scripts/deploy_docs_status.py": "import github\n", "scripts/deploy.sh": "#!/bin/sh\n"})
    assert "release" not in f.commands and "test" not in f.commands
    assert "scripts/deploy.sh" in f.release and "scripts/deploy_docs_status.py" not in f.release
