"""Harness memory as a source: URIs, sniffing, types, and moving memory between harnesses."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bootstrap_app.errors import CapacityExceeded
from bootstrap_app.harnesses import get_harness
from bootstrap_app.memory import write as writing
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryEntry, MemoryType
from connectors.base import ReadContext
from connectors.harness_memory import (
    ClaudeCodeMemory,
    CodexMemory,
    GeminiMemory,
    HermesMemory,
    entries_to_proposals,
)
from connectors.registry import detect
from tests.conftest import realdata_file

from .conftest import copy_real


def _read(location: str) -> tuple[list[MemoryEntry], ReadContext]:
    sources = detect(location)
    assert len(sources) == 1, sources
    ctx = ReadContext()
    items = [i for i in sources[0].read(ctx) if isinstance(i, MemoryEntry)]
    return items, ctx


def test_uris_read_what_memseed_wrote(approved: Store, home: Path, project: Path) -> None:
    for target in ("claude-code", "codex", "hermes", "gemini"):
        writing.apply_write(approved, writing.plan_write(approved, target, project=project))
    for uri, cls in (("claude-code:", ClaudeCodeMemory), ("codex:", CodexMemory), ("hermes:", HermesMemory),
                     ("gemini:", GeminiMemory)):
        sources = detect(uri)
        assert isinstance(sources[0], cls)
        items, _ctx = _read(uri)
        assert {i.memory_type for i in items} == set(MemoryType), uri
        assert all(i.authored_by_owner and i.source.startswith(cls.kind) for i in items)
    items, _ = _read(f"claude-code:{project}")
    assert {i.memory_type for i in items} == {MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.REFERENCE}


def test_untyped_files_take_type_from_prefix(home: Path) -> None:
    folder = home / "mem" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [x](feedback_tabs.md) — tabs\n")
    (folder / "feedback_tabs.md").write_text("---\nname: tabs\ndescription: use tabs\n---\nUse tabs.\n")
    (folder / "reference_docs.md").write_text("---\nname: docs\ndescription: d\nmetadata:\n  type: reference\n"
                                              "---\nbody\n")
    items, _ = _read(str(folder))
    types = {i.name: i.memory_type for i in items}
    assert types == {"tabs": MemoryType.FEEDBACK, "docs": MemoryType.REFERENCE}


@pytest.mark.parametrize(("folder", "cls", "minimum"), [
    ("claude-code/4444J99-portfolio/memory", ClaudeCodeMemory, 15),
    ("claude-code/1000ssam-claude-config/memory", ClaudeCodeMemory, 110),
    ("hermes/ItaZure-hermes-memories", HermesMemory, 11),
    ("hermes/HuskyDanny-hermes-agent-config", HermesMemory, 28),
    ("codex/0x07c4-agent", CodexMemory, 30),
])
def test_real_folders_are_sniffed_and_read(folder: str, cls: type, minimum: int) -> None:
    path = realdata_file("memory", *folder.split("/"))
    sources = detect(str(path))
    assert len(sources) == 1 and isinstance(sources[0], cls)
    items, ctx = _read(str(path))
    assert len(items) >= minimum and ctx.skips == []
    assert all(i.memory_type in set(MemoryType) for i in items)


def test_both_frontmatter_dialects_in_real_data() -> None:
    path = realdata_file("memory", "claude-code", "1000ssam-claude-config", "memory")
    items, _ = _read(str(path))
    counts = Counter(i.memory_type for i in items)
    assert counts[MemoryType.FEEDBACK] >= 49 and counts[MemoryType.PROJECT] >= 53 and counts[MemoryType.REFERENCE] == 6


def test_entries_to_proposals_keeps_types_and_evidence() -> None:
    path = realdata_file("memory", "claude-code", "4444J99-portfolio", "memory")
    items, _ = _read(str(path))
    props = entries_to_proposals(items)
    assert len(props) == len(items)
    by_name = {p.name: p for p in props}
    assert by_name["workflow"].type is MemoryType.FEEDBACK
    assert by_name["design-philosophy"].type is MemoryType.USER
    for p in props:  # file and line: the cited line of the file holds the entry's first line
        path, _, line = p.evidence[0].ref.rpartition(":")
        assert p.evidence[0].authored_by_owner and path.endswith(".md") and int(line) >= 1
        first = next(ln.strip() for ln in p.body.splitlines() if ln.strip())
        assert first[:60] in Path(path).read_text("utf-8").splitlines()[int(line) - 1]
    assert [p.fingerprint for p in entries_to_proposals(items)] == [p.fingerprint for p in props]


def test_move_real_claude_memory_to_hermes_and_codex(store: Store, home: Path) -> None:
    path = realdata_file("memory", "claude-code", "4444J99-portfolio", "memory")
    items, _ = _read(str(path))
    props = entries_to_proposals(items)
    store.save_proposals(store.start_run("scan", [str(path)]), props)
    decisions.approve(store, [p.id for p in props])
    with pytest.raises(CapacityExceeded) as err:  # 15 long entries cannot fit 2,200 + 1,375 chars
        writing.plan_write(store, "hermes")
    text = str(err.value)
    assert "Fits:" in text and "--only" in text and "on their own" in text
    fits = text.split("Fits: ")[1].split(".")[0].split(", ")
    user = [p.id for p in props if p.type is MemoryType.USER]
    plan = writing.plan_write(store, "hermes", only=fits + user)
    writing.apply_write(store, plan)
    got = get_harness("hermes").read(home / ".hermes")
    assert {e.memory_type for e in got} >= {MemoryType.USER, MemoryType.FEEDBACK}
    assert len(got) == len(fits) + len(user)
    plan = writing.plan_write(store, "codex")
    writing.apply_write(store, plan)
    codex_entries = [e for e in get_harness("codex").read(home / ".codex") if "AGENTS.md#" in e.ref]
    assert Counter(e.memory_type for e in codex_entries) == Counter(p.type for p in props)


def test_codex_home_copy_reads_notes_and_summary(home: Path) -> None:
    codex = copy_real("codex/0x07c4-agent", home / ".codex")
    items, _ = _read("codex:")
    refs = {i.ref.split("#")[0] for i in items}
    assert {"memory_summary.md", "MEMORY.md", "AGENTS.md"} <= refs
    assert any(i.memory_type is MemoryType.USER for i in items)
    assert not any("raw_memories" in i.ref or "rollout_summaries" in i.ref for i in items)
    assert codex.exists()


def test_source_ids_name_the_folder(home: Path) -> None:
    assert detect("claude-code:")[0].id == f"claude-code:{home / '.claude'}"
    assert detect("hermes:work")[0].id == f"hermes:{home / '.hermes' / 'profiles' / 'work'}"
