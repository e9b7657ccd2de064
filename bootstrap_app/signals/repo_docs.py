"""Commands the maintainers wrote: code blocks and backticked commands in contributor docs.

A contributor guide says "run the tests with `make test`" or shows a ``console`` block under a
"Building" heading. Each such command is read with what it is for — the command's own tool or
task name (``rubocop`` lints, ``make check`` tests), else the sentence before it, else its
heading — and kept only when (1) it is a plain command (no pipes, substitutions, redirections,
quotes; at most a ``&&`` chain), (2) the dangerous-step gate finds nothing in it, and (3) every
part of it is *proven* to run something the repository has: an ecosystem module points at the
make target, npm script, rake task, gradle wrapper, cargo package… (file and line), or the
project's CI runs that very line. What cannot be proven is not proposed.

Markdown (ATX and setext headings, fenced blocks) and reStructuredText (underlined headings,
``.. code-block::`` and ``::`` blocks, double backticks) are read; nothing else is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.ecosystems import Ecosystem, RepoView
from bootstrap_app.safety.dangerous import find_dangerous

from .repo_tools import TOOLS, kind_of_name, kind_of_tools, tools_in

__all__ = ["DocCommand", "build_sequence", "doc_commands", "doc_sections", "is_fence", "is_step_only", "prove"]

_SHELL_LANGS = frozenset({"", "sh", "bash", "shell", "console", "zsh", "shell-session", "shellsession", "text",
                          "terminal", "powershell", "ps1", "pwsh", "cmd", "bat", "sh-session", "none", "fish"})
_PROMPT = re.compile(r"^(?:\$|%|>|PS>|PS [^>]*>|❯)\s+")
# `nix run .#format`; a pip requirement may end in its extras (`.[dev]`, `pkg[a,b]`: PEP 508 grammar)
_TOKEN = re.compile(r"^[A-Za-z0-9_./:=@+,%^~\-][A-Za-z0-9_./:=@+,%^~\-#]*(?:\[[A-Za-z0-9_.,-]+\])?$")
_FILTERS = frozenset({"-p", "--package", "--features", "-F", "-k", "--filter", "testOnly", "-run", "--tests",
                      "--test", "--module", "--suite", "--case", "--group", "--app"})
_CONTEXT_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("typecheck", re.compile(r"\btype[- ]?check|\bstatic (?:type )?analysis|\btyping\b", re.I)),
    ("format", re.compile(r"\bformat(?:ting|ter|s)?\b|\bcode style\b|\bstyle guide\b|\bre-?format", re.I)),
    ("lint", re.compile(r"\blint(?:ing|er|s)?\b|\bstatic checks?\b|\bcode quality\b", re.I)),
    ("test", re.compile(r"\btest(?:s|ing|suite)?\b|\bspecs?\b|\bcheck (?:your|the) changes\b", re.I)),
    ("docs", re.compile(r"\bdocs\b|\bdocumentation\b", re.I)),
    ("setup", re.compile(r"\binstall(?:ing)?\b|\bset ?up\b|\bbootstrap|\bdependenc|\bprerequisites?\b|\bgetting started\b",
                         re.I)),
    ("build", re.compile(r"\bbuild(?:ing|s)?\b|\bcompil(?:e|ing)\b", re.I)),
    ("release", re.compile(r"\brelease|\bpublish", re.I)),
)
_COMMAND_WORDS = {"spotless": "format", "rubocop": "lint", "standardrb": "lint", "credo": "lint", "dialyzer": "typecheck",
                  "phpstan": "typecheck", "psalm": "typecheck", "phpcs": "lint", "php-cs-fixer": "format",
                  "scalafmt": "format", "scalafix": "lint", "ctest": "test", "distcheck": "test", "preparepr": "lint",
                  "ormolu": "format", "fourmolu": "format", "hlint": "lint", "deps.get": "setup", "bootstrap": "setup",
                  "analyze": "lint", "make check": "test", "checkformatted": "format", "check-formatted": "format", "ok": "test"}


@dataclass(frozen=True)
class DocCommand:
    """A command a contributor doc states, what it is for, where it is written and what proves it."""

    kind: str
    command: str
    where: str
    proof: str
    narrow: bool = False
    """It runs a part of the suite (one package, a feature, a filter): never "the tests" if a whole one exists."""
    block: int = 0
    """The line opening the code block it is written in (0: inline), so the steps of one block stay together."""
    variant: bool = False
    """It builds a variant (one target, one platform, a make-variable override): never the project's command."""


