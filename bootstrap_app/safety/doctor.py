"""``memseed doctor``: audit a memory folder an agent already loads, file by file, line by line.

Why: memory folders are written by agents, by people and (now) by memseed; any of them can
leave an entry that carries an injection, a secret, hidden characters, a frontmatter block
the harness cannot parse, an index line pointing nowhere, a file past the harness's cap, or
a Hermes file that the agent would refuse to edit because it does not round-trip. The doctor
reports each with file and line; it never changes anything.

Targets: ``claude-code`` (a ``memory/`` folder, or a config home with ``projects/*/memory``),
``codex`` (``$CODEX_HOME``: ``AGENTS.md`` + ``memories/``), ``hermes`` (``$HERMES_HOME`` or its
``memories/``; profiles too), ``gemini`` (``GEMINI.md``), ``markdown`` (any folder of notes),
or ``auto`` to detect by shape. Without ``path`` the harness's default location is used.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.harnesses import HARNESSES, get_harness
from bootstrap_app.harnesses.claude_code import MAX_INDEX_BYTES as CLAUDE_INDEX_BYTES
from bootstrap_app.harnesses.claude_code import MAX_INDEX_LINES as CLAUDE_INDEX_LINES
from bootstrap_app.harnesses.codex import AGENTS_BUDGET as CODEX_AGENTS_BYTES
from bootstrap_app.harnesses.hermes import DELIMITER as HERMES_DELIM
from bootstrap_app.harnesses.hermes import LIMITS as HERMES_CAPS
from bootstrap_app.harnesses.hermes import parse_entries
from bootstrap_app.types import MemoryType

from .doctor_checks import Finding, near_duplicates, reference_findings, text_findings

__all__ = ["TARGETS", "Finding", "detect_target", "run_doctor"]

TARGETS = tuple(HARNESSES)
"""The harnesses the doctor knows; caps, delimiters and parsers are the writers' own."""
_TYPES = {t.value for t in MemoryType}
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+\.md)(?:#[^)]*)?\)")


def _read(path: Path, out: list[Finding]) -> str | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        out.append(Finding(str(path), 0, "error", "unreadable", str(exc)))
        return None
    if raw.startswith(b"\xef\xbb\xbf"):
        out.append(Finding(str(path), 1, "warning", "bom", "file starts with a UTF-8 BOM (U+FEFF)"))
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.append(Finding(str(path), 0, "error", "not-utf8", f"not UTF-8 text ({exc.reason} at byte {exc.start})"))
        return None


def detect_target(path: Path) -> str:
    """Guess the harness a folder belongs to from its shape."""
    if (path / "projects").is_dir() or (path / "memory" / "MEMORY.md").is_file():
        return "claude-code"
    for candidate in (path / "memories" / "MEMORY.md", path / "MEMORY.md", path / "USER.md",
                      path / "memories" / "USER.md"):
        if candidate.is_file() and HERMES_DELIM in candidate.read_text("utf-8", "replace"):
            return "hermes"
    if (path / "AGENTS.md").is_file() or (path / "memories" / "memory_summary.md").is_file() \
            or (path / "config.toml").is_file():
        return "codex"
    if (path / "GEMINI.md").is_file():
        return "gemini"
    return "markdown"


def run_doctor(target: str, path: Path | None = None, project: Path | None = None) -> list[Finding]:
    """Audit the memory folder of ``target`` (at ``path``, or the harness default) and return findings."""
    target = target.strip().lower().replace("_", "-")
    target = {"claude": "claude-code", "md": "markdown"}.get(target, target)
    if target != "auto" and target not in TARGETS:
        raise TargetNotFound(f"unknown target {target!r}", hint="choose one of: auto, " + ", ".join(TARGETS))
    root = Path(path).expanduser() if path is not None else None
    if target == "auto":
        if root is None:
            raise TargetNotFound("--target auto needs --path", hint="give the folder to audit with --path DIR")
        target = detect_target(root)
    if root is None and target == "claude-code" and project is None:
        # one memory folder per project: with no project named, audit every one of them
        from bootstrap_app.harnesses.claude_code import config_home

        root = config_home()
    if root is None:
        root = get_harness(target).memory_root(project)
    if not root.exists():
        raise TargetNotFound(f"{root} does not exist", hint="pass the memory folder with --path DIR")
    out: list[Finding] = []
    if target == "hermes":
        _hermes(root, out)
    elif target == "codex":
        _codex(root, out)
    elif target == "gemini":
        _gemini(root, out)
    else:
        folders = _claude_folders(root) if target == "claude-code" else [root]
        for folder in folders:
            _topic_folder(folder, out, claude=target == "claude-code")
    return sorted(set(out), key=lambda f: (f.file, f.line, f.severity, f.code, f.message))


# -- Claude Code / markdown folder -------------------------------------------------------------
def _claude_folders(root: Path) -> list[Path]:
    if (root / "MEMORY.md").is_file() or root.name == "memory":
        return [root]
    if (root / "memory").is_dir():
        return [root / "memory"]
    if (root / "projects").is_dir():
        return sorted(p / "memory" for p in (root / "projects").iterdir() if (p / "memory").is_dir())
    return [root]


def _frontmatter(text: str, file: str, out: list[Finding]) -> tuple[dict[str, object], str, int]:
    """(metadata, body, first body line) — with findings for frontmatter Claude cannot read."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text, 1
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if close is None:
        out.append(Finding(file, 1, "error", "frontmatter-unclosed", "frontmatter never closes with '---'"))
        return {}, text, 1
    if close > 30:
        out.append(Finding(file, close + 1, "warning", "frontmatter-late",
                           f"frontmatter closes on line {close + 1}; Claude Code reads only the first 30 lines"))
    try:
        meta = yaml.safe_load("\n".join(lines[1:close])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = (mark.line + 2) if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        out.append(Finding(file, line, "error", "frontmatter-invalid", f"YAML error: {problem}"))
        meta = {}
    if not isinstance(meta, dict):
        out.append(Finding(file, 2, "error", "frontmatter-invalid", "frontmatter is not a mapping"))
        meta = {}
    return meta, "\n".join(lines[close + 1:]), close + 2


def _topic_folder(folder: Path, out: list[Finding], *, claude: bool) -> None:
    index = folder / "MEMORY.md"
    files = sorted(p for p in folder.rglob("*.md") if p != index and not p.is_symlink())
    names: dict[str, str] = {}
    bodies: dict[str, str] = {}
    for path in files:
        text = _read(path, out)
        if text is None:
            continue
        meta, body, first = _frontmatter(text, str(path), out)
        if meta:
            name = str(meta.get("name") or "")
            nested = meta.get("metadata")
            mtype = meta.get("type") or (nested.get("type") if isinstance(nested, dict) else None)
            if not name or not meta.get("description"):
                out.append(Finding(str(path), 1, "warning", "frontmatter-fields", "frontmatter lacks name or description"))
            if mtype is not None and str(mtype) not in _TYPES:
                out.append(Finding(str(path), 1, "warning", "frontmatter-type", f"type {mtype!r} is not one of {sorted(_TYPES)}"))
            if name and name in names:
                out.append(Finding(str(path), 1, "warning", "duplicate-name", f"name {name!r} also used by {names[name]}"))
            if name:
                names.setdefault(name, str(path))
        bodies[str(path)] = body
        out.extend(text_findings(body, str(path), first_line=first))
        out.extend(reference_findings(body, str(path), first_line=first))
    for a, b, score in near_duplicates(bodies):
        out.append(Finding(b, 1, "warning", "duplicate-body", f"{score:.0%} the same words as {a}"))
    if not index.is_file():
        if claude and files:
            out.append(Finding(str(index), 0, "warning", "no-index", "no MEMORY.md index: Claude Code loads nothing"))
        return
    text = _read(index, out)
    if text is None:
        return
    _index(index, text, files, out, claude=claude)


def _index(index: Path, text: str, files: list[Path], out: list[Finding], *, claude: bool) -> None:
    file = str(index)
    if text.startswith("---"):
        out.append(Finding(file, 1, "warning", "index-frontmatter", "MEMORY.md should not have frontmatter"))
    lines = text.split("\n")
    size = len(text.encode("utf-8"))
    if claude and (len(lines) > CLAUDE_INDEX_LINES or size > CLAUDE_INDEX_BYTES):
        out.append(Finding(file, min(len(lines), CLAUDE_INDEX_LINES + 1), "warning", "over-cap",
                           f"MEMORY.md is {len(lines)} lines / {size:,} bytes; Claude Code loads only the first "
                           f"{CLAUDE_INDEX_LINES} lines / {CLAUDE_INDEX_BYTES:,} bytes"))
    linked: set[Path] = set()
    for no, line in enumerate(lines, 1):
        for m in _LINK.finditer(line):
            target = m.group(1)
            if "://" in target:
                continue
            resolved = (index.parent / target).resolve()
            linked.add(resolved)
            if not resolved.is_file():
                out.append(Finding(file, no, "warning", "index-missing-file", f"links to {target}, which does not exist"))
    out.extend(text_findings(text, file))
    for path in files:
        if path.resolve() not in linked and path.parent == index.parent:
            out.append(Finding(str(path), 0, "info" if not claude else "warning", "not-in-index",
                               "not linked from MEMORY.md (Claude Code will not know to open it)"))


# -- Hermes --------------------------------------------------------------------------------------
def _hermes_files(root: Path) -> list[Path]:
    found = [root / n for n in HERMES_CAPS if (root / n).is_file()]
    found += [root / "memories" / n for n in HERMES_CAPS if (root / "memories" / n).is_file()]
    if (root / "profiles").is_dir():
        for prof in sorted((root / "profiles").iterdir()):
            found += [prof / "memories" / n for n in HERMES_CAPS if (prof / "memories" / n).is_file()]
    return found


def _hermes(root: Path, out: list[Finding]) -> None:
    files = _hermes_files(root)
    if not files:
        out.append(Finding(str(root), 0, "warning", "no-memory", "no MEMORY.md or USER.md found"))
    for path in files:
        text = _read(path, out)
        if text is None:
            continue
        file = str(path)
        entries = [e.strip() for e in text.split(HERMES_DELIM)]
        parsed = parse_entries(text)
        joined = HERMES_DELIM.join(parsed)
        cap = HERMES_CAPS[path.name]
        if len(joined) > cap:
            out.append(Finding(file, 0, "warning", "over-cap",
                               f"{len(joined):,} characters; Hermes's limit is {cap:,} (it will refuse new entries)"))
        if text.strip() != joined:
            line = next((text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"\n[ \t]*\n[ \t]*§|§[ \t]*\n[ \t]*\n", text)), 0)
            why = "blank lines around §" if line else ("duplicate entries" if len(parsed) < len([e for e in entries if e])
                                                       else "empty entries or stray whitespace")
            out.append(Finding(file, line, "error", "hermes-roundtrip",
                               f"file does not round-trip through Hermes's parser ({why}); the agent will refuse "
                               f"to replace/remove entries until it is fixed"))
        offset = 0
        seen: dict[str, int] = {}
        bodies: dict[str, str] = {}
        for chunk in text.split(HERMES_DELIM):
            lead = len(chunk) - len(chunk.lstrip())
            first = text.count("\n", 0, offset + lead) + 1
            entry = chunk.strip()
            if entry:
                if entry in seen:
                    out.append(Finding(file, first, "warning", "duplicate-entry",
                                       f"same entry as line {seen[entry]} (Hermes keeps only the first)"))
                seen.setdefault(entry, first)
                bodies[f"{first}"] = entry
                if len(entry.split()) < 3 and len(entry) < 12:
                    out.append(Finding(file, first, "info", "trivial-entry", f"entry {entry!r} carries no fact"))
                if len(entry) > cap:
                    out.append(Finding(file, first, "error", "entry-too-long", f"entry longer than the {cap:,}-char limit"))
                out.extend(text_findings(entry, file, first_line=first, hermes=True))
                out.extend(reference_findings(entry, file, first_line=first))
            offset += len(chunk) + len(HERMES_DELIM)
        for a, b, score in near_duplicates(bodies):
            if bodies[a] != bodies[b]:
                out.append(Finding(file, int(b), "warning", "duplicate-body", f"{score:.0%} the same words as line {a}"))


# -- Codex / Gemini --------------------------------------------------------------------------------
def _codex(root: Path, out: list[Finding]) -> None:
    agents = root / "AGENTS.md"
    if agents.is_file():
        text = _read(agents, out)
        if text is not None:
            size = len(text.encode("utf-8"))
            if size > CODEX_AGENTS_BYTES:
                out.append(Finding(str(agents), 0, "warning", "over-cap",
                                   f"AGENTS.md is {size:,} bytes; Codex's project-doc budget is {CODEX_AGENTS_BYTES:,}"))
            out.extend(text_findings(text, str(agents)))
            out.extend(reference_findings(text, str(agents)))
    memories = root / "memories" if (root / "memories").is_dir() else root
    summary = memories / "memory_summary.md"
    if summary.is_file():
        text = _read(summary, out) or ""
        if text.split("\n", 1)[0].strip() != "v1":
            out.append(Finding(str(summary), 1, "warning", "summary-version", "first line is not 'v1' (Codex expects it)"))
    bodies: dict[str, str] = {}
    for path in sorted(memories.rglob("*.md")):
        if ".git" in path.parts or path.is_symlink() or path == agents:
            continue
        text = _read(path, out)
        if text is None:
            continue
        bodies[str(path)] = text
        out.extend(text_findings(text, str(path)))
        out.extend(reference_findings(text, str(path)))
    for a, b, score in near_duplicates(bodies, threshold=0.95):
        out.append(Finding(b, 0, "warning", "duplicate-body", f"{score:.0%} the same words as {a}"))


def _gemini(root: Path, out: list[Finding]) -> None:
    path = root if root.is_file() else root / "GEMINI.md"
    if not path.is_file():
        out.append(Finding(str(path), 0, "warning", "no-memory", "no GEMINI.md found"))
        return
    text = _read(path, out)
    if text is None:
        return
    out.extend(text_findings(text, str(path)))
    out.extend(reference_findings(text, str(path)))
    seen: dict[str, int] = {}
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("- "):
            key = " ".join(line[2:].lower().split())
            if key in seen:
                out.append(Finding(str(path), no, "warning", "duplicate-entry", f"same bullet as line {seen[key]}"))
            seen.setdefault(key, no)
