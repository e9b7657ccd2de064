"""Newcomer scans of eight real repositories (git bundles in ../shared/realdata/repos).

A scan with no ``--owner`` — someone who just joined and has no commits — must propose what
the project's own files state (``realrepo_facts.FACTS``, goal ≥ 90% each), no command a person
could not run at the root (CI-only variables, matrix placeholders) or that the repository does
not declare, and no CODEOWNERS or maintainers the repository does not list. Clean skip when the
real-data folder is absent. Run with ``-s`` to see the per-repository recall.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from tests.conftest import realdata_file

from .realrepo_facts import FACTS, recall

pytestmark = pytest.mark.realdata

# commands memseed builds without copying them (package-manager / language defaults)
_BUILT = re.compile(r"^(?:(?:uv|poetry|pdm) run )?(?:cargo (?:test|clippy|fmt|build)|go (?:test|vet|build) \./\.\.\."
                    r"|gofmt -l \.|go mod download|(?:npm|pnpm|yarn|bun) install|uv sync|poetry install|pdm install"
                    r"|ruff check \.|ruff format \.|mypy \.|pyright|pytest|golangci-lint fmt)$")
_RUNNERS = ("make", "just", "task", "npm", "pnpm", "yarn", "bun", "tox", "nox", "poe", "hatch", "cargo")
_COMMAND_LINE = re.compile(r"^- (?:Setup|Test|Lint|Format|Type check|Build|Release/deploy): (.*)$", re.M)


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)


def _declared(repo: Path, cmd: str) -> bool:
    """The repository itself holds ``cmd``: verbatim in a tracked file, as a tracked path, or as
    a runner invocation whose task name a tracked file defines."""
    if _BUILT.match(cmd) or _git(repo, "ls-files", "--error-unmatch", cmd).returncode == 0:
        return True
    if _git(repo, "grep", "-q", "-F", "-e", cmd).returncode == 0:
        return True
    words = cmd.split()
    # a CI line without the flags that only dress CI's log (`--color=always`, `--junitxml=…`)
    space, flag = "[[:space:]]", "--?[A-Za-z][A-Za-z0-9_-]*(=[^[:space:]]+)?"  # POSIX classes: git grep -E
    dressed = f"({space}+{flag})*{space}+".join(re.escape(w) for w in words)
    if len(words) >= 2 and _git(repo, "grep", "-q", "-E", "-e", f"(^|{space}){dressed}({space}|$)").returncode == 0:
        return True
    if words[0] in _RUNNERS and len(words) >= 2:
        target = words[-1].removeprefix("-e").removeprefix("-s")
        return _git(repo, "grep", "-q", "-E", "-e", rf"(^|[\"' ]){re.escape(target)}[\"']?\s*[:=]").returncode == 0
    return False


@pytest.mark.parametrize("name", sorted(FACTS))
def test_newcomer_scan_states_what_the_repository_states(name: str, tmp_path: Path) -> None:
    bundle = realdata_file("repos", f"{name}.bundle")  # skip without the real-data folder, fail without the file
    repo = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True, capture_output=True)
    result = scan([str(repo)], settings=load_settings())
    assert result.proposals, f"{name}: no proposal at all (quarantined: {result.quarantined})"
    assert not [q for q in result.quarantined if q.reason == "instruction-without-owner-evidence"]
    texts = [f"{p.description}\n{p.body}" for p in result.proposals]
    share, missing = recall(name, texts)
    print(f"\n[{name}] newcomer fact recall {share:.0%} ({len(FACTS[name]) - len(missing)}/{len(FACTS[name])})"
          + (f"; missing: {', '.join(missing)}" if missing else ""))
    assert share >= 0.9, (name, missing)
    body = "\n".join(texts)
    commands = [c for line in _COMMAND_LINE.findall(body) for c in re.findall(r"`([^`]+)`", line)]
    assert commands
    bad = [c for c in commands if "$" in c or "{{" in c or "matrix." in c or not _declared(repo, c)]
    assert not bad, f"{name}: CI-only or invented commands {bad}"
    has_owners_file = any(_git(repo, "ls-files", "--error-unmatch", p).returncode == 0
                          for p in ("CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS"))
    assert ("CODEOWNERS:" in body) == has_owners_file
    if has_owners_file:
        listed = _git(repo, "grep", "-h", "-o", "@[A-Za-z0-9_./-]*", "--", "*CODEOWNERS").stdout.decode()
        for handle in re.search(r"CODEOWNERS: (.*)", body).group(1).split(", "):  # type: ignore[union-attr]
            assert handle in listed
    for p in result.proposals:  # the date range of the evidence travels with every proposal
        assert p.evidence_from is not None and p.evidence_to is not None and p.evidence_from <= p.evidence_to
