"""Per-repository conventions: purpose, stack, commands and the tools behind them, CI, versions, …

What a newcomer reads in a project's own files becomes facts about the project: task runners
and CI steps (:mod:`.repo_tasks`), tool configs, minimum versions, changelog, commit convention,
sign-off, release files, workspace packages and contributor guides (:mod:`.repo_conventions`).
For each kind of command the choice is: the task runner's canonical entry (``make lint``), else a
CI line a person can run at the root, else another declared task, else what a configured tool
implies, else the language's default (``cargo test``, ``go vet ./...``). The tools behind the
command are named with it, so ``make lint`` reads "→ golangci-lint".

These facts are *structural* (the :class:`Ref` says so): they hold whoever made the commits, so a
newcomer with no commits gets them; no sentence of anyone's prose is copied except the README's
first sentence, which is vetted like third-party text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bootstrap_app.ecosystems import Ecosystem, RepoView, detected
from bootstrap_app.ecosystems.base import load_json, load_toml
from bootstrap_app.ecosystems.guides import about_working, as_markdown, is_guide_path, pointed_docs
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import Item, Person, Repo

from .analyzer import Analyzer
from .base import Ref
from .repo_cites import cited_facts, repo_cites
from .repo_conventions import changelog as changelog_file
from .repo_conventions import (
    ci_toolchains,
    commit_convention,
    commit_template,
    config_tools,
    contributor_guides,
    env_templates,
    golangci_formatters,
    linked_guides,
    min_versions,
    pre_commit_hooks,
    prose_versions,
    purpose,
    release_files,
    signoff,
    vetted_sentence,
    workspace_members,
    workspace_packages,
)
from .repo_declared import code_styles, suite_dependencies
from .repo_docs import DocCommand, build_sequence, doc_commands, doc_sections, is_step_only
from .repo_prereqs import completed
from .repo_rules import ALERT, DocRule, contributor_rules, guide_topics
from .repo_tasks import Task, ci_lines, ci_tasks, declared_tasks, reruns, special_purpose, task_of
from .repo_tools import KIND_ORDER, kind_of_name, kind_of_tools, safe_name, safe_path, tools_in

__all__ = ["LOCKFILES", "RepoFacts", "ReposAccumulator", "classify_command", "repo_facts"]

LOCKFILES: tuple[tuple[str, str], ...] = (
    ("uv.lock", "uv"), ("poetry.lock", "poetry"), ("pdm.lock", "pdm"), ("Pipfile.lock", "pipenv"),
    ("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lockb", "bun"), ("bun.lock", "bun"),
    ("package-lock.json", "npm"), ("Cargo.lock", "cargo"), ("go.sum", "go"), ("go.mod", "go"),
    ("Gemfile.lock", "bundler"), ("composer.lock", "composer"), ("mix.lock", "mix"),
    ("pom.xml", "maven"), ("build.gradle", "gradle"), ("build.gradle.kts", "gradle"),
    ("requirements.txt", "pip"), ("setup.py", "pip"), ("pyproject.toml", "pip"), ("Cargo.toml", "cargo"),
    ("package.json", "npm"),
)
_CI = ((".github/workflows/", "GitHub Actions"), (".gitlab-ci.yml", "GitLab CI"), ("Jenkinsfile", "Jenkins"),
       (".circleci/", "CircleCI"), ("azure-pipelines.yml", "Azure Pipelines"), (".travis.yml", "Travis CI"),
       (".buildkite/", "Buildkite"), ("bitbucket-pipelines.yml", "Bitbucket Pipelines"))
_WORKFLOWS = (".github/workflows/", ".gitlab-ci.yml")
"""Where a CI step's own lines are: the step that makes a generated file is spelt as the job spells it."""
_NOT_CODE = frozenset({"markdown", "yaml", "json", "toml", "text", "ini", "xml", "csv", "restructuredtext",
                       "svg", "lock", "gitignore", "dockerignore", "editorconfig", "html", "css", "scss"})
