"""The expectation files of ``tests/realrepos/`` (one TOML per real repository): load and check.

Why data and not code: what a careful newcomer reads in a repository's own files (facts, the
commands its maintainers document, what must never be presented as the project's command) is
written down once, by a person reading those files, and then scores any version of memseed's
rules. The schema is documented in ``tests/realrepos/README.md``; :func:`problems` is the
check the test runs on every file, so a typo in a regex fails a test instead of silently
scoring zero.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ECOSYSTEMS", "EXPECT_DIR", "PURPOSES", "DocCommand", "Expectation", "Fact", "Never",
           "load", "load_all", "problems", "split_where"]

EXPECT_DIR = Path(__file__).resolve().parents[1] / "tests" / "realrepos"
PURPOSES = ("build", "test", "lint", "format", "typecheck", "docs", "release")
ECOSYSTEMS = ("python", "node", "deno", "go", "rust", "jvm", "ruby", "php", "elixir", "c-cpp", "dotnet",
              "swift", "haskell", "ocaml", "dart", "scala", "zig",
              # ecosystems met by the second held-out set (benchmarks/heldout2/), which no module knows yet
              "bazel", "lua", "r", "erlang", "julia", "perl", "crystal", "nim")
_WHERE = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>[1-9]\d*)$")


@dataclass(frozen=True)
class Fact:
    """One thing the repository's files state; found when any pattern matches the proposals' text."""

    id: str
    match: tuple[str, ...]
    where: str = ""


@dataclass(frozen=True)
class DocCommand:
    """A command the maintainers document: its purpose, the acceptable forms (regexes matched
    against a whole proposed command) and the file:line where it is written."""

    purpose: str
    forms: tuple[str, ...]
    where: str
    line_has: str


@dataclass(frozen=True)
class Never:
    """A command shape that must never be proposed as the project's (regex searched in a command)."""

    match: str
    why: str


@dataclass(frozen=True)
class Expectation:
    """Everything written down about one repository."""

    repo: str
    upstream: str
    ecosystem: str
    branch: str
    facts: tuple[Fact, ...]
    commands: tuple[DocCommand, ...]
    never: tuple[Never, ...]
    path: Path


def _strs(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def load(path: Path) -> Expectation:
    """Read one expectation file (raises ``tomllib.TOMLDecodeError`` / ``KeyError`` on a broken one)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return Expectation(
        repo=str(raw["repo"]), upstream=str(raw.get("upstream", "")), ecosystem=str(raw["ecosystem"]),
        branch=str(raw.get("branch", "")),
        facts=tuple(Fact(str(f["id"]), _strs(f.get("match")), str(f.get("where", ""))) for f in raw.get("fact", [])),
        commands=tuple(DocCommand(str(c["purpose"]), _strs(c.get("forms")), str(c.get("where", "")),
                                  str(c.get("line_has", ""))) for c in raw.get("command", [])),
        never=tuple(Never(str(n["match"]), str(n.get("why", ""))) for n in raw.get("never", [])),
        path=path)


def load_all(folder: Path = EXPECT_DIR) -> list[Expectation]:
    """Every ``*.toml`` in ``folder``, sorted by repository name."""
    return sorted((load(p) for p in folder.glob("*.toml")), key=lambda e: e.repo)


def _bad_regex(pattern: str) -> str | None:
    try:
        re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return None


def split_where(where: str) -> tuple[str, int] | None:
    """``"docs/CONTRIBUTING.md:12"`` -> ``("docs/CONTRIBUTING.md", 12)``; ``None`` when malformed."""
    m = _WHERE.match(where)
    return (m["path"], int(m["line"])) if m else None


def problems(exp: Expectation) -> list[str]:
    """What is wrong with one file on its own (the tree checks need a clone; see the test)."""
    out: list[str] = []
    if exp.path.stem != exp.repo:
        out.append(f"file {exp.path.name} names repo {exp.repo!r}")
    if exp.ecosystem not in ECOSYSTEMS:
        out.append(f"unknown ecosystem {exp.ecosystem!r} (one of {', '.join(ECOSYSTEMS)})")
    ids = [f.id for f in exp.facts]
    out += [f"fact id {i!r} is not unique" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if not exp.facts or not exp.commands:
        out.append("at least one fact and one documented command are required")
    for fact in exp.facts:
        if not fact.match:
            out.append(f"fact {fact.id}: no pattern")
        out += [f"fact {fact.id}: bad regex {p!r}: {err}" for p in fact.match if (err := _bad_regex(p))]
        if fact.where and split_where(fact.where) is None:
            out.append(f"fact {fact.id}: where {fact.where!r} is not path:line")
    for i, cmd in enumerate(exp.commands):
        label = f"command #{i + 1} ({cmd.purpose})"
        if cmd.purpose not in PURPOSES:
            out.append(f"{label}: purpose not one of {', '.join(PURPOSES)}")
        if not cmd.forms:
            out.append(f"{label}: no form")
        out += [f"{label}: bad regex {p!r}: {err}" for p in cmd.forms if (err := _bad_regex(p))]
        if split_where(cmd.where) is None:
            out.append(f"{label}: where {cmd.where!r} is not path:line")
        if not cmd.line_has:
            out.append(f"{label}: line_has is required")
    for never in exp.never:
        if (err := _bad_regex(never.match)) is not None:
            out.append(f"never {never.match!r}: bad regex: {err}")
        if not never.why:
            out.append(f"never {never.match!r}: why is required")
    return out
