"""Hermes agent: ``memories/USER.md`` and ``memories/MEMORY.md`` (harness-formats.md §2).

Why so strict: Hermes loads these two files whole into every system prompt and enforces tiny
character budgets (USER.md 1,375, MEMORY.md 2,200, counted over ``"\\n§\\n".join(entries)``).
Its parser splits on the exact 3-character delimiter, strips, drops empties and de-duplicates;
its drift guard refuses later edits when the file does not round-trip; its loader replaces any
entry that matches a threat pattern by ``[BLOCKED: ...]``. So every entry is one compact
paragraph without blank lines or the delimiter, passes the writer-side scan, and the whole
file must fit. When approved entries do not fit, :class:`CapacityExceeded` is raised *before*
anything is written, saying what fits and by how much the rest overflows; the person picks
with ``--only`` / ``--exclude``. Nothing is ever truncated or silently dropped.

An update that supersedes an entry memseed wrote takes that entry's place in the file (same
position between the delimiters, every other byte unchanged), so the agent never holds both.

Both files are loaded in every session, so they hold facts for every session only. A fact about
one repository goes to the marked block of the project context file Hermes loads in that
repository (``projectfile``; :func:`project_file` says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bootstrap_app.errors import BlockedContent, CapacityExceeded, UnsafePath, WriteError
from bootstrap_app.fsutil import read_bytes, refuse_symlinks
from bootstrap_app.safety.doctor import hermes_findings, sorted_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal, slugify

from .base import (
    Capacity,
    FileChange,
    Harness,
    Plan,
    WriteOptions,
    home_or,
    is_removal,
    new_entries,
    select_entries,
)
from .common import count_files, head_text, line_entry, one_line, read_text, scan_entry
from .projectfile import Cap, first_present, plan_repo_files, split_by_repo

__all__ = ["DELIMITER", "LIMITS", "PROJECT_NAMES", "HermesHarness", "budget_report", "hermes_home", "limits",
           "parse_entries", "project_file", "render_entry"]

DELIMITER = "\n§\n"
LIMITS = {"USER.md": 1375, "MEMORY.md": 2200}


def parse_entries(text: str) -> list[str]:
    """Hermes's parser: split on ``\\n§\\n``, strip, drop empties, de-duplicate keeping the first."""
    if not text.strip():
        return []
    return list(dict.fromkeys(e.strip() for e in text.split(DELIMITER) if e.strip()))


def render_entry(p: Proposal) -> str:
    """One compact paragraph; USER.md entries carry no label (the file says what they are)."""
    text = one_line(p, label=p.type is not MemoryType.USER)
    if DELIMITER in text or "\n" in text:  # one_line never emits newlines; belt and braces
        raise BlockedContent(f"entry {p.id} would contain the Hermes delimiter")
    return text


