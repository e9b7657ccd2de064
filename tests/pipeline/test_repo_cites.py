"""A repository entry's evidence names the files and lines its facts come from (signals/repo_cites).

A synthetic repository (built with git) declares its tasks in a Makefile, its test step in CI,
its minimum Python in pyproject.toml and its rules in CONTRIBUTING.md; the line numbers below
are where the fixture writes them, so a cite that pointed anywhere else fails.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.review.cards import evidence_markdown
from bootstrap_app.signals.repo_cites import cite_line
from bootstrap_app.types import Evidence

from .gitrepo import build

_MAKEFILE = "# tasks\n.PHONY: test lint\n\nlint:\n\truff check .\n\ntest:\n\tpytest -q\n"
_PYPROJECT = '[project]\nname = "proj"\nversion = "1.0"\nrequires-python = ">=3.11"\n\n[tool.ruff]\nline-length = 100\n'
_CI = ("name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
       "      - uses: actions/checkout@v4\n      - run: make lint\n      - run: make test\n")
_GUIDE = ("# Contributing\n\n## Commits\n\nCommit subjects must follow Conventional Commits (`feat: ...`).\n\n"
          "## Branches\n\nNever push directly to `main`; open a pull request from a topic branch.\n")


def test_repository_entries_cite_file_and_line(tmp_path: Path) -> None:
    repo = build(tmp_path, {"Makefile": _MAKEFILE, "pyproject.toml": _PYPROJECT, ".github/workflows/ci.yml": _CI,
                            "CONTRIBUTING.md": _GUIDE})
    result = scan([str(repo)], settings=load_settings())
    by_name = {p.name: p for p in result.proposals}
    commands = by_name["proj-commands"]
    places = {e.ref: e for e in commands.evidence[1:]}
    assert commands.evidence[0].ref == str(repo.resolve())  # the repository's own record first
    assert "Makefile:7" in places or ".github/workflows/ci.yml:9" in places, sorted(places)
    assert "pyproject.toml:4" in places  # requires-python
    assert all(e.structural and e.source == commands.evidence[0].source for e in places.values())
    assert all(e.excerpt.startswith(f"{ref}: ") for ref, e in places.items())  # a fixed phrase, no prose
    rules = by_name["proj-contributor-rules"]
    assert {e.ref for e in rules.evidence[1:]} >= {"CONTRIBUTING.md:5", "CONTRIBUTING.md:9"}
    docs = by_name["proj-contributor-docs"]
    assert [e.ref for e in docs.evidence[1:]] == ["CONTRIBUTING.md:1"]
    branch = [p for p in result.proposals if p.name == "proj-pull-requests-only"]
    if branch:  # only with a default branch git reports
        assert "CONTRIBUTING.md:9" in {e.ref for e in branch[0].evidence}


def test_a_make_target_is_cited_at_its_declaration() -> None:
    from bootstrap_app.signals.repo_cites import _declared

    files = {"Makefile": _MAKEFILE, "package.json": '{\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n'}
    assert _declared(files, "Makefile", "make test") == "Makefile:7"
    assert _declared(files, "Makefile", "make lint") == "Makefile:4"
    assert _declared(files, "package.json", "npm test") == "package.json:3"
    assert _declared(files, "Makefile", "make docs") == ""  # not declared there: no line is made up
    assert cite_line("a\nb\n", "c") == 0


def test_the_card_shows_the_place_and_the_phrase_literally() -> None:
    ev = Evidence(source="git:/w/proj", ref="pyproject.toml:4", excerpt="pyproject.toml:4: states a minimum version",
                  structural=True)
    line = evidence_markdown(ev)
    assert "`pyproject.toml:4`" in line and "states a minimum version" in line and "undated" in line
    other = evidence_markdown(Evidence(source="mbox:/m.mbox", ref="<1@x>", excerpt="see [this](http://x.example)"))
    assert "`<1@x>`" not in other and "\\[this\\]" in other and "third party" in other
