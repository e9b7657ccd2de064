"""The expectation files of ``tests/realrepos/`` are well formed and cite lines that exist.

Each TOML is checked against the schema (``benchmarks.repo_expect.problems``: unique fact ids,
regexes that compile, purposes from the list, ``path:line`` citations), and every citation is
checked against the repository it describes: the file exists in the bundle's HEAD
(``git show HEAD:path`` on a clone), the line is in range, and for a documented command the
cited line holds ``line_has``. Clean skip when the real-data folder is absent.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from benchmarks.repo_expect import EXPECT_DIR, Expectation, load_all, problems, split_where
from tests.conftest import realdata_file

EXPECTATIONS = load_all()


def test_there_are_expectation_files() -> None:
    assert len(EXPECTATIONS) >= 8
    assert len({e.repo for e in EXPECTATIONS}) == len(EXPECTATIONS)


@pytest.mark.realdata
def test_one_expectation_file_per_bundle() -> None:
    bundles = {p.stem for p in realdata_file("repos").glob("*.bundle")}
    assert bundles == {e.repo for e in EXPECTATIONS}


@pytest.mark.parametrize("exp", EXPECTATIONS, ids=lambda e: e.repo)
def test_expectation_file_follows_the_schema(exp: Expectation) -> None:
    assert problems(exp) == []


def _show(repo: Path, path: str) -> list[str] | None:
    done = subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{path}"], capture_output=True, check=False)
    return done.stdout.decode("utf-8", "replace").splitlines() if done.returncode == 0 else None


@pytest.mark.realdata
@pytest.mark.parametrize("exp", EXPECTATIONS, ids=lambda e: e.repo)
def test_every_citation_names_a_line_of_the_bundle_head(exp: Expectation, tmp_path: Path) -> None:
    bundle = realdata_file("repos", f"{exp.repo}.bundle")  # skip without the folder, fail without the file
    repo = tmp_path / exp.repo
    subprocess.run(["git", "clone", "-q", "--bare", str(bundle), str(repo)], check=True, capture_output=True)
    branch = subprocess.run(["git", "-C", str(repo), "symbolic-ref", "--short", "HEAD"], capture_output=True,
                            check=True, text=True).stdout.strip()
    assert branch == exp.branch
    bad: list[str] = []
    cited = [(f"fact {f.id}", f.where, "") for f in exp.facts if f.where]
    cited += [(f"command {c.purpose} {c.forms[0]!r}", c.where, c.line_has) for c in exp.commands]
    for label, where, line_has in cited:
        path, line = split_where(where) or ("", 0)
        lines = _show(repo, path)
        if lines is None:
            bad.append(f"{label}: {path} is not in HEAD")
        elif not 1 <= line <= len(lines):
            bad.append(f"{label}: {where} is past the end ({len(lines)} lines)")
        elif line_has and line_has not in lines[line - 1]:
            bad.append(f"{label}: {where} does not hold {line_has!r}: {lines[line - 1].strip()[:80]!r}")
    assert not bad, "\n".join(bad)


def test_schema_check_catches_broken_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(
        'repo = "other"\necosystem = "cobol"\n'
        '[[fact]]\nid = "a"\nmatch = ["("]\n[[fact]]\nid = "a"\nmatch = ["x"]\nwhere = "README"\n'
        '[[command]]\npurpose = "deploy"\nforms = ["make ["]\nwhere = "Makefile:0"\n'
        '[[never]]\nmatch = "x"\n', encoding="utf-8")
    from benchmarks.repo_expect import load
    found = "\n".join(problems(load(broken)))
    for expected in ("names repo 'other'", "unknown ecosystem", "fact id 'a' is not unique", "fact a: bad regex",
                     "is not path:line", "purpose not one of", "command #1 (deploy): bad regex",
                     "line_has is required", "why is required"):
        assert expected in found
    assert EXPECT_DIR.is_dir()
