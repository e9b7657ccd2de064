"""`memseed verify`: what memseed wrote, checked again against the file system and its sources."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.memory import watch as hookcheck
from bootstrap_app.memory import write as writing
from bootstrap_app.memory.freshness import check_written, refresh_watch
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal

NOW = datetime(2026, 11, 2, tzinfo=UTC)


def _write(home: Path, repo: Path, notes: Path) -> Store:
    ev_repo = (Evidence(f"git:{repo}", "HEAD", NOW, True, "repo"),)
    ev_notes = (Evidence(f"folder:{notes}", "plan.md", NOW, True, "notes"),)
    proposals = [
        Proposal(type=MemoryType.PROJECT, name="app-commands", description="How app is built",
                 body="- Tests: `make test`\n- Lint: `make lint`\n- Guide: `docs/guide.md`", subject="project:app:cmds",
                 scope=str(repo), evidence=ev_repo),
        Proposal(type=MemoryType.PROJECT, name="release", description="The release freeze",
                 body="The 2.0 release is due 2026-03-01; nothing merges after the freeze.", subject="project:release",
                 evidence=ev_notes),
        Proposal(type=MemoryType.FEEDBACK, name="small-prs", description="Prefers small pull requests",
                 body="Keep pull requests small, one change each.", subject="feedback:prs", evidence=ev_notes),
    ]
    store = Store(load_settings(None).db_path)
    store.save_proposals(store.start_run("scan", ["t"]), proposals)
    decisions.approve(store, [p.id for p in proposals])
    writing.apply_write(store, writing.plan_write(store, "markdown", project=home / "proj"))
    return store


def test_verify_reports_each_kind_of_staleness(hermetic: Path) -> None:
    repo, notes = hermetic / "code" / "app", hermetic / "notes"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text("guide\n")
    (repo / "Makefile").write_text("test:\n\tpytest\nlint:\n\truff .\n")
    notes.mkdir()
    with _write(hermetic, repo, notes) as store:
        checked, stale = check_written(store, now=datetime(2026, 1, 1, tzinfo=UTC))
        assert checked == 3 and stale == []  # all holds before anything changes
        (repo / "Makefile").write_text("lint:\n\truff .\n")
        (repo / "docs" / "guide.md").unlink()
        shutil.rmtree(notes)
        checked, stale = check_written(store, now=NOW)
        found = sorted((s.name, s.what, s.detail) for s in stale)
        assert found == [("app-commands", "command", "`make test` no longer holds"),
                         ("app-commands", "path", "`docs/guide.md` no longer holds"),
                         ("release", "date", "2026-03-01 has passed"),
                         ("release", "source", f"folder:{notes} is gone"),
                         ("small-prs", "source", f"folder:{notes} is gone")]
        assert check_written(store, target="codex") == (0, [])
        assert {s.name for s in check_written(store, project=repo)[1]} == {"app-commands"}


def test_verify_cli_exit_status(hermetic: Path) -> None:
    repo, notes = hermetic / "code" / "app", hermetic / "notes"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text("guide\n")
    (repo / "Makefile").write_text("test:\n\tpytest\nlint:\n\truff .\n")
    notes.mkdir()
    _write(hermetic, repo, notes).close()
    runner = CliRunner()
    fresh = runner.invoke(main, ["verify", "--target", "markdown", "--project", str(repo)])
    assert fresh.exit_code == 0 and "checked 1 entry: all still hold" in fresh.output
    for path in (hermetic / "proj" / "memory").glob("app-commands*.md"):
        path.unlink()  # the person deleted the entry's file
    gone = runner.invoke(main, ["verify", "--json"])
    assert gone.exit_code == 1
    data = json.loads(gone.output.splitlines()[0])
    assert [(s["name"], s["what"]) for s in data["stale"] if s["name"] == "app-commands"] == [("app-commands", "file")]


def test_an_archive_members_source_is_its_archive(hermetic: Path) -> None:
    from bootstrap_app.memory.freshness import _local_source

    archive = hermetic / "takeout.zip"
    archive.write_bytes(b"PK")
    path = _local_source(f"takeout:{archive}!Takeout/Mail/All mail.mbox")
    assert path == archive and path.exists()
    assert _local_source("gmail:me@example.org") is None


def _summary_findings(store: Store, today: date) -> list[tuple[str, str, str, str]]:
    """What the start-up hook's script finds from the summary alone (raises hookcheck.Changed)."""
    db = sqlite3.connect(store.path)
    try:
        row = db.execute("SELECT stale, data FROM hook_watch").fetchone()
    finally:
        db.close()
    if row is None or row[0]:
        raise hookcheck.Changed("none yet, or marked stale")
    data = row[1]
    return [(r["fp"], r["n"], what, detail) for r in json.loads(data)["entries"]
            for what, detail in hookcheck.findings(r, today)]


