"""The ecosystem contract: what one language or build system declares about a repository.

Why one contract: a repository states how to work in it through its ecosystem's own files —
``Gemfile`` and ``Rakefile``, ``mix.exs`` and ``.formatter.exs``, ``CMakePresets.json``,
``global.json`` — and every ecosystem has the same few answers to give: which files detect it,
its package manager and wrapper, the tasks its files declare, the language version they require,
the commands that work in any project of it, and its tool vocabulary. A module answers exactly
those, from the files' structure (real parsers where a library exists), so adding an ecosystem
is one module and one registry line, and the rules never branch on a repository's name.

:meth:`Ecosystem.prove` is the linter's check behind a command a maintainer wrote in a doc:
``bundle exec rake spec`` is proven by the ``spec`` task of the ``Rakefile`` (file and line),
``./gradlew build`` by the wrapper script in the tree. A command nobody can prove is dropped.
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import yaml

__all__ = ["Ecosystem", "RepoView", "Target", "load_json", "load_toml", "load_yaml"]


def load_json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def load_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return {}


def load_yaml(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


@dataclass(frozen=True)
class RepoView:
    """What a module may look at: the text of the files read, and every tracked path."""

    files: dict[str, str]
    listed: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(cls, files: dict[str, str], listed: Iterable[str] = ()) -> RepoView:
        return cls(files, frozenset(listed) | frozenset(files))

    def has(self, pattern: str) -> bool:
        """A tracked path matches ``pattern`` (an ``fnmatch`` glob, ``*`` not crossing ``/``)."""
        return bool(self.matching(pattern))

    def matching(self, pattern: str) -> list[str]:
        depth = pattern.count("/")
        return sorted(p for p in self.listed if p.count("/") == depth and fnmatch.fnmatchcase(p, pattern))

    def text(self, pattern: str) -> tuple[str, str]:
        """(path, text) of the first file read that matches ``pattern``, else ``("", "")``."""
        for path in self.matching(pattern):
            if path in self.files:
                return path, self.files[path]
        return "", ""

    def cite_key(self, path: str, section: str, key: str) -> str:
        """``path:line`` of JSON key ``"key":`` inside the object ``"section":`` (else after it; else the file)."""
        text = self.files.get(path, "")
        start = m.end() if (m := re.search(rf'"{re.escape(section)}"\s*:', text)) else 0
        found = re.compile(rf'"{re.escape(key)}"\s*:').search(text, start)
        if found is None:
            return f"{path}:1" if path in self.files else ""
        return f"{path}:{text.count(chr(10), 0, found.start()) + 1}"

    def cite(self, path: str, pattern: str = "", flags: int = re.M) -> str:
        """``path:line`` of the first line matching ``pattern`` (``path:1`` with no pattern), or ``""``."""
        if not pattern:
            return f"{path}:1" if path in self.listed else ""
        text = self.files.get(path, "")
        m = re.search(pattern, text, flags)
        return f"{path}:{text.count(chr(10), 0, m.start()) + 1}" if m else ""


@dataclass(frozen=True)
class Target:
    """A task a file declares: its name, the command a person types, what it runs, file and line."""

    name: str
    command: str
    body: str = ""
    where: str = ""


class Ecosystem:
    """One ecosystem. Subclasses set the class attributes and override what their files state.

    Attributes: ``name`` (id), ``label`` (what the entry says), ``detect`` (root globs; any
    present means the repository is of this ecosystem), ``reads`` (more globs the git source
    must read for the answers: task files, version files, configs), ``package_manager`` and
    ``wrapper`` (``./gradlew``), ``programs`` (first words of its commands: ``bundle``,
    ``rake``), ``builtins`` (subcommands its package manager always has: ``mix test``) and
    ``tools`` (tool -> kind: ``rubocop`` -> lint), merged into the shared vocabulary.
    """

    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    languages: ClassVar[tuple[str, ...]] = ()
    """The languages (as the git source names them by extension) its projects are written in."""
    detect: ClassVar[tuple[str, ...]] = ()
    reads: ClassVar[tuple[str, ...]] = ()
    package_manager: ClassVar[str] = ""
    wrapper: ClassVar[str] = ""
    programs: ClassVar[frozenset[str]] = frozenset()
    builtins: ClassVar[dict[str, frozenset[str]]] = {}
    tools: ClassVar[dict[str, str]] = {}
    manifests: ClassVar[tuple[str, ...]] = ()
    """Globs of the files whose dependency lists declare tools (``Gemfile``, ``*.gemspec``)."""
    invocations: ClassVar[dict[str, str]] = {}
    """A tool's own command run over the project (``luacheck .``): proposed only when the project's CI
    runs the tool through an action (no command line of its own) and the tool's config file is tracked."""
    expression: ClassVar[tuple[str, ...]] = ()
    """The command that runs one expression of the language from a shell (``Rscript -e``); with
    ``calls``, how a call the docs write in the language (``devtools::check()``) is proposed."""
    calls: ClassVar[str] = ""
    """A regex of the only expressions proposed: calls with no argument that could carry data
    (no quotes, no ``$``, no nesting), so quoting them for the shell is safe."""
    describes: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Where the manifest keeps the project's one-line description: (glob, key). The key is a dotted
    path in TOML/JSON/YAML (``package.description``), a top-level element in XML (``description``), or an
    attribute in a Ruby/Elixir manifest (``summary``: ``spec.summary = "…"``, ``description: "…"``)."""

    def detected(self, view: RepoView) -> bool:
        return any(view.has(p) for p in self.detect)

    def expression_command(self, text: str) -> str:
        """``text`` as the shell command that runs it, or ``""``: a call of this language written bare
        (``devtools::check()`` -> ``Rscript -e 'devtools::check()'``), or already behind this
        language's program with a quoted call (``julia --project -e 'using Pkg; Pkg.test()'``, the
        program's flags plain words)."""
        if not self.expression or not self.calls:
            return ""
        text = " ".join(text.split())
        if re.fullmatch(self.calls, text):
            return f"{' '.join(self.expression)} '{text}'"
        m = re.fullmatch(r"""(\S+((?: -[\w-]+(?:=[\w./-]+)?)*)) -e (['"])(.+)\3""", text)
        if m and m.group(1).split()[0] == self.expression[0] and re.fullmatch(self.calls, m.group(4)):
            return f"{m.group(1)} -e '{m.group(4)}'"
        return ""

    def manifest(self, view: RepoView) -> str:
        """The first detecting file present (what a builtin command is proven by)."""
        return next((m[0] for p in self.detect if (m := view.matching(p))), "")

    def targets(self, view: RepoView) -> list[Target]:
        """The tasks its task files declare (Rakefile tasks, composer scripts, mix aliases…)."""
        return []

    def versions(self, view: RepoView) -> tuple[str, ...]:
        """Language/toolchain versions its files require (``Ruby >= 3.0``)."""
        return ()

    def settings(self, view: RepoView) -> tuple[str, ...]:
        """Build settings its project files fix for every change (``warnings as errors``, ``nullable
        reference types``): what a contributor's code must compile under, each ``… (file:line)``."""
        return ()

    def description(self, view: RepoView) -> tuple[str, str]:
        """(the description the manifest declares, ``file:line``), else ``("", "")``; see :attr:`describes`."""
        for pattern, key in self.describes:
            for path in view.matching(pattern):
                text = view.files.get(path, "")
                found = _declared(path, text, key)
                if found:  # cite the line holding the value's first words, else the key's
                    head = r"\s+".join(re.escape(w) for w in found.split()[:3])
                    return found, view.cite(path, head) or view.cite(path, rf"\b{re.escape(key.split('.')[-1])}\b") \
                        or f"{path}:1"
        return "", ""

    def defaults(self, view: RepoView) -> dict[str, str]:
        """kind -> the command any project of this ecosystem answers (``mix test``)."""
        return {}

    def configured(self, view: RepoView) -> tuple[str, ...]:
        """Tools its config files or manifests declare (``rubocop`` for ``.rubocop.yml``)."""
        return ()

    def needs(self, argv: list[str]) -> tuple[str, ...]:
        """The generated files ``argv`` refuses to run without, any one of them enough (``npm ci``
        needs ``package-lock.json`` or ``npm-shrinkwrap.json``); ``()`` when it needs none. A
        command whose lockfile the repository does not track fails, so it is not proposed."""
        return ()

    def makers(self, path: str, view: RepoView) -> tuple[str, ...]:
        """What generates ``path``, a file this ecosystem's commands run that the repository does not
        track (``configure`` is made from ``configure.ac`` by ``autogen.sh`` or ``autoreconf``): the
        scripts (tracked paths) and program commands (``autoreconf -fi``), the repository's own script first; ``()`` when this
        ecosystem makes no such file. A command that runs ``path`` is proposed only behind one of them."""
        return ()

    def prove(self, argv: list[str], view: RepoView) -> str:
        """``file:line`` proving ``argv`` runs something this repository has, else ``""``.

        The default: a declared target whose command is ``argv``, else a builtin subcommand of a
        program of this ecosystem (proven by its manifest), else a tool it configures.
        """
        line = " ".join(argv)
        for t in self.targets(view):
            if t.command == line or (t.command and line.startswith(t.command + " ")):
                return t.where
        if not argv or argv[0] not in self.programs:
            return ""
        sub = argv[1] if len(argv) > 1 else ""
        allowed = self.builtins.get(argv[0])
        if allowed is not None and (sub in allowed or (not sub and "" in allowed)):
            return self.cite_manifest(view)
        if argv[0] in self.tools:
            return self.declares(argv[0], view)
        return ""

    def declares(self, tool: str, view: RepoView) -> str:
        """``file:line`` where a manifest names ``tool`` as a dependency or plugin, else ``""``."""
        if not re.fullmatch(r"[\w.@/-]{2,60}", tool):
            return ""
        rx = rf"(?<![\w-]){re.escape(tool)}(?![\w-])"
        for pattern in self.manifests:
            for path in view.matching(pattern):
                if where := view.cite(path, rx):
                    return where
        return ""

    def cite_manifest(self, view: RepoView) -> str:
        path = self.manifest(view)
        return f"{path}:1" if path else ""


