"""What a repository states about working in it, beyond commands: versions, changelog, commits, …

Each finding is *structural*: the presence of a file, a field of a manifest read by its real
parser, or a count over the commit history — never a sentence copied from someone's prose.
The one exception is the project's description (the first real sentence of the README), which
is vetted like any third-party text (:func:`vetted_sentence`) and dropped when it reads as an
instruction.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from typing import Any

from bootstrap_app.ecosystems.guides import is_guide_path
from bootstrap_app.safety.injection import scan_text
from bootstrap_app.safety.provenance import describes_subject, instruction_reasons

from .repo_tasks import load_json, load_toml, load_yaml, runs_on_changes
from .repo_tools import safe_name, safe_path, tools_in

__all__ = [
    "CONVENTIONAL",
    "changelog",
    "ci_toolchains",
    "commit_convention",
    "commit_template",
    "config_tools",
    "contributor_guides",
    "env_templates",
    "golangci_formatters",
    "linked_guides",
    "min_versions",
    "pre_commit_hooks",
    "prose_versions",
    "purpose",
    "release_files",
    "signoff",
    "vetted_sentence",
    "workspace_packages",
]

CONVENTIONAL = re.compile(r"^(?:feat|fix|chore|docs|refactor|test|tests|ci|build|perf|style|revert)(?:\([^)]*\))?!?: \S")
_CHANGELOG = re.compile(r"^(?:docs/)?(?:changelog|changes|history|news|release[-_]?notes)(?:\.(?:md|rst|txt|adoc))?$", re.I)
_GUIDES = re.compile(r"^(?:(?:\.github|docs)/)?(?:contributing(?:\.(?:md|rst|txt))?|agents\.md|claude\.md|gemini\.md"
                     r"|copilot-instructions\.md|pull_request_template\.md|development\.md|hacking\.md)$", re.I)
_CONFIG_TOOLS = (
    (".golangci.*", "golangci-lint"), (".eslintrc*", "eslint"), ("eslint.config.*", "eslint"),
    (".prettierrc*", "prettier"), ("prettier.config.*", "prettier"), ("biome.json*", "biome"),
    ("rustfmt.toml", "rustfmt"), (".rustfmt.toml", "rustfmt"), ("clippy.toml", "clippy"), ("ruff.toml", "ruff"),
    (".ruff.toml", "ruff"), ("mypy.ini", "mypy"), (".flake8", "flake8"), (".pylintrc", "pylint"),
    (".rubocop.yml", "rubocop"), (".editorconfig", "editorconfig"), (".pre-commit-config.yaml", "pre-commit"),
    (".husky/*", "husky"), ("lefthook.y*ml", "lefthook"), ("vitest.config.*", "vitest"), ("jest.config.*", "jest"),
    (".mocharc*", "mocha"), ("pytest.ini", "pytest"), ("tsconfig.json", "tsc"), (".goreleaser.y*ml", "goreleaser"),
    ("pyrightconfig.json", "pyright"), ("dprint.json", "dprint"), ("deno.json*", "deno"),
)
_PYPROJECT_TOOLS = ("ruff", "black", "isort", "mypy", "pyright", "pytest", "coverage", "pylint", "ty", "typos",
                    "commitizen", "semantic_release", "hatch", "poe", "tox", "codespell")
_RELEASE_FILES = (".goreleaser.y*ml", "RELEASE*.md", "RELEASING*", "release.sh", "scripts/release*",
                  "scripts/publish*", ".github/workflows/release*", ".github/workflows/publish*",
                  ".changeset/config.json", ".release-please-manifest.json", "release-please-config.json",
                  "scripts/*deploy*", "deploy/*", "bin/deploy*", "deploy.sh")
_VERSION = re.compile(r"^[<>=~^!]*\s*v?\d+(?:\.\d+){0,2}(?:\s*(?:,|\|\||\s)\s*[<>=~^!]*\s*v?\d+(?:\.\d+){0,2})*$")


def _version(text: object) -> str:
    value = str(text).strip() if isinstance(text, str | int | float) else ""
    return value if value and len(value) <= 30 and _VERSION.match(value) else ""


def min_versions(files: dict[str, str], pkg: dict[str, Any], pyproject: dict[str, Any]) -> tuple[str, ...]:
    """("Rust 1.96", "Go 1.25.0", "Python >=3.10", "Node >= 18") from manifests and version files."""
    out: list[str] = []
    cargo = load_toml(files.get("Cargo.toml", ""))
    package = cargo.get("package", {}) if isinstance(cargo.get("package"), dict) else {}
    workspace = cargo.get("workspace", {}).get("package", {}) if isinstance(cargo.get("workspace"), dict) else {}
    rust = package.get("rust-version")
    rust = rust if isinstance(rust, str) else workspace.get("rust-version") if isinstance(workspace, dict) else None
    if v := _version(rust):
        out.append(f"Rust {v}")
    elif m := re.search(r"""^\s*channel\s*=\s*["'](\d+\.\d+(?:\.\d+)?)["']""", files.get("rust-toolchain.toml", ""), re.M):
        out.append(f"Rust {m.group(1)} (rust-toolchain.toml)")  # the toolchain the repository pins, when a number
    if m := re.search(r"^go\s+(\d+\.\d+(?:\.\d+)?)\s*$", files.get("go.mod", ""), re.M):
        out.append(f"Go {m.group(1)}")
    project = pyproject.get("project", {}) if isinstance(pyproject.get("project"), dict) else {}
    # Poetry (before 2.0, and many projects still) states it as the ``python`` dependency
    poetry = pyproject.get("tool", {}).get("poetry", {}) if isinstance(pyproject.get("tool"), dict) else {}
    poetry_deps = poetry.get("dependencies", {}) if isinstance(poetry, dict) else {}
    poetry_python = poetry_deps.get("python", "") if isinstance(poetry_deps, dict) else ""
    if (v := _version(project.get("requires-python", ""))) or (v := _version(poetry_python)) or (v := _version(files.get(".python-version", "").strip().splitlines()[0] if files.get(".python-version") else "")):
        out.append(f"Python {v}")
    engines = pkg.get("engines", {}) if isinstance(pkg.get("engines"), dict) else {}
    volta = pkg.get("volta", {}) if isinstance(pkg.get("volta"), dict) else {}  # the Node version Volta pins
    if (v := _version(engines.get("node", ""))) or (v := _version(files.get(".nvmrc", "").strip().lstrip("v"))) \
            or (v := _version(str(volta.get("node", "")))):
        out.append(f"Node {v}")
    fvm = load_json(files.get(".fvmrc", "")) if ".fvmrc" in files else {}  # the Flutter SDK fvm pins
    if isinstance(fvm.get("flutter"), str) and (v := _version(fvm["flutter"])):
        out.append(f"Flutter {v} (.fvmrc)")
    return tuple(out)


_PROSE_VERSION = re.compile(
    r"\b(JDK|Java|Rust|Go|Python|Node(?:\.js)?|Ruby|Elixir|Erlang(?:/OTP)?|PHP|\.NET(?: SDK)?|Swift|Dart|Flutter|GHC"
    r"|OCaml|Zig|CMake|Xcode|Kotlin|Scala|Lua|Julia|Perl|Crystal|Nim|Bazel)\s+v?(\d+(?:\.\d+){0,2})(\+|\s+or\s+(?:newer|later|higher|above|greater))?"
    r"(?![\w.])")
_REQUIRES_OR_USE = re.compile(r"\b(?:we use|we follow|use|follow|must|should|required|requires?|adhere)\b", re.I)
_REQ_HEADING = re.compile(r"\b(?:requirements?|prerequisites?|dependencies)\b", re.I)
_REQUIRES = re.compile(r"\b(?:requires?|required|needs?|needed|must|minimum|at least)\b", re.I)


def prose_versions(docs: list[tuple[str, str]]) -> tuple[str, ...]:
    """Toolchain versions a contributor doc states in a requirement ("JDK 17 or newer is required
    for building", "needs Rust 1.70+"), each built in a fixed shape from the matched tokens and
    cited ``file:line`` — a version named in passing, with no requirement word on its line, is not one."""
    out: list[str] = []
    for path, text in docs:
        heading = ""
        for n, line in enumerate(text.splitlines(), 1):
            if m := re.match(r"^#{1,6}\s+(.*)$", line):
                heading = m.group(1)
            # a list item under "Requirements" / "Prerequisites" states one ("- Erlang/OTP 27+")
            listed = bool(re.match(r"^\s*[-*+]\s", line)) and bool(_REQ_HEADING.search(heading))
            if not (_REQUIRES.search(line) or listed) or line.lstrip().startswith(("$", "```", "    ")):
                continue
            if m := _PROSE_VERSION.search(line):  # the first one: "…, JDK 21 is recommended" is no floor
                floor = " or newer" if m.group(3) else ""
                stated = f"{m.group(1)} {m.group(2)}{floor}"
                if not any(o.startswith(stated + " (") for o in out):  # the same floor in a second doc
                    out.append(f"{stated} ({path}:{n})")
    return tuple(dict.fromkeys(out))[:4]


_SETUP = {"java": "Java", "go": "Go", "python": "Python", "node": "Node", "dotnet": ".NET", "ruby": "Ruby",
          "elixir": "Elixir", "otp": "OTP", "php": "PHP", "deno": "Deno", "dart": "Dart", "flutter": "Flutter"}
"""The ``with:`` keys of the setup actions (``actions/setup-java``'s ``java-version``) and the language each pins."""
_SAME = {"JDK": "Java", "Node.js": "Node", "Erlang/OTP": "OTP"}
"""Another name a stated version goes by (``JDK 17 (toolchain)`` states the Java version)."""


_OTHER_JOB = re.compile(r"man-?page|\bdocs?\b|documentation|website|\bsite\b|\bpages\b|schema|release|publish|deploy|bench",
                        re.I)


def _matrix_floor(job: Any, value: object) -> tuple[str, str] | None:
    """(the lowest version, the matrix key) when ``value`` is ``${{ matrix.KEY }}`` and the job's
    matrix lists versions under KEY: the oldest toolchain the project is tested on is its floor."""
    m = re.fullmatch(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}", str(value).strip())
    strategy = job.get("strategy") if isinstance(job, dict) else None
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    listed = matrix.get(m.group(1)) if m and isinstance(matrix, dict) else None
    found = [v for x in (listed if isinstance(listed, list) else ()) if (v := _version(x)) and re.fullmatch(r"\d+(?:\.\d+)*", v)]
    if not found or not m:
        return None
    return min(found, key=lambda v: tuple(int(p) for p in v.split("."))), m.group(1)


def ci_toolchains(files: dict[str, str], stated: tuple[str, ...] = (), chosen: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The toolchain a workflow's setup step pins (``actions/setup-java`` with ``java-version: 11``)
    as ``Java 11 (CI: file:line)``, for a language no manifest states a version of (``stated``); a
    matrix placeholder (``${{ matrix.otp }}``) is resolved to the lowest version the matrix lists. With the project's ``chosen``
    commands, only a job that runs one of their programs counts: a job that builds the manpage or
    lints a schema pins the toolchain of that job, not the project's floor."""
    out: list[str] = []
    programs = {c.split()[0] for c in chosen if c.split()}
    for path in sorted(p for p in files if p.startswith(".github/workflows/") and p.endswith((".yml", ".yaml"))):
        data = load_yaml(files[path])
        # a workflow run only by hand or on a release tag (building an APK) pins its packaging toolchain
        jobs = data.get("jobs") if isinstance(data, dict) and runs_on_changes(data) else None
        for key, job in (jobs.items() if isinstance(jobs, dict) else ()):
            steps = job.get("steps") if isinstance(job, dict) else None
            name = f"{path.rsplit('/', 1)[-1]} {key} {job.get('name', '') if isinstance(job, dict) else ''}"
            if _OTHER_JOB.search(name):
                continue  # a manpage, docs-site or schema job pins that job's toolchain
            runs = [line.strip().split()[0] for step in (steps if isinstance(steps, list) else ())
                    if isinstance(step, dict) for line in str(step.get("run", "")).splitlines() if line.strip()]
            if programs and not programs & set(runs):
                continue
            for step in (steps if isinstance(steps, list) else ()):
                uses = str(step.get("uses", "")) if isinstance(step, dict) else ""
                given = step.get("with") if isinstance(step, dict) and "/setup-" in uses else None
                for key, value in (given.items() if isinstance(given, dict) else ()):
                    lang = _SETUP.get(str(key).removesuffix("-version"), "") if str(key).endswith("-version") else ""
                    version = _version(value) if isinstance(value, str | int | float) and "{" not in str(value) else ""
                    if not version and (floor := _matrix_floor(job, value)):
                        version, key = floor  # `${{ matrix.otp }}` over ["27.2", "28.0"]: the lowest it tests
                    if not lang or not version or any(_SAME.get(w := s.split()[0], w) == lang for s in [*stated, *out]):
                        continue
                    text = files[path]
                    m = re.search(rf"^\s*{re.escape(str(key))}\s*:", text, re.M)
                    line = text.count("\n", 0, m.start()) + 1 if m else 1
                    out.append(f"{lang} {version} (CI: {path}:{line})")
    return tuple(out[:3])


def changelog(listed: set[str]) -> str:
    """The changelog file (root first, then docs/), or ``""``."""
    found = sorted((p for p in listed if _CHANGELOG.match(p) and safe_path(p)), key=lambda p: (p.count("/"), p))
    return found[0] if found else ""


def contributor_guides(listed: set[str]) -> tuple[str, ...]:
    """CONTRIBUTING / AGENTS.md / CLAUDE.md / PR templates the maintainers wrote (paths only)."""
    found = [p for p in listed if _GUIDES.match(p) and safe_path(p)]
    # a contributing guide in another markup (CONTRIBUTING.adoc) or in a docs site's sources
    # (website/docs/contributing.md) when none sits where GitHub looks
    if not any("contributing" in p.lower() for p in found):
        found += sorted((p for p in listed if is_guide_path(p) and safe_path(p)
                         and p.rsplit("/", 1)[-1].lower().startswith("contributing")),
                        key=lambda p: (p.count("/"), p.lower()))[:1]
    found += [p for p in listed if p.lower().startswith(".github/pull_request_template/") and safe_path(p)][:1]
    return tuple(sorted(found, key=lambda p: (p.count("/"), p.lower())))


_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?[^)]*\)|^\s*\[[^\]]+\]:\s*(\S+)|<([^>\s]+)>`_", re.M)
_OWN_ROLE = re.compile(r"(?:^|/)(?:readme|license|licence|copying|code_of_conduct|security|support|funding|changelog|"
                       r"changes|history|authors|notice)[^/]*$", re.I)
"""Files GitHub and packagers give a role of their own (README, LICENSE, SECURITY, CHANGELOG…): not a guide."""


def linked_guides(files: dict[str, str], guides: tuple[str, ...], listed: set[str]) -> tuple[str, ...]:
    """Docs of this repository a contributor guide links to ("as well as our [AI Policy](/.github/AI_POLICY.md)"):
    the guide makes them part of what a contributor must read. Relative, root-relative and
    ``github.com/<owner>/<repo>/blob/<branch>/<path>`` links count when ``<path>`` is a tracked
    Markdown/reStructuredText/text file."""
    out: list[str] = []
    for guide in guides:
        base = guide.rsplit("/", 1)[0] if "/" in guide else ""
        for m in _LINK.finditer(files.get(guide, "")):
            target = next(g for g in m.groups() if g).split("#")[0]
            if re.match(r"[a-z]+:", target, re.I):
                blob = re.match(r"https?://github\.com/[^/]+/[^/]+/blob/[^/]+/(.+)$", target)
                if not blob:
                    continue
                target = "/" + blob.group(1)
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
            if path in listed and path not in guides and path not in out and safe_path(path) \
                    and path.lower().endswith((".md", ".rst", ".txt")) and not _OWN_ROLE.search(path):
                out.append(path)
    return tuple(out[:4])


def commit_convention(files: dict[str, str], listed: set[str], pkg: dict[str, Any], pyproject: dict[str, Any],
                      subjects: tuple[str, ...], docs: list[tuple[str, str]] | None = None) -> tuple[str, float]:
    """(how it is known, share of conventional subjects). Config beats the guides' words ("We use
    Conventional Commits for PR titles", not "… is not enforced"), which beat history; history needs 80%."""
    share = sum(1 for s in subjects if CONVENTIONAL.match(s)) / len(subjects) if subjects else 0.0
    configs = [p for p in listed if re.match(r"^(?:\.commitlintrc.*|commitlint\.config\.\w+|\.czrc|\.cz\.(?:toml|json|ya?ml)"
                                               r"|cz\.(?:toml|json|ya?ml))$", p)]
    tool = pyproject.get("tool", {}) if isinstance(pyproject.get("tool"), dict) else {}
    if configs:
        return f"commitlint/commitizen config `{sorted(configs)[0]}`", share
    if "commitlint" in pkg or "commitizen" in (pkg.get("config") or {}) or "commitizen" in tool:
        return "commitlint/commitizen config in the manifest", share
    for path, text in docs or ():
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"conventional\s*commits?\b", line, re.I) and _REQUIRES_OR_USE.search(line) \
                    and not re.search(r"\bnot (?:enforced|required)|\boptional\b", line, re.I):
                return f"stated in {path}:{n}", share
    if linked := _linked_convention(files):
        return linked, share
    if len(subjects) >= 10 and share >= 0.8:
        return f"{round(100 * share)}% of the last {len(subjects)} commit subjects", share
    return "", share


_CONVENTION_LINK = re.compile(r"\]\(\s*<?https?://(?:www\.)?conventionalcommits\.org[^)\s]*|<https?://(?:www\.)?conventionalcommits\.org"
                              r"|`?https?://(?:www\.)?conventionalcommits\.org|<\s*https?://(?:www\.)?conventionalcommits\.org", re.I)
