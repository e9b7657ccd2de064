"""`write --only/--exclude` and every other id-taking command: an id that names nothing (or a
rejected entry) is an error naming the nearest ids, never a silent "already there"; an entry the
target's safety check refuses is reported while the rest is written (exit status 3, partial)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.review import decisions
from bootstrap_app.store import Store

from .conftest import make_proposals


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output + (str(result.exception) if result.exception else "")


def _saved(store: Store) -> list[str]:
    props = make_proposals()
    store.save_proposals(store.start_run("scan", []), props)
    decisions.approve(store, [props[0].id, props[1].id])
    decisions.reject(store, [props[2].id])
    return [p.id for p in props]


def test_only_with_an_unknown_id_names_the_nearest(store: Store, home: Path) -> None:
    ids = _saved(store)
    typo = ids[0][:6] + ("0" if ids[0][6] != "0" else "1") + ids[0][7]
    code, out = _run("write", "--target", "gemini", "--only", typo)
    assert code == 2, out
    assert f"--only {typo}: no proposal has this id (nearest: {ids[0]}" in out
    assert "already there" not in out and not (home / ".gemini").exists()


def test_only_or_exclude_with_a_rejected_or_waiting_id_says_so(store: Store, home: Path) -> None:
    ids = _saved(store)
    code, out = _run("write", "--target", "gemini", "--only", ids[2], "--exclude", ids[3])
    assert code == 2, out
    assert f"--only {ids[2]}:" in out and "is rejected, not approved" in out
    assert f"--exclude {ids[3]}:" in out and "is waiting for review, not approved" in out
    assert not (home / ".gemini").exists()
    code, out = _run("write", "--target", "gemini", "--only", ids[0])
    assert code == 0, out
    assert "write 1: 1 new entry" in out


def test_approve_and_undo_with_unknown_ids_name_the_nearest(store: Store, home: Path) -> None:
    ids = _saved(store)
    code, out = _run("approve", ids[1][:7] + "x")
    assert code == 2 and "no proposal with id" in out and f"nearest: {ids[1]}" in out, out
    assert _run("write", "--target", "gemini")[0] == 0
    code, out = _run("undo", "7")
    assert code == 2 and "no write with id 7 (nearest applied: 1)" in out, out


def test_a_blocked_entry_is_reported_and_the_rest_written(store: Store, home: Path) -> None:
    """Hermes blocks at load a modifying verb before an agent file's name: that entry is refused
    by the Hermes writer, the other is written, exit status 3; undo restores the folder."""
    props = make_proposals()
    mention = replace(props[1], body="When you write rules, keep CLAUDE.md short.")
    store.save_proposals(store.start_run("scan", []), [props[0], mention])
    decisions.approve(store, [props[0].id, mention.id])
    code, out = _run("write", "--target", "hermes")
    assert code == 3, out
    assert f"({mention.id}): blocked, not written" in out and "agent_config_mod" in out
    assert "partial: 1 entry blocked" in out and "write 1: 1 new entry" in out
    memory = home / ".hermes" / "memories"
    assert "CLAUDE.md" not in "".join(p.read_text("utf-8") for p in memory.glob("*.md"))
    assert _run("undo")[0] == 0
    assert not any(p.read_text("utf-8").strip() for p in memory.glob("*.md"))
