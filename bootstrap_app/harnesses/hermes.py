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
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from bootstrap_app.errors import BlockedContent, CapacityExceeded, UnsafePath, WriteError
from bootstrap_app.fsutil import read_bytes, refuse_symlinks
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal, slugify

from .base import FileChange, Harness, Plan, WriteOptions, home_or, new_entries, select_entries
from .common import entry_name, infer_type, one_line, read_text, scan_entry, split_label, strip_stamp

__all__ = ["DELIMITER", "LIMITS", "HermesHarness", "budget_report", "hermes_home", "limits", "parse_entries",
           "render_entry"]

DELIMITER = "\n§\n"
LIMITS = {"USER.md": 1375, "MEMORY.md": 2200}


def hermes_home() -> Path:
    return Path(os.environ.get("HERMES_HOME") or Path.home() / ".hermes").expanduser()


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


def _file_for(p: Proposal) -> str:
    return "USER.md" if p.type is MemoryType.USER else "MEMORY.md"


def _folder(options: WriteOptions) -> tuple[Path, Path]:
    home = home_or(options, hermes_home)
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


def budget_report(entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[dict[str, Any]]:
    """Per file: limit, chars used now, chars after adding ``entries``, each new entry's size.

    Never raises for capacity: the app shows this as a budget meter so the person can choose.
    """
    options = options or WriteOptions()
    _, folder = _folder(options)
    return _budget(entries, options, folder, limits(folder.parent)[0], _current(folder))


def _budget(entries: Sequence[Proposal], options: WriteOptions, folder: Path, caps: dict[str, int],
            files: dict[str, tuple[bytes | None, str, list[str]]]) -> list[dict[str, Any]]:
    """:func:`budget_report` over files already read (``plan`` reads each file once)."""
    report = []
    for filename, limit in caps.items():
        current = files[filename][2]
        new = [(p, render_entry(p)) for p in select_entries(entries, options) if _file_for(p) == filename]
        new = [(p, r) for p, r in new if r not in current and p.fingerprint not in options.written]
        used = len(DELIMITER.join(current))
        after = len(DELIMITER.join(current + [r for _, r in new]))
        fits, running = [], used
        for p, r in new:
            cost = len(r) + (len(DELIMITER) if running else 0)
            if running + cost <= limit:
                fits.append(p.id)
                running += cost
        report.append({"file": str(folder / filename), "limit": limit, "used": used, "after": after,
                       "entries": [{"id": p.id, "name": p.name, "chars": len(r)} for p, r in new],
                       "fits": fits, "overflow": max(0, after - limit)})
    return report


class HermesHarness(Harness):
    name = "hermes"

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        return _folder(options or WriteOptions())[1]

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        home, folder = _folder(options)
        refuse_symlinks(home)
        refuse_symlinks(folder, home)
        chosen = select_entries(entries, options)
        plan = Plan(target=self.name, root=folder, anchor=home)
        for p in chosen:
            scan_entry(render_entry(p), f"entry {p.id} ({p.name})")
        caps, cap_notes = limits(folder.parent)
        files = _current(folder)
        report = {Path(r["file"]).name: r for r in _budget(chosen, options, folder, caps, files)}
        over = [r for r in report.values() if r["overflow"]]
        if over:
            raise self._capacity_error(over)
        plan.notes.extend(cap_notes)
        for filename, limit in caps.items():
            path = folder / filename
            refuse_symlinks(path, home)
            before, text, current = files[filename]
            add: list[str] = []
            for p in chosen:
                if _file_for(p) != filename:
                    continue
                rendered = render_entry(p)
                if rendered in current or rendered in add:
                    plan.written.append((p.fingerprint, f"{path}"))
                elif p.fingerprint in options.written:
                    plan.notes.append(f"{p.name}: memseed wrote it to {filename} before and it was removed "
                                      "since; not re-added")
                else:
                    add.append(rendered)
                    plan.written.append((p.fingerprint, f"{path}"))
            budget = report[filename]
            plan.budget.append({"file": str(path), "limit": limit, "used": budget["used"],
                                "after": len(DELIMITER.join(current + add))})
            if not add:
                continue
            base = text.strip()
            after = (base + DELIMITER if base else "") + DELIMITER.join(add)
            if parse_entries(after) != list(dict.fromkeys(current + add)):
                raise WriteError(f"{path} would not round-trip through Hermes's parser; nothing written",
                                 hint="open the file and check for stray '§' delimiters")
            plan.files.append(FileChange(path, before, after.encode("utf-8")))
            plan.locks.append(path.with_name(filename + ".lock"))
        plan.notes.append(f"Hermes memory folder {folder}" + (f" (profile {options.profile})"
                                                               if options.profile else ""))
        plan.entries = new_entries(plan, chosen, options)
        return plan

    @staticmethod
    def _capacity_error(over: list[dict[str, Any]]) -> CapacityExceeded:
        parts = []
        for r in over:
            sizes = ", ".join(f"{e['id']} {e['name']} ({e['chars']} chars)" for e in r["entries"])
            fits = ", ".join(r["fits"]) or "none of them"
            alone = [e["id"] for e in r["entries"] if e["chars"] > r["limit"]]
            parts.append(f"{Path(r['file']).name}: {r['used']:,}/{r['limit']:,} chars used; adding {sizes} "
                         f"makes {r['after']:,}, {r['overflow']:,} chars over the limit. Fits: {fits}"
                         + (f". Too long for Hermes on their own (shorten them first): {', '.join(alone)}"
                            if alone else ""))
        first = over[0]
        return CapacityExceeded(
            "approved entries do not fit Hermes's memory budget; nothing was written.\n  " + "\n  ".join(parts),
            limit=first["limit"], needed=first["after"],
            hint="choose what goes: memseed write --target hermes --only ID... (or --exclude ID...); shorten "
                 "an entry with `memseed review` (e = edit); or make room by removing old entries in Hermes "
                 "(memory tool, action=remove)")

    # -- reading ------------------------------------------------------------------------
    def read(self, root: Path | None = None) -> list[MemoryEntry]:
        """Entries of a Hermes home, a profile folder, or a ``memories/`` folder."""
        root = root or hermes_home()
        folder = root / "memories" if (root / "memories").is_dir() else root
        out: list[MemoryEntry] = []
        for filename in LIMITS:
            path = folder / filename
            if path.is_symlink() or not path.is_file():
                continue
            _, text = _read_current(path)
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            for i, entry in enumerate(parse_entries(text)):
                labelled, rest = split_label(entry)
                mtype = MemoryType.USER if filename == "USER.md" else labelled or infer_type(entry)
                body = strip_stamp(rest if labelled else entry)
                out.append(MemoryEntry(
                    source=f"hermes:{folder}", ref=f"{filename}#{i}", timestamp=when, authored_by_owner=True,
                    harness="hermes", name=entry_name(body),
                    description=body if len(body) <= 150 else body[:149].rstrip() + "…",
                    memory_type=mtype, body=body, path=str(path)))
        return out
