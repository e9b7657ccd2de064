"""The memseed marked block: ``### <key>`` sections between two HTML comments in a file the person owns.

Why one module: Codex's global ``AGENTS.md`` (memories feature off) and Claude Code's
``CLAUDE.md`` (option ``user_facts="claude-md"``) are instruction files the person writes in.
memseed keeps to a block between :data:`BEGIN` and :data:`END` and never touches text outside
it. Both harnesses follow the same rules for what happens inside the block
(:func:`plan_block`); only the way a section is rendered differs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from bootstrap_app.errors import ConflictError
from bootstrap_app.types import Proposal

from .common import blank_line_before, scan_entry
from .plan import Plan, WriteOptions, is_removal

__all__ = ["BEGIN", "END", "BlockPlanner", "merge_block", "plan_block", "remove_section", "replace_section"]

BEGIN = "<!-- memseed:begin -->"
END = "<!-- memseed:end -->"

_SECTION = re.compile(r"^### (\S+)", re.MULTILINE)
_MAX_TWINS = 9
"""``name``, ``name-2`` … ``name-9``: the keys one entry name may take in a block."""

Render = Callable[[Proposal, str], str]
"""(entry, section key) -> the section's text, starting ``### <key>``."""


def _span(text: str) -> tuple[int, int] | None:
    """Where the block's inside lies in ``text`` (between the two markers), or ``None``."""
    start = text.find(BEGIN)
    end = text.find(END, start + len(BEGIN)) if start >= 0 else -1
    return (start + len(BEGIN), end) if start >= 0 and end >= 0 else None


def _inside(text: str) -> str:
    span = _span(text)
    return text[span[0]:span[1]] if span else ""


def merge_block(text: str, title: str, sections: Sequence[tuple[str, str]]) -> str:
    """Insert or extend the memseed marked block in ``text``; text outside it is untouched.

    The block holds ``### <key> ...`` sections. Sections already in the block stay exactly as
    they are (the person may have edited them); sections whose key is missing are appended.
    """
    span = _span(text)
    if span is not None:
        inner = text[span[0]:span[1]]
        present = set(_SECTION.findall(inner))
        extra = [body for key, body in sections if key not in present]
        if not extra:
            return text
        new_inner = inner.rstrip("\n") + "\n\n" + "\n\n".join(s.rstrip("\n") for s in extra) + "\n"
        return text[:span[0]] + new_inner + text[span[1]:]
    if not sections:
        return text
    block = (f"{BEGIN}\n## {title}\n\n" + "\n\n".join(s.rstrip("\n") for _, s in sections) + f"\n{END}\n")
    return text + blank_line_before(text) + block


def replace_section(text: str, old: str, new: str) -> str | None:
    """``text`` with the section ``old`` inside the memseed block replaced by ``new`` (``None``: not there).

    Only an exact match counts: a section the person edited is theirs and is left alone.
    """
    span = _span(text)
    if span is None:
        return None
    inner = text[span[0]:span[1]]
    at = inner.find(old.rstrip("\n"))
    if at < 0:
        return None
    inner = inner[:at] + new.rstrip("\n") + inner[at + len(old.rstrip("\n")):]
    return text[:span[0]] + inner + text[span[1]:]


def remove_section(text: str, old: str) -> str | None:
    """``text`` without the section ``old`` (and the blank line that set it apart) inside the
    memseed block (``None``: not there exactly as written)."""
    span = _span(text)
    if span is None:
        return None
    inner = text[span[0]:span[1]]
    body = old.rstrip("\n")
    at = inner.find(body)
    if at < 0:
        return None
    end = at + len(body)
    head, tail = inner[:at], inner[end:]
    if head.endswith("\n\n"):
        head = head[:-1]
    elif tail.startswith("\n\n"):
        tail = tail[1:]
    if head.endswith("\n") and tail.startswith("\n"):
        tail = tail[1:]
    return text[:span[0]] + head + tail + text[span[1]:]


def _keys(name: str) -> list[str]:
    return [name, *(f"{name}-{i}" for i in range(2, _MAX_TWINS + 1))]