_PR_RULE = re.compile(r"never (?:push|commit) (?:directly )?to `?(?:main|master|trunk)|do not push (?:directly )?to|"
                      r"no direct pushes|(?:all|every) changes? (?:go|goes|must go) through (?:a )?pull request|"
                      r"open a pull request|open your pull request", re.I)
_SETUP = {"npm": "npm install", "pnpm": "pnpm install", "yarn": "yarn install", "bun": "bun install",
          "uv": "uv sync", "poetry": "poetry install", "pdm": "pdm install", "pipenv": "pipenv install",
          "go": "go mod download", "bundler": "bundle install", "composer": "composer install",
          "cpanm": "cpanm --installdeps ."}  # the distribution's own prerequisites (Makefile.PL, cpanfile)
_CANONICAL = {"setup": ("install", "setup", "bootstrap", "init"), "test": ("test", "tests"), "lint": ("lint",), "format": ("fmt", "format"),
              "typecheck": ("typecheck", "type-check", "types"), "build": ("build",), "docs": ("docs", "doc"),
              "release": ("release", "publish"), "deploy": ("deploy",)}
_DEFAULTS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "Rust": {"test": ("cargo test", ("cargo test",)), "lint": ("cargo clippy", ("cargo clippy",)),
             "format": ("cargo fmt", ("cargo fmt",)), "build": ("cargo build", ("cargo build",))},
    "Go": {"test": ("go test ./...", ("go test",)), "lint": ("go vet ./...", ("go vet",)),
           "format": ("gofmt -l .", ("gofmt",)), "build": ("go build ./...", ("go build",))},
}
_IMPLIED = (("test", "pytest", "pytest"), ("lint", "ruff", "ruff check ."), ("format", "ruff", "ruff format ."),
            ("format", "black", "black ."), ("typecheck", "mypy", "mypy ."), ("typecheck", "pyright", "pyright"))


def classify_command(cmd: str) -> str:
    """The kind of a shell command (test, lint, format, typecheck, build, …) or ``""``."""
    words = cmd.split()
    runner_target = words[-1] if len(words) >= 2 and words[0] in ("make", "just", "task", "npm", "pnpm", "yarn",
                                                                   "bun", "tox", "nox", "poe") else ""
    return kind_of_tools(tools_in(cmd)) or (kind_of_name(runner_target) if runner_target else "")


