"""A folder of one-fact topic files plus a ``MEMORY.md`` index (Claude Code, markdown folder).

Why one shared planner: Claude Code's auto memory and the plain markdown folder have the same
shape (``<name>.md`` with YAML frontmatter, one index line per file) and the same rules for
living next to the person's own files:

- a topic file memseed never wrote is never overwritten: the entry takes the next free name
  (``<name>-2.md`` ...), or a :class:`ConflictError` when none is free;
- a file memseed wrote and the person edited since is kept as the person left it;
- a file memseed wrote and nobody touched is updated in place when the entry was edited;
- index lines are appended, or replaced in place only when memseed wrote that exact line;
- a re-run with nothing new produces no change at all;
- an update that supersedes an entry memseed wrote (and nobody edited) rewrites that entry's
  file in place, and its index line follows; an approved removal (``is_removal``) deletes that
  file and drops its index line (only a line memseed wrote; the person's own line is kept and noted).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import frontmatter
import yaml

from bootstrap_app.errors import CapacityExceeded, ConflictError, WriteError
from bootstrap_app.fsutil import check_name, contained, read_bytes, refuse_symlinks
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal

from .base import FileChange, WriteOptions, is_removal
from .common import flatten, infer_type, read_text, scan_entry
from .plan import follow_renames

__all__ = ["FolderPlan", "IndexStyle", "parse_topic", "plan_folder", "read_folder", "render_topic"]


@dataclass(frozen=True)
class IndexStyle:
    """How a flavour renders its files: frontmatter fields, index line, index caps."""

    metadata: Callable[[Proposal], dict[str, Any] | None]
    index_line: Callable[[Proposal, str], str]
    max_lines: int | None = None
    max_bytes: int | None = None
    harness: str = "markdown"


@dataclass
class FolderPlan:
    files: list[FileChange]
    written: list[tuple[str, str]]
    notes: list[str]
    index_lines: int
    index_bytes: int
    replaced: list[tuple[Proposal, Proposal, str, str]] = field(default_factory=list)
    """(new, old, file, old text) of every entry rewritten in place."""
    used_lines: int = 0


def render_topic(p: Proposal, stem: str, style: IndexStyle) -> bytes:
    """``<stem>.md``: YAML frontmatter (name, description, type [, metadata]) and the body."""
    meta: dict[str, Any] = {"name": stem, "description": flatten(p.description) or stem,
                            "type": str(p.type)}
    extra = style.metadata(p)
    if extra:
        meta["metadata"] = extra
    head = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=10_000, default_flow_style=False)
    body = p.body.replace("\r\n", "\n").strip() or flatten(p.description)
    return f"---\n{head}---\n\n{body}\n".encode()


def parse_topic(raw: bytes) -> frontmatter.Post | None:
    """Frontmatter + body; YAML first, then line-by-line ``key: value`` (real files break YAML)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    try:
        return frontmatter.loads(text)
    except (yaml.YAMLError, ValueError):
        pass
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---" or "---" not in [ln.strip() for ln in lines[1:]]:
        return None
    end = 1 + [ln.strip() for ln in lines[1:]].index("---")
    meta: dict[str, Any] = {}
    nested: dict[str, str] | None = None
    for line in lines[1:end]:
        key, sep, value = line.strip().partition(":")
        if not sep:
            continue
        if line.startswith((" ", "\t")) and nested is not None:
            nested[key.strip()] = value.strip().strip("'\"")
        elif not value.strip():
            nested = meta.setdefault(key.strip(), {})
        else:
            nested = None
            meta[key.strip()] = value.strip()
    return frontmatter.Post("\n".join(lines[end + 1:]).strip("\n"), **meta)


def _memseed_id(raw: bytes) -> str | None:
    post = parse_topic(raw)
    meta = post.metadata.get("metadata") if post is not None else None
    value = meta.get("memseed_id") if isinstance(meta, dict) else None
    return str(value) if value else None


