"""What a careful newcomer reads in eight public repositories' own files, as checkable facts.

Written by opening each project's README, CONTRIBUTING, task-runner files (Makefile, Taskfile,
package.json scripts, tox.ini, scripts/), manifests (go.mod, Cargo.toml, pyproject.toml,
package.json engines, .nvmrc), CI workflows, linter/formatter configs and its commit history —
not from memseed's output. Each fact is (label, regular expression over the text of the
proposals a scan with no ``--owner`` makes). The same rules run on every repository; nothing in
memseed knows these names. Kept apart from the test so the same table can score any version
of memseed (the before/after recall figures of issue 11 were taken with it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["FACTS", "recall"]

Fact = tuple[str, str]

FACTS: dict[str, list[Fact]] = {
    "bubbletea": [
        ("description", r"fun, functional and stateful way to build terminal apps"),
        ("language Go", r"Stack: Go"),
        ("go directive 1.25", r"Go 1\.25"),
        ("task test runs go test", r"`task test` → [^\n]*go test"),
        ("task lint runs golangci-lint", r"`task lint` → [^\n]*golangci-lint"),
        ("formatters gofumpt/goimports (golangci config)", r"gofumpt"),
        ("release: task release", r"`task release`"),
        ("release: goreleaser", r"goreleaser"),
        ("conventional commits", r"Conventional Commits"),
        ("default branch main", r"Default branch: `main`"),
        ("CI GitHub Actions", r"GitHub Actions"),
    ],
    "gin": [
        ("description", r"Gin is a high-performance HTTP web framework written in Go"),
        ("language Go", r"Stack: Go"),
        ("go directive 1.25", r"Go 1\.25"),
        ("make test runs go test", r"`make test` → [^\n]*go test"),
        ("make lint", r"`make lint`"),
        ("golangci-lint (config + CI)", r"golangci-lint"),
        ("make fmt runs gofmt", r"`make fmt` → [^\n]*gofmt"),
        ("make vet", r"`make vet`"),
        ("release: goreleaser", r"goreleaser"),
        ("changelog CHANGELOG.md", r"Changelog: `CHANGELOG\.md`"),
        ("conventional commits", r"Conventional Commits"),
        ("PRs against master", r"pull requests against `master`"),
        ("contributor guide CONTRIBUTING.md", r"`CONTRIBUTING\.md`"),
        ("default branch master", r"Default branch: `master`"),
    ],
    "express": [
        ("description", r"Fast, unopinionated, minimalist web framework for Node\.js"),
        ("package manager npm", r"package manager: npm"),
        ("node >= 18", r"Node >= ?18"),
        ("npm install", r"`npm install`"),
        ("npm test runs mocha", r"`npm test` → [^\n]*mocha"),
        ("npm run lint runs eslint", r"`npm run lint` → [^\n]*eslint"),
        ("CI runs npm run test-ci", r"`npm run test-ci`"),
        ("changelog History.md", r"Changelog: `History\.md`"),
        ("default branch master", r"Default branch: `master`"),
        ("CI GitHub Actions", r"GitHub Actions"),
    ],
    "httpx": [
        ("description", r"HTTPX is a fully featured HTTP client library for Python 3"),
        ("requires-python >=3.9", r"Python >=3\.9"),
        ("scripts/install", r"`scripts/install`"),
        ("scripts/test runs pytest", r"`scripts/test` → [^\n]*pytest"),
        ("scripts/lint runs ruff", r"`scripts/lint` → [^\n]*ruff"),
        ("scripts/check (mypy, ruff)", r"`scripts/check`"),
        ("mypy", r"mypy"),
        ("scripts/build", r"`scripts/build`"),
        ("scripts/publish", r"`scripts/publish`"),
        ("changelog CHANGELOG.md", r"Changelog: `CHANGELOG\.md`"),
        ("contributing guide", r"CONTRIBUTING\.md`|contributing\.md`"),
        ("default branch master", r"Default branch: `master`"),
    ],
    "requests": [
        ("description", r"Requests is a simple, yet elegant, HTTP library"),
        ("requires-python >=3.10", r"Python >=3\.10"),
        ("make init", r"`make init`"),
        ("make test runs pytest", r"`make test` → [^\n]*pytest"),
        ("tox", r"`tox`"),
        ("pre-commit with ruff", r"pre-commit[^\n]*ruff"),
        ("pyright type check", r"pyright"),
        ("make publish", r"`make publish`"),
        ("changelog HISTORY.md", r"Changelog: `HISTORY\.md`"),
        ("CODEOWNERS from the file", r"CODEOWNERS: @nateprewitt, @sigmavirus24"),
        ("contributing guide", r"`\.github/CONTRIBUTING\.md`"),
        ("default branch main", r"Default branch: `main`"),
    ],
    "ripgrep": [
        ("description", r"ripgrep is a line-oriented search tool"),
        ("language Rust", r"Stack: Rust"),
        ("rust-version 1.96", r"Rust 1\.96"),
        ("cargo test", r"`cargo test"),
        ("cargo fmt (rustfmt.toml)", r"`cargo fmt"),
        ("cargo clippy", r"`cargo clippy"),
        ("workspace crates", r"`crates/"),
        ("changelog CHANGELOG.md", r"Changelog: `CHANGELOG\.md`"),
        ("release checklist / workflow", r"RELEASE-CHECKLIST\.md|workflows/release\.yml"),
        ("contributor guide", r"`CONTRIBUTING\.md`"),
        ("default branch master", r"Default branch: `master`"),
    ],
    "typer": [
        ("description", r"Typer is a library for building CLI applications"),
        ("package manager uv", r"package manager: uv"),
        ("requires-python >=3.10", r"Python >=3\.10"),
        ("scripts/test.sh runs pytest", r"`scripts/test\.sh` → [^\n]*pytest"),
        ("scripts/lint.sh runs mypy/ruff", r"`scripts/lint\.sh` → [^\n]*(?:mypy|ruff)"),
        ("scripts/format.sh runs ruff", r"`scripts/format\.sh` → [^\n]*ruff"),
        ("ty type checker", r"\bty\b"),
        ("pre-commit", r"pre-commit"),
        ("release notes file", r"`docs/release-notes\.md`"),
        ("contributing guide", r"`docs/contributing\.md`"),
        ("default branch master", r"Default branch: `master`"),
    ],
    "zod": [
        ("description", r"Zod is a TypeScript-first validation library"),
        ("package manager pnpm", r"package manager: pnpm"),
        ("node 24 (.nvmrc)", r"Node v?24"),
        ("pnpm install", r"`pnpm install`"),
        ("pnpm test runs vitest", r"`pnpm test` → [^\n]*vitest"),
        ("pnpm lint runs biome", r"`pnpm lint` → [^\n]*biome"),
        ("pnpm format runs biome", r"`pnpm format` → [^\n]*biome"),
        ("pnpm build", r"`pnpm build`"),
        ("workspace packages/*", r"`packages/\*`"),
        ("conventional commits", r"Conventional Commits"),
        ("AGENTS.md / CLAUDE.md", r"`AGENTS\.md`[^\n]*`CLAUDE\.md`"),
        ("git hooks (husky)", r"husky"),
        ("default branch main", r"Default branch: `main`"),
    ],
}


def recall(name: str, texts: Iterable[str]) -> tuple[float, list[str]]:
    """(share of ``FACTS[name]`` found in ``texts``, labels of the missing ones)."""
    text = "\n".join(texts)
    missing = [label for label, rx in FACTS[name] if not re.search(rx, text, re.IGNORECASE)]
    return 1 - len(missing) / len(FACTS[name]), missing
