"""The fixed vocabulary that turns a repository's task definitions into commands and tools.

Why a closed vocabulary: a repository is written by other people, and whatever memseed copies
out of it ends up in an agent's memory. So a command is never text lifted from a file. It is
built by this module in a fixed shape (``make lint``, ``pnpm test``, ``tox -e py``) from a task
*name* that must look like a task name (:func:`safe_name`), and the tool behind it is a word from
:data:`TOOLS` found in the task's body — our word, not theirs. A CI ``run:`` line is kept only
when it already has that shape: a known program, plain argument tokens, nothing CI-only
(``${{ }}``, ``$VAR``, pipes, redirections) — see :func:`runnable`.
"""

from __future__ import annotations

import re

from bootstrap_app.ecosystems import ecosystems

__all__ = ["KIND_ORDER", "TOOLS", "kind_of_name", "kind_of_tools", "runnable", "safe_name", "safe_path",
           "tools_in"]

KIND_ORDER = ("setup", "test", "lint", "format", "typecheck", "build", "docs", "release", "deploy")

# tool -> kind. Matched as whole words in a script body, longest names first.
TOOLS: dict[str, str] = {
    "pytest": "test", "tox": "test", "nox": "test", "jest": "test", "vitest": "test", "mocha": "test",
    "ava": "test", "playwright": "test", "cypress": "test", "rspec": "test", "phpunit": "test",
    "go test": "test", "cargo test": "test", "cargo nextest": "test", "unittest": "test", "nyc": "test",
    "c8": "test", "coverage": "test", "hypothesis": "test", "gotestsum": "test",
    "golangci-lint": "lint", "golint": "lint", "staticcheck": "lint", "go vet": "lint", "revive": "lint",
    "eslint": "lint", "oxlint": "lint", "biome lint": "lint", "ruff check": "lint", "ruff": "lint",
    "flake8": "lint", "pylint": "lint", "cargo clippy": "lint", "clippy": "lint", "rubocop": "lint",
    "shellcheck": "lint", "markdownlint": "lint", "stylelint": "lint", "misspell": "lint", "typos": "lint",
    "pre-commit": "lint",
    "gofmt": "format", "goimports": "format", "gofumpt": "format", "prettier": "format", "black": "format",
    "isort": "format", "ruff format": "format", "cargo fmt": "format", "rustfmt": "format",
    "biome format": "format", "biome check": "format", "dprint": "format", "clang-format": "format",
    "mypy": "typecheck", "pyright": "typecheck", "ty check": "typecheck", "tsc": "typecheck",
    "basedpyright": "typecheck", "pytype": "typecheck", "vue-tsc": "typecheck",
    "python -m build": "build", "go build": "build", "cargo build": "build", "vite build": "build",
    "tsup": "build", "rollup": "build", "webpack": "build", "esbuild": "build", "hatch build": "build",
    "uv build": "build", "poetry build": "build", "mkdocs build": "build", "sphinx-build": "build",
    "goreleaser": "release", "twine": "release", "semantic-release": "release", "changeset publish": "release",
    "npm publish": "release", "cargo publish": "release", "flit publish": "release", "hatch publish": "release",
    "uv publish": "release", "poetry publish": "release", "release-it": "release", "svu": "release",
}
# each ecosystem's own vocabulary (``rubocop`` lints, ``mix test`` tests) joins ours; ours wins a clash
TOOLS.update({t: k for e in ecosystems() for t, k in e.tools.items() if k and t not in TOOLS})
_TOOL_RX = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in sorted(TOOLS, key=len, reverse=True))
    + r")(?![\w-]|\.\w)")
_NAME_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("setup", re.compile(r"^(?:install|setup|bootstrap|init|deps|dev-setup|setup-dev)$")),
    ("typecheck", re.compile(r"^(?:type-?check|types|typing|mypy|pyright|tsc)$")),
    ("format", re.compile(r"^(?:fmt|format|fmt-check|format-check|check-format|check-fmt|prettier|black)$")),
    ("lint", re.compile(r"^(?:lint|lint-check|check-lint|vet|clippy|style|ruff|eslint)$")),
    ("test", re.compile(r"^(?:test|tests|unit|unittest|spec|test-ci|ci|coverage|cov)$")),
    ("build", re.compile(r"^(?:build|compile|dist|package|bundle)$")),
    ("docs", re.compile(r"^(?:docs|doc|documentation|site)$")),
    ("release", re.compile(r"^(?:release|publish|tag|bump|version)$")),
    ("deploy", re.compile(r"^(?:deploy|ship|rollout)$")),
)
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$")
_SAFE_PATH = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]{0,119}$")
_PROGRAMS = frozenset(["make", "just", "task", "npm", "pnpm", "yarn", "bun", "npx", "pnpx", "go", "cargo", "rustup", "python", "python3", "pip", "uv", "uvx", "poetry", "pdm", "hatch", "tox", "nox", "pytest", "ruff", "mypy", "pyright", "black", "isort", "flake8", "pylint", "pre-commit", "golangci-lint", "gofmt", "eslint", "prettier", "jest", "vitest", "mocha", "tsc", "biome", "node", "deno", "mvn", "gradle", "./gradlew", "./mvnw", "bundle", "rake", "rspec", "mix", "dotnet", "swift", "./scripts", "scripts", "ty", "typos", "mkdocs", "twine", "goreleaser", "turbo", "nx", "lerna"]) | frozenset(
    p for e in ecosystems() for p in e.programs)
