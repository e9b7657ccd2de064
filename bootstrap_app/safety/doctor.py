"""The doctor's checks on memory folders, file by file, line by line (no harness knowledge).

Why: memory folders are written by agents, by people and (now) by memseed; any of them can
leave an entry that carries an injection, a secret, hidden characters, a frontmatter block
the harness cannot parse, an index line pointing nowhere, a file past the harness's cap, or
a Hermes file that the agent would refuse to edit because it does not round-trip. The doctor
reports each with file and line; it never changes anything.

Each function checks one *shape* of memory (a topic-file folder, ``§``-delimited files, a
Codex home, a ``GEMINI.md``) and takes the caps and parser it needs as arguments: the harness
classes (``bootstrap_app.harnesses``) call them from their ``doctor`` method with their own
constants, and ``harnesses.doctor.run_doctor`` picks the harness. So this module never imports
a harness, and safety stays below the harnesses in the layering.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import yaml

from bootstrap_app.types import MemoryType

from .doctor_checks import Finding, near_duplicates, reference_findings, text_findings

__all__ = ["Finding", "codex_findings", "decode_checked", "gemini_findings", "hermes_findings", "instruction_file_findings", "read_checked", "sorted_findings",
           "topic_folder_findings"]

_TYPES = {t.value for t in MemoryType}
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+\.md)(?:#[^)]*)?\)")


def read_checked(path: Path, out: list[Finding]) -> str | None:
    """A memory file's text; a BOM, an unreadable or a non-UTF-8 file becomes a finding."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        out.append(Finding(str(path), 0, "error", "unreadable", str(exc)))
        return None
    return decode_checked(raw, str(path), out)


def decode_checked(raw: bytes, file: str, out: list[Finding]) -> str | None:
    """:func:`read_checked` on bytes already read (the in-memory fake harness)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        out.append(Finding(file, 1, "warning", "bom", "file starts with a UTF-8 BOM (U+FEFF)"))
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.append(Finding(file, 0, "error", "not-utf8", f"not UTF-8 text ({exc.reason} at byte {exc.start})"))
        return None


def sorted_findings(out: list[Finding]) -> list[Finding]:
    return sorted(set(out), key=lambda f: (f.file, f.line, f.severity, f.code, f.message))


# -- Claude Code / markdown folder -------------------------------------------------------------
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


def topic_folder_findings(folder: Path, *, index_caps: tuple[int, int] | None = None,
                          claude: bool = False) -> list[Finding]:
    """A folder of frontmatter topic files + ``MEMORY.md`` index; ``index_caps`` = (lines, bytes) loaded."""
    out: list[Finding] = []
    index = folder / "MEMORY.md"
    files = sorted(p for p in folder.rglob("*.md") if p != index and not p.is_symlink())
    names: dict[str, str] = {}
    bodies: dict[str, str] = {}
    for path in files:
        text = read_checked(path, out)
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
        return out
    text = read_checked(index, out)
    if text is not None:
        _index(index, text, files, out, index_caps, claude=claude)
    return out


def _index(index: Path, text: str, files: list[Path], out: list[Finding], caps: tuple[int, int] | None, *,
           claude: bool) -> None:
    file = str(index)
    if text.startswith("---"):
        out.append(Finding(file, 1, "warning", "index-frontmatter", "MEMORY.md should not have frontmatter"))
    lines = text.split("\n")
    size = len(text.encode("utf-8"))
    if caps is not None and (len(lines) > caps[0] or size > caps[1]):
        out.append(Finding(file, min(len(lines), caps[0] + 1), "warning", "over-cap",
                           f"MEMORY.md is {len(lines)} lines / {size:,} bytes; the harness loads only the first "
                           f"{caps[0]} lines / {caps[1]:,} bytes"))
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
def hermes_findings(root: Path, files: list[Path], caps: dict[str, int], delimiter: str,
                    parse: Callable[[str], list[str]]) -> list[Finding]:
    """``§``-delimited files: caps, round-trip through the agent's parser, duplicates, threats per entry."""
    out: list[Finding] = []
    if not files:
        out.append(Finding(str(root), 0, "warning", "no-memory", "no MEMORY.md or USER.md found"))
    for path in files:
        text = read_checked(path, out)
        if text is None:
            continue
        file = str(path)
        entries = [e.strip() for e in text.split(delimiter)]
        parsed = parse(text)
        joined = delimiter.join(parsed)
        cap = caps[path.name]
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
        for chunk in text.split(delimiter):
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
            offset += len(chunk) + len(delimiter)
        for a, b, score in near_duplicates(bodies):
            if bodies[a] != bodies[b]:
                out.append(Finding(file, int(b), "warning", "duplicate-body", f"{score:.0%} the same words as line {a}"))
    return out


# -- Codex / Gemini --------------------------------------------------------------------------------
def codex_findings(root: Path, agents_budget: int) -> list[Finding]:
    """A Codex home: the AGENTS.md budget, ``memory_summary.md``'s ``v1`` line, every memory file's text."""
    out: list[Finding] = []
    agents = root / "AGENTS.md"
    if agents.is_file():
        text = read_checked(agents, out)
        if text is not None:
            size = len(text.encode("utf-8"))
            if size > agents_budget:
                out.append(Finding(str(agents), 0, "warning", "over-cap",
                                   f"AGENTS.md is {size:,} bytes; Codex's project-doc budget is {agents_budget:,}"))
            out.extend(text_findings(text, str(agents)))
            out.extend(reference_findings(text, str(agents)))
    memories = root / "memories" if (root / "memories").is_dir() else root
    summary = memories / "memory_summary.md"
    if summary.is_file():
        text = read_checked(summary, out) or ""
        if text.split("\n", 1)[0].strip() != "v1":
            out.append(Finding(str(summary), 1, "warning", "summary-version", "first line is not 'v1' (Codex expects it)"))
    bodies: dict[str, str] = {}
    for path in sorted(memories.rglob("*.md")):
        if ".git" in path.parts or path.is_symlink() or path == agents:
            continue
        text = read_checked(path, out)
        if text is None:
            continue
        bodies[str(path)] = text
        out.extend(text_findings(text, str(path)))
        out.extend(reference_findings(text, str(path)))
    for a, b, score in near_duplicates(bodies, threshold=0.95):
        out.append(Finding(b, 0, "warning", "duplicate-body", f"{score:.0%} the same words as {a}"))
    return out


def instruction_file_findings(path: Path) -> list[Finding]:
    """An instruction file the agent loads whole (a user-level ``CLAUDE.md``): threats, secrets,
    hidden characters and stale references, with the line each is on."""
    out: list[Finding] = []
    text = read_checked(path, out)
    if text is not None:
        out.extend(text_findings(text, str(path)))
        out.extend(reference_findings(text, str(path)))
    return out


def gemini_findings(path: Path) -> list[Finding]:
    """A ``GEMINI.md``: threats and secrets, stale references, duplicate bullets."""
    out: list[Finding] = []
    if not path.is_file():
        out.append(Finding(str(path), 0, "warning", "no-memory", "no GEMINI.md found"))
        return out
    text = read_checked(path, out)
    if text is None:
        return out
    out.extend(text_findings(text, str(path)))
    out.extend(reference_findings(text, str(path)))
    seen: dict[str, int] = {}
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("- "):
            key = " ".join(line[2:].lower().split())
            if key in seen:
                out.append(Finding(str(path), no, "warning", "duplicate-entry", f"same bullet as line {seen[key]}"))
            seen.setdefault(key, no)
    return out
