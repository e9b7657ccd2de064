"""Git repositories built with real `git` commands: snapshot, stats, redaction, empty repo."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import Repo
from connectors.base import ReadContext
from connectors.local.git_repo import GitRepoSource, redact_url, selected_file
from connectors.registry import detect


def git(repo: Path, *args: str, who: tuple[str, str] = ("Maya Okafor", "maya@example.com"),
        when: str = "2024-03-01T10:00:00+00:00") -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_AUTHOR_DATE": when,
           "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1], "GIT_COMMITTER_DATE": when,
           "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "ledger-api"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "Maya@Example.com")
    (repo / "pyproject.toml").write_text('[project]\nname = "ledger-api"\n[tool.ruff]\nline-length = 100\n')
    (repo / "uv.lock").write_text("version = 1\n")
    (repo / "Makefile").write_text("test:\n\tuv run pytest\n")
    (repo / "README.md").write_text("# Ledger API\nRun `make test`. token = ghp_" + "a" * 36 + "\n")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (repo / "src").mkdir()
    for name in ("app.py", "models.py", "db.py"):
        (repo / "src" / name).write_text("print('x')\n")
    (repo / "web.ts").write_text("export {}\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Initial commit", when="2024-01-02T09:00:00+00:00")
    (repo / "src" / "api.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "feat: add api module", when="2024-02-03T09:00:00+00:00")
    (repo / "src" / "api.py").write_text("x = 2\n")
    git(repo, "commit", "-q", "-am", "fix: off by one", who=("Jon Reyes", "jon@example.com"),
        when="2024-03-04T09:00:00+00:00")
    git(repo, "remote", "add", "origin", "https://maya:s3cr3t-token@github.com/acme/ledger-api.git")
    return repo


def _read(repo: Path, **kw: object) -> tuple[list[Repo], ReadContext]:
    ctx = ReadContext(**kw)  # type: ignore[arg-type]
    return list(GitRepoSource(repo).read(ctx)), ctx  # type: ignore[arg-type]


def test_repo_snapshot(tmp_path: Path) -> None:
    repo_path = _repo(tmp_path)
    [src] = detect(repo_path)
    assert isinstance(src, GitRepoSource)
    [repo], ctx = _read(repo_path)
    assert repo.ref == str(repo_path.resolve()) and repo.name == "ledger-api"
    assert repo.remote_url == "https://github.com/acme/ledger-api.git"
    assert repo.default_branch == "main"
    assert repo.commit_count == 3
    assert repo.authors == (("Maya Okafor", "maya@example.com", 2), ("Jon Reyes", "jon@example.com", 1))
    assert repo.recent_subjects == ("fix: off by one", "feat: add api module", "Initial commit")
    assert repo.first_commit == datetime(2024, 1, 2, 9, 0, tzinfo=UTC)
    assert repo.last_commit == datetime(2024, 3, 4, 9, 0, tzinfo=UTC) == repo.timestamp
    assert repo.git_user_email == "maya@example.com"
    assert repo.languages["Python"] == 4 and repo.languages["TypeScript"] == 1
    assert set(repo.files) == {"pyproject.toml", "uv.lock", "Makefile", "README.md", ".github/workflows/ci.yml"}
    assert "line-length = 100" in repo.files["pyproject.toml"]
    assert repo.files["uv.lock"].startswith("[lockfile present")
    assert "ghp_" not in repo.files["README.md"]
    assert "src/app.py" in repo.file_list
    assert ctx.new_cursor and len(ctx.new_cursor["head"]) == 40
    unchanged, _ = _read(repo_path, cursor=ctx.new_cursor)
    assert unchanged == []
    assert _read(repo_path, since=datetime(2025, 1, 1, tzinfo=UTC))[0] == []


def test_empty_repository(tmp_path: Path) -> None:
    repo = tmp_path / "fresh"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "trunk")
    (repo / "README.md").write_text("# Fresh\n")
    [item], ctx = _read(repo)
    assert item.commit_count == 0 and item.authors == () and item.last_commit is None
    assert item.default_branch == "trunk" and "README.md" in item.files
    assert not ctx.skips


def test_not_a_repo_and_missing(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / ".git").mkdir(parents=True)
    with pytest.raises(SourceError, match="not a readable git repository"):
        _read(fake)
    with pytest.raises(SourceNotFound):
        _read(tmp_path / "missing")


def test_url_redaction_and_selection() -> None:
    assert redact_url("https://x-access-token:ghs_abc@github.com/o/r") == "https://github.com/o/r"
    assert redact_url("git@github.com:o/r.git") == "git@github.com:o/r.git"
    assert selected_file("package.json") and selected_file(".github/workflows/deploy.yaml")
    assert selected_file("scripts/deploy-prod.sh") and selected_file("docs/CODEOWNERS")
    assert not selected_file("src/package.json") and not selected_file("notes.txt")


def test_many_workflows_do_not_crowd_out_top_level_files(tmp_path: Path) -> None:
    repo = tmp_path / "busy"
    (repo / ".github" / "workflows").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for i in range(150):  # sorted before README/package.json by git ("." < "R")
        (repo / ".github" / "workflows" / f"w{i:03d}.yml").write_text("on: push\njobs: {}\n")
    (repo / "README.md").write_text("# busy\n\nbusy is a test repository.\n")
    (repo / "package.json").write_text('{"scripts": {"test": "vitest run"}}')
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    [snap], _ = _read(repo)
    assert "README.md" in snap.files and "package.json" in snap.files
    assert sum(p.startswith(".github/workflows/") for p in snap.files) == 100
