"""The evaluator's scoring (``benchmarks.repo_score``) on a synthetic repository and proposals.

The figures ``make eval-repos`` prints are only as good as these functions: which spans of a
proposal are commands, when a command counts as proven, what a never-list hit is, and how
recall and precision are computed. Each case below has a wrong answer the function could give.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.eval_repos import main
from benchmarks.repo_expect import EXPECT_DIR, DocCommand, Expectation, Fact, Never, load
from benchmarks.repo_score import Tree, proposed_commands, prove, score
from tests.conftest import realdata_file

BODY = """demo — a tool.
- Stack: Go; package manager: none
- Test: `make test` → `go test ./...` (Makefile); CI runs `go test -tags sonic ./...`
- Lint: `golangci-lint run` (CI); also `make vet`, `make nosuch`
- Format (pkg/a): `gofmt -l .`
- Release/deploy: `.goreleaser.yaml`, `scripts/release.sh`
- Build: `npm run build`
- Docs: `deploy ${{ matrix.site }}`
- Changelog: `CHANGELOG.md`
"""


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    (tmp_path / "Makefile").write_text("test:\n\tgo test ./...\nvet:\n\tgo vet ./...\n", encoding="utf-8")
    (tmp_path / "go.mod").write_text("module demo\n\ngo 1.25\n", encoding="utf-8")
    (tmp_path / ".golangci.yml").write_text("version: '2'\n", encoding="utf-8")
    (tmp_path / "package.json").write_text('{"scripts": {"lint": "eslint ."}}', encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "release.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    return Tree(tmp_path)


def _exp() -> Expectation:
    return Expectation(
        repo="demo", upstream="", ecosystem="go", branch="main",
        facts=(Fact("go-1.25", (r"(?i)go\s*1\.25",)), Fact("stack-go", (r"Stack: Go",)),
               Fact("changelog", (r"CHANGELOG\.md",)), Fact("branch", (r"Default branch: `main`",))),
        commands=(DocCommand("test", ("make test",), "Makefile:1", "test:"),
                  DocCommand("lint", ("golangci-lint run",), "Makefile:3", "vet:"),
                  DocCommand("docs", ("make docs",), "Makefile:1", "test:")),
        never=(Never(r"-tags ", "a CI matrix leg"),), path=Path("demo.toml"))


def test_commands_are_read_from_command_lines_only() -> None:
    assert proposed_commands([BODY, "- Test: `make test`\nprose with `make fake`\n"]) == [
        "make test", "go test -tags sonic ./...", "golangci-lint run", "make vet", "make nosuch", "gofmt -l .",
        "scripts/release.sh", "npm run build", "deploy ${{ matrix.site }}"]


def test_a_command_is_proven_by_the_documented_forms_or_by_the_tree(tree: Tree) -> None:
    exp = _exp()
    assert prove("make  test", exp, tree) == "doc"  # spacing does not matter
    assert prove("make vet", exp, tree) == "target"
    assert prove("make nosuch", exp, tree) is None  # no such Makefile target
    assert prove("npm run build", exp, tree) is None  # package.json has no build script
    assert prove("npm run lint", exp, tree) == "target"
    assert prove("scripts/release.sh", exp, tree) == "file"
    assert prove("./scripts/missing.sh", exp, tree) is None
    assert prove("go test -tags sonic ./...", exp, tree) == "tool"  # proven, but a never-list hit below
    assert prove("golangci-lint run --fix", exp, tree) == "declared"  # .golangci.yml at the root
    assert prove("cargo test", exp, tree) is None  # no Cargo.toml
    assert prove("deploy ${{ matrix.site }}", exp, tree) is None


def test_a_chain_is_proven_part_by_part_and_matches_behind_documented_steps(tree: Tree) -> None:
    exp = _exp()
    assert prove("make vet && make test", exp, tree) == "doc"  # each part proven
    assert prove("make vet && make nosuch", exp, tree) is None  # one part proves nothing
    assert prove("cd pkg && make vet", exp, tree) == "target"
    # a documented step in front (a prerequisite) still finds the documented command; any other does not
    found = score(exp, ["- Lint: `make test && golangci-lint run`"], ["- Lint: `make test && golangci-lint run`"], tree)
    assert "lint: golangci-lint run" in found.docs_found
    other = score(exp, ["- Lint: `make vet && golangci-lint run`"], ["- Lint: `make vet && golangci-lint run`"], tree)
    assert "lint: golangci-lint run" in other.docs_missing


def test_automake_targets_are_proven_by_makefile_am(tmp_path: Path) -> None:
    (tmp_path / "configure.ac").write_text("AC_INIT([p], [1])\n", encoding="utf-8")
    (tmp_path / "Makefile.am").write_text("SUBDIRS = src\n", encoding="utf-8")
    exp, tree = _exp(), Tree(tmp_path)
    assert prove("make", exp, tree) == "target" and prove("make distcheck", exp, tree) == "target"
    assert prove("make check", exp, tree) is None  # automake's check target with no tests runs nothing
    assert prove("make lint", exp, tree) is None
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "Makefile.am").write_text("check_PROGRAMS = t\nTESTS = t\n", encoding="utf-8")
    assert prove("make check", exp, Tree(tmp_path)) == "target"


def test_score_counts_recall_precision_and_never_hits(tree: Tree) -> None:
    got = score(_exp(), [f"demo\n{BODY}"], [BODY], tree)
    assert got.facts_found == ["stack-go", "changelog"]
    assert got.facts_missing == ["go-1.25", "branch"]
    assert got.docs_found == ["test: make test", "lint: golangci-lint run"]
    assert got.docs_missing == ["docs: make docs"]
    assert got.fact_recall == 0.5
    assert got.command_recall == pytest.approx(2 / 3)
    assert got.recall == pytest.approx(4 / 7)
    unproven = sorted(c for c, why in got.proposed.items() if why is None)
    assert unproven == ["deploy ${{ matrix.site }}", "make nosuch", "npm run build"]
    assert got.precision == pytest.approx(6 / 9)
    assert got.never_hits == {"go test -tags sonic ./...": "a CI matrix leg",
                              "deploy ${{ matrix.site }}": "holds a CI placeholder"}


def test_nothing_proposed_has_no_precision(tree: Tree) -> None:
    got = score(_exp(), ["demo"], ["demo — a tool."], tree)
    assert got.proposed == {} and got.precision is None
    assert got.recall == 0.0


def test_git_dotfiles_declare_no_program(tree: Tree) -> None:
    (tree.root / ".gitignore").write_text("build/\n", encoding="utf-8")
    assert prove("git push origin main", _exp(), tree) is None


@pytest.mark.realdata
def test_evaluator_scans_one_bundle_and_prints_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    realdata_file("repos", "gin.bundle")  # skip without the real-data folder
    assert main(["--repo", "gin", "--json", "--keep", str(tmp_path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["repo"] for r in rows] == ["gin"]
    row = rows[0]
    assert row["commits"] > 1000 and row["files"] > 100 and row["seconds"] > 0
    assert 0.0 <= row["recall"] <= 1.0 and row["proposed"]
    ids = {f.id for f in load(EXPECT_DIR / "gin.toml").facts}
    assert set(row["facts_missing"]) < ids  # some facts found, and only facts of gin.toml are named
    assert (tmp_path / "clones" / "gin" / ".git").is_dir()  # --keep reuses the clone next time
    assert main(["--repo", "no-such-repo"]) == 2


def test_a_crashing_scan_is_reported_and_the_others_still_printed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import benchmarks.eval_repos as eval_repos

    (tmp_path / "repos").mkdir()
    monkeypatch.setenv("MEMSEED_REALDATA", str(tmp_path))
    monkeypatch.setattr(eval_repos, "clone", lambda bundle, dest: dest)

    def fake_evaluate(exp: Expectation, repo: Path, home: Path) -> tuple[object, dict[str, object]]:
        if exp.repo == "gin":
            raise RuntimeError("boom")
        return score(exp, ["nothing"], [""], Tree(tmp_path)), {"seconds": 0.5, "commits": 3, "files": 4, "errors": []}

    monkeypatch.setattr(eval_repos, "evaluate", fake_evaluate)
    assert eval_repos.main(["--repo", "gin", "--repo", "lwt"]) == 1
    out, err = capsys.readouterr()
    assert "RuntimeError: boom" in err and "crashed on: gin" in err
    assert "\nlwt " in out and "\ngin " not in out
    assert eval_repos.main(["--repo", "lwt"]) == 0  # a low score alone is not a failure