"""A link to the Conventional Commits specification (Markdown, reST or AsciiDoc, or a bare URL)."""


def _linked_convention(files: dict[str, str]) -> str:
    """``linked from CONTRIBUTING.md:12`` when a contributor guide links the Conventional Commits
    specification: the maintainers name the convention by pointing at it."""
    for path in sorted(p for p in files if _GUIDES.match(p)):
        if m := _CONVENTION_LINK.search(files[path]):
            return f"linked from {path}:{files[path].count(chr(10), 0, m.start()) + 1}"
    return ""


_TEMPLATE = re.compile(r"git\s+config\s+(?:--(?:local|global)\s+)?commit\.template\s+[\"']?([\w./-]{1,120})")


def commit_template(files: dict[str, str], listed: set[str]) -> tuple[str, str]:
    """(the tracked commit-message template, ``file:line``) a contributor guide sets up with
    ``git config commit.template PATH``, else ``("", "")``: every commit message starts from it."""
    for path in sorted(p for p in files if _GUIDES.match(p)):
        for m in _TEMPLATE.finditer(files[path]):
            template = m.group(1).removeprefix("./")
            if template in listed and safe_path(template):
                return template, f"{path}:{files[path].count(chr(10), 0, m.start()) + 1}"
    return "", ""


_DCO = re.compile(r"developer certificate of origin|\bDCO\b|signed-off-by|git commit -s\b|--signoff", re.I)
_CLA = re.compile(r"contributor license agreement|\bCLA\b", re.I)