_NESTED = re.compile(r"<(dependencies|dependencyManagement|parent|build|profiles|developers|contributors|organization"
                     r"|licenses|scm|modules|reporting|ItemGroup)\b.*?</\1>", re.S)


def _declared(path: str, text: str, key: str) -> str:
    """The string ``key`` holds in the manifest at ``path`` (parsed by its format), one line, or ``""``."""
    value: Any = None
    if path.endswith((".toml", ".json", ".yaml", ".yml")):
        value = (load_toml if path.endswith(".toml") else load_json if path.endswith(".json") else load_yaml)(text)
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
    elif path.endswith((".xml", "proj", ".props")):
        # the project's own element, never a dependency's, a parent's or a plugin's
        own = _NESTED.sub("", re.sub(r"<!--.*?-->", "", text, flags=re.S))
        m = re.search(rf"<{re.escape(key)}>([^<]*)</{re.escape(key)}>", own)
        value = m.group(1) if m else None
    else:  # Ruby/Elixir source: a literal string assigned to the attribute
        m = re.search(rf"(?:\.|^\s*|[\[,(]\s*){re.escape(key)}\s*(?:=|:)\s*(?:%q\{{([^}}]*)\}}|\"([^\"]*)\"|'([^']*)')", text, re.M)
        value = next((g for g in m.groups() if g), None) if m else None
    return " ".join(value.split())[:300] if isinstance(value, str) else ""
