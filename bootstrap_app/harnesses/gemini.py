"""Gemini CLI: ``- <fact>`` bullets under ``## Gemini Added Memories`` in ``~/.gemini/GEMINI.md``.

Why this shape: it is exactly what Gemini CLI's own ``save_memory`` tool produced (formats doc
§4.1, ``memoryTool.ts`` before PR #26941) and it remains plain Markdown every current Gemini
CLI loads as global context. The insertion logic is a port of that tool's
``computeNewContent``: the heading is created at the end when missing, otherwise the bullet
goes at the end of the section (before the next ``\\n## ``); facts are flattened to one line,
leading dashes stripped, ``<``/``>`` replaced by spaces. Text outside the section is kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.fsutil import read_bytes, refuse_symlinks
from bootstrap_app.types import MemoryEntry, Proposal

from .base import FileChange, Harness, Plan, WriteOptions, home_or, new_entries, select_entries
from .common import (
    blank_line_before,
    bullets,
    entry_name,
    infer_type,
    one_line,
    read_text,
    scan_entry,
    split_label,
    strip_stamp,
)

__all__ = ["HEADING", "GeminiHarness", "add_fact", "gemini_dir", "render_fact"]

HEADING = "## Gemini Added Memories"


def gemini_dir() -> Path:
    return Path(os.environ.get("GEMINI_DIR") or Path.home() / ".gemini").expanduser()


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


class GeminiHarness(Harness):
    name = "gemini"

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        return home_or(options, gemini_dir)

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        root = self.memory_root(None, options)
        refuse_symlinks(root)
        path = root / "GEMINI.md"
        refuse_symlinks(path, root)
        before, text = read_text(path)
        present = set(_section_bullets(text))
        plan = Plan(target=self.name, root=root, anchor=root)
        chosen = select_entries(entries, options)
        after = text
        for p in chosen:
            fact = render_fact(p)
            scan_entry(fact, f"entry {p.id} ({p.name})")
            if fact in present:
                plan.written.append((p.fingerprint, f"{path}"))
            elif p.fingerprint in options.written:
                plan.notes.append(f"{p.name}: memseed wrote it before and it was removed since; not re-added")
            else:
                after = add_fact(after, fact)
                present.add(fact)
                plan.written.append((p.fingerprint, f"{path}"))
        if after != text:
            plan.files.append(FileChange(path, before, after.encode("utf-8")))
        plan.notes.append(f"bullets under '{HEADING}' in {path}")
        plan.entries = new_entries(plan, chosen, options)
        return plan

    def read(self, root: Path | None = None) -> list[MemoryEntry]:
        root = root or gemini_dir()
        path = root if root.is_file() else root / "GEMINI.md"
        if path.is_symlink() or not path.is_file():
            return []
        text = (read_bytes(path) or b"").decode("utf-8", "replace")
        when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        out = []
        for i, fact in enumerate(_section_bullets(text)):
            labelled, rest = split_label(fact)
            body = strip_stamp(rest)
            out.append(MemoryEntry(
                source=f"gemini:{path}", ref=f"GEMINI.md#{i}", timestamp=when, authored_by_owner=True,
                harness="gemini", name=entry_name(body),
                description=body if len(body) <= 150 else body[:149] + "…",
                memory_type=labelled or infer_type(fact), body=body, path=str(path)))
        return out
