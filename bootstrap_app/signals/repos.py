"""Per-repository conventions: purpose, stack, commands, CI, branch, commit style, owners.

Commands are read from what the project itself declares, most trusted first: ``run:`` steps of
CI workflows (the commands that really run), then ``package.json`` scripts, Makefile targets,
and last what ``pyproject.toml`` tool sections imply. Each command records where it came from,
so the extractor can flag the ones no CI step confirms as unverified.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import yaml

from bootstrap_app.identity import OwnerIdentity
from bootstrap_app.types import Item, Person, Repo

from .analyzer import Analyzer
from .base import Ref

__all__ = ["LOCKFILES", "RepoFacts", "ReposAccumulator", "classify_command", "repo_facts"]

LOCKFILES: tuple[tuple[str, str], ...] = (
    ("uv.lock", "uv"), ("poetry.lock", "poetry"), ("pdm.lock", "pdm"), ("Pipfile.lock", "pipenv"),
    ("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lockb", "bun"), ("bun.lock", "bun"),
    ("package-lock.json", "npm"), ("Cargo.lock", "cargo"), ("go.sum", "go"), ("go.mod", "go"),
    ("Gemfile.lock", "bundler"), ("composer.lock", "composer"), ("mix.lock", "mix"),
    ("pom.xml", "maven"), ("build.gradle", "gradle"), ("build.gradle.kts", "gradle"),
    ("requirements.txt", "pip"), ("setup.py", "pip"), ("pyproject.toml", "pip"), ("package.json", "npm"),
)
_CI = ((".github/workflows/", "GitHub Actions"), (".gitlab-ci.yml", "GitLab CI"), ("Jenkinsfile", "Jenkins"),
       (".circleci/", "CircleCI"), ("azure-pipelines.yml", "Azure Pipelines"), (".travis.yml", "Travis CI"),
       (".buildkite/", "Buildkite"), ("bitbucket-pipelines.yml", "Bitbucket Pipelines"))
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("format", re.compile(r"\bruff format\b|\bblack\b|\bprettier\b|\bgofmt\b|\bcargo fmt\b|\b(?:run )?(?:format|fmt)\b")),
    ("lint", re.compile(r"\bruff(?: check)?\b|\bflake8\b|\bpylint\b|\beslint\b|golangci-lint|\bclippy\b|\b(?:run )?lint\b")),
    ("typecheck", re.compile(r"\bmypy\b|\bpyright\b|\btsc\b|\b(?:run )?typecheck\b|\btype-check\b")),
    ("test", re.compile(r"\bpytest\b|\btox\b|\bnox\b|\bjest\b|\bvitest\b|\brspec\b|\b(?:go|cargo|mvn|gradle|npm|pnpm|yarn|bun|make)\s+(?:run\s+)?test\b|\bunittest\b")),
    ("build", re.compile(r"\b(?:run\s+)?build\b")),
    ("deploy", re.compile(r"\bdeploy\b")),
)
_NOT_CODE = frozenset({"markdown", "yaml", "json", "toml", "text", "ini", "xml", "csv", "restructuredtext",
                       "svg", "lock", "gitignore", "dockerignore", "editorconfig"})
_CONVENTIONAL = re.compile(r"^(?:feat|fix|chore|docs|refactor|test|tests|ci|build|perf|style|revert)(?:\([^)]*\))?!?: \S")
_PR_RULE = re.compile(r"never (?:push|commit) (?:directly )?to `?(?:main|master|trunk)|do not push (?:directly )?to|"
                      r"no direct pushes|(?:all|every) changes? (?:go|goes|must go) through (?:a )?pull request|"
                      r"open a pull request", re.I)


def classify_command(cmd: str) -> str:
    """The kind of a shell command (test, lint, format, typecheck, build, deploy) or ``""``."""
    low = cmd.lower()
    for kind, rx in _KINDS:
        if rx.search(low):
            return kind
    return ""


@dataclass(frozen=True)
class RepoFacts:
    name: str
    path: str
    purpose: str = ""
    languages: tuple[str, ...] = ()
    package_manager: str = ""
    commands: dict[str, tuple[str, str]] = field(default_factory=dict)
    """kind -> (command, where it was found: 'CI', 'package.json', 'Makefile', 'pyproject.toml')."""
    ci: str = ""
    default_branch: str = ""
    conventional_share: float = 0.0
    subjects: int = 0
    codeowners: tuple[str, ...] = ()
    deploy_scripts: tuple[str, ...] = ()
    pr_rule: bool = False
    owner_commits: int = 0
    commits: int = 0
    owner_in_codeowners: bool = False
    refs: tuple[Ref, ...] = ()

    @property
    def owner_share(self) -> float:
        return self.owner_commits / self.commits if self.commits else 0.0


def _purpose(readme: str) -> str:
    para: list[str] = []
    for raw in readme.splitlines():
        line = raw.strip()
        if not line:
            if para:
                break
            continue
        if line.startswith(("#", "[!", "![", "<", "```", "---", "===", "|")) or line.startswith("[!["):
            if para:
                break
            continue
        para.append(line)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", " ".join(para))
    text = re.sub(r"[*_`]", "", text).strip()
    return text[:200]


def _ci_runs(files: dict[str, str]) -> list[str]:
    runs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "run" and isinstance(value, str):
                    runs.extend(ln.strip() for ln in value.splitlines() if ln.strip())
                elif key == "script" and isinstance(value, list):
                    runs.extend(str(v).strip() for v in value if isinstance(v, str))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path, text in sorted(files.items()):
        if path.startswith(".github/workflows/") or path in (".gitlab-ci.yml", ".circleci/config.yml"):
            try:
                walk(yaml.safe_load(text))
            except yaml.YAMLError:
                continue
    return runs


def _makefile_targets(text: str) -> list[tuple[str, str]]:
    """(target, its recipe when that is one plain command line, else "")."""
    out: list[tuple[str, str]] = []
    for m in re.finditer(r"^([A-Za-z][\w.-]*)\s*:(?!=)[^\n]*\n((?:\t[^\n]*\n?)*)", text, re.M):
        recipe = [ln.strip().lstrip("@-") for ln in m.group(2).splitlines() if ln.strip()]
        simple = recipe[0] if len(recipe) == 1 and "$" not in recipe[0] and len(recipe[0]) <= 100 else ""
        out.append((m.group(1), simple))
    return out


def repo_facts(repo: Repo, owner: OwnerIdentity | None = None) -> RepoFacts:
    files = repo.files
    listed = set(repo.file_list) | set(files)
    pm = next((mgr for lock, mgr in LOCKFILES if lock in listed), "")
    pkg: dict[str, Any] = {}
    if "package.json" in files:
        try:
            pkg = json.loads(files["package.json"]) or {}
        except (ValueError, TypeError):
            pkg = {}
        declared = str(pkg.get("packageManager", "")).split("@")[0]
        if declared:
            pm = declared
    commands: dict[str, tuple[str, str]] = {}
    for line in _ci_runs(files):
        kind = classify_command(line)
        if kind and kind not in commands and len(line) <= 120 and not line.startswith(("echo", "cd ")):
            commands[kind] = (line, "CI")
    raw_scripts = pkg.get("scripts")
    scripts: dict[str, Any] = raw_scripts if isinstance(raw_scripts, dict) else {}
    runner = pm if pm in ("pnpm", "yarn", "bun") else "npm"
    for script in scripts:
        kind = classify_command(f"run {script}") or ("test" if script == "test" else "")
        if kind and kind not in commands:
            body = str(scripts[script]).strip()
            if re.fullmatch(r"\.?/?[\w./-]+\.(?:sh|bash|py|js|ts)", body):
                cmd = body  # a script file: name it, not the alias
            elif runner == "npm":
                cmd = f"npm {script}" if script in ("test", "start") else f"npm run {script}"
            else:  # pnpm/yarn/bun: "run" avoids clashes with built-ins such as `pnpm deploy`
                cmd = f"{runner} {script}" if script in ("test", "lint", "build", "format", "dev", "start") \
                    else f"{runner} run {script}"
            commands[kind] = (cmd, "package.json")
    if "Makefile" in files:
        for target, recipe in _makefile_targets(files["Makefile"]):
            kind = classify_command(f"run {target}") or ("test" if target in ("test", "check") else "")
            if kind and kind not in commands:
                commands[kind] = (recipe, f"Makefile target `{target}`") if recipe else (f"make {target}", "Makefile")
    if "pyproject.toml" in files:
        try:
            tool = tomllib.loads(files["pyproject.toml"]).get("tool", {})
        except tomllib.TOMLDecodeError:
            tool = {}
        prefix = {"uv": "uv run ", "poetry": "poetry run ", "pdm": "pdm run "}.get(pm, "")
        implied = (("test", "pytest", "pytest"), ("lint", "ruff", "ruff check ."), ("format", "ruff", "ruff format ."),
                   ("format", "black", "black ."), ("typecheck", "mypy", "mypy ."))
        for kind, key, cmd in implied:
            if key in tool and kind not in commands:
                commands[kind] = (prefix + cmd, "pyproject.toml")
    deploy = tuple(sorted(p for p in repo.file_list if re.search(r"(?:^|/)deploy[\w.-]*\.(?:sh|py|ts|js|bash)$", p)))
    if deploy and "deploy" not in commands:
        commands["deploy"] = (deploy[0] if "/" in deploy[0] else f"./{deploy[0]}", "file")
    ci = next((label for marker, label in _CI if any(p.startswith(marker) or p == marker for p in listed)), "")
    owners_text = next((files[p] for p in ("CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS") if p in files), "")
    codeowners = tuple(dict.fromkeys(t for t in re.findall(r"(@[\w./-]+|[\w.+-]+@[\w-]+\.[\w.-]+)", owners_text)))
    contributing = next((files[p] for p in files if p.lower().startswith(("contributing", ".github/contributing"))), "")
    readme = next((files[p] for p in files if p.lower().startswith("readme")), "")
    subjects = repo.recent_subjects
    share = sum(1 for s in subjects if _CONVENTIONAL.match(s)) / len(subjects) if subjects else 0.0
    owner_commits = 0
    in_codeowners = False
    if owner is not None:
        owner_commits = sum(c for n, e, c in repo.authors if owner.is_owner(Person(n, e)))
        handles = {a.split("@")[0] for a in owner.addresses}
        in_codeowners = any(o.lstrip("@").lower() in owner.addresses or o.lstrip("@").lower() in handles
                            or any(n.lower().replace(" ", "-") == o.lstrip("@").lower() for n in owner.names)
                            for o in codeowners)
    commits = repo.commit_count or sum(c for _, _, c in repo.authors)
    languages = tuple(lang for lang, _ in sorted(repo.languages.items(), key=lambda kv: -kv[1])
                      if lang.lower() not in _NOT_CODE)[:3]
    ref = Ref(repo.source, repo.ref, repo.last_commit or repo.timestamp, "",
              f"repository {repo.name}: {commits} commits", owner=bool(owner_commits))
    return RepoFacts(name=repo.name, path=repo.path, purpose=_purpose(readme), languages=languages,
                     package_manager=pm, commands=commands, ci=ci, default_branch=repo.default_branch,
                     conventional_share=share, subjects=len(subjects), codeowners=codeowners,
                     deploy_scripts=deploy, pr_rule=bool(_PR_RULE.search(contributing)),
                     owner_commits=owner_commits, commits=commits, owner_in_codeowners=in_codeowners,
                     refs=(ref,))


@dataclass
class ReposAccumulator(Analyzer):
    """Repos are snapshots already; keep them (small: capped config files) for the final owner."""

    signal = "repos"
    consumes = frozenset({"repo"})

    repos: dict[str, Repo] = field(default_factory=dict)

    def observe(self, item: Item) -> None:
        if isinstance(item, Repo):
            self.repos[item.path or item.ref] = item

    def result(self, owner: OwnerIdentity) -> tuple[RepoFacts, ...]:
        return tuple(repo_facts(r, owner) for _, r in sorted(self.repos.items()))
