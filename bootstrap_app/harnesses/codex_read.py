"""Reading a Codex home back into memory entries (the mirror of ``codex.py``).

Why a separate module: Codex memory comes in several shapes that memseed did not write —
the Phase-2 agent's ``MEMORY.md`` task groups and ``memory_summary.md`` sections, ad-hoc
notes, and hand-written ``AGENTS.md`` sections — and each maps to memory types differently:

- ``memory_summary.md``: ``## User Profile`` -> one user entry; ``## User preferences``
  bullets -> feedback; ``## General Tips`` bullets -> reference.
- ``memories/MEMORY.md``: each ``# Task Group:`` -> one project entry (without the rollout
  file lists and keyword bullets); ``## User preferences`` bullets -> feedback.
- notes under ``extensions/ad_hoc/notes/`` -> one entry each (memseed's own notes keep type).
- ``AGENTS.md``: sections of the memseed block keep their type; other ``##`` sections are
  instructions the person wrote -> feedback.
Generated files (``raw_memories.md``, ``rollout_summaries/``) are not memories and are skipped.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.errors import WriteError
from bootstrap_app.fsutil import read_bytes
from bootstrap_app.types import MemoryEntry, MemoryType, slugify

from .block import BEGIN, END
from .common import bullets, entry_name, infer_type

__all__ = ["REPLACES", "read_codex_home"]

REPLACES = "This replaces an earlier memory"
"""How a note memseed rewrote for an update names what Codex should forget (``codex._note_body``)."""
_NOTE_TYPE = re.compile(r"memory \((user|feedback|project|reference) type\)")
_HEADING2 = re.compile(r"^## +(.+?)\s*$", re.MULTILINE)


def _first_sentence(text: str, limit: int = 150) -> str:
    flat = " ".join(text.split())
    cut = re.split(r"(?<=[.!?。])\s", flat, maxsplit=1)[0]
    return cut if len(cut) <= limit else cut[: limit - 1].rstrip() + "…"


def _sections(text: str, level: str) -> list[tuple[str, str]]:
    """(title, body) for every heading of ``level`` ('#', '##', '###')."""
    pattern = re.compile(rf"^{re.escape(level)} +(.+?)\s*$", re.MULTILINE)
    marks = list(pattern.finditer(text))
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((m.group(1), text[m.end():end].strip()))
    return out


class _Reader:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.entries: list[MemoryEntry] = []
        self.skipped: list[tuple[str, str]] = []
        self.seen: set[str] = set()

    def text(self, path: Path) -> str | None:
        try:
            raw = read_bytes(path)
        except WriteError as exc:
            self.skipped.append((str(path), str(exc)))
            return None
        if raw is None:
            return None
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            self.skipped.append((str(path), "not UTF-8 text"))
            return None

    def add(self, path: Path, ref: str, mtype: MemoryType, body: str, name: str = "",
            description: str = "") -> None:
        key = " ".join(body.lower().split())
        if not key or key in self.seen:
            return
        self.seen.add(key)
        when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        self.entries.append(MemoryEntry(
            source=f"codex:{self.home}", ref=ref, timestamp=when, authored_by_owner=True, harness="codex",
            name=slugify(name, max_len=48) if name else entry_name(body),
            description=description or _first_sentence(body), memory_type=mtype, body=body.strip(),
            path=str(path)))

    def summary(self, path: Path) -> None:
        text = self.text(path)
        if not text:
            return
        for title, body in _sections(text, "##"):
            low = title.lower()
            if low == "user profile" and body:
                self.add(path, f"{path.name}#user-profile", MemoryType.USER, body, "user-profile")
            elif low == "user preferences":
                for i, item in enumerate(bullets(body)):
                    self.add(path, f"{path.name}#pref-{i}", MemoryType.FEEDBACK, item)
            elif low == "general tips":
                for i, item in enumerate(bullets(body)):
                    self.add(path, f"{path.name}#tip-{i}", MemoryType.REFERENCE, item)

    def handbook(self, path: Path) -> None:
        text = self.text(path)
        if not text:
            return
        for title, group in _sections(text, "#"):
            if not title.lower().startswith("task group:"):
                continue
            name = title.split(":", 1)[1].strip()
            kept = [(t, b) for t, b in _sections("\n" + group, "##")]
            lines = [line for line in group.split("\n## ", 1)[0].splitlines() if line.strip()]
            tasks = [t for t, _ in kept if t.lower().startswith("task ")]
            body = "\n".join(lines + [f"- {t}" for t in tasks])
            self.add(path, f"MEMORY.md#{slugify(name)}", MemoryType.PROJECT, body, name, name)
            for t, b in kept:
                if t.lower() == "user preferences":
                    for i, item in enumerate(bullets(b)):
                        self.add(path, f"MEMORY.md#{slugify(name)}-pref-{i}", MemoryType.FEEDBACK, item)

    def notes(self, folder: Path) -> None:
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.md")):
            if path.is_symlink():
                continue
            text = self.text(path)
            if not text:
                continue
            typed = _NOTE_TYPE.search(text)
            slug = path.stem[20:] if len(path.stem) > 20 else path.stem
            if typed:
                head = text.splitlines()[0].removeprefix("# Add to memory:").strip()
                body = text.split("\n\n", 2)[2] if text.count("\n\n") >= 2 else text
                body = "\n".join(line for line in body.splitlines()
                                 if not line.startswith(("Derived ", "memseed-id:", REPLACES))).strip()
                self.add(path, f"notes/{path.name}", MemoryType(typed.group(1)), body or head, slug, head)
            else:
                self.add(path, f"notes/{path.name}", infer_type(text, slug), text.strip(), slug)

    def agents(self, path: Path) -> None:
        text = self.text(path)
        if not text:
            return
        start, end = text.find(BEGIN), text.find(END)
        outside = text
        if 0 <= start < end:
            block = text[start + len(BEGIN):end]
            outside = text[:start] + text[end + len(END):]
            for title, body in _sections(block, "###"):
                m = re.match(r"(\S+) \((user|feedback|project|reference)\)", title)
                name, mtype = (m.group(1), MemoryType(m.group(2))) if m else (title, infer_type(body))
                lines = [ln for ln in body.splitlines() if not ln.startswith("_memseed")]
                desc = lines[0].strip() if lines else name
                rest = "\n".join(lines[1:]).strip() or desc
                self.add(path, f"AGENTS.md#{name}", mtype, rest, name, desc)
        for title, body in _sections(outside, "##"):
            if body:
                self.add(path, f"AGENTS.md#{slugify(title)}", MemoryType.FEEDBACK, body, title, title)


def read_codex_home(home: Path) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
    """Entries of a Codex home (or of its ``memories/`` folder given directly)."""
    if home.name == "memories" and not (home / "memories").is_dir():
        home = home.parent
    reader = _Reader(home)
    memories = home / "memories"
    reader.summary(memories / "memory_summary.md")
    reader.handbook(memories / "MEMORY.md")
    reader.notes(memories / "extensions" / "ad_hoc" / "notes")
    reader.agents(home / "AGENTS.md")
    reader.agents(home / "AGENTS.override.md")
    return reader.entries, reader.skipped
