"""Symlink refusal, name containment, rollback of a failed write, undo refusing drifted files."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from bootstrap_app.errors import ConflictError, UndoError, UnsafePath, WriteError
from bootstrap_app.fsutil import atomic_write, check_name, contained, read_bytes
from bootstrap_app.harnesses import get_harness
from bootstrap_app.harnesses.base import WriteOptions
from bootstrap_app.memory import write as writing
from bootstrap_app.store import Store

from .conftest import make_proposals, snapshot


def test_symlinked_root_is_refused(approved: Store, home: Path) -> None:
    real = home / "elsewhere"
    real.mkdir()
    os.symlink(real, home / ".hermes")
    with pytest.raises(UnsafePath):
        writing.plan_write(approved, "hermes")
    assert list(real.iterdir()) == []


def test_symlinked_parent_inside_home_is_refused(approved: Store, home: Path) -> None:
    real = home / "real-claude"
    real.mkdir()
    (home / "links").mkdir()
    os.symlink(real, home / "links" / "claude")
    with pytest.raises(UnsafePath):
        get_harness("claude-code").plan(make_proposals(), WriteOptions(root=home / "links" / "claude" / "x"))


def test_symlinked_target_file_is_refused(approved: Store, home: Path) -> None:
    secret = home / "secret.txt"
    secret.write_text("do not touch\n")
    gem = home / ".gemini"
    gem.mkdir()
    os.symlink(secret, gem / "GEMINI.md")
    with pytest.raises(UnsafePath):
        writing.plan_write(approved, "gemini")
    mem = home / "md"
    mem.mkdir()
    os.symlink(secret, mem / "ledger-api.md")
    with pytest.raises(UnsafePath):
        writing.plan_write(approved, "markdown", root=mem)
    assert secret.read_text() == "do not touch\n"


def test_symlink_swapped_in_after_plan_is_not_followed(approved: Store, home: Path) -> None:
    plan = writing.plan_write(approved, "gemini")
    gem = home / ".gemini"
    gem.mkdir()
    target = home / "victim.txt"
    target.write_text("v")
    os.symlink(target, gem / "GEMINI.md")
    with pytest.raises(UnsafePath):
        writing.apply_write(approved, plan)
    assert target.read_text() == "v"


@pytest.mark.parametrize("bad", ["../../etc/passwd", "..", "a/b", ".hidden", "-x", "CON.md", ""])
def test_unsafe_names_are_refused(bad: str) -> None:
    with pytest.raises(UnsafePath):
        check_name(bad)


def test_names_from_proposals_stay_inside_the_folder(home: Path) -> None:
    evil = replace(make_proposals()[2], name="../../../.ssh/authorized_keys")
    assert evil.name == "ssh-authorized-keys"
    plan = get_harness("markdown").plan([evil], WriteOptions(root=home / "md"))
    for change in plan.files:
        assert change.path.resolve().is_relative_to((home / "md").resolve())
    with pytest.raises(UnsafePath):
        contained(home / "md", home / "md" / ".." / "x.md")


def test_failed_write_rolls_back_every_file(approved: Store, home: Path, project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    folder = get_harness("claude-code").memory_root(project)
    from bootstrap_app.review import decisions

    for p in make_proposals()[1:]:
        decisions.edit(approved, p.id, body=p.body + "\n\nEdited later.")
    extra = replace(make_proposals()[2], name="deploy-console", subject="project:deploy-console")
    approved.save_proposals(approved.start_run("scan", []), [extra])
    decisions.approve(approved, [extra.id])
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert sum(1 for f in plan.files if f.before is not None) >= 3
    before = snapshot(home / ".claude")
    real_replace = os.replace
    calls = {"n": 0}

    def flaky(src: str, dst: str) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(WriteError) as err:
        writing.apply_write(approved, plan)
    monkeypatch.setattr(os, "replace", real_replace)
    assert "put back" in str(err.value)
    after = snapshot(home / ".claude")
    assert {p: h for p, (h, _) in after.items()} == {p: h for p, (h, _) in before.items()}
    assert not (folder / "deploy-console.md").exists()
    assert not list(folder.glob(".memseed-*")), "no temp files left behind"
    assert approved.writes(1)[0].status == "failed"


def test_file_changed_after_plan_is_a_conflict(approved: Store, home: Path) -> None:
    gem = home / ".gemini"
    gem.mkdir()
    (gem / "GEMINI.md").write_text("# mine\n")
    plan = writing.plan_write(approved, "gemini")
    (gem / "GEMINI.md").write_text("# mine, edited\n")
    with pytest.raises(ConflictError):
        writing.apply_write(approved, plan)
    assert (gem / "GEMINI.md").read_text() == "# mine, edited\n"


def test_undo_refuses_when_files_changed_since(approved: Store, home: Path) -> None:
    gem = home / ".gemini"
    gem.mkdir()
    (gem / "GEMINI.md").write_text("# mine\n")
    outcome = writing.apply_write(approved, writing.plan_write(approved, "gemini"))
    with (gem / "GEMINI.md").open("a") as handle:
        handle.write("- added by Gemini later\n")
    with pytest.raises(UndoError) as err:
        writing.undo_write(approved, outcome.write_id)
    assert "--force" in str(err.value)
    writing.undo_write(approved, outcome.write_id, force=True)
    assert (gem / "GEMINI.md").read_text() == "# mine\n"
    with pytest.raises(UndoError):
        writing.undo_write(approved, outcome.write_id)


def test_atomic_write_keeps_mode_and_refuses_links(home: Path) -> None:
    target = home / "f.md"
    target.write_text("a")
    os.chmod(target, 0o640)
    atomic_write(target, b"b")
    assert target.read_bytes() == b"b" and (target.stat().st_mode & 0o777) == 0o640
    os.symlink(target, home / "l.md")
    with pytest.raises(UnsafePath):
        atomic_write(home / "l.md", b"c")
    with pytest.raises(UnsafePath):
        read_bytes(home / "l.md")
    with pytest.raises(WriteError):
        atomic_write(target, b"x", create_new=True)
    assert target.read_bytes() == b"b"


@pytest.mark.parametrize(("target", "relative", "options"), [
    ("codex", ".codex/AGENTS.md", {}),
    ("claude-code", ".claude/CLAUDE.md", {"user_facts": "claude-md"}),
    ("gemini", ".gemini/GEMINI.md", {}),
    ("hermes", ".hermes/memories/MEMORY.md", {}),
])
def test_a_file_that_is_not_utf8_is_refused_with_a_hint(home: Path, target: str, relative: str,
                                                          options: dict[str, str]) -> None:
    path = home / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"caf\xe9 notes in latin-1\n")
    before = snapshot(home)
    with pytest.raises(WriteError, match="not UTF-8") as caught:
        get_harness(target).plan(make_proposals(), WriteOptions(**options))  # type: ignore[arg-type]
    assert caught.value.hint
    assert snapshot(home) == before


def test_undo_is_marked_undone_while_it_still_holds_the_write_lock(approved: Store, home: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Between putting the files back and forgetting what the write added, no other write may plan:
    it would see memseed's entries gone from the files and take them for ones the person removed."""
    outcome = writing.apply_write(approved, writing.plan_write(approved, "gemini"))
    lock = FileLock(str(Path(approved.path).with_name("write.lock")), timeout=0)
    real = approved.finish_write
    held: list[bool] = []

    def finish(write_id: int, status: str, *args: object, **kwargs: object) -> None:
        try:
            with lock:
                held.append(False)
        except Timeout:
            held.append(True)
        real(write_id, status, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(approved, "finish_write", finish)
    writing.undo_write(approved, outcome.write_id)
    assert held == [True]
