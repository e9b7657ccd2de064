"""A CI line that changes the dependencies is not the step its name announces.

"Add require for mongodb/mongodb to make tests runnable" runs ``composer require … --dev`` in a
test job: the step's name says "tests", but the line prepares the job, so it must not become the
project's test command (held-out check, issue 19)."""

from __future__ import annotations

from bootstrap_app.signals.repo_tasks import ci_tasks

_WORKFLOW = """\
name: CI
on: [push, pull_request]
jobs:
  tests:
    runs-on: ubuntu-latest
    steps:
      - name: Add require for a driver to make tests runnable
        run: composer require vendor/driver --dev --no-update
      - name: Run tests
        run: composer exec phpunit
"""


def test_a_dependency_change_takes_no_kind_from_the_step_name() -> None:
    tasks = ci_tasks({".github/workflows/ci.yml": _WORKFLOW}, [])
    by_command = {t.command: t.kind for t in tasks}
    assert "composer require vendor/driver --dev --no-update" not in by_command
    assert by_command.get("composer exec phpunit") == "test"  # the line that runs the tests stays


def test_a_test_group_selection_is_a_narrow_leg() -> None:
    workflow = _WORKFLOW.replace("composer exec phpunit", "composer exec phpunit -- --exclude-group Slow")
    tasks = ci_tasks({".github/workflows/ci.yml": workflow}, [])
    assert not [t for t in tasks if "--exclude-group" in t.command]


_CABAL = """\
name: CI
on: [push, pull_request]
jobs:
  cabal:
    runs-on: ubuntu-latest
    steps:
      - name: Build
        run: |
          cabal update
          cabal build --enable-tests
      - name: Documentation
        run: cabal haddock --enable-documentation
"""


def test_a_package_index_update_is_not_the_build_and_haddock_is_the_docs() -> None:
    """``cabal update`` fetches the package index before the build a "Build" step runs; ``cabal
    haddock`` builds the API docs whatever the step is called."""
    by_command = {t.command: t.kind for t in ci_tasks({".github/workflows/ci.yml": _CABAL}, [])}
    assert "cabal update" not in by_command
    assert by_command.get("cabal build --enable-tests") == "build"
    assert by_command.get("cabal haddock --enable-documentation") == "docs"