def env_templates(listed: set[str]) -> tuple[str, ...]:
    """Root files a developer copies to make the local environment file (``.env.example`` ->
    ``.env``, ``.env.local.example``): the project's own template, a file of the tree."""
    return tuple(sorted(p for p in listed if "/" not in p and safe_path(p)
                        and re.fullmatch(r"\.env(?:\.[\w-]+)*\.(?:example|sample|template|dist)", p)))[:3]


def signoff(files: dict[str, str], listed: set[str]) -> str:
    """"DCO", "CLA" or signed commits when the contributor docs or repository config require one, else ``""``."""
    guides = "\n".join(text for path, text in files.items() if _GUIDES.match(path) or is_guide_path(path))
    if ".github/dco.yml" in listed or _DCO.search(guides):
        return "DCO"
    if any("cla" in p.lower().rsplit("/", 1)[-1].split(".")[0].split("-") for p in listed
           if p.startswith(".github/workflows/")) or _CLA.search(guides):
        return "CLA"
    if _SIGNED.search(guides):
        return "signed commits (GPG/SSH signature)"
    return ""


_SIGNED = re.compile(r"commit signature verification|\bsign (?:your|all|each) commits\b|\bsigned commits\b|"
                     r"\bcommits? must be signed\b|\bgpg[- ]sign", re.I)
