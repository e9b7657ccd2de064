"""The demo repositories are real git repositories whose files and history match PERSONA."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from datetime import datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from demo_helpers import git

from bootstrap_app.demo import DEMO_ANCHOR, PERSONA

CONVENTIONAL = re.compile(r"^(feat|fix|chore|docs|test|ci|perf|refactor|build|style)(\([\w.-]+\))?!?: \S")
REPOS = {r["name"]: r for r in PERSONA["repos"]}


def _log(repo: Path) -> list[tuple[str, str, datetime, str]]:
    out = git(repo, "log", "--format=%an%x1f%ae%x1f%aI%x1f%s")
    rows = [line.split("\x1f") for line in out.splitlines()]
    return [(n, e, datetime.fromisoformat(d), s) for n, e, d, s in rows]


@pytest.mark.parametrize("name", REPOS)
def test_repo_basics(where: dict[str, Path], name: str) -> None:
    repo = where[name]
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == REPOS[name]["default_branch"]
    assert git(repo, "config", "user.email").strip() == PERSONA["work_email"]
    assert git(repo, "status", "--porcelain") == "", "work tree matches HEAD"
    git(repo, "fsck", "--strict", "--no-progress")
    assert "northwind-labs" in git(repo, "remote", "get-url", "origin")


@pytest.mark.parametrize(("name", "low", "high", "other"), [("ledger-api", 20, 30, "Priya Raman"),
                                                             ("deploy-console", 12, 18, "Tom Becker")])
def test_history(where: dict[str, Path], name: str, low: int, high: int, other: str) -> None:
    log = _log(where[name])
    assert low <= len(log) <= high
    authors = Counter(n for n, *_ in log)
    assert authors.most_common(1)[0][0] == PERSONA["name"] and authors[other] >= 3
    assert set(authors) == {PERSONA["name"], other}
    assert all(CONVENTIONAL.match(s) for *_, s in log), [s for *_, s in log if not CONVENTIONAL.match(s)]
    tz = ZoneInfo(PERSONA["timezone"])
    start, end = (time.fromisoformat(t) for t in PERSONA["working_hours"])
    for _n, email, when, _s in log:
        assert DEMO_ANCHOR - timedelta(days=160) <= when <= DEMO_ANCHOR
        if email == PERSONA["work_email"]:
            assert start <= when.astimezone(tz).time() <= end


def test_ledger_api_files(where: dict[str, Path]) -> None:
    repo, facts = where["ledger-api"], REPOS["ledger-api"]
    tracked = set(git(repo, "ls-files").split())
    assert {"pyproject.toml", "uv.lock", "Makefile", ".github/workflows/ci.yml", ".github/CODEOWNERS",
            "README.md", "CONTRIBUTING.md"} <= tracked
    assert Counter(Path(p).suffix for p in tracked)[".py"] >= 8
    pyproject = tomllib.loads((repo / "pyproject.toml").read_text())
    assert "ruff" in pyproject["tool"] and "pytest" in pyproject["tool"]
    assert any(d.startswith("pytest") for d in pyproject["dependency-groups"]["dev"])
    lock = tomllib.loads((repo / "uv.lock").read_text())
    assert lock["version"] == 1 and any(p["name"] == "ruff" for p in lock["package"])
    ci = yaml.safe_load((repo / ".github/workflows/ci.yml").read_text())
    runs = [step.get("run", "") for step in ci["jobs"]["test"]["steps"]]
    assert facts["test"] in runs and facts["lint"] in runs
    makefile = (repo / "Makefile").read_text()
    assert re.search(rf"^test:\n\t{re.escape(facts['test'])}$", makefile, re.M)
    assert re.search(r"^lint:\n\t", makefile, re.M)
    assert (repo / ".github/CODEOWNERS").read_text().split() == ["*", "@maya-okafor", "@priya-raman"]
    assert facts["purpose"] in (repo / "README.md").read_text()
    assert facts["commit_convention"] in (repo / "CONTRIBUTING.md").read_text()


def test_deploy_console_files(where: dict[str, Path]) -> None:
    repo, facts = where["deploy-console"], REPOS["deploy-console"]
    staged = {line.split("\t")[1]: line.split()[0] for line in git(repo, "ls-files", "-s").splitlines()}
    assert staged[facts["deploy"]] == "100755"
    assert {"package.json", "pnpm-lock.yaml", "tsconfig.json", ".github/workflows/ci.yml"} <= set(staged)
    scripts = json.loads((repo / "package.json").read_text())["scripts"]
    assert "vitest" in scripts["test"] and "eslint" in scripts["lint"]
    assert "prettier" in scripts["format"] and scripts["build"]
    assert yaml.safe_load((repo / "pnpm-lock.yaml").read_text())["lockfileVersion"] == "9.0"
    assert json.loads((repo / "tsconfig.json").read_text())["compilerOptions"]["strict"] is True
    ci = yaml.safe_load((repo / ".github/workflows/ci.yml").read_text())
    runs = [step.get("run", "") for step in ci["jobs"]["build"]["steps"]]
    assert facts["test"] in runs and facts["lint"] in runs and facts["build"] in runs
    assert Counter(Path(p).suffix for p in staged)[".ts"] >= 4


def test_story_commits_have_real_diffs(where: dict[str, Path]) -> None:
    for name in REPOS:
        stats = git(where[name], "log", "--format=%x1e", "--shortstat").split("\x1e")[1:]
        assert all("changed" in chunk for chunk in stats), f"{name} has an empty commit"