def test_the_hook_summary_finds_what_verify_finds_until_it_cannot(hermetic: Path) -> None:
    """The summary the hook script reads gives the full check's findings, in its order, after
    paths, sources and dates change; a changed task file, a write or an edit makes it step aside."""
    repo, notes = hermetic / "code" / "app", hermetic / "notes"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text("guide\n")
    (repo / "Makefile").write_text("test:\n\tpytest\nlint:\n\truff .\n")
    notes.mkdir()

    def full(now: datetime) -> list[tuple[str, str, str, str]]:
        return [(s.fingerprint, s.name, s.what, s.detail) for s in check_written(store, now=now)[1]]

    with _write(hermetic, repo, notes) as store:
        # the write marked the summary stale and writing's after-write callback rebuilt it
        assert _summary_findings(store, date(2026, 1, 1)) == full(datetime(2026, 1, 1, tzinfo=UTC)) == []
        (repo / "docs" / "guide.md").unlink()
        shutil.rmtree(notes)
        found = _summary_findings(store, NOW.date())
        assert found == full(NOW) and len(found) == 4  # path, date, two sources: no refresh needed
        assert hookcheck.fast_line(store.path, NOW.date()) == hookcheck.summary_line(found, 0) != ""
        (repo / "Makefile").write_text("lint:\n\truff .\n")  # the verdict on `make test` rests on it
        with pytest.raises(hookcheck.Changed):
            _summary_findings(store, NOW.date())
        refresh_watch(store)
        assert _summary_findings(store, NOW.date()) == full(NOW)
        assert ("command", "`make test` no longer holds") in [f[2:] for f in full(NOW)]
        shutil.rmtree(repo)  # the repository is gone: that is its one finding, as in verify
        with pytest.raises(hookcheck.Changed):
            _summary_findings(store, NOW.date())
        refresh_watch(store)
        assert _summary_findings(store, NOW.date()) == full(NOW)
        edited = next(sp for sp in store.proposals(status="approved") if sp.proposal.name == "small-prs")
        decisions.edit(store, edited.proposal.id, body="Keep pull requests small.")
        with pytest.raises(hookcheck.Changed):  # an edit of a written entry: the triggers mark the summary
            _summary_findings(store, NOW.date())
        refresh_watch(store)
        store.save_proposals(store.start_run("scan", ["t"]), [
            Proposal(type=MemoryType.FEEDBACK, name="other", description="Another fact", body="Another.",
                     subject="feedback:other")])
        assert _summary_findings(store, NOW.date()) == full(NOW)  # a new proposal changes no written entry
        writing.undo_write(store)  # the undo marks it, the after-write callback rebuilds it
        assert _summary_findings(store, NOW.date()) == full(NOW)


def test_writing_owns_the_hook_refresh_and_a_failing_callback_costs_only_itself(
        hermetic: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The store's triggers mark the summary stale on every write (the harness alone leaves it so);
    :func:`writing.apply_write` and :func:`writing.undo_write` then run the callbacks writing owns,
    which rebuild it. A callback that raises is logged; the write it follows still stands."""
    from bootstrap_app.harnesses import get_harness
    from bootstrap_app.memory.freshness import keep_watch

    assert keep_watch in writing._AFTER_WRITE  # wired by bootstrap_app.memory, for every front end
    repo, notes = hermetic / "code" / "app", hermetic / "notes"
    repo.mkdir(parents=True)
    notes.mkdir()
    def full() -> list[tuple[str, str, str, str]]:
        return [(s.fingerprint, s.name, s.what, s.detail) for s in check_written(store, now=NOW)[1]]

    with _write(hermetic, repo, notes) as store:
        assert _summary_findings(store, NOW.date()) == full() != []
        writing.undo_write(store)
        plan = writing.plan_write(store, "markdown", project=hermetic / "proj")
        get_harness(plan.target).apply(plan, store)  # below writing: no callback runs
        with pytest.raises(hookcheck.Changed):
            _summary_findings(store, NOW.date())
        writing.undo_write(store)
        assert _summary_findings(store, NOW.date()) == full() == []

        def broken(_store: Store) -> None:
            raise RuntimeError("callback broke")

        monkeypatch.setattr(writing, "_AFTER_WRITE", [broken])
        plan = writing.plan_write(store, "markdown", project=hermetic / "proj")
        outcome = writing.apply_write(store, plan)
        assert outcome.paths and all(Path(p).exists() for p in outcome.paths)
        assert "callback broke" in caplog.text
        assert store.writes(limit=1)[0].status == "applied"


def _watch_names(db_path: Path) -> list[str]:
    db = sqlite3.connect(db_path)
    try:
        return [r["n"] for r in json.loads(db.execute("SELECT data FROM hook_watch").fetchone()[0])["entries"]]
    finally:
        db.close()


def test_write_and_undo_from_the_cli_leave_the_hook_a_fresh_summary(hermetic: Path) -> None:
    """`memseed write` and `memseed undo` refresh the summary, so the first session after a write
    takes the hook's fast path instead of the full check (the summary is marked stale by the write)."""
    notes = hermetic / "notes"
    notes.mkdir()
    proposal = Proposal(type=MemoryType.FEEDBACK, name="small-prs", description="Prefers small pull requests",
                        body="Keep pull requests small.", subject="feedback:prs",
                        evidence=(Evidence(f"folder:{notes}", "plan.md", NOW, True, "notes"),))
    with Store(load_settings(None).db_path) as store:
        store.save_proposals(store.start_run("scan", ["t"]), [proposal])
        decisions.approve(store, [proposal.id])
    runner = CliRunner()
    wrote = runner.invoke(main, ["write", "--target", "markdown", "--project", str(hermetic / "proj")])
    assert wrote.exit_code == 0, wrote.output
    with Store(load_settings(None).db_path) as store:
        assert _summary_findings(store, NOW.date()) == []  # fresh: no hookcheck.Changed
        assert _watch_names(store.path) == ["small-prs"]
    undone = runner.invoke(main, ["undo"])
    assert undone.exit_code == 0, undone.output
    with Store(load_settings(None).db_path) as store:
        assert _summary_findings(store, NOW.date()) == []
        assert _watch_names(store.path) == []