"""A cryptographic signature on every commit (not a DCO sign-off line, read first)."""


def release_files(listed: set[str]) -> tuple[str, ...]:
    """Release and deploy definitions wherever they live (paths only)."""
    out = [p for p in sorted(listed) if any(_release_match(p, pat) for pat in _RELEASE_FILES) and safe_path(p)]
    return tuple(out[:6])


def _release_match(path: str, pattern: str) -> bool:
    """A root release doc in any case (``RELEASING.md``, ``releasing.md``); other patterns as written."""
    if fnmatch.fnmatchcase(path, pattern):
        return True
    return pattern.startswith("RELEAS") and "/" not in path and fnmatch.fnmatchcase(path.upper(), pattern.upper())


def config_tools(listed: set[str], pyproject: dict[str, Any], pre_commit: str, pkg: dict[str, Any]) -> tuple[str, ...]:
    """Tools the repository configures: config files, ``[tool.*]`` sections, pre-commit hooks, devDependencies."""
    out: list[str] = []
    for path in sorted(listed):
        if "/" in path and not path.startswith(".husky/"):
            continue
        for pattern, tool in _CONFIG_TOOLS:
            if fnmatch.fnmatchcase(path, pattern) and tool not in out:
                out.append(tool)
    if "sphinx" not in out and listed & {"docs/conf.py", "doc/conf.py", "docs/source/conf.py", "doc/source/conf.py"}:
        out.append("sphinx")  # Sphinx's own config file in the docs source folder
    tool_tables = pyproject.get("tool", {}) if isinstance(pyproject.get("tool"), dict) else {}
    out += [t.replace("_", "-") for t in _PYPROJECT_TOOLS if t in tool_tables and t not in out]
    out += [t for t in pre_commit_hooks(pre_commit) if t not in out]
    dev = pkg.get("devDependencies", {}) if isinstance(pkg.get("devDependencies"), dict) else {}
    for name in dev:
        tool = str(name).removeprefix("@biomejs/")
        for found in tools_in(tool) if safe_name(tool.replace("/", "-")) else []:
            if found not in out:
                out.append(found)
    return tuple(t for t in out if not any(t != o and t.startswith(o + " ") for o in out))


