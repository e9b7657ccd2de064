"""OpenAI Codex CLI: ad-hoc notes when memories are on, else a block in AGENTS.md (formats §1).

Why two modes: with ``[features] memories = true`` Codex consolidates create-new notes from
``memories/extensions/ad_hoc/notes/`` into its own ``MEMORY.md`` / ``memory_summary.md`` — the
native, safe way in (memseed never touches ``raw_memories.md``, ``rollout_summaries/`` or
``.git/``, which Codex regenerates). With the feature off (the default) nothing under
``memories/`` is ever read, so the entries go into a marked block in the global
``$CODEX_HOME/AGENTS.md``, within a 32 KiB budget. ``Plan.notes`` says which mode and why.

Both modes hold only facts for every session. A fact about one repository goes to the marked
block of that repository's own instruction file (``projectfile``): Codex reads it only in
sessions inside that repository, where the global file and the memories are read everywhere.

Notes are recognised on re-runs by the ``memseed-id`` line they carry, so a second write
creates nothing new. An update that supersedes an entry memseed wrote rewrites that entry in
place: its section of the AGENTS.md block, or its note (which then says what it replaces, so
Codex's consolidation forgets the old fact — notes are never deleted).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.errors import CapacityExceeded, UnsafePath, WriteError
from bootstrap_app.fsutil import check_name, contained, read_bytes, refuse_symlinks
from bootstrap_app.safety.doctor import codex_findings, sorted_findings
from bootstrap_app.safety.doctor_checks import Finding
from bootstrap_app.types import MemoryEntry, Proposal, slugify

from .base import (
    Capacity,
    FileChange,
    Harness,
    Plan,
    WriteOptions,
    is_removal,
    new_entries,
    select_entries,
)
from .block import BlockPlanner, plan_block
from .codex_read import REPLACES, read_codex_home
from .common import LABELS, count_files, derived_date, flatten, one_line, read_text, scan_entry
from .plan import follow_renames
from .projectfile import Cap, first_present, plan_repo_files, render_section, repo_scope, split_by_repo

__all__ = ["AGENTS_BUDGET", "CodexHarness", "codex_home", "fallback_names", "memories_enabled", "project_file"]

AGENTS_BUDGET = 32 * 1024
"""memseed's cap on the global AGENTS.md: Codex's ``project_doc_max_bytes`` default. Codex does not
count the global file against it but loads it whole into every prompt, so memseed holds it to
the same size rather than grow it without bound."""
PROJECT_CAP = Cap(32 * 1024, "bytes", "Codex reads at most 32 KiB of a project's instruction files "
                  "(project_doc_max_bytes)")
NOTES = Path("memories/extensions/ad_hoc/notes")
_TITLE = "Memory about the user (approved in memseed)"
_ID_LINE = re.compile(r"^memseed-id: ([0-9a-f]{8,})\s*$", re.MULTILINE)
_NOTE_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[a-z0-9-]{1,80}\.md$")


def memories_enabled(home: Path) -> tuple[bool, str]:
    """Whether ``[features] memories = true`` is set in ``config.toml``, and why we think so."""
    path = home / "config.toml"
    raw = read_bytes(path)
    if raw is None:
        return False, f"{path} does not exist, so the memories feature is off (its default)"
    try:
        config = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise WriteError(f"{path} is not valid TOML ({exc}); cannot tell whether memories are on",
                         hint="fix config.toml, then run the write again") from exc
    features = config.get("features")
    if isinstance(features, dict) and features.get("memories") is True:
        return True, f"[features] memories = true in {path}"
    return False, f"{path} does not set [features] memories = true (the feature is off by default)"


def _note_body(p: Proposal, replaces: Proposal | None = None) -> str:
    label = LABELS[p.type]
    body = p.body.replace("\r\n", "\n").strip()
    lines = [f"# Add to memory: {flatten(p.description) or p.name}", "",
             f"Please add this {label.lower()} memory ({p.type} type) about the user.", ""]
    if body:
        lines += [body, ""]
    if replaces is not None:
        lines += [f"{REPLACES} that no longer holds; forget it: "
                  f"{one_line(replaces, stamp=False)}", ""]
    lines += [f"Derived {derived_date(p)} by memseed from the user's own data and approved by the user.",
              f"memseed-id: {p.id}", ""]
    return "\n".join(lines)


_section = render_section
"""A ``### name (type)`` section: the same rendering as a repository's block (``projectfile``)."""


