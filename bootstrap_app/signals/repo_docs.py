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

__all__ = ["DocCommand", "doc_commands", "doc_sections", "is_fence", "prove"]

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
                  "analyze": "lint", "checkformatted": "format", "check-formatted": "format", "ok": "test"}


@dataclass(frozen=True)
class DocCommand:
    """A command a contributor doc states, what it is for, where it is written and what proves it."""

    kind: str
    command: str
    where: str
    proof: str
    narrow: bool = False
    """It runs a part of the suite (one package, a feature, a filter): never "the tests" if a whole one exists."""


@dataclass(frozen=True)
class _Candidate:
    text: str
    line: int
    context: str
    heading: str
    inline: bool = False


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


def _candidates(text: str) -> list[_Candidate]:
    """Every command-shaped text of a doc with its paragraph (or its own line, inline) and heading."""
    lines = text.splitlines()
    heads = dict(doc_sections(text))
    heading = ""
    para: list[str] = []
    context = ""  # the paragraph before a code block says what the block does
    out: list[_Candidate] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if i + 1 in heads:
            heading, context, para = heads[i + 1], "", []
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
                out += _block_commands(block, context, heading)
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


def _block_commands(block: list[tuple[int, str]], context: str, heading: str) -> list[_Candidate]:
    """The commands of one shell block; after a ``cd`` or ``git clone`` the rest runs elsewhere."""
    out: list[_Candidate] = []
    prompted = any(_PROMPT.match(b.strip()) for _, b in block)
    made: set[str] = set()
    prefix: list[str] = []
    for n, b in _joined(block):
        cmd = b.strip()
        if prompted and not _PROMPT.match(cmd):
            continue
        cmd = _PROMPT.sub("", cmd)
        if re.search(r"\s#.*\b(?:optional|if you (?:want|like|prefer)|alternatively)\b", cmd, re.I):
            continue  # the doc says the step is optional
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
                              n + 1, context, heading))
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
    return any(not w.startswith(("-", ".")) for w in rest)


def _kind(command: str, context: str, heading: str) -> str:
    words = command.split(" && ")[-1].split()
    if len(words) >= 2 and words[1] in ("install", "activate", "bootstrap", "deps.get", "restore", "sync", "i", "ci"):
        return "setup"  # `prek install` installs hooks, `melos bootstrap` links packages: setting up, not linting
    if len(words) >= 2 and words[0] in _RUNNERS and re.match(r"^(?:dev|start|serve|watch|preview)(?:$|:)",
                                                                 words[-1].removeprefix("run ")):
        return ""  # a dev server or watcher runs until stopped: not a check a contributor runs
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


def prove(command: str, view: RepoView, ecosystems: tuple[Ecosystem, ...], ci_lines: dict[str, str]) -> str:
    """Where the repository proves every ``&&`` part of ``command`` runs (``file:line``, first part's), or ``""``."""
    proofs: list[str] = []
    for part in command.split("&&"):
        argv = part.split()
        if not argv or not all(_TOKEN.match(t) for t in argv):
            return ""
        if argv[0] in ("mkdir", "cd") and len(argv) <= 3:  # making and entering a build folder needs no proof
            continue
        where = next((w for e in ecosystems if (w := e.prove(argv, view))), "") or ci_lines.get(" ".join(argv), "")
        if not where:
            return ""
        proofs.append(where)
    return proofs[-1] if proofs else ""


def _plain(text: str) -> str:
    cmd = " ".join(text.split())
    if not cmd or len(cmd) > 120 or cmd.startswith(("#", "//", "git ", "cd ", "export ", "sudo ")):
        return ""
    if cmd.startswith("mkdir ") and " && cd " not in cmd:
        return ""
    if re.search(r"\bmake (?:install|uninstall|clean|distclean)\b|--prefix\b|/path\b|\bpath/to\b|\s(?:-g|--global|global)\b"
                 r"|(?:--version|--help|\sfreeze|\slist)$", cmd):
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
    for path, text in docs:
        names = _task_names(view, ecosystems)
        for c in _candidates(text):
            cmd = _plain(c.text)
            if c.inline and cmd in names and _RUN_VERB.search(c.context):
                cmd = names[cmd]  # "Please run `preparePR`": the one declared task of that name
            # the program: the first word after any `mkdir build && cd build &&`
            first = next((part.split()[0] for part in cmd.split(" && ") if part.split()[0] not in ("mkdir", "cd")), "") \
                if cmd else ""
            if not cmd or cmd in seen or (first not in _PROGRAMS and "/" not in first
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
                narrow = bool(_FILTERS & {w.split("=", 1)[0] for w in cmd.split()}) or any(w.endswith((".rs", ".py", ".ts", ".go", ".rb"))
                                                                  for w in cmd.split()[1:]) or _installs_a_package(cmd)
                out.append(DocCommand(kind, cmd, f"{path}:{c.line}", proof, narrow))
    return out


_PROGRAMS = frozenset({w for t in TOOLS for w in t.split()[:1]})
_RUN_VERB = re.compile(r"\b(?:run|running|execute|type|invoke|use|call|with)\b", re.I)
_ELSEWHERE = re.compile(r"bench|release|publish|deploy|uninstall", re.I)
"""Headings whose commands are not a contributor's everyday checks (benchmarks live elsewhere, releases are the maintainers')."""
_RUNNERS = frozenset({"make", "just", "task", "tox", "nox", "npm", "pnpm", "yarn", "bun", "poe", "composer", "rake",
                      "melos", "deno", "sbt", "mix", "hatch", "pdm"})