@dataclass(frozen=True)
class _Candidate:
    text: str
    line: int
    context: str
    heading: str
    inline: bool = False
    block: int = 0


def is_fence(lines: list[str], i: int) -> bool:
    """Line ``i`` opens or closes a fenced block (```` ``` ```` / ``~~~``) — unless it is a line of
    tildes under a title of about its length, which is a reStructuredText heading's underline."""
    line = lines[i].strip()
    if not re.match(r"^(```|~~~)", line):
        return False
    above = lines[i - 1].strip() if i > 0 else ""
    return not (re.fullmatch(r"~+", line) and above and not re.match(r"^(```|~~~)", above)
                and len(line) >= max(3, len(above) - 2))


def doc_sections(text: str) -> list[tuple[int, str]]:
    """(line, heading) of every Markdown or reStructuredText heading, in order."""
    out: list[tuple[int, str]] = []
    lines = text.splitlines()
    fence = ""
    for i, raw in enumerate(lines):
        line = raw.strip()
        if is_fence(lines, i):
            fence = "" if fence else line[:3]
            continue
        if fence:
            continue
        if m := re.match(r"^#{1,6}\s+(.+?)\s*#*$", line):
            out.append((i + 1, m.group(1)))
        elif line and i + 1 < len(lines) and re.fullmatch(r"(=+|-+|~+|\^+|\*+)", lines[i + 1].strip() or "x") \
                and len(lines[i + 1].strip()) >= max(3, len(line) - 2) and not line.startswith(("-", "*", "|")):
            out.append((i + 1, line))
    return out


def _candidates(text: str, dirs: frozenset[str] = frozenset()) -> list[_Candidate]:
    """Every command-shaped text of a doc with its paragraph (or its own line, inline) and heading."""
    lines = text.splitlines()
    heads = dict(doc_sections(text))
    heading = ""
    trail: dict[int, str] = {}
    para: list[str] = []
    context = ""  # the paragraph before a code block says what the block does
    out: list[_Candidate] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if i + 1 in heads:
            # the heading with the headings above it: "Instructions" under "Building from source" builds
            level = len(m.group(1)) if (m := re.match(r"^(#{1,6})\s", line)) else 1
            trail = {k: v for k, v in trail.items() if k < level} | {level: heads[i + 1]}
            heading = " · ".join(trail[k] for k in sorted(trail, reverse=True))
            context, para = "", []
            i += 1
            continue
        fence = re.match(r"^(```+|~~~+)\s*([\w+-]*)", line) if is_fence(lines, i) else None
        rst = re.match(r"^\.\.\s+(?:code-block|code|sourcecode)::\s*([\w+-]*)", line)
        indented = not fence and not rst and raw.startswith(("    ", "\t")) and i > 0 and not lines[i - 1].strip() and not para \
            and not re.match(r"^\s*(?:[-*+]|\d+\.)\s", raw)
        if fence or rst or indented or (line.endswith("::") and not line.startswith("..")):
            if line.endswith("::") and not rst:
                context = " ".join([*para, line])
            lang = (fence.group(2) if fence else rst.group(1) if rst else "").lower()
            block, i = _block(lines, i - 1 if indented else i, fence.group(1) if fence else "")
            para = []
            if lang in _SHELL_LANGS:
                out += [_Candidate(c.text, c.line, c.context, c.heading, block=block[0][0] + 1 if block else 0)
                        for c in _block_commands(block, context, heading, dirs)]
            continue
        if not line:
            para = []
        elif not line.startswith(("|", "<")):
            para.append(line)
            context = " ".join(para)
        for m in re.finditer(r"(?<!`)``?([^`\n]{2,120})``?(?![`_])", line):  # `name`_ is an rst link
            out.append(_Candidate(m.group(1), i + 1, line, heading, inline=True))
        i += 1
    return out


