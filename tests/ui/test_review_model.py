"""The review model: filters, pages, bulk selection, decisions through the store, Hermes budget."""

from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import SourceError
from bootstrap_app.review import decisions
from bootstrap_app.review import model as rm
from bootstrap_app.store import Store
from bootstrap_app.types import DecisionStatus, MemoryType, Proposal
from bootstrap_app.ui.local import find_harness_folders, save_upload

from .conftest import synthetic_proposals


def _rows(n: int) -> list[rm.ReviewRow]:
    return [rm.ReviewRow(p) for p in synthetic_proposals(n)]


def test_filters_by_type_status_flag_and_text() -> None:
    rows = _rows(60)
    rows[0] = rm.ReviewRow(rows[0].proposal, "approved")
    rows[1] = rm.ReviewRow(rows[1].proposal, "rejected")
    rows[2] = rm.ReviewRow(rows[2].proposal, "edited", replace(rows[2].proposal, body="edited words here"))
    assert all(r.proposal.type is MemoryType.USER for r in rm.filter_rows(rows, rm.ReviewFilter(types=("user",), status="all")))
    assert len(rm.filter_rows(rows, rm.ReviewFilter(status="all"))) == 60
    assert len(rm.filter_rows(rows, rm.ReviewFilter())) == 57  # undecided is the default
    approved = rm.filter_rows(rows, rm.ReviewFilter(status="approved"))
    assert [r.status for r in approved] == ["approved", "edited"]
    assert [r.status for r in rm.filter_rows(rows, rm.ReviewFilter(status="rejected"))] == ["rejected"]
    sensitive = rm.filter_rows(rows, rm.ReviewFilter(status="all", flags=("sensitive",)))
    assert sensitive and all(r.proposal.sensitive for r in sensitive)
    assert [r.proposal.id for r in rm.filter_rows(rows, rm.ReviewFilter(status="all", text="edited WORDS"))] == [rows[2].proposal.id]
    assert rm.filter_rows(rows, rm.ReviewFilter(status="all", text="topic 12 option 12"))[0].proposal.key == "k12"
    with pytest.raises(ValueError):
        rm.ReviewFilter(status="maybe")


def test_pagination_clamps_and_covers_every_row() -> None:
    rows = _rows(500)
    first = rm.paginate(rows, 1)
    assert (first.pages, first.total, len(first.rows)) == (20, 500, 25)
    assert rm.paginate(rows, 99).page == 20
    assert rm.paginate(rows, 0).page == 1
    seen = [r.proposal.id for p in range(1, 21) for r in rm.paginate(rows, p).rows]
    assert len(seen) == len(set(seen)) == 500
    assert rm.paginate([], 3).pages == 1


def test_groups_follow_the_fixed_type_order() -> None:
    groups = rm.group_by_type(reversed(_rows(8)))
    assert [t for t, _ in groups] == list(MemoryType)


def test_bulk_selection_never_includes_sensitive_by_default() -> None:
    rows = _rows(30)
    sensitive = [r for r in rows if r.proposal.sensitive]
    assert sensitive
    ids = rm.bulk_ids(rows)
    assert not set(ids) & {r.fingerprint for r in sensitive}
    assert len(ids) == len(rows) - len(sensitive)
    chosen = rm.bulk_ids(rows, {sensitive[0].fingerprint: True, rows[0].fingerprint: False})
    assert sensitive[0].fingerprint in chosen and rows[0].fingerprint not in chosen


def test_decisions_are_in_the_store_for_a_new_connection(hermetic: Path) -> None:
    settings = load_settings()
    with Store(settings.db_path) as store:
        run = store.start_run("scan", [])
        store.save_proposals(run, synthetic_proposals(6))
        rows = rm.load_rows(store)
        decisions.approve(store, [rows[0].fingerprint, rows[1].proposal.id])
        decisions.reject(store, [rows[2].fingerprint])
        decisions.edit(store, rows[3].fingerprint, name="My edited name", description="d", body="New body.")
        decisions.undecide(store, [rows[1].fingerprint])
    with Store(settings.db_path) as other:
        by_fp = {r.fingerprint: r for r in rm.load_rows(other)}
        assert by_fp[rows[0].fingerprint].status == "approved"
        assert by_fp[rows[1].fingerprint].status == "undecided"
        assert by_fp[rows[2].fingerprint].status == "rejected"
        edited = by_fp[rows[3].fingerprint]
        assert edited.status == DecisionStatus.EDITED and edited.current.body == "New body."
        assert edited.current.name == "my-edited-name" and edited.approved