def _owned(folder: Path) -> dict[str, tuple[Path, bytes]]:
    """memseed_id -> (file, its bytes), for files memseed wrote (found by their frontmatter, any name).

    Only files whose first 4 KiB mention ``memseed_id:`` are read whole, and their bytes are
    kept so that planning does not read them again.
    """
    found: dict[str, tuple[Path, bytes]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.md")):
        if path.is_symlink() or path.name == "MEMORY.md":
            continue
        try:
            with path.open("rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        if b"memseed_id:" in head:
            raw = read_bytes(path) or b""
            ident = _memseed_id(raw)
            if ident:
                found.setdefault(ident, (path, raw))
    return found


def _locate(folder: Path, p: Proposal, style: IndexStyle, owned: dict[str, tuple[Path, bytes]],
            taken: set[Path]) -> tuple[Path, bytes | None, bytes]:
    """Pick the file for ``p``: its own existing file (even after a rename), else the first free name.

    ``taken``: files other entries of the same plan already claimed (two entries may share a name).
    """
    if p.id in owned:
        path, raw = owned[p.id]
        refuse_symlinks(path, folder)
        return path, raw, render_topic(p, path.stem, style)
    base = check_name(p.name)
    stems = [base, *(f"{base}-{i}" for i in range(2, 10))]
    free: tuple[Path, str] | None = None
    for stem in stems:
        path = folder / f"{stem}.md"
        if path in taken:
            continue
        # a name nothing holds is checked (and its file rendered) only once chosen: its folder is
        # every free name's, and checking and rendering all nine per entry was most of a plan
        current = None
        if os.path.lexists(path):
            contained(folder, path)
            refuse_symlinks(path, folder)
            current = read_bytes(path)
        if current is None:
            if free is None:
                free = (path, stem)
            continue
        rendered = render_topic(p, stem, style)
        if current == rendered or _memseed_id(current) == p.id:
            return path, current, rendered
    if free is None:
        raise ConflictError(f"{folder}: {base}.md and {base}-2 … {base}-9.md all hold other memories",
                            hint=f"rename the entry (memseed review, e to edit) or tidy {folder}")
    contained(folder, free[0])
    refuse_symlinks(free[0], folder)
    return free[0], None, render_topic(p, free[1], style)


def _find_old(folder: Path, old: Proposal, style: IndexStyle, owned: dict[str, tuple[Path, bytes]],
              options: WriteOptions) -> tuple[Path, bytes] | None:
    """The file memseed wrote for ``old``, when it is still exactly as memseed left it.

    Found by its ``memseed_id`` (any file name; unchanged since memseed's last write to it), else
    (formats without ids) by name: the file whose bytes are exactly ``old`` rendered there.
    """
    if old.id in owned:
        path, raw = owned[old.id]
        unchanged = raw == render_topic(old, path.stem, style) or options.last_after(str(path)) == raw
        return (path, raw) if unchanged else None
    base = check_name(old.name)
    for stem in (base, *(f"{base}-{i}" for i in range(2, 10))):
        path = folder / f"{stem}.md"
        if path.is_file() and not path.is_symlink():
            raw = read_bytes(path) or b""
            if raw == render_topic(old, stem, style):
                return path, raw
    return None


def _remove(folder: Path, p: Proposal, old: Proposal | None, found: tuple[Path, bytes] | None,
            style: IndexStyle, lines: list[str], memseed_lines: set[str], files: list[FileChange],
            swapped: list[tuple[Proposal, Proposal, str, str]], notes: list[str]) -> bool:
    """Delete the topic file of ``old`` (as memseed wrote it) and drop its index line; True when
    ``lines`` changed. An entry the person edited (or one memseed did not write) is kept, and said so."""
    if old is None or found is None:
        notes.append(f"{p.name}: the entry this removal names is not in {folder} as memseed wrote it "
                     "(edited or removed since); kept as it is, remove it by hand if it no longer holds")
        return False
    path, old_raw = found
    files.append(FileChange(path, old_raw, None))
    swapped.append((p, old, str(path), old_raw.decode("utf-8", "replace")))
    link = f"]({path.name})"
    ours = {style.index_line(old, path.name)} | memseed_lines
    at = [i for i, text in enumerate(lines) if link in text]
    for i in reversed(at):
        if lines[i].rstrip("\r\n") in ours:
            del lines[i]
        else:
            notes.append(f"MEMORY.md: the line pointing to {path.name} was edited outside memseed, so it is "
                         "kept; remove it by hand")
    return bool(at) and len(at) > sum(1 for text in lines if link in text)


def plan_folder(folder: Path, entries: Sequence[Proposal], options: WriteOptions,
                style: IndexStyle, *, enforce: bool = True) -> FolderPlan:
    """The changes that put ``entries`` into ``folder`` (pure: reads only).

    ``enforce=False`` (budget meters) reports the index size instead of raising when over the caps.
    """
    files: list[FileChange] = []
    written: list[tuple[str, str]] = []
    notes: list[str] = []
    index_path = folder / "MEMORY.md"
    refuse_symlinks(index_path, folder)
    index_raw, index_text = read_text(index_path)
    memseed_lines = set((options.last_after(str(index_path)) or b"").decode("utf-8", "replace").splitlines())
    lines = index_text.splitlines(keepends=True)
    replaced = False
    appended: list[str] = []
    owned = _owned(folder)
    follow_renames(owned, options)
    swapped: list[tuple[Proposal, Proposal, str, str]] = []
    taken: set[Path] = set()  # the files entries of this plan claimed so far (``written``'s paths)
    for p in entries:
        scan_entry(f"{p.name}\n{flatten(p.description)}\n{p.body}", f"entry {p.id} ({p.name})")
        old = options.replaces.get(p.fingerprint)
        found = _find_old(folder, old, style, owned, options) if old is not None and p.id not in owned else None
        if is_removal(p):
            replaced |= _remove(folder, p, old, found, style, lines, memseed_lines, files, swapped, notes)
            continue
        if old is not None and found is not None:
            path, old_raw = found
            files.append(FileChange(path, old_raw, render_topic(p, path.stem, style)))
            swapped.append((p, old, str(path), old_raw.decode("utf-8", "replace")))
        else:
            if old is not None and p.id not in owned:
                notes.append(f"{p.name}: the entry it replaces ({old.name}) is not in {folder} as memseed wrote "
                             "it (edited or removed); written as a new entry")
            path, current, rendered = _locate(folder, p, style, owned, taken)
            if current is None and p.fingerprint in options.written:
                notes.append(f"{path.name}: memseed wrote it before and it was removed since; not re-added")
                continue
            if current is None:
                files.append(FileChange(path, None, rendered))
            elif current != rendered:
                if options.last_after(str(path)) == current:
                    files.append(FileChange(path, current, rendered))
                else:
                    notes.append(f"{path.name}: edited outside memseed since; kept as it is")
        written.append((p.fingerprint, str(path)))
        taken.add(path)
        line = style.index_line(p, path.name)
        link = f"]({path.name})"
        at = [i for i, text in enumerate(lines) if link in text]
        if not at:
            if line not in appended:
                appended.append(line)
        elif lines[at[0]].rstrip("\r\n") != line and lines[at[0]].rstrip("\r\n") in memseed_lines:
            ending = lines[at[0]][len(lines[at[0]].rstrip("\r\n")):]
            lines[at[0]] = line + (ending or "\n")
            replaced = True
        elif lines[at[0]].rstrip("\r\n") != line and swapped and swapped[-1][0] is p:
            notes.append(f"{index_path.name}: the line pointing to {path.name} was edited outside memseed, so it "
                         f"is kept and may still describe {swapped[-1][1].name}; update it by hand")
    new_text = index_text
    if replaced or appended:
        new_text = "".join(lines)
        if new_text and not new_text.endswith("\n"):
            new_text += "\n"
        new_text += "".join(a + "\n" for a in appended)
    new_bytes = new_text.encode("utf-8")
    count = len(new_text.strip().splitlines())
    if new_bytes != (index_raw or b""):
        too_many = style.max_lines is not None and count > style.max_lines
        too_big = style.max_bytes is not None and len(new_bytes) > style.max_bytes
        if (too_many or too_big) and enforce:
            raise CapacityExceeded(
                f"{index_path} would have {count} lines / {len(new_bytes):,} bytes with {len(appended)} new "
                f"line(s); the harness loads only the first {style.max_lines} lines / {style.max_bytes:,} "
                "bytes, so new memories would not be seen",
                limit=style.max_lines or 0, needed=count,
                hint="merge or remove old lines in MEMORY.md first, or write fewer entries "
                     "(memseed write --only ID... / --exclude ID...)")
        files.append(FileChange(index_path, index_raw, new_bytes))
    return FolderPlan(files, written, notes, count, len(new_bytes), swapped,
                      len(index_text.strip().splitlines()))


def read_folder(folder: Path, harness: str, scope: str = "global") -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
    """Every topic file in ``folder`` (recursive, MEMORY.md excluded) and the files skipped."""
    entries: list[MemoryEntry] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(folder.rglob("*.md")):
        rel = path.relative_to(folder).as_posix()
        if path.name == "MEMORY.md" or path.is_symlink() or rel.startswith("logs/"):
            continue
        try:
            raw = read_bytes(path)
        except WriteError as exc:
            skipped.append((rel, str(exc)))
            continue
        post = parse_topic(raw or b"")
        if post is None:
            skipped.append((rel, "not UTF-8 or broken frontmatter"))
            continue
        meta = post.metadata
        raw_nested = meta.get("metadata")
        nested: dict[str, Any] = raw_nested if isinstance(raw_nested, dict) else {}
        raw_type = str(meta.get("type") or nested.get("type") or "").strip().lower()
        name = str(meta.get("name") or path.stem)
        mtype = (MemoryType(raw_type) if raw_type in {t.value for t in MemoryType}
                 else infer_type(str(meta.get("description", "")) + " " + post.content, path.stem))
        entries.append(MemoryEntry(
            source=f"{harness}:{folder}", ref=rel,
            timestamp=datetime.fromtimestamp(path.stat().st_mtime, UTC), authored_by_owner=True,
            harness=harness, name=name, description=" ".join(str(meta.get("description", "")).split()),
            memory_type=mtype, body=post.content.strip(), scope=scope, path=str(path)))
    return entries, skipped