def golangci_formatters(files: dict[str, str]) -> tuple[str, ...]:
    """Formatters a golangci-lint v2 config enables (``formatters: enable: [gofumpt, goimports]``)."""
    for name in (".golangci.yml", ".golangci.yaml"):
        data = load_yaml(files.get(name, "")) if name in files else None
        section = data.get("formatters") if isinstance(data, dict) else None
        enabled = section.get("enable") if isinstance(section, dict) else None
        if isinstance(enabled, list):
            return tuple(str(f) for f in enabled if safe_name(str(f)))[:5]
    return ()


def pre_commit_hooks(text: str) -> tuple[str, ...]:
    """Known tools the pre-commit hooks run (hook ids mapped onto memseed's tool vocabulary)."""
    data = load_yaml(text) if text else None
    out: list[str] = []
    for repo in (data.get("repos", []) if isinstance(data, dict) else []):
        for hook in (repo.get("hooks", []) if isinstance(repo, dict) else []):
            hid = str(hook.get("id", "")) if isinstance(hook, dict) else ""
            out += [t for t in (tools_in(hid.replace("-", " ")) if safe_name(hid) else []) if t not in out]
    return tuple(out)


_MANIFESTS = ("package.json", "Cargo.toml", "pyproject.toml", "go.mod")


