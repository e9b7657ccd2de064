"""Gemini CLI: ``- <fact>`` bullets under ``## Gemini Added Memories`` in ``~/.gemini/GEMINI.md``.

Why this shape: it is exactly what Gemini CLI's own ``save_memory`` tool produced (formats doc
§4.1, ``memoryTool.ts`` before PR #26941) and it remains plain Markdown every current Gemini
CLI loads as global context. The insertion logic is a port of that tool's
``computeNewContent``: the heading is created at the end when missing, otherwise the bullet
goes at the end of the section (before the next ``\\n## ``); facts are flattened to one line,
leading dashes stripped, ``<``/``>`` replaced by spaces. Text outside the section is kept.
An update that supersedes a bullet memseed wrote is put on that bullet's line.

The global file holds facts for every session only. A fact about one repository goes to the
marked block of that repository's own context file (``projectfile``): the first name of
``context.fileName`` (settings.json; default ``GEMINI.md``) present at the repository's root,
else a new ``GEMINI.md`` — Gemini CLI loads it only in sessions inside that repository.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from bootstrap_app.errors import WriteError
from bootstrap_app.fsutil import read_bytes, refuse_symlinks
from bootstrap_app.safety.doctor import gemini_findings, sorted_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, Proposal

from .base import FileChange, Harness, Plan, WriteOptions, new_entries, placement
from .common import (
    blank_line_before,
    bullets,
    count_files,
    head_text,
    line_entry,
    one_line,
    read_text,
    scan_entry,
)
from .projectfile import first_present, plan_repo_files, split_by_repo

__all__ = ["HEADING", "GeminiHarness", "add_fact", "context_names", "gemini_dir", "project_file", "render_fact"]

HEADING = "## Gemini Added Memories"


def render_fact(p: Proposal) -> str:
    """The bullet text: one line, no leading dashes, no angle brackets."""
    fact = re.sub(r"[<>]", " ", one_line(p))
    fact = " ".join(fact.split())
    return re.sub(r"^(-+\s*)+", "", fact).strip()


def _section(text: str) -> tuple[int, int] | None:
    """Where the section's content lies: just after ``HEADING`` up to the next ``\\n## `` (or the end)."""
    at = text.find(HEADING)
    if at == -1:
        return None
    start = at + len(HEADING)
    end = text.find("\n## ", start)
    return start, end if end != -1 else len(text)


def add_fact(current: str, fact: str) -> str:
    """``computeNewContent`` of the legacy ``save_memory`` tool."""
    item = f"- {fact}"
    span = _section(current)
    if span is None:
        return current + f"{blank_line_before(current)}{HEADING}\n{item}\n"
    start, end = span
    before = current[:start].rstrip()
    section = current[start:end].rstrip() + f"\n{item}"
    after = current[end:]
    return f"{before}\n{section.lstrip()}\n{after}".rstrip() + "\n"


def _section_bullets(text: str) -> list[str]:
    span = _section(text)
    if span is None:
        return []
    return bullets(text[span[0]:span[1]])


def replace_fact(current: str, old: str, new: str | None) -> str | None:
    """``current`` with the bullet ``- old`` of the section turned into ``- new``, or dropped with its
    line ending when ``new`` is ``None`` (result ``None``: the bullet is not there)."""
    span = _section(current)
    if span is None:
        return None
    start, end = span
    section = current[start:end]
    # the line as any editor may have left it: more spaces after the dash, a CRLF line ending
    at = re.search(rf"^-[ \t]+{re.escape(old)}[ \t]*(?=\r?$)", section, re.MULTILINE)
    if at is None:
        return None
    if new is None:
        rest = section[at.end():]
        rest = rest[2:] if rest.startswith("\r\n") else rest[1:] if rest.startswith("\n") else rest
        return current[:start] + section[:at.start()] + rest + current[end:]
    return current[:start] + section[:at.start()] + f"- {new}" + section[at.end():] + current[end:]


