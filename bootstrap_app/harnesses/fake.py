"""An in-memory harness for tests and docs: the whole contract, no disk, no real agent.

Why ship it: the contract test runs every registered harness *and* this one through the same
round trip, undo and doctor checks, so the contract is pinned down by something small enough
to read in one sitting; docs/extending.md starts from it. Its store is one JSON-Lines file
(``<root>/memory.jsonl``, one entry per line) held in a :class:`MemoryFiles` dict, capped at
``MAX_ENTRIES`` lines. It goes through the shared ``apply``/``undo`` unchanged: only
``self.files`` differs from a real harness.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.safety.doctor import decode_checked, sorted_findings
from bootstrap_app.safety.doctor_checks import Finding, text_findings
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal

from .base import Capacity, FileChange, Harness, Plan, WriteOptions, new_entries, placement, select_entries
from .common import flatten, scan_entry
from .files import Files, MemoryFiles

__all__ = ["FakeHarness", "render_line"]

MAX_ENTRIES = 50


def render_line(p: Proposal) -> str:
    """One entry as one JSON line (keys sorted, so the same entry is always the same bytes)."""
    return json.dumps({"id": p.id, "name": p.name, "type": str(p.type), "description": flatten(p.description),
                       "body": p.body.strip()}, ensure_ascii=False, sort_keys=True)


class FakeHarness(Harness, name="fake",
                  label="Fake (in memory)",
                  entry_format="one JSON object per line in <root>/memory.jsonl, at most 50 lines"):
    """The in-memory harness of the contract tests and docs (see the module docstring)."""

    def __init__(self, files: Files | None = None, root: Path = Path("/fake-harness")) -> None:
        super().__init__(files or MemoryFiles())
        self.default_root = root

    def memory_root(self, project: Path | None = None, options: WriteOptions | None = None) -> Path:
        return options.root if options and options.root else self.default_root

    def _lines(self, root: Path) -> tuple[Path, bytes | None, list[str]]:
        path = root / "memory.jsonl"
        raw = self.files.read(path)
        return path, raw, (raw or b"").decode("utf-8").splitlines()

    def plan(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> Plan:
        options = options or WriteOptions()
        root = self.memory_root(None, options)
        path, before, lines = self._lines(root)
        plan = Plan(target=self.name, root=root)
        chosen = select_entries(entries, options)
        for p in chosen:
            scan_entry(f"{p.description}\n{p.body}", f"entry {p.id} ({p.name})")
            action, old = placement(plan, p, options, lines, render_line)
            if action == "gone":
                continue
            if action == "remove" and old is not None:  # a fact that no longer holds: its line goes
                lines.remove(render_line(old))
                plan.supersede(p, old, str(path), render_line(old))
                continue
            if old is not None:
                lines[lines.index(render_line(old))] = render_line(p)
                plan.supersede(p, old, str(path), render_line(old))
            elif action == "add":
                lines.append(render_line(p))
            plan.written.append((p.fingerprint, str(path)))
        after = "".join(line + "\n" for line in lines).encode("utf-8")
        if after != (before or b""):
            plan.files.append(FileChange(path, before, after))
        plan.entries = new_entries(plan, chosen, options)
        return plan

    def capacity(self, entries: Sequence[Proposal], options: WriteOptions | None = None) -> list[Capacity]:
        options = options or WriteOptions()
        root = self.memory_root(None, options)
        path, _, lines = self._lines(root)
        after = self.plan(entries, options)
        now = len(lines)
        added = after.entries
        return [Capacity(str(path), "lines", MAX_ENTRIES, now, now + len(added) - len(after.superseded),
                         tuple((p.id, p.name, 1) for p in added),
                         tuple(p.id for p in added[:max(MAX_ENTRIES - now, 0)]))]

    def read_with_skips(self, root: Path | None = None) -> tuple[list[MemoryEntry], list[tuple[str, str]]]:
        try:
            path, _, lines = self._lines(root or self.default_root)
        except UnicodeDecodeError:
            return [], [("memory.jsonl", "not UTF-8 text")]
        entries, skipped = [], []
        for no, line in enumerate(lines, 1):
            try:
                data = json.loads(line)
                mtype = MemoryType(data["type"])
            except (ValueError, KeyError, TypeError) as exc:
                skipped.append((f"{path}:{no}", f"not a memory line ({exc})"))
                continue
            entries.append(MemoryEntry(
                source=f"fake:{path}", ref=f"memory.jsonl#{no}", timestamp=datetime.now(UTC),
                authored_by_owner=True, harness=self.name, name=str(data.get("name", "")),
                description=str(data.get("description", "")), memory_type=mtype, body=str(data.get("body", "")),
                path=str(path)))
        return entries, skipped

    def doctor(self, root: Path) -> list[Finding]:
        path = root / "memory.jsonl"
        raw = self.files.read(path)
        out: list[Finding] = []
        if raw is None:
            return [Finding(str(path), 0, "warning", "no-memory", "no memory.jsonl")]
        text = decode_checked(raw, str(path), out)
        for no, line in enumerate((text or "").splitlines(), 1):
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise ValueError(line)
            except ValueError:
                out.append(Finding(str(path), no, "error", "bad-line", "not a JSON object"))
                continue
            out.extend(text_findings(f"{data.get('description', '')} {data.get('body', '')}", str(path),
                                     first_line=no))
        if len((text or "").splitlines()) > MAX_ENTRIES:
            out.append(Finding(str(path), MAX_ENTRIES + 1, "warning", "over-cap", f"more than {MAX_ENTRIES} entries"))
        return sorted_findings(out)