@dataclass(frozen=True)
class RepoFacts:
    name: str
    path: str
    purpose: str = ""
    declared: tuple[str, str] = ("", "")
    """(the description the manifest declares, ``file:line``) when it passed the gate and says more than ``purpose``."""
    languages: tuple[str, ...] = ()
    package_manager: str = ""
    commands: dict[str, tuple[str, str]] = field(default_factory=dict)
    """kind -> (command, where it is declared: 'CI', 'Makefile', 'package.json', 'language default', …)."""
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
    cites: dict[str, tuple[Ref, ...]] = field(default_factory=dict)
    """Proposal topic (``commands``, ``contributor-rules`` …) -> the file:line records it rests on (:mod:`.repo_cites`)."""
    tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """kind -> the tools its command runs (``make lint`` -> golangci-lint), then tools CI runs for it."""
    ci_commands: dict[str, str] = field(default_factory=dict)
    """kind -> what CI runs for it when that differs from ``commands[kind]``."""
    also: dict[str, tuple[str, ...]] = field(default_factory=dict)
    build_steps: tuple[str, ...] = ()
    """The docs' build-from-source steps, whole and in their order (``git submodule update --init``,
    ``autoreconf -i``, ``./configure``, ``make``, ``make check``), each proven; see :func:`build_sequence`."""
    build_steps_where: str = ""
    env_templates: tuple[str, ...] = ()
    """Root templates of the local environment file (``.env.example``): copied to run the project."""
    """kind -> other declared tasks of that kind (``make vet`` beside ``make lint``)."""
    runs: dict[str, str] = field(default_factory=dict)
    """kind -> the one command behind a task (``make format`` -> ``uv run ruff format .``), when it is one."""
    min_versions: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    """Build settings the project files fix (``warnings as errors (src/App/App.csproj:11)``)."""
    styles: tuple[str, ...] = ()
    """Styles a linter config enforces (``Style/StringLiterals: single_quotes (.rubocop.yml:21)``)."""
    suite_deps: tuple[str, ...] = ()
    """Packages only the test suite depends on (``hedgehog (toolkit.cabal:70)``): what the tests use."""
    changelog: str = ""
    commit_convention: str = ""
    """How the commit convention is known (a config file, or the share of conventional subjects)."""
    commit_template: tuple[str, str] = ("", "")
    """(the tracked commit-message template, ``file:line``) the contributor guide has set up with
    ``git config commit.template``."""
    signoff: str = ""
    """"DCO" or "CLA" when contributors must sign off / sign an agreement."""
    release: tuple[str, ...] = ()
    """Release/deploy commands (our shape) and files (paths)."""
    packages: tuple[str, ...] = ()
    members: tuple[str, ...] = ()
    """The folders the workspace globs match (each holding a manifest)."""
    guides: tuple[str, ...] = ()
    package_commands: tuple[tuple[str, str, str, str], ...] = ()
    """(kind, package, command, where) for a kind the root has no command for but a workspace package does."""
    rules: tuple[DocRule, ...] = ()
    """The maintainers' requirements in their own words (commits, branches, PRs, tests, changelog, style)."""
    guide_topics: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(contributor doc, its headings): which doc covers what."""
    configured: tuple[str, ...] = ()
    """Tools the repository configures (config files, [tool.*], pre-commit hooks, devDependencies)."""

    @property
    def owner_share(self) -> float:
        return self.owner_commits / self.commits if self.commits else 0.0


def _same_build(chosen: str, other: str, ecosystems: tuple[Ecosystem, ...]) -> bool:
    """``cmake -B build`` in CI beside a chosen ``./configure``: both claimed by build systems, and by
    no build system in common — the other build of the same repository, whose tools are not the
    chosen command's. A command no ecosystem claims (an action, a script) may be either."""
    def claims(command: str) -> set[str]:
        return {e.name for part in command.split("&&") if (argv := part.split()) for e in ecosystems
                if argv[0] in e.programs}
    mine, theirs = claims(chosen), claims(other)
    return not mine or not theirs or bool(mine & theirs)


