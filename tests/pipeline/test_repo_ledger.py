"""A git repository's ledger: every file the reader looks at ends read, failed or passed over (issue 29).

Repositories are built with ``git`` (a submodule added with ``git submodule add``); the corpus
test clones every bundle of the real-data folder (``MEMSEED_REALDATA``, skipped cleanly when
absent) and reads it through the git source alone (no proposals: the ledger is the reader's).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.report.ledger import ledger_of
from bootstrap_app.store import Store
from connectors.base import ReadContext
from connectors.local.git_repo import GitRepoSource
from connectors.local.repo_files import LOCKFILE, OUTSIDE, PAST_BUDGET, PROGRAM, SUBMODULE

from .gitrepo import build, read

_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Dana", "GIT_AUTHOR_EMAIL": "dana@example.org", "GIT_COMMITTER_NAME": "Dana",
        "GIT_COMMITTER_EMAIL": "dana@example.org", "GIT_CONFIG_NOSYSTEM": "1"}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "protocol.file.allow=always", *args], check=True,
                   capture_output=True, env=_ENV)


def _ledger(ctx: ReadContext, items: int = 1):  # type: ignore[no-untyped-def]
    units = None if ctx.units_read is None else (ctx.units_read, ctx.units_failed)
    return ledger_of(ctx.found, items, ctx.skips, ctx.notes, set(), ctx.passed, units)


def test_every_file_looked_at_is_read_or_skipped_with_its_reason(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("Run `make test`.\n", encoding="utf-8")
    files: dict[str, str | bytes] = {
        "README.md": "# Tool\n\nA tool for widgets.\n",
        "HACKING.md": b"\x00\x01binary\x00 named like a doc\n",
        "CONTRIBUTING.md": "Run `make lint`, caf\xe9.\n".encode("latin-1"),
        "package.json": '{"name": "tool", "scripts": {"test": "jest",}}\n',  # a trailing comma: not JSON
        "pyproject.toml": "[project]\nname = 'tool'\n",
        "Cargo.toml": "[package\nname = 1\n",  # an unclosed table header
        "uv.lock": "version = 1\n",
        "Taskfile.yml": "version: '3'\n",
        "Makefile": "test:\n\ttrue\n",
        "bin/tool": b"\x7fELF\x02\x01\x01\x00\x00\x00 a compiled program",  # a program, not a broken script
    }
    repo = build(tmp_path, files, links={"docs/CONTRIBUTING.md": str(outside)})
    lib = build(tmp_path, {"README.md": "# lib\n"}, name="lib")
    _git(repo, "submodule", "add", "-q", str(lib), "scripts/tool")
    _git(repo, "commit", "-q", "-m", "add a submodule")
    (repo / "Taskfile.yml").unlink()  # tracked, gone from the working copy
    snapshot, ctx = read(repo)
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "binary" in reasons["HACKING.md"] and "not UTF-8" in reasons["CONTRIBUTING.md"]
    assert "does not parse" in reasons["package.json"] and "does not parse" in reasons["Cargo.toml"]
    assert "absent from the working copy" in reasons["Taskfile.yml"]
    assert "submodule" in reasons["scripts/tool"] and "outside the repository" in reasons["docs/CONTRIBUTING.md"]
    assert "pyproject.toml" not in reasons and snapshot.files["pyproject.toml"].startswith("[project]")
    ledger = _ledger(ctx)
    assert ledger.balanced, ledger.to_json()
    # read: README, pyproject.toml, Makefile; failed: 5; passed: lock, submodule, link, program
    assert (ledger.found, ledger.read, ledger.failed_units) == (12, 3, 5), (ledger.to_json(), reasons)
    assert ledger.passed == {LOCKFILE: 1, SUBMODULE: 1, OUTSIDE: 1, PROGRAM: 1}


def test_files_past_the_budget_are_counted_and_a_clean_scan_is_complete(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {f".github/workflows/w{n:03}.yml": "on: push\n" for n in range(105)}
    files["README.md"] = "# Flows\n\nMany workflows.\n"
    repo = build(tmp_path, files)
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        result = scan([str(repo)], settings=settings, store=store)
    (report,) = result.reports
    assert report.counted and report.ledger is not None and report.ledger.balanced
    assert (report.ledger.found, report.ledger.read) == (106, 101)
    assert report.ledger.passed == {PAST_BUDGET: 5} and not report.partial and result.status == "complete"
    with Store(settings.db_path) as store:  # unchanged HEAD: one unit, passed over, still balanced
        again = scan([str(repo)], settings=settings, store=store, incremental=True)
    (report,) = again.reports
    assert report.ledger is not None and report.ledger.balanced and again.status == "complete"


def test_a_broken_doc_makes_the_scan_partial(tmp_path: Path) -> None:
    repo = build(tmp_path, {"README.md": "# Tool\n", "CONTRIBUTING.md": b"\x00\x00binary"})
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        result = scan([str(repo)], settings=settings, store=store)
    (report,) = result.reports
    assert report.ledger is not None and report.ledger.to_json()["failed"] == 1 and report.ledger.balanced
    assert report.partial and result.status == "partial"


def _bundles() -> list[Path]:
    from tests.conftest import REALDATA

    return sorted((REALDATA / "repos").glob("*.bundle")) if (REALDATA / "repos").is_dir() else []


@pytest.mark.parametrize("bundle", _bundles() or [None], ids=lambda b: b.stem if b else "absent")
def test_every_real_repository_balances(tmp_path: Path, bundle: Path | None) -> None:
    """Each real repository, cloned from its bundle: found = read + skipped, and what it reports."""
    if bundle is None:
        pytest.skip("no repository bundles in the real-data folder")
    repo = tmp_path / bundle.stem
    subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True, capture_output=True, env=_ENV)
    ctx = ReadContext()
    items = list(GitRepoSource(repo).read(ctx))
    assert len(items) == 1
    ledger = _ledger(ctx)
    print(f"LEDGER {bundle.stem}: {ledger.to_json()}")
    assert ctx.counted and ledger.balanced, (ledger.to_json(), ctx.skips[:5])
    assert ledger.read > 0  # every one of them has at least a README
