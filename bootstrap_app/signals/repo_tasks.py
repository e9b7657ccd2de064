"""Task runners and CI steps -> :class:`Task` records: a command built by us and the tools behind it.

Every runner a project may declare its workflow in is read with a real parser (``json``,
``tomllib``, ``yaml``, ``configparser``, ``ast``, Make's tree-sitter grammar; justfiles have no
parser published for Python, so a small line pattern), and each task becomes ``make lint`` / ``pnpm test`` / ``tox -e lint`` … with
the tools found in its body (``make lint`` -> golangci-lint). CI steps are kept only when their
line is runnable at the repository root (see :func:`repo_tools.runnable`); a step is classified
by the tool it runs or by its own ``name:``, never by its position in the job.
"""

from __future__ import annotations

import ast
import configparser
import json
import re
from dataclasses import dataclass
from typing import Any

from bootstrap_app.ecosystems.base import load_json, load_toml, load_yaml
from bootstrap_app.ecosystems.runners import taskfile_tasks
from bootstrap_app.ecosystems.syntax import make_rules, make_variables, script_needs_an_argument
from bootstrap_app.safety.dangerous import find_dangerous

from .repo_tools import kind_of_name, kind_of_tools, runnable, safe_name, safe_path, tools_in

__all__ = ["Task", "ci_lines", "ci_tasks", "declared_tasks", "installs_into_system", "load_json", "load_toml", "load_yaml", "reruns", "runs_on_changes",
           "special_purpose", "task_of"]


@dataclass(frozen=True)
class Task:
    """One way to run something: ``command`` (our shape), its ``kind``, tools, where it is declared."""

    kind: str
    command: str
    tools: tuple[str, ...] = ()
    source: str = ""
    name: str = ""
    ci: bool = False
    runs: str = ""
    """The task's body when it is one command a person could type (``uv run pytest``), else ``""``."""