def _block_commands(block: list[tuple[int, str]], context: str, heading: str,
                    dirs: frozenset[str] = frozenset()) -> list[_Candidate]:
    """The commands of one shell block; after a ``cd`` or ``git clone`` the rest runs elsewhere. A
    command whose comment names the tracked folder it runs in (``# in packages/core``) runs there."""
    out: list[_Candidate] = []
    prompted = any(_PROMPT.match(b.strip()) for _, b in block)
    made: set[str] = set()
    prefix: list[str] = []
    note = ""  # a comment line says what the commands under it do, up to the next blank line
    for n, b in _joined(block):
        cmd = b.strip()
        if not cmd or re.match(r"^#\s*\S", cmd):
            note = cmd.lstrip("# ").strip()
            continue
        if prompted and not _PROMPT.match(cmd):
            continue
        cmd = _PROMPT.sub("", cmd)
        if re.search(r"\s#.*\b(?:optional|if you (?:want|like|prefer)|alternatively)\b", cmd, re.I):
            continue  # the doc says the step is optional
        if (m := re.search(r"\s#\s+in ([\w.-]+(?:/[\w.-]+)*)/?(?:\s+[—–-]\s.*|\s*)$", cmd)) and m.group(1) in dirs:
            # `cargo test   # in packages/core`: it runs there
            out.append(_Candidate(f"cd {m.group(1)} && {cmd[:m.start()].strip()}", n + 1, note or context, heading))
            continue
        cmd = re.sub(r"\s+#\s.*$", "", cmd)  # `cmake ..   # Generate the build scripts.`
        if m := re.fullmatch(r"mkdir (?:-p )?([\w.-]+)", cmd):
            made.add(m.group(1))
            prefix.append(cmd)
            continue
        if m := re.fullmatch(r"cd ([\w.-]+)/?", cmd):
            if m.group(1) not in made:
                break  # the rest runs in another checkout or folder
            prefix.append(f"cd {m.group(1)}")
            continue
        if re.match(r"^(?:cd|pushd|git clone)\s", cmd):
            break
        out.append(_Candidate(" && ".join([*prefix, cmd]) if prefix and "cd " in " ".join(prefix) else cmd,
                              n + 1, note or context, heading))
    return out


def _block(lines: list[str], start: int, fence: str) -> tuple[list[tuple[int, str]], int]:
    """The lines of the code block opening at ``start`` (fenced, or indented for rst) and the next index."""
    out: list[tuple[int, str]] = []
    i = start + 1
    if fence:
        while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
            out.append((i, lines[i]))
            i += 1
        return out, i + 1
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
        if lines[i].strip() and not lines[i].strip().startswith(":"):
            out.append((i, lines[i]))
        i += 1
    return out, i