def _choose(tasks: list[Task], ci: list[Task], configured: tuple[str, ...], languages: tuple[str, ...], pm: str,
            formatters: tuple[str, ...] = (), documented: tuple[Task, ...] = (),
            ecosystem_defaults: dict[str, tuple[str, str]] | None = None, ecosystems: tuple[Ecosystem, ...] = (),
            ) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, ...]], dict[str, str], dict[str, str]]:
    """Per kind: the command (and where), the tools behind it, CI's own line when different, and
    the single command a task runs. The maintainers' documented command comes first (a narrow
    one — one package, one feature — only when nothing else runs that kind), then the task
    runner's canonical entry, CI's main leg, another declared task, a configured tool, and the
    ecosystem's default."""
    runs: dict[str, str] = {}
    commands: dict[str, tuple[str, str]] = {}
    tools: dict[str, tuple[str, ...]] = {}
    ci_cmds: dict[str, str] = {}
    prefix = {"uv": "uv run ", "poetry": "poetry run ", "pdm": "pdm run "}.get(pm, "")
    for kind in KIND_ORDER:
        # `build:example:apk` builds an example app, `build-www` the website: not the project's build
        on_ci = [t for t in ci if t.kind == kind and not special_purpose(t.command, kind)]
        own = [t for t in tasks if t.kind == kind and not special_purpose(t.command, kind)]
        doc = [t for t in documented if t.kind == kind and not special_purpose(t.command, kind)]
        pick = next((t for t in doc if t.name not in ("narrow", "variant")), None) \
            or next((t for t in own if t.name.lower() in _CANONICAL[kind]), None) \
            or next((t for t in on_ci if t.command), None) \
            or next(iter(own), None) \
            or next((t for t in doc if kind != "setup" and t.name != "variant"), None)
        found: list[str] = []
        if pick is not None:
            commands[kind] = (pick.command, pick.source)
            found = list(pick.tools)
            if pick.runs and pick.runs != pick.command:
                runs[kind] = pick.runs
        else:
            implied = next((cmd for k, tool, cmd in _IMPLIED if k == kind and tool in configured), "")
            # CI runs the tool only through an action (`uses: …/luacheck@v1`) and its config file is
            # tracked: the tool's own command runs what CI checks
            action = next((inv for t in on_ci if not t.command for tool in t.tools[:1] if tool in configured
                           for e in ecosystems if (inv := e.invocations.get(tool))), "")
            default = next((_DEFAULTS[lang][kind] for lang in languages[:1] if kind in _DEFAULTS.get(lang, {})), None)
            label = "language default"
            if kind == "setup" and pm in _SETUP:
                default = (_SETUP[pm], ())
            if default is None and ecosystem_defaults and kind in ecosystem_defaults:
                cmd, label = ecosystem_defaults[kind]
                default = (cmd, tuple(tools_in(cmd)[:1]))
            if kind == "format" and formatters:  # golangci-lint v2 runs the formatters its config enables
                commands[kind] = ("golangci-lint fmt", ".golangci config")
                found = ["golangci-lint", *formatters]
            elif action:
                commands[kind] = (action, "CI action, tool config")
                found = [action.split()[0]]
            elif implied:
                commands[kind] = (prefix + implied, "tool config")
                found = [" ".join(implied.split()[:2]).rstrip(" .")]
            elif default:
                commands[kind] = (default[0], label)
                found = list(default[1])
            else:
                continue
        if kind == "setup" and commands[kind][1] == "language default":
            commands[kind] = (commands[kind][0], "package manager")
        for t in on_ci:
            if _same_build(commands[kind][0], t.command, ecosystems):
                found += [x for x in t.tools if x not in found]
        chosen = (commands[kind][0], runs.get(kind, ""))
        ci_line = next((t.command for t in on_ci if t.command and t.command not in chosen
                        and not reruns(t.command, tasks, chosen)), "")
        # what the maintainers documented is the command; CI's own variant of it (reporters, CI
        # flags) would only be noise beside it
        if ci_line and commands[kind][1] != "CI" and not (pick is not None and pick in documented):
            ci_cmds[kind] = ci_line
        if found:
            tools[kind] = tuple(dict.fromkeys(found))[:4]
    return commands, tools, ci_cmds, runs


_PM_LANGUAGES = {**dict.fromkeys(("npm", "pnpm", "yarn", "bun"), ("JavaScript", "TypeScript")),
                 **dict.fromkeys(("pip", "uv", "poetry", "pdm", "pipenv"), ("Python",))}
_READ_IN_REPO_TASKS = frozenset({"make", "just", "task", "scripts", "python", "node", "pre-commit", "nix"})
"""Ecosystems whose tasks :func:`declared_tasks` already reads (with their own runners' shapes)."""
_AGENT_DOCS = ("AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md")
_DOC_NAMES = re.compile(r"^(?:\.github/|docs?/(?:[\w-]+/)?)?(?:contributing|hacking|developing|development|building|build|"
                        r"get-started|getting-started|getting_started)"
                        r"(?:\.(?:md|rst|txt|markdown))?$", re.I)
_README_SECTIONS = re.compile(r"build|test|develop|contribut|hack|lint|format|compil|install|getting started|setup|"
                              r"set up|running", re.I)
_NOT_FOR_CONTRIBUTORS = re.compile(r"bench|release|publish|deploy|usage|example", re.I)


def _is_guide(path: str) -> bool:
    """A contributor guide by its name and place (any markup, a docs site's sources too)."""
    return bool(_DOC_NAMES.match(path)) or is_guide_path(path)


def _readme_rank(path: str) -> tuple[int, int, str]:
    """README.md / README before README-ZH.md or README.ja.md (a translation is not the project's own)."""
    stem = path.rsplit("/", 1)[-1].split(".")[0].lower()
    return path.count("/"), stem != "readme", path