def workspace_members(globs: tuple[str, ...], listed: set[str]) -> tuple[str, ...]:
    """The member folders the workspace globs match (a folder counts when it holds a manifest)."""
    dirs = sorted({p.rsplit("/", 1)[0] for p in listed if "/" in p and p.rsplit("/", 1)[1] in _MANIFESTS})
    out = [d for d in dirs if any(fnmatch.fnmatchcase(d, g.strip("./").rstrip("/")) for g in globs
                                  if not g.startswith("!")) and safe_path(d)]
    return tuple(out[:12])


def workspace_packages(files: dict[str, str], pkg: dict[str, Any]) -> tuple[str, ...]:
    """Monorepo member globs: package.json workspaces, pnpm-workspace.yaml, Cargo workspace, go.work, deno.json
    workspace, a Dart pub workspace."""
    out: list[str] = []
    ws = pkg.get("workspaces")
    ws = ws.get("packages") if isinstance(ws, dict) else ws
    out += [str(w) for w in ws] if isinstance(ws, list) else []
    pnpm = load_yaml(files.get("pnpm-workspace.yaml", "")) if "pnpm-workspace.yaml" in files else None
    out += [str(w) for w in pnpm.get("packages", [])] if isinstance(pnpm, dict) and isinstance(pnpm.get("packages"), list) else []
    cargo = load_toml(files.get("Cargo.toml", "")).get("workspace", {})
    members = cargo.get("members") if isinstance(cargo, dict) else None
    out += [str(m) for m in members] if isinstance(members, list) else []
    out += re.findall(r"^\s*(?:use\s+)?(\./[\w./-]+)\s*$", files.get("go.work", ""), re.M)
    # deno.json `"workspace": [...]` (or `{"members": [...]}`) and a Dart pub workspace (`workspace:` in pubspec.yaml)
    pubspec = load_yaml(files.get("pubspec.yaml", "")) if "pubspec.yaml" in files else None
    for declared in (load_json(files.get("deno.json", "")).get("workspace"),
                     pubspec.get("workspace") if isinstance(pubspec, dict) else None):
        declared = declared.get("members") if isinstance(declared, dict) else declared
        out += [str(w) for w in declared] if isinstance(declared, list) else []
    plain = [p for p in out if safe_path(p.replace("*", "x").lstrip("!"))
             and all(safe_name(part.replace("*", "x")) for part in p.lstrip("!").strip("./").split("/") if part)]
    return tuple(dict.fromkeys(plain))[:12]


