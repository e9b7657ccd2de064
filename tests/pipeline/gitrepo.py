"""Synthetic repositories built with ``git`` for the repository rules: files in, facts out.

Every test of a rule makes the files a project of that shape keeps, commits them with real
``git`` and reads them back through the real git source, so what the rule sees is exactly what a
scan of such a checkout sees (selection, caps, skips).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bootstrap_app.signals.repos import RepoFacts, repo_facts
from bootstrap_app.types import Repo
from connectors.base import ReadContext
from connectors.local.git_repo import GitRepoSource

__all__ = ["build", "facts_of", "read"]


def _git(repo: Path, *args: str) -> None:
    who = ("Dana Builder", "dana@example.org")
    env = {**os.environ, "GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_COMMITTER_NAME": who[0],
           "GIT_COMMITTER_EMAIL": who[1], "GIT_AUTHOR_DATE": "2026-01-05T10:00:00+00:00",
           "GIT_COMMITTER_DATE": "2026-01-05T10:00:00+00:00", "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def build(root: Path, files: dict[str, str | bytes], name: str = "proj", links: dict[str, str] | None = None) -> Path:
    """A git repository at ``root/name`` holding ``files`` (and symlinks ``links``: path -> target), one commit."""
    repo = root / name
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    for rel, content in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        if rel.endswith(("gradlew", ".sh")) or rel.startswith(("scripts/", "bin/")):
            path.chmod(0o755)
    for rel, target in (links or {}).items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, repo / rel)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Initial commit")
    return repo


def read(repo: Path) -> tuple[Repo, ReadContext]:
    ctx = ReadContext()
    [snapshot] = list(GitRepoSource(repo).read(ctx))
    assert isinstance(snapshot, Repo)
    return snapshot, ctx


def facts_of(root: Path, files: dict[str, str | bytes], **kw: object) -> RepoFacts:
    snapshot, _ = read(build(root, files, **kw))  # type: ignore[arg-type]
    return repo_facts(snapshot)
