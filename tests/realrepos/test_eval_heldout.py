"""``eval_repos --repos DIR --expect DIR``: a held-out set may be bundles or plain git repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchmarks.eval_repos import clone, source_of


def _repo(path: Path) -> None:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "README.md").write_text("# x\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(path), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "commit", "-qm", "one"], check=True)


def test_a_git_tree_stands_in_for_a_missing_bundle(tmp_path: Path) -> None:
    _repo(tmp_path / "set" / "x")
    (tmp_path / "set" / "x" / "untracked.txt").write_text("not committed\n", encoding="utf-8")
    assert source_of(tmp_path / "set", "x") == tmp_path / "set" / "x"
    assert source_of(tmp_path / "set", "y") == tmp_path / "set" / "y.bundle"
    got = clone(source_of(tmp_path / "set", "x"), tmp_path / "clone")
    assert (got / "README.md").is_file() and not (got / "untracked.txt").exists()
