"""Score one repository's proposals against its expectation file (``tests/realrepos/*.toml``).

Kept apart from the runner (``eval_repos``) so the scoring can be tested on a synthetic
proposal list: which commands a proposal proposes, whether a command is *proven* (documented by
the maintainers, a target the repository defines, a file of its tree, or a built-in of the
ecosystem tool whose manifest is there), and which never-list entries it hits. The definitions
are the ones ``tests/realrepos/README.md`` states; change both together.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.repo_expect import Expectation

__all__ = ["RepoScore", "Tree", "proposed_commands", "prove", "score"]

_COMMAND_LINE = re.compile(r"^\s*[-*]\s*(?P<label>Setup|Install|Build|Tests?|Lint|Format|Type[ -]?check|Docs"
                           r"|Documentation|Release/deploy|Release|Deploy)\b[^:\n`]{0,80}:(?P<rest>.*)$",
                           re.IGNORECASE | re.MULTILINE)
_SPAN = re.compile(r"`([^`\n]+)`")
_PLACEHOLDER = re.compile(r"\$\{\{|\{\{|\bmatrix\.")
_FILE_ONLY = re.compile(r"^[\w./-]+\.(?:ya?ml|md|toml|json|txt|cfg|ini|xml|rst)$")
_MANIFESTS = ("requirements.txt", "requirements-dev.txt", "requirements_dev.txt", "pyproject.toml", "setup.cfg",
              "package.json", "Gemfile", "composer.json", ".pre-commit-config.yaml", "Cargo.toml", "mix.exs",
              "build.sbt", "pubspec.yaml", "go.mod", "deno.json", "flake.nix", ".tool-versions")
_PREFIXES = re.compile(r"^(?:(?:uv|poetry|pdm|hatch) run |bundle exec |npx |pnpm exec |python3? -m |bash |sh |pwsh "
                       r"|(?:python3?|node|ruby|php) (?=\S*[/.]))+")
_RUNNERS = frozenset({"make", "just", "task", "npm", "pnpm", "yarn", "bun", "deno", "composer", "tox", "nox", "pdm",
                      "poe", "hatch", "melos", "sbt", "mix", "rake", "uv", "poetry", "cargo", "go", "dotnet", "swift",
                      "gradle", "mvn", "dune", "cabal", "stack", "nix", "dart", "flutter", "bundle"})


def proposed_commands(bodies: Iterable[str]) -> list[str]:
    """The commands the proposal bodies propose, in order, without repeats (see the README)."""
    out: list[str] = []
    for body in bodies:
        for m in _COMMAND_LINE.finditer(body):
            for part in m["rest"].split(";"):
                spans = _SPAN.findall(part.split("→")[0])
                out += [c for s in spans if (c := s.strip()) and not _FILE_ONLY.match(c) and c not in out]
    return out


class Tree:
    """The files of a checked-out repository, read lazily (only the few a prover needs)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._text: dict[str, str] = {}

    def has(self, rel: str) -> bool:
        rel = rel.removeprefix("./")
        return bool(rel) and not rel.startswith(("/", "..")) and (self.root / rel).is_file()

    def text(self, rel: str) -> str:
        if rel not in self._text:
            try:
                self._text[rel] = (self.root / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                self._text[rel] = ""
        return self._text[rel]

    def any_glob(self, pattern: str) -> bool:
        return any(self.root.glob(pattern))

    def json_keys(self, rel: str, *path: str) -> set[str]:
        try:
            node = json.loads(self.text(rel) or "{}")
        except ValueError:
            return set()
        for key in path:
            node = node.get(key, {}) if isinstance(node, dict) else {}
        return set(node) if isinstance(node, dict) else set()

    def toml(self, rel: str) -> dict[str, object]:
        try:
            return tomllib.loads(self.text(rel))
        except tomllib.TOMLDecodeError:
            return {}


def _defines(text: str, name: str, shape: str) -> bool:
    return re.search(shape.format(re.escape(name)), text, re.MULTILINE) is not None


_AUTOMAKE_TARGETS = frozenset({"all", "check", "distcheck", "dist", "install", "uninstall", "clean", "distclean"})


def _automake_tests(tree: Tree) -> bool:
    """``make check`` runs something: a ``Makefile.am`` (root or one level down) lists ``TESTS``,
    ``check_PROGRAMS`` / ``check_SCRIPTS``, or has a ``check-local`` rule."""
    shape = re.compile(r"^\s*(?:TESTS|(?:\w+_)?check_(?:PROGRAMS|SCRIPTS|LTLIBRARIES))\s*\+?=\s*\S|^check-local\s*:", re.M)
    ams = [tree.root / "Makefile.am", *tree.root.glob("*/Makefile.am")]
    return any(shape.search(tree.text(str(p.relative_to(tree.root)))) for p in ams if p.is_file())


def _target(tree: Tree, words: list[str]) -> bool:
    """Rule 2: the runner's target or script is defined in the repository."""
    prog, args = words[0], [w for w in words[1:] if not w.startswith("-")]
    if prog == "make":
        makefile = next((m for m in ("GNUmakefile", "makefile", "Makefile") if tree.has(m)), "")
        if not makefile and tree.has("Makefile.am"):  # automake writes the Makefile: its standard targets
            return all(a in _AUTOMAKE_TARGETS and (a != "check" or _automake_tests(tree)) for a in args if "=" not in a)
        return bool(makefile) and all(_defines(tree.text(makefile), a, r"^{}\s*:") for a in args if "=" not in a)
    if prog == "just":
        just = next((j for j in ("justfile", "Justfile", ".justfile") if tree.has(j)), "")
        return bool(just and args) and _defines(tree.text(just), args[0], r"^@?{}\b[^:=\n]*:")
    if prog == "task":
        taskfile = next((t for t in ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml") if tree.has(t)), "")
        return bool(taskfile and args) and _defines(tree.text(taskfile), args[0], r"^\s+['\"]?{}['\"]?\s*:")
    if prog in ("npm", "pnpm", "yarn", "bun") and args:
        script = args[1] if args[0] == "run" and len(args) > 1 else args[0]
        return script in tree.json_keys("package.json", "scripts")
    if prog == "deno" and args[:1] == ["task"] and len(args) > 1:
        return any(args[1] in tree.json_keys(f, "tasks") for f in ("deno.json", "deno.jsonc"))
    if prog == "composer" and args:
        script = args[1] if args[0] == "run" and len(args) > 1 else args[0]
        return script in tree.json_keys("composer.json", "scripts")
    if prog == "tox":
        return tree.has("tox.ini") or "[tool.tox" in tree.text("pyproject.toml")
    if prog == "nox":
        return tree.has("noxfile.py") and all(_defines(tree.text("noxfile.py"), a, r"def {}\(") for a in args)
    if prog in ("pdm", "poe", "hatch") and args:
        name = args[-1].split(":")[-1]
        return re.search(rf"^\[?\s*{re.escape(name)}\s*[=\]]|\.{re.escape(name)}\]", tree.text("pyproject.toml"),
                         re.MULTILINE) is not None
    if prog == "melos" and args:
        script = args[1] if args[0] == "run" and len(args) > 1 else args[0]
        return any(_defines(tree.text(f), script, r"^\s+{}\s*:") for f in ("melos.yaml", "pubspec.yaml"))
    if prog == "sbt" and args:
        return all(_defines(tree.text("build.sbt"), a.split("/")[0], r"addCommandAlias\(\s*\"{}\"") for a in args)
    if prog == "mix" and args:
        return _defines(tree.text("mix.exs"), args[0], r"[\s\"]{}\"?\s*:")
    if prog == "rake":
        return tree.has("Rakefile") and all(_defines(tree.text("Rakefile"), a, r"task\s*\(?\s*[:\"']?{}\b")
                                            for a in args)
    return False


_TOOLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"cargo (build|test|check|clippy|fmt|doc|bench|run)\b", ("Cargo.toml",)),
    (r"(go (test|vet|build|mod \w+|generate)|gofmt)\b", ("go.mod",)),
    (r"(mvn|\./mvnw)\b", ("pom.xml",)),
    (r"mix (test|format|compile|deps\.get|credo|dialyzer|docs)\b", ("mix.exs",)),
    (r"dotnet (build|test|restore|pack|format)\b", ("*.sln", "*.slnx", "*.csproj", "*/*.csproj")),
    (r"swift (build|test|package)\b", ("Package.swift",)),
    (r"(cmake|ctest)\b", ("CMakeLists.txt",)),
    (r"dune (build|test|runtest|fmt)\b|opam install\b", ("dune-project",)),
    (r"cabal (build|test|run)\b", ("*.cabal", "cabal.project")),
    (r"stack (build|test)\b", ("stack.yaml",)),
    (r"nix (build|run|flake check|develop)\b", ("flake.nix",)),
    (r"(dart|flutter) (test|analyze|format|pub get)\b|melos bootstrap\b", ("pubspec.yaml",)),
    (r"(bundle install|rake|rspec|rubocop|standardrb)\b", ("Gemfile",)),
    (r"deno (fmt|lint|test|check)\b", ("deno.json", "deno.jsonc")),
    (r"composer (install|update|test)\b", ("composer.json",)),
    (r"(npm (install|ci|test)|pnpm (i|install|test)|yarn( install)?|bun install)(\s|$)", ("package.json",)),
    (r"(uv sync|pip install|poetry install|pdm install|pre-commit run)\b", ("pyproject.toml", "setup.py",
                                                                           ".pre-commit-config.yaml")),
    (r"sbt\b", ("build.sbt",)),
    (r"rebar3 (compile|eunit|ct|dialyzer|xref|fmt|lint|edoc|ex_doc|proper|cover)\b", ("rebar.config",)),
    (r"luarocks (make|build|test|lint|pack)\b", ("*.rockspec",)),
    (r"(crystal (spec|build|tool format|docs)|shards (install|build|update|check))\b", ("shard.yml",)),
    (r"nimble (install|build|test|develop|check)\b", ("*.nimble",)),
    (r"R CMD (build|check|INSTALL)\b", ("DESCRIPTION",)),
    (r"(cpanm (-n )?--installdeps \.|prove|perl Makefile\.PL)(\s|$)", ("Makefile.PL", "Build.PL", "cpanfile")),
    (r"(bazel|bazelisk) (build|test|run|query|mod|coverage)\b", ("MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel")),
)


def prove(command: str, exp: Expectation, tree: Tree) -> str | None:
    """Why ``command`` is proven (``doc``, ``target``, ``file``, ``tool``), or ``None``."""
    command = " ".join(command.split())
    if _PLACEHOLDER.search(command):
        return None
    if any(re.fullmatch(form, command) for doc in exp.commands for form in doc.forms):
        return "doc"
    if " && " in command:  # a chain (a prerequisite in front, `cd docs && …`): every part proven
        reasons = [None if not p.strip() else "file" if re.fullmatch(r"(?:cd|mkdir(?: -p)?) [\w./-]+", p.strip())
                   else prove(p, exp, tree) for p in command.split(" && ")]
        return reasons[-1] if all(reasons) else None
    bare = _PREFIXES.sub("", command)
    words = bare.split()
    if not words:
        return None
    if _target(tree, words):
        return "target"
    if "/" in words[0] or words[0].endswith((".sh", ".ps1", ".py")):
        first = words[0].removeprefix("./")
        if tree.has(first) or (first == "configure" and tree.has("configure.ac")):
            return "file"
    for shape, manifests in _TOOLS:
        if re.match(shape, bare) and any(tree.has(m) if "*" not in m else tree.any_glob(m) for m in manifests):
            return "tool"
    return _declared(tree, words[0], command)


def _declared(tree: Tree, program: str, command: str) -> str | None:
    """Rules 5 and 6: the program is declared in a manifest or has its config at the root
    (``declared``), or the whole command is run verbatim by a CI workflow (``ci``). A runner
    (make, npm, cargo…) proves nothing by being installed: its target must exist (rule 2)."""
    if program not in _RUNNERS and len(program) >= 3:
        word = re.compile(rf"(?<![\w-]){re.escape(program)}(?![\w-])")
        if any(word.search(tree.text(m)) for m in _MANIFESTS if tree.has(m)):
            return "declared"
        stems = {p.name[1:].split(".")[0].lower() for p in tree.root.iterdir()
                 if p.is_file() and p.name.startswith(".") and not p.name.startswith((".git", ".env", ".editor"))}
        if any(len(s) >= 3 and (s.startswith(program) or program.startswith(s)) for s in stems):
            return "declared"
    workflows = tree.root / ".github" / "workflows"
    if workflows.is_dir() and any(command in tree.text(str(p.relative_to(tree.root))) for p in workflows.iterdir()
                                  if p.suffix in (".yml", ".yaml")):
        return "ci"
    return None


@dataclass
class RepoScore:
    """One repository's figures."""

    repo: str
    ecosystem: str
    facts_found: list[str] = field(default_factory=list)
    facts_missing: list[str] = field(default_factory=list)
    docs_found: list[str] = field(default_factory=list)
    docs_missing: list[str] = field(default_factory=list)
    proposed: dict[str, str | None] = field(default_factory=dict)
    """command -> why it is proven (None: unproven)."""
    never_hits: dict[str, str] = field(default_factory=dict)
    """command -> the never-list reason it hits."""

    @property
    def fact_recall(self) -> float:
        total = len(self.facts_found) + len(self.facts_missing)
        return len(self.facts_found) / total if total else 1.0

    @property
    def command_recall(self) -> float:
        total = len(self.docs_found) + len(self.docs_missing)
        return len(self.docs_found) / total if total else 1.0

    @property
    def recall(self) -> float:
        found = len(self.facts_found) + len(self.docs_found)
        total = found + len(self.facts_missing) + len(self.docs_missing)
        return found / total if total else 1.0

    @property
    def precision(self) -> float | None:
        """Proven / proposed; ``None`` when nothing was proposed (nothing to be wrong about)."""
        if not self.proposed:
            return None
        return sum(1 for why in self.proposed.values() if why) / len(self.proposed)


def _matches(form: str, command: str, exp: Expectation) -> bool:
    """``command`` is ``form``, or ends with it behind steps that are themselves documented commands
    of the repository (``shards install && bin/ameba``: the step that makes ``bin/ameba`` in front,
    as the prerequisite rule proposes it). Any other step in front still makes it a different command."""
    if re.fullmatch(form, command):
        return True
    *steps, last = command.split(" && ")
    return bool(steps) and re.fullmatch(form, last) is not None and all(
        any(re.fullmatch(f, s) for d in exp.commands for f in d.forms) for s in steps)


def score(exp: Expectation, texts: Sequence[str], bodies: Sequence[str], tree: Tree) -> RepoScore:
    """Score the proposals (``texts``: description and body of each; ``bodies``: the bodies)."""
    out = RepoScore(exp.repo, exp.ecosystem)
    joined = "\n".join(texts)
    for fact in exp.facts:
        hit = any(re.search(p, joined) for p in fact.match)
        (out.facts_found if hit else out.facts_missing).append(fact.id)
    commands = proposed_commands(bodies)
    for doc in exp.commands:
        hit = any(_matches(form, " ".join(c.split()), exp) for c in commands for form in doc.forms)
        (out.docs_found if hit else out.docs_missing).append(f"{doc.purpose}: {doc.forms[0]}")
    for command in commands:
        out.proposed[command] = prove(command, exp, tree)
        if _PLACEHOLDER.search(command):
            out.never_hits[command] = "holds a CI placeholder"
            continue
        for never in exp.never:
            if re.search(never.match, command):
                out.never_hits[command] = never.why
                break
    return out