def _names_in(settings: Path) -> list[str]:
    try:
        data = json.loads((read_bytes(settings) or b"{}").decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return []
    context = data.get("context") if isinstance(data, dict) else None
    names = context.get("fileName") if isinstance(context, dict) else None
    names = [names] if isinstance(names, str) else names
    return [n for n in names if isinstance(n, str) and n and "/" not in n] if isinstance(names, list) else []


def context_names(home: Path, root: Path | None = None) -> list[str]:
    """The context file names Gemini CLI loads (``context.fileName`` of the repository's
    ``.gemini/settings.json``, else of the user's ``settings.json``; default ``GEMINI.md``)."""
    return ((_names_in(root / ".gemini" / "settings.json") if root is not None else [])
            or _names_in(home / "settings.json") or ["GEMINI.md"])


def project_file(home: Path, root: Path) -> tuple[Path, list[str]]:
    """The context file at a repository's root that gets the block: the first configured name
    present there, else the first configured name (a new file)."""
    names = context_names(home, root)
    found = first_present(root, names)
    path = found or root / names[0]
    return path, ([] if path.name == "GEMINI.md" else
                  [f"Gemini CLI's context.fileName names {', '.join(names)}, so the repository's block goes "
                   f"into {path.name}"])


class GeminiHarness(Harness, name="gemini",
                    label="Gemini CLI",
                    home_env=("GEMINI_DIR",),
                    default_home=".gemini",
                    entry_format=f"'- <Label>: <fact> (memseed DATE)' bullets under '{HEADING}' in GEMINI.md; a repository's facts in a marked block of that repository's GEMINI.md",
                    source_uri="gemini:",
                    source_description="Gemini CLI global memory (~/.gemini/GEMINI.md)"):
    """Gemini CLI: bullets under memseed's heading in the global ``GEMINI.md``."""

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options, root, chosen, plan = self.start_plan(entries, options)
        split = split_by_repo(chosen)
        plan_repo_files(plan, split, options, lambda repo: project_file(root, repo), "Gemini CLI")
        path = root / "GEMINI.md"
        refuse_symlinks(path, root)
        before, text = read_text(path)
        present = set(_section_bullets(text))
        after = text
        for p in split.everywhere:
            fact = render_fact(p)
            scan_entry(fact, f"entry {p.id} ({p.name})")
            action, old = placement(plan, p, options, present, render_fact)
            if action == "gone":
                continue
            if action == "remove" and old is not None:  # a fact that no longer holds: its bullet goes
                dropped = replace_fact(after, render_fact(old), None)
                if dropped is None:
                    plan.notes.append(f"{p.name}: could not find the line of {old.name} in {path}; kept as it is")
                else:
                    after = dropped
                    present.discard(render_fact(old))
                    plan.supersede(p, old, str(path), render_fact(old))
                continue
            swapped = replace_fact(after, render_fact(old), fact) if old is not None else None
            if old is not None and swapped is not None:
                after = swapped
                present.discard(render_fact(old))
                plan.supersede(p, old, str(path), render_fact(old))
            elif action != "keep":
                if old is not None:  # listed as a bullet, but not on a line of its own we can rewrite
                    plan.notes.append(f"{p.name}: could not find the line of {old.name} in {path}; added as a new bullet")
                after = add_fact(after, fact)
            present.add(fact)
            plan.written.append((p.fingerprint, f"{path}"))
        if after != text:
            plan.files.append(FileChange(path, before, after.encode("utf-8")))
        plan.notes.append(f"bullets under '{HEADING}' in {path}")
        if "GEMINI.md" not in context_names(root):
            plan.notes.append(f"warning: settings.json context.fileName does not name GEMINI.md, so Gemini CLI "
                              f"does not load {path}; add GEMINI.md to that list")
        plan.entries = new_entries(plan, chosen, options)
        return plan

    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        root = root or self.home()
        path = root if root.is_file() else root / "GEMINI.md"
        if path.is_symlink() or not path.is_file():
            return [], []
        try:
            _, text = read_text(path)
        except WriteError:
            return [], [(path.name, "not UTF-8 text; Gemini CLI could not load it either")]
        return [line_entry(f"gemini:{path}", f"GEMINI.md#{i}", path, self.name, fact)
                for i, fact in enumerate(_section_bullets(text))], []

    @classmethod
    def sniff(cls, path: Path) -> bool:
        target = path if path.is_file() else path / "GEMINI.md"
        return target.name == "GEMINI.md" and target.is_file() and HEADING in head_text(target, 1 << 20)

    @classmethod
    def owns(cls, path: Path) -> bool:
        return (path / "GEMINI.md").is_file() or path.name == "GEMINI.md"

    def memory_count(self, home: Path) -> int:
        return int((home / "GEMINI.md").is_file()) + count_files(home / "tmp", "*/memory/*.md")

    def doctor(self, root: Path) -> list[Finding]:
        return sorted_findings(gemini_findings(root if root.is_file() else root / "GEMINI.md"))


def gemini_dir() -> Path:
    """``$GEMINI_DIR`` or ``~/.gemini``."""
    return GeminiHarness.home()
