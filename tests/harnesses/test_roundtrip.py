"""Every target: write approved entries, read them back with the harness reader, re-run, undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from bootstrap_app.harnesses import get_harness
from bootstrap_app.memory import write as writing
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType, Proposal

from .conftest import snapshot

TARGETS = ["claude-code", "codex", "codex-notes", "hermes", "gemini", "markdown"]


def _setup(target: str, home: Path, project: Path) -> tuple[str, Path, Path]:
    """(harness name, folder to snapshot, root to read back)."""
    if target == "claude-code":
        return target, home / ".claude", home / ".claude"
    if target.startswith("codex"):
        codex = home / ".codex"
        codex.mkdir()
        if target == "codex-notes":
            (codex / "config.toml").write_text('model = "o3"\n\n[features]\nmemories = true\n')
        return "codex", codex, codex
    if target == "hermes":
        return target, home / ".hermes", home / ".hermes"
    if target == "gemini":
        return target, home / ".gemini", home / ".gemini"
    return target, project / "memory", project / "memory"


def _norm(text: str) -> str:
    return " ".join(text.replace("**", "").split()).lower()


@pytest.mark.parametrize("target", TARGETS)
def test_round_trip_rerun_and_undo(target: str, approved: Store, proposals: list[Proposal], home: Path,
                                   project: Path) -> None:
    name, folder, read_root = _setup(target, home, project)
    before = snapshot(folder)
    plan = writing.plan_write(approved, name, project=project)
    assert plan.files, plan.notes
    assert snapshot(folder) == before, "plan must not write"
    outcome = writing.apply_write(approved, plan)
    assert outcome.write_id is not None
    assert sorted(outcome.paths) == sorted(str(f.path) for f in plan.files)

    entries = get_harness(name).read(read_root)
    by_type = {e.memory_type: e for e in entries}
    assert set(by_type) == set(MemoryType), [(e.memory_type, e.name) for e in entries]
    for p in proposals:
        entry = by_type[p.type]
        text = _norm(f"{entry.description} {entry.body}")
        assert _norm(p.description)[:40] in text
        assert "ledger" in text or p.type in (MemoryType.USER, MemoryType.REFERENCE)
    for path in outcome.paths:
        raw = Path(path).read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf") and b"\r\n" not in raw
        raw.decode("utf-8")

    after_first = snapshot(folder)
    again = writing.plan_write(approved, name, project=project)
    assert again.files == [], again.diff()
    assert writing.apply_write(approved, again).write_id is None
    assert snapshot(folder) == after_first, "a re-run with nothing new must change no byte"

    restored = writing.undo_write(approved)
    assert sorted(restored) == sorted(outcome.paths)
    # Hermes's own <file>.lock files stay, as Hermes leaves them: deleting a lock file another
    # process may be waiting on would break the lock. They are empty and hold no memory.
    now = {p: h for p, (h, _) in snapshot(folder).items() if not p.endswith(".lock")}
    assert now == {p: h for p, (h, _) in before.items()}
    assert approved.written(name) == {}


def test_plan_respects_only_and_exclude(approved: Store, proposals: list[Proposal], home: Path) -> None:
    plan = writing.plan_write(approved, "gemini", only=[proposals[1].id])
    assert [p.id for p in plan.entries] == [proposals[1].id]
    plan = writing.plan_write(approved, "gemini", exclude=[proposals[1].id])
    assert proposals[1].id not in [p.id for p in plan.entries] and len(plan.entries) == 3


def test_unapproved_and_rejected_are_never_written(store: Store, proposals: list[Proposal], home: Path) -> None:
    from bootstrap_app.review import decisions

    store.save_proposals(store.start_run("scan", []), proposals)
    decisions.reject(store, [proposals[0].id])
    plan = writing.plan_write(store, "gemini")
    assert plan.files == [] and "nothing approved" in plan.notes[0]
    decisions.approve(store, [proposals[2].id])
    plan = writing.plan_write(store, "gemini")
    assert [p.id for p in plan.entries] == [proposals[2].id]


def test_edited_entry_is_written_as_edited(approved: Store, proposals: list[Proposal], home: Path) -> None:
    from bootstrap_app.review import decisions

    decisions.edit(approved, proposals[1].id, body="Keep PRs small; one behaviour change each.")
    plan = writing.plan_write(approved, "markdown", root=home / "md")
    writing.apply_write(approved, plan)
    text = (home / "md" / "small-pull-requests.md").read_text()
    assert "one behaviour change each" in text and "300" not in text


def test_demo_persona_round_trip(home: Path, project: Path) -> None:
    """The demo persona scans, every non-sensitive proposal is approved, and both the Claude Code
    and the markdown writers accept all of them: at least 90 % read back as typed entries."""
    from bootstrap_app import pipeline
    from bootstrap_app.config import load_settings
    from bootstrap_app.review import decisions

    settings = load_settings()
    with Store(settings.db_path) as store:
        result = pipeline.scan_demo(settings, store=store)
        ids = [p.id for p in result.proposals if not p.sensitive]
        assert ids
        decisions.approve(store, ids)
        for target in ("claude-code", "markdown"):
            writing.apply_write(store, writing.plan_write(store, target, project=project))
        entries = get_harness("markdown").read(project / "memory")
        assert {e.memory_type for e in entries} <= set(MemoryType) and len(entries) >= len(ids) * 0.9


def test_undo_of_a_later_write_keeps_earlier_entries_known(approved: Store, proposals: list[Proposal],
                                                           home: Path) -> None:
    from bootstrap_app.review import decisions

    first = writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    extra = Proposal(type=MemoryType.PROJECT, name="deploy-console", description="deploy-console ships releases",
                     body="Next.js app; deploys ledger-api.", subject="project:deploy-console")
    approved.save_proposals(approved.start_run("scan", []), [extra])
    decisions.approve(approved, [extra.id])
    second = writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    assert [p for p in second.paths if p.endswith("MEMORY.md")] and first.write_id != second.write_id
    writing.undo_write(approved, second.write_id)
    known = approved.written("hermes")
    assert {p.fingerprint for p in proposals} <= set(known) and extra.fingerprint not in known