def _joined(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    pending = ""
    first = 0
    for n, text in block:
        if not pending:
            first = n
        pending += " " + text.strip().rstrip("\\") if pending else text.strip().rstrip("\\")
        if not text.rstrip().endswith("\\"):
            out.append((first, pending))
            pending = ""
    return out


def _task_names(view: RepoView, ecosystems: tuple[Ecosystem, ...]) -> dict[str, str]:
    """A task name declared by exactly one runner -> the command that runs it (``preparePR`` -> ``sbt preparePR``)."""
    found: dict[str, set[str]] = {}
    for e in ecosystems:
        for t in e.targets(view):
            found.setdefault(t.name, set()).add(t.command)
    return {name: next(iter(cmds)) for name, cmds in found.items() if len(cmds) == 1 and len(name) >= 3}


def _installs_a_package(cmd: str) -> bool:
    """``pip install requests`` / ``opam install conf-libev``: one package for a user, not the project's setup."""
    words = cmd.split(" && ")[-1].split()
    if "install" not in words and "add" not in words:
        return False
    rest = words[words.index("install" if "install" in words else "add") + 1:]
    # `-r requirements.txt`: a requirements (or constraints) file is the project's list, not one package
    files = {i + 1 for i, w in enumerate(rest) if w in ("-r", "--requirement", "-c", "--constraint")}
    return any(not w.startswith(("-", ".")) for i, w in enumerate(rest) if i not in files)


def _kind(command: str, context: str, heading: str) -> str:
    words = command.split(" && ")[-1].split()
    if len(words) >= 2 and words[1] in ("install", "activate", "bootstrap", "deps.get", "restore", "sync", "i", "ci"):
        return "setup"  # `prek install` installs hooks, `melos bootstrap` links packages: setting up, not linting
    if len(words) >= 2 and words[0] in _RUNNERS and re.match(r"^(?:dev|start|serve|watch|preview)(?:$|:)",
                                                                 words[-1].removeprefix("run ")):
        return ""  # a dev server or watcher runs until stopped: not a check a contributor runs
    if words and words[-1] == "run" and len(words) - (words[0] in _PINNERS) == 2:
        return ""  # a bare `flutter run` / `cargo run` launches the program: not a check either
    low = command.lower()
    # a runner's task name says what it runs (`tox -e lint`), before the runner itself (tox tests)
    own = kind_of_name(words[-1].split(":")[-1]) if len(words) >= 2 and words[0] in _RUNNERS else ""
    own = own or kind_of_tools(tools_in(command))
    if not own:
        own = next((k for w, k in _COMMAND_WORDS.items() if re.search(rf"(?<![\w]){re.escape(w)}", low)), "")
    if not own and len(words) >= 2:
        own = kind_of_name(words[-1].split(":")[-1]) or kind_of_name(words[-1])
    if own:
        return own
    for text in (context, heading):
        found = [(m.start(), k) for k, rx in _CONTEXT_WORDS for m in [rx.search(text)] if m]
        if found:
            return min(found)[1]
    return ""


def _call_kind(command: str) -> str:
    """What a call run by its language's program is for, by the function's name (``check`` tests:
    R's ``R CMD check`` runs the tests; ``install_dev_deps`` sets up)."""
    m = re.search(r"[\w.]+(?=\(\)'$)", command)
    name = m.group(0).split(".")[-1] if m else ""
    return "test" if name == "check" else kind_of_name(name)


def prove(command: str, view: RepoView, ecosystems: tuple[Ecosystem, ...], ci_lines: dict[str, str]) -> str:
    """Where the repository proves every ``&&`` part of ``command`` runs (``file:line``, first part's), or ``""``."""
    proofs: list[str] = []
    said = next((e for e in ecosystems if e.expression and e.expression_command(command) == command), None)
    if said is not None:  # a call run by the language's program acts on the project its manifest declares
        return said.cite_manifest(view)
    for part in command.split("&&"):
        argv = part.split()
        if not argv or not all(_TOKEN.match(t) for t in argv):
            return ""
        if argv[0] in ("mkdir", "cd") and len(argv) <= 3:  # making and entering a build folder needs no proof
            continue
        if argv[:3] == ["git", "submodule", "update"] and view.has(".gitmodules"):
            proofs.append(view.cite(".gitmodules"))
            continue
        if argv[1:] == ["install"] and _pinned_by(argv[0], view):
            proofs.append(next(view.cite(f) for f in _PINNERS[argv[0]] if view.has(f)))
            continue  # `mise install`: the toolchains the pin file lists
        if len(argv) >= 2 and _pinned_by(argv[0], view):
            argv = argv[1:]  # `fvm flutter test` is `flutter test` on the SDK the repository pins
        where = next((w for e in ecosystems if (w := e.prove(argv, view))), "") or ci_lines.get(" ".join(argv), "")
        if not where:
            return ""
        proofs.append(where)
    return proofs[-1] if proofs else ""


_PINNERS = {"fvm": (".fvmrc", ".fvm/fvm_config.json"), "mise": ("mise.toml", ".mise.toml"),
            "asdf": (".tool-versions",), "rtx": (".rtx.toml",), "volta": ("package.json",)}
"""Version managers that run a tool on the version the repository pins, each with its pin file."""


def _pinned_by(word: str, view: RepoView) -> bool:
    """``word`` is a version manager whose pin file the repository tracks (``fvm`` with ``.fvmrc``)."""
    return any(view.has(f) for f in _PINNERS.get(word, ()))


def _plain(text: str) -> str:
    cmd = " ".join(text.split())
    if re.fullmatch(r"git submodule update --init(?: --recursive)?", cmd):
        return cmd  # fetching the submodules the build needs is a step of building from a clone
    if not cmd or len(cmd) > 120 or cmd.startswith(("#", "//", "git ", "cd ", "export ", "sudo ")):
        return ""
    if cmd.startswith("mkdir ") and " && cd " not in cmd:
        return ""
    if re.search(r"\bmake (?:install|uninstall|clean|distclean)\b|--prefix\b|/path\b|\bpath/to\b|\s(?:-g|--global|global)\b"
                 r"|(?:--version|--help|\sfreeze|\slist|\s--list[\w-]*)$", cmd):
        return ""  # installing into the system, cleaning, or a placeholder path: not a contributor's step
    if re.search(r"[|;<>`'\"$(){}*\\]|\s#", cmd) or find_dangerous(cmd):
        return ""
    parts = [p.strip() for p in cmd.split("&&")]
    return " && ".join(parts) if all(p and len(p.split()) <= 10 for p in parts) and len(parts) <= 4 else ""


def doc_commands(docs: list[tuple[str, str]], view: RepoView, ecosystems: tuple[Ecosystem, ...],
                 ci_lines: dict[str, str]) -> list[DocCommand]:
    """Every proven command of ``docs`` ((path, text), most authoritative first), in doc order."""
    out: list[DocCommand] = []
    seen: set[str] = set()
    dirs = frozenset(p.rsplit("/", i)[0] for p in view.listed for i in range(1, p.count("/") + 1))
    for path, text in docs:
        names = _task_names(view, ecosystems)
        # after `git clone …/name.git` the doc's commands may run beside the checkout: `name/requirements.txt`
        clone = re.search(r"^\s*(?:\$\s+)?git clone\s+\S+?/([\w.-]+?)(?:\.git)?/?(?:\s+([\w.-]+))?\s*$", text, re.M)
        clone_dir = (clone.group(2) or clone.group(1)) if clone else ""
        clone_line = text.count("\n", 0, clone.start()) + 1 if clone else 0
        for c in _candidates(text, dirs):
            # a call of the project's language (`devtools::check()`), run by its program (`Rscript -e`)
            said = next((x for e in ecosystems if (x := e.expression_command(c.text))), "")
            if said and not find_dangerous(said) and (not c.inline or _RUN_VERB.search(c.context)):
                kind = _call_kind(said) or _kind(said, c.context, c.heading)
                proof = prove(said, view, ecosystems, ci_lines)
                if kind and proof and said not in seen and not _ELSEWHERE.search(c.heading):
                    seen.add(said)
                    out.append(DocCommand(kind, said, f"{path}:{c.line}", proof, False, c.block))
                continue
            cmd = _plain(c.text)
            if clone_dir and c.line > clone_line and cmd:  # `pip install -r name/req.txt` is `-r req.txt` inside it
                cmd = " ".join(w.removeprefix(clone_dir + "/") if w.startswith(clone_dir + "/")
                               and w.removeprefix(clone_dir + "/") in view.listed else w for w in cmd.split())
            if c.inline and cmd in names and _RUN_VERB.search(c.context):
                cmd = names[cmd]  # "Please run `preparePR`": the one declared task of that name
            # the program: the first word after any `mkdir build && cd build &&`
            first = next((part.split()[1] if len(part.split()) > 1 and _pinned_by(part.split()[0], view)
                          and part.split()[1] != "install" else part.split()[0]
                          for part in cmd.split(" && ") if part.split()[0] not in ("mkdir", "cd")), "") if cmd else ""
            if not cmd or cmd in seen or (first not in _PROGRAMS and "/" not in first and first != "git"
                                           and not _pinned_by(first, view)
                                           and not any(first in e.programs for e in ecosystems)):
                continue
            if c.inline and " " not in cmd and not _RUN_VERB.search(c.context):
                continue  # "arguments are passed to `pytest`" mentions a tool; it does not say to run it
            if _ELSEWHERE.search(c.heading):
                continue
            kind = _kind(cmd, c.context, c.heading)
            if not kind:
                continue
            proof = prove(cmd, view, ecosystems, ci_lines)
            if proof:
                seen.add(cmd)
                narrow = bool(_FILTERS & {w.split("=", 1)[0] for w in cmd.split()}) or any(w.endswith((".rs", ".py", ".ts", ".go", ".rb", ".dart", ".kt", ".swift", ".exs", ".cr", ".jl", ".lua", ".t"))
                                                                  for w in cmd.split()[1:]) or _installs_a_package(cmd)
                narrow = narrow or bool(_ONE_THING.search(c.context))  # "# Test a specific project or package"
                # a make-variable override (`make LDFLAGS=-all-static`) or one target builds a variant
                variant = any(re.match(r"^[A-Z][A-Z0-9_]*=", w) or w.split("=", 1)[0] == "--target"
                              for w in cmd.split()[1:])
                out.append(DocCommand(kind, cmd, f"{path}:{c.line}", proof, narrow or variant, c.block, variant))
    return _legs_narrow(out)


def _legs_narrow(found: list[DocCommand]) -> list[DocCommand]:
    """``flutter build apk`` / ``… ipa`` / ``… macos`` / ``… linux``, each in its own block under its own
    heading: one command per platform, legs of a build like a CI matrix's, not the project's build.
    Three or more commands that differ only in their last word, each in a different block, are narrow."""
    groups: dict[str, list[DocCommand]] = {}
    for d in found:
        words = d.command.split()
        # a runner's last word names a task (`npm run lint`, `make check`): different tasks, not legs
        if len(words) >= 3 and d.block and not words[-1].startswith("-") and words[0] not in _RUNNERS \
                and words[1] != "run":
            groups.setdefault(" ".join(words[:-1]), []).append(d)
    legs = {id(d) for g in groups.values() if len({d.block for d in g}) >= 3 for d in g}
    return [DocCommand(d.kind, d.command, d.where, d.proof, True, d.block, True) if id(d) in legs else d for d in found]


def build_sequence(found: list[DocCommand]) -> tuple[tuple[str, ...], str]:
    """(the steps, ``file:line``) of the first code block that builds the project from source in
    two or more proven steps — fetching submodules, generating and running ``configure``,
    ``make``, ``make check`` — kept whole and in the doc's order, whether or not CI runs them
    all; ``((), "")`` when no block does. Variants (a filter, a make-variable override) are left out."""
    blocks: dict[tuple[str, int], list[DocCommand]] = {}
    for d in found:
        if d.block:
            blocks.setdefault((d.where.rsplit(":", 1)[0], d.block), []).append(d)
    for steps in blocks.values():
        whole = [d for d in steps if not d.narrow]
        if len(whole) >= 2 and any(d.kind == "build" for d in whole) \
                and all(d.kind in ("setup", "build", "test") for d in whole):
            return tuple(d.command for d in whole), whole[0].where
    return (), ""


def is_step_only(command: str) -> bool:
    """A command that is a step of building from a clone, never a check on its own (fetching submodules)."""
    return command.startswith("git submodule ")


_PROGRAMS = frozenset({w for t in TOOLS for w in t.split()[:1]})
_RUN_VERB = re.compile(r"\b(?:run|running|execute|type|invoke|use|call|with)\b", re.I)
_ONE_THING = re.compile(r"\b(?:specific|single|particular|individual)\b|\bone (?:test|file|package|project|module|crate)\b",
                        re.I)
"""What the doc says a command runs one part of the suite for ("Test a specific project")."""
_ELSEWHERE = re.compile(r"bench|release|publish|deploy|uninstall|distribut", re.I)
"""Headings whose commands are not a contributor's everyday checks (benchmarks live elsewhere, releases are the maintainers')."""
_RUNNERS = frozenset({"make", "just", "task", "tox", "nox", "npm", "pnpm", "yarn", "bun", "poe", "composer", "rake",
                      "melos", "deno", "sbt", "mix", "hatch", "pdm"})