def limits(home: Path) -> tuple[dict[str, int], list[str]]:
    """The caps Hermes will enforce: defaults, or ``memory.*_char_limit`` from ``config.yaml``."""
    caps = dict(LIMITS)
    notes: list[str] = []
    raw = read_bytes(home / "config.yaml")
    if raw is None:
        return caps, notes
    try:
        config = yaml.safe_load(raw.decode("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError):
        return caps, [f"{home / 'config.yaml'} is not valid YAML; using Hermes's default caps"]
    memory = config.get("memory") if isinstance(config, dict) else None
    if isinstance(memory, dict):
        for key, filename in (("memory_char_limit", "MEMORY.md"), ("user_char_limit", "USER.md")):
            value = memory.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                caps[filename] = value
                notes.append(f"{filename} cap {value:,} chars from config.yaml memory.{key}")
        if memory.get("memory_enabled") is False:
            notes.append("warning: memory.memory_enabled is false in config.yaml; Hermes will not load these")
    return caps, notes


PROJECT_NAMES = (".hermes.md", "HERMES.md", "AGENTS.override.md", "AGENTS.md", "agents.md", "CLAUDE.md", "claude.md")
"""The project context files Hermes loads, in its order; it loads only the first kind it finds
(``.hermes.md`` up to the git root, else the ``AGENTS`` chain from the git root, else ``CLAUDE.md``)."""


def project_file(root: Path) -> tuple[Path, list[str]]:
    """The file Hermes loads at a repository's root: the first non-empty of :data:`PROJECT_NAMES`,
    else a new ``AGENTS.md`` (the kind it reads before ``CLAUDE.md`` and ``.cursorrules``)."""
    found = first_present(root, PROJECT_NAMES)
    if found is None:
        shadowed = [str(f) for f in (root / ".cursorrules", root / ".cursor" / "rules") if f.exists()]
        return root / "AGENTS.md", ([f"note: once {root / 'AGENTS.md'} exists, Hermes loads it instead of "
                                     f"{' and '.join(shadowed)}"] if shadowed else [])
    if found.name.lower() == "claude.md":
        return found, [f"Hermes reads {found.name} only in sessions started in {root} itself, not in its "
                       "subfolders (an AGENTS.md there would reach them)"]
    return found, []


def _file_for(p: Proposal) -> str:
    return "USER.md" if p.type is MemoryType.USER else "MEMORY.md"


def _folder(options: WriteOptions) -> tuple[Path, Path]:
    home = home_or(options, HermesHarness.home)
    if options.profile:
        if options.profile != slugify(options.profile):
            raise UnsafePath(f"profile name {options.profile!r} is not a plain name",
                             hint="profile names are folder names under profiles/ (a-z, 0-9, '-')")
        return home, home / "profiles" / options.profile / "memories"
    return home, home / "memories"


def _read_current(path: Path) -> tuple[bytes | None, str]:
    return read_text(path, bom=True, why="Hermes could not read it either")


def _current(folder: Path) -> dict[str, tuple[bytes | None, str, list[str]]]:
    """Each capped file as it is now: its bytes (``None`` when missing), text and entries."""
    out = {}
    for filename in LIMITS:
        raw, text = _read_current(folder / filename)
        out[filename] = (raw, text, parse_entries(text))
    return out


@dataclass
class _Layout:
    """The entries of both files after the write, and what changed to get there."""

    final: dict[str, list[str]]
    added: dict[str, list[tuple[Proposal, str, int]]] = field(default_factory=dict)
    """file -> (entry, rendered text, chars it costs) of every new or replacing entry."""
    swaps: dict[str, dict[str, str | None]] = field(default_factory=dict)
    """file -> old rendered entry -> its replacement (``None``: moved to the other file)."""
    written: list[tuple[str, str]] = field(default_factory=list)
    replaced: list[tuple[Proposal, Proposal, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _layout(chosen: Sequence[Proposal], options: WriteOptions, folder: Path,
            files: dict[str, tuple[bytes | None, str, list[str]]]) -> _Layout:
    out = _Layout({fn: list(files[fn][2]) for fn in LIMITS})
    out.added = {fn: [] for fn in LIMITS}
    out.swaps = {fn: {} for fn in LIMITS}
    for p in chosen:
        filename, rendered = _file_for(p), render_entry(p)
        final = out.final[filename]
        location = str(folder / filename)
        if is_removal(p):  # an approved removal: the entry goes, its note is never written
            gone = options.replaces.get(p.fingerprint)
            gone_text = render_entry(gone) if gone is not None else ""
            gone_file = _file_for(gone) if gone is not None else filename
            if gone is not None and gone_text in out.final[gone_file]:
                out.final[gone_file].remove(gone_text)
                out.swaps[gone_file][gone_text] = None
                out.replaced.append((p, gone, str(folder / gone_file), gone_text))
            else:
                out.notes.append(f"{p.name}: the entry this removal names is not in {gone_file} as memseed wrote "
                                 "it (edited or removed since); kept as it is, remove it by hand if it no longer holds")
            continue
        if rendered in final:
            out.written.append((p.fingerprint, location))
            continue
        if p.fingerprint in options.written:
            out.notes.append(f"{p.name}: memseed wrote it to {filename} before and it was removed since; not re-added")
            continue
        old = options.replaces.get(p.fingerprint)
        old_text = render_entry(old) if old is not None else ""
        old_file = _file_for(old) if old is not None else filename
        if old is not None and old_text in out.final[old_file]:
            if old_file == filename:
                final[final.index(old_text)] = rendered
                out.swaps[filename][old_text] = rendered
                cost = len(rendered) - len(old_text)
            else:  # the fact changed file (a user fact became a project fact): move it
                out.final[old_file].remove(old_text)
                out.swaps[old_file][old_text] = None
                final.append(rendered)
                cost = len(rendered) + (len(DELIMITER) if len(final) > 1 else 0)
            out.replaced.append((p, old, str(folder / old_file), old_text))
        else:
            if old is not None:
                out.notes.append(f"{p.name}: the entry it replaces ({old.name}) is not in {old_file} as memseed "
                                 "wrote it (edited or removed); added as a new entry")
            final.append(rendered)
            cost = len(rendered) + (len(DELIMITER) if len(final) > 1 else 0)
        out.added[filename].append((p, rendered, cost))
        out.written.append((p.fingerprint, location))
    return out


def _capacity(layout: _Layout, folder: Path, caps: dict[str, int],
              files: dict[str, tuple[bytes | None, str, list[str]]]) -> list[Capacity]:
    report = []
    for filename, limit in caps.items():
        used = len(DELIMITER.join(files[filename][2]))
        fits, running = [], used
        for p, _, cost in layout.added[filename]:
            if running + cost <= limit:
                fits.append(p.id)
                running += cost
        report.append(Capacity(str(folder / filename), "chars", limit, used,
                               len(DELIMITER.join(layout.final[filename])),
                               tuple((p.id, p.name, len(r)) for p, r, _ in layout.added[filename]), tuple(fits)))
    return report


def budget_report(entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[dict[str, Any]]:
    """Per file: limit, chars used now, chars after adding ``entries``, each new entry's size.

    Never raises for capacity: the app shows this as a budget meter so the person can choose.
    """
    return [{"file": c.file, "limit": c.limit, "used": c.used, "after": c.after,
             "entries": [{"id": i, "name": n, "chars": size} for i, n, size in c.entries],
             "fits": list(c.fits), "overflow": c.overflow}
            for c in HermesHarness().capacity(entries, options)]


def _rewrite(text: str, swaps: dict[str, str | None], add: list[str]) -> str:
    """``text`` with each swapped entry replaced where it stands (whitespace kept) and ``add`` appended."""
    if swaps:
        chunks = []
        for chunk in text.split(DELIMITER):
            key = chunk.strip()
            if key in swaps:
                new = swaps[key]
                if new is None:
                    continue
                chunk = chunk.replace(key, new, 1)
            chunks.append(chunk)
        text = DELIMITER.join(chunks)
    if not add:
        return text
    base = text.strip()
    return (base + DELIMITER if base else "") + DELIMITER.join(add)


class HermesHarness(Harness, name="hermes",
                    label="Hermes",
                    home_env=("HERMES_HOME",),
                    default_home=".hermes",
                    entry_format="one compact paragraph per entry, entries joined by '\\n§\\n'; user facts in "
                                 "USER.md (1,375 chars), the rest in MEMORY.md (2,200 chars); a repository's "
                                 "facts in a marked block of its project context file (AGENTS.md)",
                    source_uri="hermes:[PROFILE]",
                    source_description="Hermes agent memories (USER.md, MEMORY.md)"):
    """Hermes agent: the capped ``USER.md`` / ``MEMORY.md`` stores of one profile."""

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        return _folder(options or WriteOptions())[1]

    @classmethod
    def locate(cls, location: str) -> Path:
        """A folder as given; any other location names a profile (``hermes:PROFILE``)."""
        path = Path(location).expanduser()
        return path if path.exists() else cls.home() / "profiles" / slugify(location)

    def capacity(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[Capacity]:
        options = options or WriteOptions()
        _, folder = _folder(options)
        files = _current(folder)
        layout = _layout(split_by_repo(select_entries(entries, options)).everywhere, options, folder, files)
        return _capacity(layout, folder, limits(folder.parent)[0], files)

    def capacity_files(self, options: WriteOptions | None = None) -> list[Path]:
        folder = self.memory_root(None, options)
        return [folder / name for name in LIMITS]

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        home, folder = _folder(options)
        refuse_symlinks(home)
        refuse_symlinks(folder, home)
        chosen = select_entries(entries, options)
        plan = Plan(target=self.name, root=folder, anchor=home)
        split = split_by_repo(chosen)
        for p in split.everywhere:
            scan_entry(render_entry(p), f"entry {p.id} ({p.name})", hermes=True)
        caps, cap_notes = limits(folder.parent)
        files = _current(folder)
        layout = _layout(split.everywhere, options, folder, files)
        report = _capacity(layout, folder, caps, files)
        over = [c for c in report if c.overflow]
        if over:
            raise self._capacity_error(over)
        plan.notes.extend(cap_notes + layout.notes)
        plan.written.extend(layout.written)
        for new, old, location, old_text in layout.replaced:
            plan.supersede(new, old, location, old_text)
        for c in report:
            filename = Path(c.file).name
            path = folder / filename
            refuse_symlinks(path, home)
            plan.budget.append({"file": c.file, "limit": c.limit, "used": c.used, "after": c.after})
            swaps = layout.swaps[filename]
            add = [r for _, r, _ in layout.added[filename] if r not in swaps.values()]
            if not add and not swaps:
                continue
            before, text, _ = files[filename]
            after = _rewrite(text, swaps, add)
            if parse_entries(after) != list(dict.fromkeys(layout.final[filename])):
                raise WriteError(f"{path} would not round-trip through Hermes's parser; nothing written",
                                 hint="open the file and check for stray '§' delimiters")
            plan.files.append(FileChange(path, before, after.encode("utf-8")))
            plan.locks.append(path.with_name(filename + ".lock"))
        plan.notes.append(f"Hermes memory folder {folder}" + (f" (profile {options.profile})"
                                                               if options.profile else ""))
        plan_repo_files(plan, split, options, project_file, "Hermes",
                        Cap(20_000, "chars", "Hermes keeps the head and tail of a context file over 20,000 chars"))
        plan.entries = new_entries(plan, chosen, options)
        return plan

    @staticmethod
    def _capacity_error(over: list[Capacity]) -> CapacityExceeded:
        parts = []
        for c in over:
            sizes = ", ".join(f"{i} {n} ({size} chars)" for i, n, size in c.entries)
            fits = ", ".join(c.fits) or "none of them"
            alone = [i for i, _, size in c.entries if size > c.limit]
            parts.append(f"{Path(c.file).name}: {c.used:,}/{c.limit:,} chars used; adding {sizes} "
                         f"makes {c.after:,}, {c.overflow:,} chars over the limit. Fits: {fits}"
                         + (f". Too long for Hermes on their own (shorten them first): {', '.join(alone)}"
                            if alone else ""))
        return CapacityExceeded(
            "approved entries do not fit Hermes's memory budget; nothing was written.\n  " + "\n  ".join(parts),
            limit=over[0].limit, needed=over[0].after,
            hint="choose what goes: memseed write --target hermes --only ID... (or --exclude ID...); shorten "
                 "an entry with `memseed review` (e = edit); or make room by removing old entries in Hermes "
                 "(memory tool, action=remove)")

    # -- reading, finding, auditing ---------------------------------------------------------
    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        """Entries of a Hermes home, a profile folder, or a ``memories/`` folder."""
        root = root or self.home()
        folder = root / "memories" if (root / "memories").is_dir() else root
        out: list[MemoryEntry] = []
        skipped: list[tuple[str, str]] = []
        for filename in LIMITS:
            path = folder / filename
            if path.is_symlink() or not path.is_file():
                continue
            try:
                _, text = _read_current(path)
            except WriteError:  # the other file may still be fine: pass this one over, with the reason
                skipped.append((filename, "not UTF-8 text; Hermes could not read it either"))
                continue
            user = MemoryType.USER if filename == "USER.md" else None
            out.extend(line_entry(f"hermes:{folder}", f"{filename}#{i}", path, self.name, entry, user)
                       for i, entry in enumerate(parse_entries(text)))
        return out, skipped

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir():
            return False
        mem = path / "memories" if (path / "memories").is_dir() else path
        files = [f for f in (mem / "USER.md", mem / "MEMORY.md") if f.is_file()]
        if not files:
            return False
        if any(head_text(f, 64).startswith("---") for f in mem.glob("*.md") if f.name not in LIMITS):
            return False
        if any(DELIMITER in head_text(f, 1 << 16) for f in files):
            return True
        others = {p.name for p in mem.iterdir()} - {*LIMITS, *(f"{n}.lock" for n in LIMITS)}
        return mem.name == "memories" and not {o for o in others if not o.startswith((".", "ARCHIVE"))}

    def memory_count(self, home: Path) -> int:
        return count_files(home / "memories") + count_files(home / "profiles", "*/memories/*.md")

    def doctor(self, root: Path) -> list[Finding]:
        """Every ``USER.md`` / ``MEMORY.md`` of a home, its ``memories/`` and its profiles."""
        found = [root / n for n in LIMITS if (root / n).is_file()]
        found += [root / "memories" / n for n in LIMITS if (root / "memories" / n).is_file()]
        if (root / "profiles").is_dir():
            for prof in sorted((root / "profiles").iterdir()):
                found += [prof / "memories" / n for n in LIMITS if (prof / "memories" / n).is_file()]
        return sorted_findings(hermes_findings(root, found, LIMITS, DELIMITER, parse_entries))


def hermes_home() -> Path:
    """``$HERMES_HOME`` or ``~/.hermes``."""
    return HermesHarness.home()