def _found(p: Proposal, inner: str, render: Render) -> str | None:
    """The key under which ``p`` stands in the block exactly as memseed renders it, if it does."""
    # every section starts ``### <key>``: a key whose heading is not in the block is not rendered at all
    return next((k for k in _keys(p.name) if f"### {k}" in inner and render(p, k).rstrip("\n") in inner), None)


class BlockPlanner:
    """:func:`plan_block`, one entry at a time: a capped file can then be filled in order, each
    entry kept only while the file still fits (:meth:`mark` before an entry, :meth:`back` to drop
    it), in one pass instead of planning the whole block again per entry."""

    def __init__(self, plan: Plan, path: Path, text: str, options: WriteOptions, render: Render,
                 title: str) -> None:
        self.plan, self.path, self.text, self.options, self.render, self.title = plan, path, text, options, render, title
        self.sections: list[tuple[str, str]] = []

    def mark(self) -> tuple[str, int, int, int, int]:
        return (self.text, len(self.sections), len(self.plan.written), len(self.plan.notes),
                len(self.plan.superseded))

    def back(self, mark: tuple[str, int, int, int, int]) -> None:
        self.text = mark[0]
        del self.sections[mark[1]:], self.plan.written[mark[2]:], self.plan.notes[mark[3]:]
        del self.plan.superseded[mark[4]:]

    def result(self) -> str:
        return merge_block(self.text, self.title, self.sections)

    def add(self, p: Proposal) -> None:
        plan, path, text, options, render, sections = (self.plan, self.path, self.text, self.options,
                                                       self.render, self.sections)
        scan_entry(render(p, p.name), f"entry {p.id} ({p.name})")
        inner = _inside(text)
        here = _found(p, inner, render)
        if here is not None:
            plan.written.append((p.fingerprint, f"{path}#{here}"))
            return
        if p.fingerprint in options.written:
            plan.notes.append(f"{p.name}: memseed wrote it to {path.name} before and it was edited or removed "
                              "since; left as it is")
            return
        taken = set(_SECTION.findall(inner)) | {key for key, _ in sections}
        old = options.replaces.get(p.fingerprint)
        old_key = _found(old, inner, render) if old is not None else None
        if is_removal(p):  # a fact that no longer holds: its section goes, the removal note is never written
            dropped = remove_section(text, render(old, old_key)) if old is not None and old_key is not None else None
            if old is not None and old_key is not None and dropped is not None:
                self.text = dropped
                plan.supersede(p, old, f"{path}#{old_key}", render(old, old_key))
            else:
                plan.notes.append(f"{p.name}: the section this removal names is not in {path.name} as memseed "
                                  "wrote it (edited or removed since); kept as it is, remove it by hand if needed")
            return
        if old is not None and old_key is not None:
            key = p.name if p.name == old_key or p.name not in taken else old_key
            self.text = replace_section(text, render(old, old_key), render(p, key)) or text
            plan.supersede(p, old, f"{path}#{old_key}", render(old, old_key))
        else:
            if old is not None:
                plan.notes.append(f"{p.name}: the section it replaces ({old.name}) is not in {path.name} as memseed "
                                  "wrote it (edited or removed); added as a new section")
            key = next((k for k in _keys(p.name) if k not in taken), "")
            if not key:
                raise ConflictError(f"{path}: the memseed block already has sections {p.name} … "
                                    f"{p.name}-{_MAX_TWINS}", hint="rename the entry (memseed review, e to edit)")
            sections.append((key, render(p, key)))
        plan.written.append((p.fingerprint, f"{path}#{key}"))


def plan_block(plan: Plan, path: Path, text: str, entries: Sequence[Proposal], options: WriteOptions,
               render: Render, title: str) -> str:
    """``text`` with ``entries`` in its memseed block; fills ``plan.written``, notes and supersessions.

    - a section already there exactly as rendered is kept;
    - one memseed wrote that is not there any more (edited or removed by the person) is left
      as the person left it, with a note, and never re-added;
    - an update whose superseded section is there exactly as memseed wrote it takes its place;
    - anything else is appended under the first key no section of the block uses (``name``,
      ``name-2`` …): a same-named section (another entry's, or the person's edit of the fact
      an update replaces) must not swallow it, as a merge by name alone would.
    """
    planner = BlockPlanner(plan, path, text, options, render, title)
    for p in entries:
        planner.add(p)
    return planner.result()