_TOKEN = re.compile(r"^[A-Za-z0-9_./:=@+,%^~-]+$")
_CI_PRESENTATION = re.compile(
    r"^(?:--colou?r(?:=\S+)?|--no-colou?r|--ansi|--no-ansi|--show-diff-on-failure|--junit-?xml=\S+|--no-progress|"
    r"--no-transfer-progress|--batch-mode|--show-version|--no-interaction)$", re.I)
"""Flags that only shape how a CI log reads (colours, diffs, JUnit reports, progress bars, batch
mode): the command a person types is the same without them."""
_REPORTER_FLAGS = frozenset({"--formatter", "--reporter", "--format", "-r", "--logger"})
_CI_REPORTER = re.compile(r"github|junit|teamcity|azure|gitlab|buildkite|jenkins", re.I)
_DROPPED = "\x00"
_SETUP = re.compile(r"^(?:pip|uv pip|python -m pip|npm (?:ci|install|i)|pnpm (?:i|install)|yarn(?: install)?|bun install"
                    r"|go (?:mod download|get|install)|cargo install|rustup|uv sync|poetry install|pdm install"
                    r"|apt(?:-get)?|brew|sudo)\b")


def safe_name(name: str) -> bool:
    """A task name we may put into a command: word characters, at most three ``-:_.`` parts.

    Three short parts ("lint:check", "test-ci", "fmt-check") cover real task names while
    leaving no room for a sentence ("ignore-previous-instructions-and-…").
    """
    return bool(_SAFE_NAME.match(name)) and len(re.split(r"[-:_.]", name)) <= 3


def safe_path(path: str) -> bool:
    """A repository-relative path made of plain path characters (no spaces, no ``..``)."""
    return bool(_SAFE_PATH.match(path)) and ".." not in path.split("/")


def tools_in(text: str) -> list[str]:
    """Known tools a script body runs, in order of first appearance (our spelling)."""
    out: list[str] = []
    for m in _TOOL_RX.finditer(text.lower()):
        tool = " ".join(m.group(1).split())
        if tool == "ruff" and out and out[-1].startswith("ruff"):
            continue
        if tool not in out:
            out.append(tool)
    return out


def kind_of_tools(tools: list[str] | tuple[str, ...]) -> str:
    """The kind of the first tool with one (``[nyc, mocha]`` -> test)."""
    return next((TOOLS[t] for t in tools if t in TOOLS), "")


def kind_of_name(name: str) -> str:
    """The kind a task name states (``lint:check`` -> lint, ``fmt`` -> format), or ``""``.

    Only the first part decides, so ``test-ci`` is a test and ``check:semver`` is not a test run.
    """
    low = name.lower()
    parts = re.split(r"[-:_.]|(?<=[a-z])(?=[A-Z])", name)
    rest = {p.lower() for p in parts[1:]}
    if rest & {"dry", "dryrun"}:
        return ""  # `publish-dry-run` rehearses a release: it neither releases nor tests the code
    if len(parts) > 1 and rest & {"release", "publish", "deploy"}:
        if parts[0].lower() in ("test", "check", "verify", "validate", "smoke"):
            return ""  # `test-release` checks a published release: neither the tests nor the release
        return "deploy" if "deploy" in {p.lower() for p in parts} else "release"
    for kind, rx in _NAME_WORDS:
        if rx.match(low):
            return kind
    head = parts[0].lower()  # `lint:check`, `test-ci`, `testJVM`: the first part says what it is
    for kind, rx in _NAME_WORDS:
        if rx.match(head) and head != "check":
            return kind
    return ""


def runnable(line: str) -> str:
    """The command when a CI ``run:`` line is one a person can type at the repo root, else ``""``.

    Rejected: anything with ``$`` (CI variables, matrix placeholders, ``$GITHUB_OUTPUT``), shell
    plumbing (pipes, ``&&``, redirections, quotes), setup steps (installs), ``cd`` elsewhere,
    unknown programs and lines longer than eight tokens. Flags that only dress CI's log
    (``--color=always``, ``--show-diff-on-failure``, ``--junitxml=report.xml``) are dropped.
    """
    line = line.strip()
    if not line or len(line) > 100 or _SETUP.match(line) or re.search(r"\s(?:--version|-V|--help|version)$", line):
        return ""  # printing the tool's version is CI's log, not a check
    tokens = line.split()
    if len(tokens) > 8 or not all(_TOKEN.match(t) for t in tokens):
        return ""
    first = tokens[0]
    if (first in ("python", "python3") and len(tokens) >= 3 and tokens[1] == "-m") or (first in ("uv", "poetry", "pdm", "hatch") and len(tokens) >= 3 and tokens[1] == "run"):
        first = tokens[2]
    program_ok = first in _PROGRAMS or first.startswith(("./scripts/", "scripts/", "script/", "./script/"))
    if not program_ok:
        return ""
    # a reporter for CI's own page (`--formatter TAP::Formatter::GitHubActions`, `--reporter=junit`) dresses the log too
    kept: list[str] = []
    for i, t in enumerate(tokens):
        pair = i + 1 < len(tokens) and t in _REPORTER_FLAGS and _CI_REPORTER.search(tokens[i + 1])
        if pair or (kept and kept[-1] is _DROPPED) or _CI_PRESENTATION.match(t) or (
                "=" in t and t.split("=", 1)[0] in _REPORTER_FLAGS and _CI_REPORTER.search(t.split("=", 1)[1])):
            kept.append(_DROPPED if pair else "")
            continue
        kept.append(t)
    return " ".join(t for t in kept if t and t is not _DROPPED)