def _task(name: str, command: str, body: str, source: str) -> Task | None:
    if not safe_name(name):
        return None
    lines = [ln.strip().lstrip("@-").strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    tools = tuple(tools_in("\n".join(lines)))  # comments ("# coverage report below") run nothing
    runs = runnable(lines[0]) if len(lines) == 1 else ""
    if name.lower() == "check":  # `make check` / scripts/check: whatever it runs, tests by default
        kinds = {kind_of_tools([t]) for t in tools}
        kind = next((k for k in ("test", "lint", "typecheck", "format") if k in kinds), "test")
        return Task(kind, command, tools, source, name, runs=runs)
    kind = kind_of_name(name) or ("" if ":" in name or "-" in name else kind_of_tools(tools))
    if not kind and _ALL_HOOKS.match(runs):  # a tox env / nox session / target that runs every hook on every file
        kind = "lint"
    if kind == "setup" and installs_into_system(body):
        return None
    return Task(kind, command, tools, source, name, runs=runs) if kind else None


_ALL_HOOKS = re.compile(r"^(?:uvx |pipx run |python3? -m )?pre-commit run\b(?=.*(?:\s--all-files\b|\s-a\b))")
"""``pre-commit run --all-files``: the hooks the repository configures, over the whole tree — its lint."""
_SYSTEM_DEST = re.compile(r"\$[({](?:DESTDIR|PREFIX|prefix|exec_prefix|bindir|sbindir|libdir|includedir|datadir|datarootdir"
                          r"|mandir|sysconfdir|INSTALL_[A-Z_]*(?:DIR|PATH))[)}]|(?<![\w.])/(?:usr|opt|etc)/")
_COPIES = re.compile(r"^(?:sudo\s+)?(?:install|cp|ln|mkdir|mv|rsync|\$[({]INSTALL\w*[)}])\b", re.M)


_FETCHES = re.compile(r"^\s*[@-]*\s*(?:pip3?|uv|python3? -m pip|npm|pnpm|yarn|bun|bundle|composer|poetry|pdm|pipenv"
                      r"|go mod|mix deps|dotnet restore|flutter pub|dart pub|pre-commit install)\b", re.M)


def installs_into_system(body: str) -> bool:
    """The recipe copies files into a system prefix (``install -m755 x $(DESTDIR)$(bindir)``,
    ``cp libx.so /usr/local/lib``): it installs the built project for everyone, which is never how a
    newcomer sets up to work on it — like ``stack install`` or ``meson install``."""
    lines = [ln.strip().lstrip("@-").strip() for ln in body.splitlines()]
    return any(_COPIES.match(ln) and _SYSTEM_DEST.search(ln) for ln in lines)


def task_of(name: str, command: str, body: str, source: str) -> Task | None:
    """A :class:`Task` for a task some file declares (``None`` when neither its name nor its body tells its kind)."""
    return _task(name, command, body, source)


# -- Makefile / justfile ---------------------------------------------------------------------------

def _expand(body: str, variables: dict[str, str]) -> str:
    for _ in range(2):
        body = re.sub(r"\$[({]([A-Za-z_]\w*)[)}]", lambda m: variables.get(m.group(1), " "), body)
    return body


def _makefile(text: str) -> list[Task]:
    """The Makefile's rules from its syntax tree (:func:`syntax.make_rules`): every target of a
    multi-target rule, rules inside ``ifeq``/``ifdef``, recipes continued with ``\\``."""
    variables = make_variables(text)
    rules: dict[str, tuple[tuple[str, ...], str]] = {}
    raw: dict[str, str] = {}
    for rule in make_rules(text):
        for target in rule.targets:
            if target[0].isalpha() and "$" not in target:  # `.PHONY`, `$(BIN)/x`: no task a person names
                rules.setdefault(target, (rule.prereqs, _expand(rule.recipe, variables)))
                raw.setdefault(target, rule.recipe)
    out: list[Task] = []
    for target, (prereqs, body) in rules.items():
        # `test: lint typecheck unit` runs those targets first: their tools are this target's too
        behind = "\n".join(rules[p][1] for p in prereqs if p in rules and p != target)
        full = body + ("\n" + behind if behind else "")
        task = _task(target, f"make {target}", full, "Makefile")
        # the unexpanded recipe names the prefix its variables may hide (`$(DESTDIR)` is usually unset)
        recipe = "\n".join(raw.get(t, "") for t in (target, *prereqs))
        if task and task.kind == "setup" and (installs_into_system(recipe) or (
                # GNU convention: `make install` installs the build into the prefix, unless its
                # recipe only fetches dependencies (`npm ci`, `pip install -r …`)
                target in ("install", "uninstall") and not _FETCHES.search(full))):
            continue
        if task:
            out.append(Task(task.kind, task.command, task.tools, task.source, task.name,
                            runs=task.runs if not behind else ""))
    return out


def _justfile(text: str) -> list[Task]:
    """A justfile's recipes by a small pattern: no justfile grammar is published as a Python wheel."""
    out: list[Task] = []
    for m in re.finditer(r"^(@?[A-Za-z_][\w-]*)(?:\s+[^:\n=]*)?:(?!=)[^\n]*\n((?:[ \t]+[^\n]*\n?)*)", text, re.M):
        name = m.group(1).lstrip("@")
        task = _task(name, f"just {name}", m.group(2), "justfile")
        if task:
            out.append(task)
    return out


def _taskfile(files: dict[str, str]) -> list[Task]:
    out: list[Task] = []
    for name, spec, _path in taskfile_tasks(files):
        cmds = spec.get("cmds", []) if isinstance(spec, dict) else spec if isinstance(spec, list) else [spec]
        body = "\n".join(str(c.get("cmd", "")) if isinstance(c, dict) else str(c) for c in cmds or [])
        task = _task(str(name), f"task {name}", body, "Taskfile")
        if task:
            out.append(task)
    return out


# -- package.json ----------------------------------------------------------------------------------

def npm_command(runner: str, script: str) -> str:
    """``npm test`` / ``npm run lint`` / ``pnpm lint`` / ``yarn build``: the fixed shapes."""
    if runner == "npm":
        return f"npm {script}" if script in ("test", "start") else f"npm run {script}"
    builtin_clash = script in ("deploy", "publish", "install", "add", "remove", "update", "link", "pack", "init")
    return f"{runner} run {script}" if builtin_clash else f"{runner} {script}"


def _package_json(pkg: dict[str, Any], runner: str) -> list[Task]:
    scripts = pkg.get("scripts")
    if not isinstance(scripts, dict):
        return []
    bodies = {str(k): str(v) for k, v in scripts.items()}
    out: list[Task] = []
    for name, body in bodies.items():
        if re.match(r"^(?:pre|post)[a-z]|^prepare$", name):
            continue  # npm lifecycle hooks run by npm itself, not by a person
        followed = body
        # one level of indirection: "lint": "pnpm run lint:check" -> the tools of lint:check
        for ref in re.findall(r"\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?([\w:.-]+)", body):
            followed += "\n" + bodies.get(ref, "")
        task = _task(name, npm_command(runner, name), followed, "package.json")
        if task:
            out.append(task)
    return out


# -- Python runners --------------------------------------------------------------------------------

def _tox(text: str) -> list[Task]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    out: list[Task] = []
    if parser.has_section("testenv"):
        body = parser.get("testenv", "commands", fallback="")
        out.append(Task("test", "tox", tuple(tools_in(body)), "tox.ini", "tox"))
    for section in parser.sections():
        if section.startswith("testenv:"):
            env = section.split(":", 1)[1]
            task = _task(env, f"tox -e {env}", parser.get(section, "commands", fallback=""), "tox.ini")
            if task and task.kind != "test":
                out.append(task)
    return out


def _noxfile(text: str) -> list[Task]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[Task] = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        decorated = any("session" in ast.unparse(d) for d in node.decorator_list)
        if decorated:
            task = _task(node.name, f"nox -s {node.name}", ast.get_source_segment(text, node) or "", "noxfile.py")
            if task:
                out.append(task)
    return out


def _pyproject(data: dict[str, Any]) -> list[Task]:
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    out: list[Task] = []
    poe = tool.get("poe", {}).get("tasks", {}) if isinstance(tool.get("poe"), dict) else {}
    for name, spec in (poe.items() if isinstance(poe, dict) else []):
        body = json.dumps(spec) if not isinstance(spec, str) else spec
        if task := _task(str(name), f"poe {name}", body, "pyproject.toml [tool.poe]"):
            out.append(task)
    pdm = tool.get("pdm", {}).get("scripts", {}) if isinstance(tool.get("pdm"), dict) else {}
    for name, spec in (pdm.items() if isinstance(pdm, dict) else []):
        body = json.dumps(spec) if not isinstance(spec, str) else spec
        if not name.startswith("_") and (task := _task(str(name), f"pdm run {name}", body, "pyproject.toml [tool.pdm]")):
            out.append(task)
    envs = tool.get("hatch", {}).get("envs", {}) if isinstance(tool.get("hatch"), dict) else {}
    for env, spec in (envs.items() if isinstance(envs, dict) else []):
        scripts = spec.get("scripts", {}) if isinstance(spec, dict) else {}
        for name, body in (scripts.items() if isinstance(scripts, dict) else []):
            prefix = "" if env == "default" else f"{env}:"
            if safe_name(str(env)) and (task := _task(str(name), f"hatch run {prefix}{name}", json.dumps(body),
                                                      "pyproject.toml [tool.hatch]")):
                out.append(task)
    legacy = tool.get("tox", {}).get("legacy_tox_ini") if isinstance(tool.get("tox"), dict) else None
    if isinstance(legacy, str):
        out.extend(_tox(legacy))
    return out


def _cargo_aliases(text: str) -> list[Task]:
    aliases = load_toml(text).get("alias", {})
    out: list[Task] = []
    for name, body in (aliases.items() if isinstance(aliases, dict) else []):
        words = " ".join(body) if isinstance(body, list) else str(body)
        if task := _task(str(name), f"cargo {name}", "cargo " + words, ".cargo/config.toml"):
            out.append(task)
    return out


def _script_files(files: dict[str, str]) -> list[Task]:
    out: list[Task] = []
    for path, text in sorted(files.items()):
        parts = path.split("/")
        # the folder in any case: SwiftPM projects keep `Scripts/format.sh`, as the git source reads it
        if len(parts) != 2 or parts[0].lower() not in ("scripts", "script", "bin") or not safe_path(path):
            continue
        stem = parts[1].rsplit(".", 1)[0] if parts[1].endswith((".sh", ".bash", ".py")) else parts[1]
        if _needs_an_argument(text):
            continue  # `bin/test-release.sh 1.2.3`: run bare it stops at once, so it is no command to propose
        if task := _task(stem, path, text, f"{parts[0]}/"):
            out.append(task)
    return out


def _needs_an_argument(text: str) -> bool:
    """A shell script (``#!…sh``) under ``set -u`` that reads ``$1`` with no default fails when run
    without one; read by the Bash grammar (:func:`syntax.script_needs_an_argument`)."""
    return bool(text.startswith("#!") and "sh" in text.split("\n", 1)[0] and script_needs_an_argument(text))


def declared_tasks(files: dict[str, str], runner: str, pkg: dict[str, Any]) -> list[Task]:
    """Every task the repository's task runners declare, in a stable order (root files only)."""
    out: list[Task] = []
    for name in ("Makefile", "makefile", "GNUmakefile"):
        if name in files:
            out += _makefile(files[name])
    for name in ("justfile", "Justfile", ".justfile"):
        if name in files:
            out += _justfile(files[name])
    out += _taskfile(files)
    out += _package_json(pkg, runner)
    if "tox.ini" in files:
        out += _tox(files["tox.ini"])
    if "noxfile.py" in files:
        out += _noxfile(files["noxfile.py"])
    if "pyproject.toml" in files:
        out += _pyproject(load_toml(files["pyproject.toml"]))
    for name in (".cargo/config.toml", ".cargo/config"):
        if name in files:
            out += _cargo_aliases(files[name])
    out += _script_files(files)
    return out


# -- CI --------------------------------------------------------------------------------------------

_SPECIAL_JOB = re.compile(
    r"(?<![a-z])(?:native|release[sd]?|publish(?:ing)?|deploy(?:ment)?|docs?|documentation|pages|bench(?:mark)?s?|"
    r"nightly|snapshots?|canary|codeql|stale|labell?(?:er|ing)?|dependabot|renovate|backports?|changelog|cla|website|"
    r"site|www|fuzz(?:ing)?|sanitizers?|coverage|minimal-versions|msrv|cross|wasm|android|ios|examples?)(?![a-z])", re.I)
"""Jobs that are not "the tests": native images, releases, docs deploys, benchmarks, bots, and
single-purpose legs (fuzzing, sanitizers, coverage uploads, MSRV or cross-compilation checks)."""


def reruns(command: str, tasks: list[Task], chosen: tuple[str, ...]) -> bool:
    """``make ci`` whose one line is ``make test``'s line plus a JUnit report (dropped by
    :func:`runnable`): the chosen command again, dressed for CI's log — not a second command."""
    body = next((t.runs for t in tasks if t.command == command and t.runs), "")
    return bool(body) and body in chosen


def special_purpose(command: str, kind: str) -> bool:
    """``melos run build:example:apk`` / ``deno task build-www`` for "build": the task's name also names
    a special purpose (an example app, the website, benchmarks) that is not ``kind``'s own word, so
    it builds (tests, lints) that one thing, not the project."""
    words = command.split()
    if len(words) < 2 and "/" not in command:
        return False
    name = words[-1].rsplit("/", 1)[-1]
    # a project's website or pages are its documentation site: building them is its docs
    own = {"website", "site", "www", "pages", "doc", "docs", "documentation"} if kind == "docs" else set()
    return any(_SPECIAL_JOB.fullmatch(p) and kind_of_name(p) != kind and p not in own
               for p in re.split(r"[-:_.]", name.lower()) if p)


def _triggers(data: dict[Any, Any]) -> set[str]:
    on = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on:` key as True
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(x) for x in on}
    if not isinstance(on, dict):
        return set()
    # `push: {tags: [v*]}` runs on a release tag, not on a change
    return {str(k) for k, v in on.items() if not (isinstance(v, dict) and "tags" in v and "branches" not in v)}


def runs_on_changes(data: dict[Any, Any]) -> bool:
    """The workflow (parsed) runs on pushes or pull requests: not only by hand, on a schedule or on a release tag."""
    return bool(_triggers(data) & {"push", "pull_request", "pull_request_target", "merge_group"})


def _job_runs_on_changes(data: dict[Any, Any], job_id: str, job: dict[Any, Any]) -> bool:
    """The workflow runs on pushes or pull requests, and the job is not a special-purpose one."""
    if not runs_on_changes(data):
        return False
    name = str(job.get("name", "") or "")
    if _several_legs(name):  # "JDK 17 (JVM, Native, plugin), linting": the special leg is one of several
        return not _SPECIAL_JOB.search(str(data.get("name", "")))
    return not _SPECIAL_JOB.search(f"{job_id} {name} {data.get('name', '')}")


def _several_legs(name: str) -> bool:
    """The job's name lists its legs with commas after a head that is not special purpose, and one
    of the listed legs is not special either: "JDK 17 (JVM, Native, plugin), linting" is the JVM
    build that also runs the Native leg; "Release (linux, macos)" and "Build (native, wasm)" stay special."""
    cut = m.start() if (m := re.search(r"[,(]", name)) else len(name)
    head, legs = name[:cut], [leg for leg in re.split(r"[,()]", name[cut:]) if leg.strip()]
    return "," in name and not _SPECIAL_JOB.search(head) and any(not _SPECIAL_JOB.search(leg) for leg in legs)


def _camel_words(word: str) -> str:
    """``testNative`` -> ``test Native``: an sbt/Gradle task name says its purpose in its camelCase parts."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", word.replace(":", " "))


def _steps(files: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(step name, run text, uses, path) of every GitHub Actions step and GitLab script line.

    Only steps of the jobs that check a change (a push or pull request) and are not special
    purpose."""
    out: list[tuple[str, str, str, str]] = []
    for path, text in sorted(files.items()):
        if path.startswith(".github/workflows/"):
            data = load_yaml(text)
            jobs = data.get("jobs") if isinstance(data, dict) else None
            for job_id, job in (jobs.items() if isinstance(jobs, dict) else []):
                if not isinstance(job, dict) or not _job_runs_on_changes(data, str(job_id), job):
                    continue
                steps = job.get("steps")
                for step in steps if isinstance(steps, list) else []:
                    if isinstance(step, dict):
                        out.append((str(step.get("name", "")), str(step.get("run", "") or ""),
                                    str(step.get("uses", "") or ""), path))
        elif path == ".gitlab-ci.yml":
            data = load_yaml(text)
            for name, job in (data.items() if isinstance(data, dict) else []):
                script = job.get("script") if isinstance(job, dict) else None
                if isinstance(script, list) and not _SPECIAL_JOB.search(str(name)):
                    out.append((str(name), "\n".join(str(s) for s in script), "", path))
    return out


def ci_lines(files: dict[str, str]) -> dict[str, str]:
    """Every plain line a CI job of a push or pull request runs -> ``workflow:line`` (a proof the project runs it)."""
    out: dict[str, str] = {}
    for _name, run, _uses, path in _steps(files):
        text = files.get(path, "")
        for line in run.splitlines():
            cmd = " ".join(line.split())
            if cmd and cmd not in out and (pos := text.find(line.strip())) >= 0:
                out[cmd] = f"{path}:{text.count(chr(10), 0, pos) + 1}"
    return out


_NARROW = frozenset({"-p", "--package", "--features", "-F", "--no-default-features", "--all-features", "--filter",
                     "--group", "--exclude-group"})  # phpunit selects or leaves out test groups


def ci_tasks(files: dict[str, str], declared: list[Task]) -> list[Task]:
    """CI steps a person can run locally, each classified by its tool or its own name."""
    by_command = {t.command: t for t in declared}
    out: list[Task] = []
    for step_name, run, uses, _path in _steps(files):
        if uses and not run:
            used = tools_in(uses.split("@")[0].replace("/", " ").replace("-action", ""))
            if used and kind_of_tools(used):
                out.append(Task(kind_of_tools(used), "", tuple(used[:1]), "CI", step_name[:40], ci=True))
            continue
        found: list[tuple[str, str, tuple[str, ...]]] = []
        for line in run.splitlines():
            cmd = runnable(line)
            if not cmd or _NARROW & set(cmd.split()):  # one crate's feature leg is not "the tests"
                continue
            if _INSTALLS_NAMED.match(cmd):
                continue  # `cpanm -n Test::Pod …`: installing named modules prepares the job; "Test" is a module name
            if find_dangerous(cmd):
                continue  # `mvn install -DskipTests`: a CI arrangement around checks another job runs, not a check
            if _SPECIAL_JOB.search(_camel_words([w for w in cmd.split() if not w.startswith("-")][-1])):
                continue  # `melos run build:example:apk`, `npm run bench`: a special task, whatever job runs it
                # (its name, never a flag: `cabal haddock --enable-documentation` is the docs build itself)
            known = by_command.get(cmd)
            tools = tuple(tools_in(cmd)) or (known.tools if known else ())
            words = cmd.split()
            target = kind_of_name(words[-1]) if len(words) >= 2 and words[0] in _RUNNERS else ""
            found.append(((known.kind if known else "") or kind_of_tools(tools) or target, cmd, tools))
        # the step's name ("Run unit tests") stands for a line only when no line of the step says
        # what it does itself: `mix clean` beside `mix test` is not the tests
        named = any(kind for kind, _, _ in found)
        for kind, cmd, tools in found:
            kind = kind or ("" if named or _DEPENDENCY_CHANGE.match(cmd) else _step_word(step_name))
            if kind:
                out.append(Task(kind, cmd, tools, "CI", step_name[:40], ci=True))
    return out


_RUNNERS = frozenset({"make", "just", "task", "npm", "pnpm", "yarn", "bun", "tox", "nox", "poe"})
_INSTALLS_NAMED = re.compile(r"(?:cpanm(?:\s+-\S+)*\s+(?!-)[A-Za-z][\w:]*|(?:luarocks|nimble)(?:\s+-\S+)*\s+install\s+(?!-)\w)")
# a package manager's subcommand that adds, removes or fetches dependencies: it prepares the job
# ("Add require for mongodb/mongodb to make tests runnable"), it is not the step it prepares
_DEPENDENCY_CHANGE = re.compile(
    r"(?:composer|npm|pnpm|yarn|bun|cargo|uv|poetry|pdm|bundle|gem|dotnet|pip3?|go|mix|cabal|stack)\s+"
    r"(?:require|remove|add|install|i|ci|uninstall|update|upgrade|sync|get|deps\.get|pip\s+install)\b")


def _step_word(name: str) -> str:
    """The kind word a step's own name states ("Run tests" -> tests, "Check formatting" -> format)."""
    low = name.lower()
    for word, kind in (("format", "format"), ("lint", "lint"), ("type", "typecheck"), ("test", "test"),
                       ("build", "build"), ("publish", "release"), ("release", "release"), ("deploy", "deploy")):
        if word in low:
            return kind
    return ""
