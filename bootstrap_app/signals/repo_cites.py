"""Where in a repository's files each of its facts is written: ``pyproject.toml:12``, ``CONTRIBUTING.md:40``.

Why: a repository entry rests on the repository's own files, yet its evidence used to be one record
for the whole repository ("repository pdm: 200 commits"). A person checking a card wants to open
the line that declares ``make test`` or the rule it quotes. Every fact here was found by parsing a
file in a fixed shape (a task runner's target, a manifest key, a CI step, a doc's heading or
sentence), so its line is found the same way: the line that *declares* the value — a target or key
named like the task (``test:``, ``"lint":``, ``lint =``, ``[testenv:lint]``), else the first line
holding the command itself — never a guess by file name alone. A fact whose line cannot be found is
cited by its file's own record only (the repository's).

The records are structural like the repository's (:attr:`~.base.Ref.structural`): the note is a
fixed phrase and the place, never the file's prose, so the safety gate's quote checks see no text
of anyone's in them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bootstrap_app.types import Repo

from .base import Ref

__all__ = ["Cites", "cite_line", "cited_facts", "repo_cites"]

_PLACE = re.compile(r"([\w.@+/-]+):(\d+)\b")
_RUNNERS = frozenset({"make", "just", "task", "npm", "pnpm", "yarn", "bun", "run", "uv", "poetry", "pdm", "hatch",
                      "tox", "nox", "poe", "-e", "-s", "cargo", "go", "python", "python3", "-m", "x"})
_CI_FILES = re.compile(r"^(?:\.github/workflows/|\.gitlab-ci|\.circleci/|Jenkinsfile|azure-pipelines|\.travis|"
                       r"\.buildkite/|bitbucket-pipelines)")


@dataclass
class Cites:
    """Topic of a repository proposal (``commands``, ``contributor-rules`` …) -> its file:line records."""

    repo: Repo
    base: Ref
    topics: dict[str, list[Ref]] = field(default_factory=dict)

    def add(self, topic: str, place: str, what: str) -> None:
        refs = self.topics.setdefault(topic, [])
        if place and all(r.ref != place for r in refs):
            refs.append(Ref(self.base.source, place, self.base.date, "", f"{place}: {what}", owner=self.base.owner,
                            structural=True))

    def frozen(self) -> dict[str, tuple[Ref, ...]]:
        return {topic: tuple(refs) for topic, refs in self.topics.items() if refs}


def cite_line(text: str, pattern: re.Pattern[str] | str) -> int:
    """The 1-based number of the first line of ``text`` that ``pattern`` matches, 0 when none does."""
    rx = re.compile(pattern) if isinstance(pattern, str) else pattern
    for number, line in enumerate(text.splitlines(), 1):
        if rx.search(line):
            return number
    return 0


def _declared(files: dict[str, str], path: str, command: str) -> str:
    """``path:line`` of the target/key ``command`` runs in ``path`` (or of the command's own text)."""
    text = files.get(path, "")
    if not _readable(text):
        return ""
    names = [w for w in reversed(command.split()) if w not in _RUNNERS and re.fullmatch(r"[\w:.-]+", w)]
    for name in names:
        key = re.escape(name)
        line = cite_line(text, rf"^\s*(?:[\"']?{key}[\"']?\s*(?::(?!=)|=)|\[testenv:{key}\]|\[tool\.[\w.-]*\.{key}\])")
        if line:
            return f"{path}:{line}"
    line = cite_line(text, re.escape(command)) if command else 0
    return f"{path}:{line}" if line else ""


def _readable(text: str) -> bool:
    """False for no text and for the reader's placeholders ("[lockfile present; not read]", "[too large]" …)."""
    return bool(text) and not (text.startswith("[") and text.endswith("]") and "\n" not in text)


def _in_ci(files: dict[str, str], command: str) -> str:
    for path in sorted(p for p in files if _CI_FILES.match(p)):
        line = cite_line(files[path], re.escape(command)) if command else 0
        if line:
            return f"{path}:{line}"
    return ""


def _places(where: str) -> Iterable[str]:
    return (f"{m.group(1)}:{m.group(2)}" for m in _PLACE.finditer(where))


def repo_cites(repo: Repo, base: Ref, *, commands: dict[str, tuple[str, str]], ci_commands: dict[str, str],
               package_commands: Iterable[tuple[str, str, str, str]], rules: Iterable[tuple[str, str]],
               guide_topics: Iterable[tuple[str, tuple[str, ...]]],
               facts: Iterable[tuple[str, str, re.Pattern[str] | str, Iterable[str]]] = ()) -> dict[str, tuple[Ref, ...]]:
    """file:line records per proposal topic of ``repo`` (see the module docstring).

    ``rules`` are (where, topic) of the quoted contributor rules; ``facts`` are (proposal topic, what
    the line states, the pattern of that line, the files it is written in): the first matching line
    of the first of those files the snapshot holds is cited (``branch-policy`` in the contributing
    guide, ``commands``' minimum versions in the manifests …).
    """
    files = repo.files
    out = Cites(repo, base)
    for kind, (command, where) in commands.items():
        places = list(_places(where))
        if not places and where in files:
            places = [_declared(files, where, command)]
        elif not places and where == "CI":
            places = [_in_ci(files, command)]
        for place in places:
            out.add("commands", place, f"declares the {kind} command")
        if kind in ci_commands:
            out.add("commands", _in_ci(files, ci_commands[kind]), f"CI runs the {kind} step")
    for kind, package, _command, where in package_commands:
        for place in _places(where):
            out.add("commands", place, f"declares {package}'s {kind} command")
    for where, topic in rules:
        for place in _places(where):
            out.add("contributor-rules", place, f"a contributor rule on {topic}")
    for path, heads in guide_topics:
        text = files.get(path, "")
        line = cite_line(text, rf"^\s*(?:#+\s*)?[*_`]*{re.escape(heads[0])}") if heads and text else 0
        out.add("contributor-docs", f"{path}:{line}" if line else "", "its first section")
    for topic, what, pattern, paths in facts:
        for path in paths:
            text = files.get(path, "")
            line = cite_line(text, pattern) if _readable(text) else 0
            if line:
                out.add(topic, f"{path}:{line}", what)
                break
    return out.frozen()


def cited_facts(guides: tuple[str, ...], convention: str, pr_rule: re.Pattern[str] | None, sign: str,
                versions: bool, template: bool = False) -> list[tuple[str, str, re.Pattern[str] | str, tuple[str, ...]]]:
    """(topic, what the line states, its pattern, the files to look in) for :func:`repo_cites`: the
    lines that state a repository's minimum versions, pull-request rule, sign-off and commit convention."""
    manifests = ("pyproject.toml", "Cargo.toml", "go.mod", "package.json", ".python-version", ".nvmrc")
    out: list[tuple[str, str, re.Pattern[str] | str, tuple[str, ...]]] = []
    if versions:
        out.append(("commands", "states a minimum version",
                    r"rust-version|requires-python|^go\s+\d|\"node\"\s*:|^\s*python\s*=|^v?\d+(?:\.\d+)+\s*$", manifests))
    if pr_rule is not None:
        out.append(("branch-policy", "asks for pull requests", pr_rule, guides))
    if sign:
        rule = r"(?i)developer certificate|\bDCO\b|signed-off-by|--signoff|git commit -s\b" if sign == "DCO" \
            else r"(?i)contributor license agreement|\bCLA\b"
        out.append(("signoff", f"requires the {sign}", rule, guides))
    if convention:
        config = tuple(re.findall(r"`([^`]+)`", convention))
        out.append(("commit-convention", "configures the commit convention", r"\S", config))
        out.append(("commit-convention", "configures the commit convention", r"(?i)commitlint|commitizen",
                    ("package.json", "pyproject.toml")))
        out.append(("commit-convention", "links the commit convention", r"(?i)conventionalcommits\.org", guides))
    if template:
        out.append(("commit-template", "sets up the commit-message template", r"commit\.template", guides))
    return out