def _leg_of(command: str, chosen: str) -> bool:
    """``melos run test:vm`` beside ``melos run test``: one leg of the chosen command, not another way to run it."""
    return command.startswith((chosen + ":", chosen + "-")) and " " not in command[len(chosen):]


def _package_commands(files: dict[str, str], members: tuple[str, ...], at_root: set[str],
                      runner: str) -> tuple[tuple[str, str, str, str], ...]:
    """Monorepos: the root's commands come first; a kind the root has none for is taken from the
    workspace packages' own scripts, each named with its package (``pnpm --filter web test``)."""
    out: list[tuple[str, str, str, str]] = []
    for member in members:
        path = f"{member}/package.json"
        manifest = load_json(files.get(path, ""))
        found = manifest.get("scripts")
        scripts: dict[str, object] = found if isinstance(found, dict) else {}
        name = str(manifest.get("name", "")) or member.rsplit("/", 1)[-1]
        if not safe_name(name.replace("@", "").replace("/", "-")):
            continue
        for script in scripts:
            kind = kind_of_name(str(script))
            if kind in ("test", "lint", "format", "typecheck", "build") and kind not in at_root \
                    and safe_name(str(script)) and not any(k == kind and p == name for k, p, _c, _w in out):
                command = {"pnpm": f"pnpm --filter {name} {script}", "yarn": f"yarn workspace {name} {script}",
                           "bun": f"bun run --filter {name} {script}"}.get(runner, f"npm run {script} --workspace={member}")
                text = files[path]
                line = text.count("\n", 0, max(text.find(f'"{script}"'), 0)) + 1
                out.append((kind, name, command, f"{path}:{line}"))
    return tuple(out[:8])


def _of_the_code(command: str, ecosystems: tuple[Ecosystem, ...], languages: tuple[str, ...]) -> bool:
    """False for a CI line of another ecosystem than the code's own (a Swift package's CMake job)."""
    first = command.split()[0] if command else ""
    claims = [e for e in ecosystems if first in e.programs]
    if not claims or not languages or any(not e.languages or languages[0] in e.languages for e in claims):
        return True
    return not any(languages[0] in e.languages for e in ecosystems)


def contributor_docs(files: dict[str, str], listed: set[str]) -> list[tuple[str, str]]:
    """(path, text) of the docs that tell a contributor how to work, most authoritative first:
    CONTRIBUTING / HACKING / DEVELOPING (root, .github/, docs/, a docs site's sources, any markup),
    the docs those, the README or the agent files point to (and the pages of a pointed-to index),
    the README's sections about building, testing and developing (other lines blanked, so line
    numbers stay true), then agent instruction files — all as Markdown, line for line."""
    guides = sorted((p for p in files if _is_guide(p) and safe_path(p)),
                    key=lambda p: (not p.lower().split("/")[-1].startswith("contributing"), p.count("/"), p.lower()))
    out = [(p, files[p]) for p in guides]
    # what a guide, the README or an agent file points to ("see the development docs at …") is read next
    pointing = [*guides, *(p for p in sorted(files, key=_readme_rank) if "/" not in p and p.lower().startswith("readme")),
                *(p for p in _AGENT_DOCS if p in files)]
    pointed = [d for p in pointing for d in pointed_docs(p, files[p], listed)
               if d in files and safe_path(d) and d not in guides and (p in guides or p in _AGENT_DOCS or about_working(d))]
    pointed += [d for p in pointed for d in pointed_docs(p, files[p], listed)  # the pages of a pointed-to index
                if d in files and safe_path(d) and d not in guides and d not in pointed]
    out += [(d, files[d]) for d in dict.fromkeys(pointed)]
    readme = next((p for p in sorted(files, key=_readme_rank) if "/" not in p and p.lower().startswith("readme")), "")
    if readme:
        lines = files[readme].splitlines()
        keep = [False] * len(lines)
        sections = doc_sections(files[readme])

        def level(line: int) -> int:
            return len(m.group(1)) if (m := re.match(r"^(#{1,6})\s", lines[line - 1].strip())) else 1

        for i, (line, heading) in enumerate(sections):
            # a section runs to the next heading of its level or above when it has one or two
            # subsections — the parts of one procedure ("Building from source": "Dependencies",
            # "Instructions"); three or more are alternatives (one per platform), read only when
            # their own heading says they are about working on the code
            nxt = next((n - 1 for n, _ in sections[i + 1:] if level(n) <= level(line)), len(lines))
            subs = [n for n, _ in sections[i + 1:] if n <= nxt and level(n) == level(line) + 1]
            end = nxt if len(subs) <= 2 else sections[i + 1][0] - 1 if i + 1 < len(sections) else len(lines)
            if _README_SECTIONS.search(heading) and not _NOT_FOR_CONTRIBUTORS.search(heading):
                for n in range(line - 1, end):
                    keep[n] = True
        if not sections:  # a plain-text README has no sections: it is read whole
            keep = [True] * len(lines)
        in_alert = False  # a GitHub alert (`> [!NOTE]`) is a notice to every reader, contributors too
        for n, text in enumerate(lines):
            in_alert = bool(ALERT.match(text.strip())) or (in_alert and text.lstrip().startswith(">"))
            keep[n] = keep[n] or in_alert
        out.append((readme, "\n".join(t if k else "" for t, k in zip(lines, keep, strict=True))))
    agents = [p for p in _AGENT_DOCS if p in files]
    # CLAUDE.md is often AGENTS.md again (a symlink or a copy): read the same words once
    out += [(p, files[p]) for i, p in enumerate(agents) if files[p] not in [files[q] for q in agents[:i]]]
    # AsciiDoc, Org and POD guides are read as the Markdown they say, line for line
    return [(p, as_markdown(p, t)) for p, t in out]


