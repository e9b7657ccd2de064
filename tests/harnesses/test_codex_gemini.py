"""Codex (notes / AGENTS.md block) and Gemini (GEMINI.md bullets) writers."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.errors import CapacityExceeded
from bootstrap_app.harnesses import get_harness
from bootstrap_app.harnesses.base import WriteOptions
from bootstrap_app.harnesses.codex import AGENTS_BUDGET
from bootstrap_app.harnesses.gemini import HEADING, add_fact
from bootstrap_app.memory import write as writing
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType

from .conftest import REALMEM, copy_real, make_proposals, snapshot

NOTE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[a-z0-9-]{1,80}\.md$")


def _enable(codex: Path) -> None:
    codex.mkdir(parents=True, exist_ok=True)
    (codex / "config.toml").write_text('[features]\nmemories = true\n')


def test_notes_mode(approved: Store, home: Path) -> None:
    codex = home / ".codex"
    _enable(codex)
    now = datetime(2026, 11, 21, 10, 4, 5, tzinfo=UTC)
    plan = writing.plan_write(approved, "codex", now=now)
    assert "ad-hoc notes" in plan.notes[0] and "memories = true" in plan.notes[0]
    writing.apply_write(approved, plan)
    notes = codex / "memories" / "extensions" / "ad_hoc" / "notes"
    names = sorted(p.name for p in notes.iterdir())
    assert len(names) == 4
    for name in names:
        assert NOTE.match(name) and len(name.encode()) <= 128 and name.startswith("2026-11-21T10-04-05-")
        body = (notes / name).read_text()
        assert body.strip() and "Please add this" in body
    assert not (codex / "memories" / "raw_memories.md").exists()
    assert not (codex / "memories" / "rollout_summaries").exists()
    # a second run (another second) recognises its notes and creates none
    later = writing.plan_write(approved, "codex", now=datetime(2026, 11, 22, tzinfo=UTC))
    assert later.files == []


def test_notes_never_overwrite(approved: Store, home: Path) -> None:
    codex = home / ".codex"
    _enable(codex)
    now = datetime(2026, 11, 21, 10, 4, 5, tzinfo=UTC)
    notes = codex / "memories" / "extensions" / "ad_hoc" / "notes"
    notes.mkdir(parents=True)
    taken = notes / "2026-11-21T10-04-05-ledger-api.md"
    taken.write_text("the person's own note\n")
    plan = writing.plan_write(approved, "codex", now=now)
    paths = [f.path.name for f in plan.files]
    assert "2026-11-21T10-04-05-ledger-api-2.md" in paths and taken.name not in paths
    writing.apply_write(approved, plan)
    assert taken.read_text() == "the person's own note\n"


def test_agents_md_block_mode_keeps_user_text(approved: Store, home: Path) -> None:
    codex = home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('model = "gpt-5"\n[features]\nmemories = false\n')
    mine = "# Global AGENTS\n\n## Token Budget\n\n- Prefer rg.\n"
    (codex / "AGENTS.md").write_text(mine)
    plan = writing.plan_write(approved, "codex")
    assert "AGENTS.md" in plan.notes[0] and "off" in plan.notes[0]
    writing.apply_write(approved, plan)
    text = (codex / "AGENTS.md").read_text()
    assert text.startswith(mine + "\n<!-- memseed:begin -->")
    entries = get_harness("codex").read(codex)
    assert {e.memory_type for e in entries if "AGENTS.md#" in e.ref} == set(MemoryType)
    assert any(e.name == "token-budget" and e.memory_type is MemoryType.FEEDBACK for e in entries)


def test_agents_md_budget(store: Store, home: Path) -> None:
    from bootstrap_app.review import decisions

    big = [replace(make_proposals()[2], name=f"project-{i}", subject=f"p{i}", body="word " * 1500)
           for i in range(6)]
    store.save_proposals(store.start_run("scan", []), big)
    decisions.approve(store, [p.id for p in big])
    with pytest.raises(CapacityExceeded) as err:
        writing.plan_write(store, "codex")
    assert f"{AGENTS_BUDGET:,}-byte budget" in str(err.value) and "--only" in str(err.value)


def test_real_codex_home_left_intact(approved: Store, home: Path) -> None:
    codex = copy_real("codex/0x07c4-agent", home / ".codex")
    before = snapshot(codex)
    old = [(e.ref, e.body) for e in get_harness("codex").read(codex)]
    assert len(old) > 20
    writing.apply_write(approved, writing.plan_write(approved, "codex"))
    after = snapshot(codex)
    changed = [p for p in before if before[p][0] != after[p][0]]
    assert changed == [str(codex / "AGENTS.md")]
    assert (codex / "AGENTS.md").read_bytes().startswith(
        (REALMEM / "codex" / "0x07c4-agent" / "AGENTS.md").read_bytes())
    new = [(e.ref, e.body) for e in get_harness("codex").read(codex)]
    assert all(item in new for item in old) and len(new) == len(old) + 4
    _enable(codex)  # with memories on: notes, and MEMORY.md / raw_memories untouched
    (codex / "config.toml").write_text("[features]\nmemories = true\n")
    approved_plan = writing.plan_write(approved, "codex")
    assert all("/extensions/ad_hoc/notes/" in str(f.path) for f in approved_plan.files)


def test_gemini_insertion_like_save_memory(approved: Store, home: Path) -> None:
    gem = home / ".gemini"
    gem.mkdir()
    existing = "# Me\n\nStuff.\n\n## Gemini Added Memories\n- likes tea\n\n## Other\nkeep me\n"
    (gem / "GEMINI.md").write_text(existing)
    writing.apply_write(approved, writing.plan_write(approved, "gemini"))
    text = (gem / "GEMINI.md").read_text()
    section = text.split(HEADING)[1].split("\n## ")[0]
    bullets = [ln for ln in section.splitlines() if ln.startswith("- ")]
    assert bullets[0] == "- likes tea" and len(bullets) == 5
    assert text.startswith("# Me\n\nStuff.\n") and text.endswith("\n## Other\nkeep me\n")


def test_gemini_fact_rules() -> None:
    assert add_fact("", "x") == f"{HEADING}\n- x\n"
    assert add_fact("intro", "x") == f"intro\n\n{HEADING}\n- x\n"
    p = replace(make_proposals()[1], description="Use <b>tags</b>", body="--- multi\nline <x>")
    plan = get_harness("gemini").plan([p], WriteOptions())
    line = next(ln for ln in plan.files[0].after.decode().splitlines() if ln.startswith("- "))
    assert "<" not in line and ">" not in line and "\n" not in line


def test_agents_override_is_used_when_codex_reads_it(approved: Store, home: Path) -> None:
    codex = home / ".codex"
    codex.mkdir()
    (codex / "AGENTS.override.md").write_text("# Override\n")
    (codex / "AGENTS.md").write_text("# Ignored by Codex while the override exists\n")
    plan = writing.plan_write(approved, "codex")
    assert [f.path.name for f in plan.files] == ["AGENTS.override.md"]