# -- the README's first real sentence --------------------------------------------------------------

_BADGE_LINE = re.compile(r"^(?:\[!\[|!\[|<|\[[^\]]{1,30}\]\([^)]*\)\s*(?:[|·•/]\s*)?$|[-=*_]{3,}$|```|\|)")
_LANG_LINKS = re.compile(r"(?:\[[^\]]{1,20}\]\([^)]*\)\s*[|·•/,]?\s*){2,}")


_CARRIER = re.compile(r"[\w.+-]+@[\w-]+\.\w|https?://|www\.|\b(?:credential|password|passphrase|secret|token|"
                      r"api[ _-]?key|private key|ssh key)s?\b", re.I)


_YOUR = re.compile(r"\W*(?:you|your|yours|yourself)\b", re.I)
"""A clause whose subject is the reader ("your task is to …") is an address even inside a statement."""


def vetted_sentence(text: str) -> str:
    """``text`` when it is a plain statement (no instruction, question, address or injection), else ``""``."""
    # "<name> lets you easily switch …" describes a tool; what follows "lets you" is judged alone
    judged = re.sub(r"^[^,;:]{1,40}?\s(?:lets|helps|allows|enables)\s+you\s+(?:to\s+)?", "", text, count=1)
    if not text or len(text.split()) > 40 or instruction_reasons(judged, describing=True) or scan_text(text):
        return ""
    # "<name> is a Write a script …": judge what follows the copula, and every clause, on its own;
    # in a statement about its subject a clause's possessive "your" is the subject's reader, not the agent
    rest = re.sub(r"^[^,;:]{0,60}?\b(?:is|are)\s+(?:a|an|the)\s+", "", judged, count=1, flags=re.I)
    statement = describes_subject(judged)
    # a clause opening with a compound adjective ("open-source formatting library") is not an order
    if any([r for r in instruction_reasons(clause) if not (statement and r == "second-person" and not _YOUR.match(clause))]
           for clause in re.split(r"\s*(?:[,;:(){}—–]|\s-\s|\bthat\b|\bwhich\b)\s*", rest)
           if clause and not re.match(r"^[a-z]+-[a-z]+\s", clause)):
        return ""
    if _CARRIER.search(text) or re.search(r"[\[\]{}<>|\"“”]", text):  # no address, link, secret or markup
        return ""
    return text