def _doc_task(d: DocCommand) -> Task:
    return Task(d.kind, d.command, tuple(tools_in(d.command))[:3], f"{d.where}; {d.proof}",
                "variant" if d.variant else "narrow" if d.narrow else "doc")


def _declared_purpose(view: RepoView, ecosystems: tuple[Ecosystem, ...], said: str) -> tuple[str, str]:
    """The manifest's own description (Cargo.toml ``package.description``, composer.json …), through
    the same gate as the README's sentence; ``("", "")`` when none passes or the README already says it."""
    for eco in ecosystems:
        text, where = eco.description(view)
        text = vetted_sentence(text) if len(text.split()) >= 3 else ""
        if text:
            words = set(re.findall(r"\w+", text.lower()))
            if said and len(words & set(re.findall(r"\w+", said.lower()))) >= 0.7 * len(words):
                return "", ""
            return text, where
    return "", ""


def repo_facts(repo: Repo, owner: OwnerIdentity | None = None) -> RepoFacts:
    files = repo.files
    listed = set(repo.file_list) | set(files)
    pm = next((mgr for lock, mgr in LOCKFILES if lock in listed), "")
    pkg = load_json(files.get("package.json", "")) if "package.json" in files else {}
    declared = str(pkg.get("packageManager", "")).split("@")[0]
    if declared and safe_name(declared):
        pm = declared
    pyproject = load_toml(files.get("pyproject.toml", "")) if "pyproject.toml" in files else {}
    languages = tuple(lang for lang, _ in sorted(repo.languages.items(), key=lambda kv: -kv[1])
                      if lang.lower() not in _NOT_CODE)[:3]
    runner = pm if pm in ("pnpm", "yarn", "bun") else "npm"
    view = RepoView.of(files, listed)
    ecosystems = detected(view)
    own = [e for e in ecosystems if e.name not in _READ_IN_REPO_TASKS]
    # the package manager of the ecosystem the code is written in (a Swift package that also builds
    # with CMake is a SwiftPM project), else of the first ecosystem detected
    by_language = [e for e in own if e.package_manager and languages and languages[0] in e.languages]
    if by_language and (not pm or not set(_PM_LANGUAGES.get(pm, languages[:1])) & set(languages[:1])):
        pm = by_language[0].package_manager  # a website's yarn.lock does not make a Scala library a yarn project
    pm = pm or next((e.package_manager for e in own if e.package_manager), "")
    tasks = declared_tasks(files, runner, pkg) + [
        t for e in own for target in e.targets(view)
        if (t := task_of(target.name, target.command, target.body, target.where.split(":")[0]))]
    # a CI step that runs a generated file (`./configure`) comes with the step that makes it, as a doc's does
    ci_steps = list(completed(tuple(t for t in ci_tasks(files, tasks) if _of_the_code(t.command, ecosystems, languages)),
                              {p: t for p, t in files.items() if p.startswith(_WORKFLOWS)}, view, ecosystems))
    configured = config_tools(listed, pyproject, files.get(".pre-commit-config.yaml", ""), pkg)
    configured = tuple(dict.fromkeys([*configured, *(t for e in own for t in e.configured(view))]))
    docs = contributor_docs(files, listed)
    found_in_docs = doc_commands(docs, view, ecosystems, ci_lines(files))
    steps, steps_where = build_sequence(found_in_docs)
    documented = completed(tuple(_doc_task(d) for d in found_in_docs if not is_step_only(d.command)),
                           dict(docs), view, ecosystems)
    # the contributor guides themselves (with none, the README's sections about working on the code
    # and its alerts stand in for one), then what the maintainers wrote for agents
    # a guide that sends its reader to the README ("see the readme for the workflow") makes the
    # README's sections about working on the code part of the guide
    # (a "getting started" or "building" page is no contributor guide: the README's sections still count)
    own_guide = any(_is_guide(p) and re.match(r"(?:contributing|hacking|developing|development)\b",
                                              p.rsplit("/", 1)[-1].lower()) for p, _ in docs) and not any(
        d.lower().startswith("readme") for p, _ in docs if _is_guide(p) for d in pointed_docs(p, files[p], listed,
                                                                                                 own_roles=True))
    guide_docs = [(p, t) for p, t in docs if _is_guide(p) or p in _AGENT_DOCS or not p.lower().startswith("readme")
                  or (not own_guide and p.lower().startswith("readme"))]
    defaults = {k: (cmd, f"{e.label} default") for e in reversed(own) for k, cmd in e.defaults(view).items()}
    commands, tools, ci_cmds, runs = _choose(tasks, ci_steps, configured, languages, pm, golangci_formatters(files),
                                             documented, defaults, ecosystems)
    doc_kinds = {k for k, (_c, where) in commands.items() if ".md:" in where or ".rst:" in where or ".txt:" in where}
    also = {k: alts for k in commands
            if (alts := tuple(dict.fromkeys(t.command for t in (*documented, *([] if k in doc_kinds else tasks))
                                            if t.kind == k and t.name not in ("narrow", "variant") and not _leg_of(t.command, commands[k][0])
                                            and not special_purpose(t.command, k)
                                            and t.command not in (commands[k][0], ci_cmds.get(k))
                                            and not reruns(t.command, tasks, (commands[k][0], runs.get(k, "")))))[:3])}
    hooks = pre_commit_hooks(files.get(".pre-commit-config.yaml", ""))
    for kind, (cmd, _where) in commands.items():
        if cmd.startswith("pre-commit") and hooks:  # say what the hooks run
            tools[kind] = tuple(dict.fromkeys([*tools.get(kind, ()), *hooks]))[:5]
    release = tuple(dict.fromkeys([commands[k][0] for k in ("release", "deploy") if k in commands]
                                  + [p for p in release_files(listed)  # a docs-site or website deploy is not a release
                                     if not (special_purpose(p, "release") and special_purpose(p, "deploy"))]))
    ci = next((label for marker, label in _CI if any(p.startswith(marker) or p == marker for p in listed)), "")
    owners_text = next((files[p] for p in ("CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS") if p in files), "")
    codeowners = tuple(dict.fromkeys(t for t in re.findall(r"(@[\w./-]+|[\w.+-]+@[\w-]+\.[\w.-]+)", owners_text)))
    guides = contributor_guides(listed)
    guides += linked_guides(files, guides, listed)
    packages = workspace_packages(files, pkg)
    members = workspace_members(packages, listed)
    per_package = _package_commands(files, members, set(commands), runner)
    contributing = "\n".join(files.get(p, "") for p in guides if "contributing" in p.lower()
                             or "pull_request" in p.lower())
    readme = next((files[p] for p in sorted(files, key=_readme_rank) if p.lower().startswith("readme")), "")
    title = next((m.group(1).strip() for m in [re.search(r"^#\s+(.+)$", readme, re.M)] if m), "")
    subjects = repo.recent_subjects
    convention, share = commit_convention(files, listed, pkg, pyproject, subjects, guide_docs)
    template = commit_template(files, listed)
    owner_commits = 0
    in_codeowners = False
    if owner is not None:
        owner_commits = sum(c for n, e, c in repo.authors if owner.is_owner(Person(n, e)))
        handles = {a.split("@")[0] for a in owner.addresses}
        in_codeowners = any(o.lstrip("@").lower() in owner.addresses or o.lstrip("@").lower() in handles
                            or any(n.lower().replace(" ", "-") == o.lstrip("@").lower() for n in owner.names)
                            for o in codeowners)
    commits = repo.commit_count or sum(c for _, _, c in repo.authors)
    deploy = tuple(sorted(p for p in repo.file_list if re.search(r"(?:^|/)deploy[\w.-]*\.(?:sh|py|ts|js|bash)$", p)))
    # every fact here is a file's presence, a manifest field, a count or a command built in a
    # fixed shape: structural, so the safety gate takes it as the project's, not as prose
    ref = Ref(repo.source, repo.ref, repo.last_commit or repo.timestamp, "",
              f"repository {repo.name}: {commits} commits", owner=bool(owner_commits),
              structural=True, first=repo.first_commit)
    rules = contributor_rules(guide_docs)
    topics = guide_topics(guide_docs)
    versions = tuple(dict.fromkeys([*min_versions(files, pkg, pyproject), *(v for e in own for v in e.versions(view)),
                                    *prose_versions(docs)]))
    versions += ci_toolchains(files, versions, tuple(c for c, _w in commands.values()) + tuple(ci_cmds.values()))
    cites = repo_cites(repo, ref, commands=commands, ci_commands=ci_cmds, package_commands=per_package,
                       rules=[(r.where, r.topic) for r in rules], guide_topics=topics, facts=cited_facts(
                           guides, convention, _PR_RULE if _PR_RULE.search(contributing) else None,
                           signoff(files, listed), bool(versions), bool(template[0])))
    # what the project is, the README says at its top: the opening 16 kB (the README is read further
    # for its contributor sections, not for a description found deep among them)
    said = purpose(readme[:16_000], (repo.name, title))
    stated = _declared_purpose(view, ecosystems, said)
    return RepoFacts(name=repo.name, path=repo.path, purpose=said or stated[0],
                     declared=stated if said else ("", ""),
                     languages=languages, package_manager=pm, commands=commands, ci=ci,
                     default_branch=repo.default_branch if safe_name(repo.default_branch) else "",
                     conventional_share=share, subjects=len(subjects),
                     codeowners=codeowners, deploy_scripts=deploy, pr_rule=bool(_PR_RULE.search(contributing)),
                     owner_commits=owner_commits, commits=commits, owner_in_codeowners=in_codeowners,
                     refs=(ref,), tools=tools, ci_commands=ci_cmds, runs=runs, also=also,
                     min_versions=versions, styles=code_styles(files), suite_deps=suite_dependencies(files),
                     settings=tuple(dict.fromkeys(s for e in own for s in e.settings(view)))[:6],
                     changelog=changelog_file(listed),
                     commit_convention=convention, commit_template=template, signoff=signoff(files, listed), release=release[:5],
                     packages=packages, members=members, guides=guides, package_commands=per_package,
                     rules=rules, guide_topics=topics, configured=configured, cites=cites,
                     build_steps=steps, build_steps_where=steps_where, env_templates=env_templates(listed))


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