class CodexHarness(Harness, name="codex",
                   label="Codex",
                   home_env=("CODEX_HOME",),
                   default_home=".codex",
                   entry_format="with [features] memories = true: one create-new note per entry under "
                                "memories/extensions/ad_hoc/notes/; otherwise a '### name (type)' section in a "
                                "marked block of the global AGENTS.md (32 KiB budget); a repository's facts in a "
                                "marked block of that repository's AGENTS.md",
                   source_uri="codex:",
                   source_description="Codex CLI home (memories/, AGENTS.md)"):
    """Codex CLI: memory notes when its memories feature is on, else a block of ``AGENTS.md``."""

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options, home, chosen, plan = self.start_plan(entries, options)
        split = split_by_repo(chosen)
        enabled, why = memories_enabled(home)
        if enabled:
            plan.notes.append(f"mode: ad-hoc notes in {home / NOTES} because {why}")
            self._plan_notes(plan, home, split.everywhere, options)
        else:
            plan.notes.append(f"mode: marked block in the global AGENTS.md because {why}")
            self._plan_agents(plan, home, split.everywhere, options)
        plan_repo_files(plan, split, options, lambda root: project_file(home, root), "Codex", PROJECT_CAP)
        plan.entries = new_entries(plan, chosen, options)
        return plan

    def _existing_notes(self, folder: Path) -> dict[str, Path]:
        found: dict[str, Path] = {}
        if not folder.is_dir():
            return found
        for path in sorted(folder.glob("*.md")):
            if path.is_symlink():
                continue
            match = _ID_LINE.search((read_bytes(path) or b"").decode("utf-8", "replace"))
            if match:
                found.setdefault(match.group(1), path)
        return found

    def _plan_notes(self, plan: Plan, home: Path, entries: list[Proposal], options: WriteOptions) -> None:
        folder = home / NOTES
        refuse_symlinks(folder, home)
        existing = self._existing_notes(folder)
        follow_renames(existing, options)
        stamp = (options.now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H-%M-%S")
        used: set[str] = set()
        for p in entries:
            body = _note_body(p)
            scan_entry(body, f"entry {p.id} ({p.name})")
            if p.id in existing:
                plan.written.append((p.fingerprint, str(existing[p.id])))
                continue
            if p.fingerprint in options.written:
                plan.notes.append(f"{p.name}: memseed wrote a note before and it is gone now; not re-added")
                continue
            old = options.replaces.get(p.fingerprint)
            if old is not None and old.id in existing:
                path = existing[old.id]
                current = read_bytes(path)
                # as memseed wrote it: the old entry's own note, or a note an earlier update rewrote
                if current is not None and current in (_note_body(old).encode("utf-8"),
                                                       options.last_after(str(path))) and is_removal(p):
                    plan.files.append(FileChange(path, current, None))  # no longer holds: the note goes
                    plan.supersede(p, old, str(path), current.decode("utf-8", "replace"))
                    continue
                if current is not None and current in (_note_body(old).encode("utf-8"),
                                                       options.last_after(str(path))):
                    plan.files.append(FileChange(path, current, _note_body(p, old).encode("utf-8")))
                    plan.written.append((p.fingerprint, str(path)))
                    plan.supersede(p, old, str(path), current.decode("utf-8", "replace"))
                    continue
                plan.notes.append(f"{p.name}: the note it replaces ({path.name}) was edited; a new note is added")
            if is_removal(p):  # the removal note itself is never written
                plan.notes.append(f"{p.name}: the note this removal names is not as memseed wrote it (edited or "
                                  "removed since); kept as it is, remove it by hand if it no longer holds")
                continue
            slug = check_name(slugify(p.name, max_len=80))
            name = f"{stamp}-{slug}.md"
            n = 2
            while name in used or os.path.lexists(folder / name):
                suffix = f"-{n}"
                name = f"{stamp}-{slug[:80 - len(suffix)].rstrip('-')}{suffix}.md"
                n += 1
            if not _NOTE_NAME.match(name) or len(name.encode()) > 128:
                raise UnsafePath(f"note name {name!r} breaks Codex's ad-hoc note rules")
            used.add(name)
            path = folder / name
            contained(home, path)
            plan.files.append(FileChange(path, None, body.encode("utf-8")))
            plan.written.append((p.fingerprint, str(path)))

    def _agents_file(self, plan: Plan, home: Path) -> tuple[Path, bytes | None, str]:
        """The file the block goes in (AGENTS.md, or AGENTS.override.md when Codex reads that), its bytes and text."""
        path = home / "AGENTS.md"
        override = home / "AGENTS.override.md"
        refuse_symlinks(override, home)
        if (read_bytes(override) or b"").strip():
            path = override
            plan.notes.append(f"{override} exists and Codex reads it instead of AGENTS.md, so the block goes there")
        refuse_symlinks(path, home)
        before, text = read_text(path)
        return path, before, text

    def _plan_agents(self, plan: Plan, home: Path, entries: list[Proposal], options: WriteOptions) -> None:
        path, before, text = self._agents_file(plan, home)
        after = plan_block(plan, path, text, entries, options, _section, _TITLE).encode("utf-8")
        plan.budget.append({"file": str(path), "bytes": len(after), "max_bytes": AGENTS_BUDGET})
        if after == (before or b""):
            return
        if len(after) > AGENTS_BUDGET:
            raise CapacityExceeded(
                f"{path} would be {len(after):,} bytes, over the {AGENTS_BUDGET:,}-byte budget memseed "
                f"keeps it to ({len(after) - AGENTS_BUDGET:,} bytes too many): Codex loads it whole into every prompt", limit=AGENTS_BUDGET, needed=len(after),
                hint="write fewer entries (memseed write --only ID... / --exclude ID...), or turn on "
                     "Codex memories ([features] memories = true) so entries become notes")
        plan.files.append(FileChange(path, before, after))

    # -- reading, finding, auditing ---------------------------------------------------------
    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        return read_codex_home(root or self.home())

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_dir():
            return False
        mem = path / "memories" if (path / "memories").is_dir() else path
        return (mem / "memory_summary.md").is_file() or (mem / "raw_memories.md").is_file() or \
            (mem / "extensions" / "ad_hoc").is_dir()

    @classmethod
    def owns(cls, path: Path) -> bool:
        return cls.sniff(path) or (path / "AGENTS.md").is_file() or (path / "config.toml").is_file()

    def memory_count(self, home: Path) -> int:
        return count_files(home / "memories", "**/*.md") + int((home / "AGENTS.md").is_file())

    def doctor(self, root: Path) -> list[Finding]:
        return sorted_findings(codex_findings(root, AGENTS_BUDGET))

    def capacity(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[Capacity]:
        """The AGENTS.md bytes against :data:`AGENTS_BUDGET` (notes mode has no cap)."""
        options = options or WriteOptions()
        home = self.memory_root(None, options)
        if memories_enabled(home)[0]:
            return []
        plan = Plan(target=self.name, root=home)
        try:
            self._plan_agents(plan, home, split_by_repo(select_entries(entries, options)).everywhere, options)
        except CapacityExceeded as exc:
            path = home / "AGENTS.md"
            return [Capacity(str(path), "bytes", AGENTS_BUDGET, len(read_bytes(path) or b""), exc.needed)]
        path = Path(plan.budget[-1]["file"])  # AGENTS.md, or AGENTS.override.md when Codex reads that
        return [Capacity(str(path), "bytes", AGENTS_BUDGET, len(read_bytes(path) or b""), plan.budget[-1]["bytes"])]

    def fit_in_order(self, entries: Sequence[Proposal],
                     options: WriteOptions | None = None) -> list[tuple[Proposal, Capacity | None]]:
        """:meth:`Harness.fit_in_order` in one pass: the block is planned one entry at a time
        (:class:`~.block.BlockPlanner`), and an entry that would overflow AGENTS.md is taken back
        out; each answer is the one :meth:`capacity` gives for the entries kept before it plus this one."""
        options = options or WriteOptions()
        home = self.memory_root(None, options)
        if memories_enabled(home)[0]:
            return [(p, None) for p in entries]
        plan = Plan(target=self.name, root=home)
        path, before, text = self._agents_file(plan, home)
        planner = BlockPlanner(plan, path, text, options, _section, _TITLE)
        kept: set[str] = set()
        out: list[tuple[Proposal, Capacity | None]] = []
        for p in entries:
            mark = planner.mark()
            # a repository's fact goes to that repository's AGENTS.md: it takes no room in the global one
            added = p.fingerprint not in kept and bool(select_entries([p], options)) and repo_scope(p) is None
            if added:
                planner.add(p)
            after = planner.result().encode("utf-8")
            if after != (before or b"") and len(after) > AGENTS_BUDGET:  # what _plan_agents raises on
                cap = home / "AGENTS.md"
                over: Capacity | None = Capacity(str(cap), "bytes", AGENTS_BUDGET, len(read_bytes(cap) or b""),
                                                 len(after))
            else:
                over = Capacity(str(path), "bytes", AGENTS_BUDGET, len(read_bytes(path) or b""), len(after))
            if over is not None and over.overflow <= 0:
                over = None
            if over is not None:
                planner.back(mark)
            elif added:
                kept.add(p.fingerprint)
            out.append((p, over))
        return out

    def capacity_files(self, options: WriteOptions | None = None) -> list[Path]:
        home = self.memory_root(None, options)
        return [home / "AGENTS.md", home / "AGENTS.override.md", home / "config.toml"]


def fallback_names(home: Path) -> list[str]:
    """``project_doc_fallback_filenames`` of ``config.toml`` (names Codex also reads per folder)."""
    try:
        config = tomllib.loads((read_bytes(home / "config.toml") or b"").decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return []
    names = config.get("project_doc_fallback_filenames")
    return [n for n in names if isinstance(n, str) and n and "/" not in n] if isinstance(names, list) else []


def project_file(home: Path, root: Path) -> tuple[Path, list[str]]:
    """The file Codex reads at a repository's root: per folder the first non-empty of
    ``AGENTS.override.md``, ``AGENTS.md`` and the fallback names; ``AGENTS.md`` when none is there
    (a new ``AGENTS.md`` never shadows a file Codex reads now, since none is there)."""
    found = first_present(root, ["AGENTS.override.md", "AGENTS.md", *fallback_names(home)])
    if found is None:
        return root / "AGENTS.md", []
    if found.name != "AGENTS.md":
        return found, [f"Codex reads {found.name} in {root} (before AGENTS.md), so the repository's block goes there"]
    return found, []


def codex_home() -> Path:
    """``$CODEX_HOME`` or ``~/.codex``."""
    return CodexHarness.home()