_POINTER = re.compile(r"^(?:for|see|read|visit|check out|refer to|please see|more)\b|\b(?:see|refer to|read|visit|check out)\b"
                      r"[^.]{0,80}\b(?:documentation|docs|guide|guides|website|wiki|site|page)\b", re.I)
"""A sentence that points elsewhere ("For guides … see the documentation") describes nothing."""


def _sentences(readme: str, before_code: bool = False) -> list[str]:
    """First sentences of the README's prose paragraphs (``before_code``: only those above the first code block)."""
    paras: list[str] = []
    para: list[str] = []
    readme = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), readme, flags=re.S)  # licence headers
    refs = {m.group(1).lower() for m in re.finditer(r"^\s*\[([^\]]{1,60})\]:\s*\S", readme, re.M)}
    lines = readme.splitlines()
    in_code = False
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith("```"):
            in_code = not in_code
            if before_code:
                break
            continue
        setext = i + 1 < len(lines) and re.fullmatch(r"[-=]{3,}", lines[i + 1].strip() or "x")
        if in_code or not line or line.startswith(("#", ">")) or (line.startswith("[") and line.endswith("]")) or _BADGE_LINE.match(line) or setext \
                or re.match(r"^(?:[-*+]|\d+\.)\s", line):
            if para:
                paras.append(" ".join(para))
                para = []
            continue
        para.append(line)
    if para:
        paras.append(" ".join(para))
    out = []
    for p in paras:
        p = _LANG_LINKS.sub(" ", p)
        p = re.sub(r"<[^>]+>", "", p)
        p = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", p)
        p = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", p)
        p = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", p)
        # a reference link's bare [text], only when the README defines it (`[CommonMark]: https://…`)
        p = re.sub(r"\[([^\]\[]{1,60})\](?![(\[])", lambda m: m.group(1) if m.group(1).lower() in refs else m.group(0), p)
        p = re.sub(r"\{([\w.-]{1,40})\}", r"\1", p)  # "{fmt} is …": the name in braces
        p = " ".join(re.sub(r"[*_`]", "", p).split())
        first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", p)[0].strip()
        if len(first.split()) >= 4 and re.search(r"[a-z]{3}", first) and not _POINTER.search(first):
            out.append(first)
    return out


def purpose(readme: str, names: tuple[str, ...]) -> str:
    """The project's first real sentence: the first "<Name> is …" sentence, else the first prose one.

    Badges, logos, HTML, headings, code, lists, block quotes and language-link rows are skipped.
    """
    sentences = [s for s in _sentences(readme)[:40] if vetted_sentence(s)]
    lowered = [n.lower() for n in names if n]
    lowered += [n.rsplit("/", 1)[-1] for n in lowered if "/" in n]
    for s in sentences:
        head = s.lower()
        if any(re.match(rf"^(?:the\s+)?(?:[\w.-]+/)?{re.escape(n)}\b(?:\s*\([^)]*\))?,?\s+(?:is|are)\s+(?:a|an|the)\b", head)
               for n in lowered):
            return s[:200]
    # otherwise the first descriptive paragraph above any code: below a code block a sentence
    # comments on the code ("This project requires PHP 7.4 …"), it does not say what the project is
    first = [s for s in _sentences(readme, before_code=True)[:40] if vetted_sentence(s)]
    return first[0][:200] if first else ""