def _approved_user_rows(n: int, size: int) -> list[rm.ReviewRow]:
    return [rm.ReviewRow(Proposal(type=MemoryType.USER, name=f"user fact {i}", description=f"fact {i}",
                                  body=("x" * size) + f" {i}", subject=f"s{i}", key=str(i)), "approved")
            for i in range(n)]


def test_hermes_budget_says_what_fits(hermetic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERMES_HOME", str(hermetic / ".hermes"))
    lines = {b.name: b for b in rm.budget(_approved_user_rows(3, 100), "hermes")}
    assert lines["USER.md"].ok and lines["USER.md"].after > 300 and lines["USER.md"].used == 0
    assert lines["MEMORY.md"].after == 0
    over = {b.name: b for b in rm.budget(_approved_user_rows(6, 400), "hermes")}["USER.md"]
    assert not over.ok and over.ratio > 1
    fit, rest = over.fitting()
    assert fit and rest and len(fit) + len(rest) == 6
    # every harness answers the same capacity question in its own unit: Claude Code counts index lines
    # (for a repository's facts: facts about the person go to the uncapped user-level CLAUDE.md)
    assert rm.budget(_approved_user_rows(2, 10), "claude-code") == []
    repo = hermetic / "code" / "app"
    (repo / ".git").mkdir(parents=True)
    facts = [rm.ReviewRow(replace(r.proposal, type=MemoryType.PROJECT, scope=str(repo)), "approved")
             for r in _approved_user_rows(2, 10)]
    [claude] = rm.budget(facts, "claude-code")
    assert (claude.unit, claude.limit, claude.used, claude.after, claude.name) == ("lines", 200, 0, 2, "MEMORY.md")
    assert claude.folder.endswith("memory") and "code-app" in claude.folder  # the meter names its folder
    assert rm.budget(_approved_user_rows(2, 10), "gemini") == []  # uncapped


def test_upload_is_private_and_cannot_escape(hermetic: Path) -> None:
    settings = load_settings()
    path = save_upload(settings, "../../evil name.mbox", b"From a@b Thu Jan  1 00:00:00 2026\n\nhi\n")
    assert path.parent == settings.home / "uploads"
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = save_upload(settings, "evil name.mbox", b"x")
    assert again != path and again.exists()
    with pytest.raises(SourceError):
        save_upload(settings, "notes.exe", b"x")


def test_finds_existing_harness_memory(hermetic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = hermetic / ".claude" / "projects" / "-work-repo" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [A](a.md) — a\n")
    (hermetic / ".claude" / "projects" / "-empty" / "memory").mkdir(parents=True)
    hermes = hermetic / "hh"
    (hermes / "memories").mkdir(parents=True)
    (hermes / "memories" / "USER.md").write_text("likes tea")
    monkeypatch.setenv("HERMES_HOME", str(hermes))
    found = {(f.harness, f.location) for f in find_harness_folders()}
    assert found == {("claude-code", str(memory)), ("hermes", "hermes:")}


def test_budget_key_changes_with_what_the_meter_depends_on(hermetic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERMES_HOME", str(hermetic / ".hermes"))
    rows = _approved_user_rows(2, 20)
    key = rm.budget_key(rows)
    assert rm.budget_key(rows) == key
    assert rm.budget_key([*rows[:1], rm.ReviewRow(rows[1].proposal, "rejected")]) != key
    assert rm.budget_key(rows, written=[rows[0].fingerprint]) != key
    memories = hermetic / ".hermes" / "memories"
    memories.mkdir(parents=True)
    (memories / "USER.md").write_text("Likes tea.")
    assert rm.budget_key(rows) != key
    hash(rm.budget_key(rows))


def test_plan_targets_keeps_errors_per_target_and_uses_chosen_roots(hermetic: Path) -> None:
    settings = load_settings()
    with Store(settings.db_path) as store:
        store.save_proposals(store.start_run("scan", []), synthetic_proposals(4, sensitive_every=0))
        decisions.approve(store, [r.fingerprint for r in rm.load_rows(store)])
        folder = hermetic / "plain-memory"
        plans = {tp.target: tp for tp in rm.plan_targets(store, ["markdown", "nonesuch"],
                                                           roots={"markdown": str(folder)})}
    assert plans["markdown"].error is None and plans["markdown"].plan.files
    assert all(c.path.is_relative_to(folder) for c in plans["markdown"].plan.files)
    assert plans["nonesuch"].plan is None and "unknown target" in str(plans["nonesuch"].error)
