"""`memseed hook`: the start-up hook is added and removed with a backup, and its check never fails."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app import agenthooks
from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal


def _waiting(n: int) -> None:
    with Store(load_settings(None).db_path) as store:
        store.save_proposals(store.start_run("scan", ["t"]), [
            Proposal(type=MemoryType.FEEDBACK, name=f"fact-{i}", description=f"Fact {i}", body=f"Fact number {i}.",
                     subject=f"feedback:{i}", evidence=(Evidence("folder:/x", "a.md", None, True, "x"),))
            for i in range(n)])


def test_install_then_remove_claude_code_keeps_other_settings(hermetic: Path) -> None:
    settings = hermetic / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = json.dumps({"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}})
    settings.write_text(original)
    runner = CliRunner()
    refused = runner.invoke(main, ["hook", "install", "--target", "claude-code"], input="n\n")
    assert refused.exit_code == 0 and settings.read_text() == original  # asked, declined: untouched
    done = runner.invoke(main, ["hook", "install", "--target", "claude-code"], input="y\n")
    assert done.exit_code == 0, done.output
    data = json.loads(settings.read_text())
    assert data["model"] == "opus" and data["hooks"]["Stop"]
    command = data["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert "hook run --format text" in command and str(hermetic / ".memseed") in command
    backups = list((hermetic / ".memseed" / "backups").glob("*.bak"))
    assert [b.read_text() for b in backups] == [original]
    again = runner.invoke(main, ["hook", "install", "--target", "claude-code", "--yes"])
    assert "already installed" in again.output and len(json.loads(settings.read_text())["hooks"]["SessionStart"]) == 1
    runner.invoke(main, ["hook", "remove", "--target", "claude-code", "--yes"])
    assert json.loads(settings.read_text()) == json.loads(original)


@pytest.mark.parametrize(("target", "path", "event"), [("codex", ".codex/hooks.json", "SessionStart"),
                                                        ("gemini", ".gemini/settings.json", "SessionStart")])
def test_install_codex_and_gemini(hermetic: Path, target: str, path: str, event: str) -> None:
    result = CliRunner().invoke(main, ["hook", "install", "--target", target, "--yes"])
    assert result.exit_code == 0, result.output
    group = json.loads((hermetic / path).read_text())["hooks"][event][0]
    assert group["hooks"][0]["type"] == "command" and f"--format {target}" in group["hooks"][0]["command"]
    CliRunner().invoke(main, ["hook", "remove", "--target", target, "--yes"])
    assert json.loads((hermetic / path).read_text()) == {}


def test_hermes_block_appended_and_removed_byte_for_byte(hermetic: Path) -> None:
    config = hermetic / ".hermes" / "config.yaml"
    config.parent.mkdir()
    config.write_text("# my settings\nmodel: x  # keep this comment\n")
    before = config.read_bytes()
    CliRunner().invoke(main, ["hook", "install", "--target", "hermes", "--yes"])
    assert "pre_llm_call:" in config.read_text() and config.read_text().startswith("# my settings")
    CliRunner().invoke(main, ["hook", "remove", "--target", "hermes", "--yes"])
    assert config.read_bytes() == before
    config.write_text("hooks:\n  post_tool_call: []\n")
    change = agenthooks.plan_install("hermes", hermetic / ".memseed")
    assert change.after is None and "add under it" in change.note


def test_broken_settings_are_refused(hermetic: Path) -> None:
    settings = hermetic / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{not json")
    result = CliRunner().invoke(main, ["hook", "install", "--target", "claude-code", "--yes"])
    assert result.exit_code == 2 and "not valid JSON" in result.output and settings.read_text() == "{not json"


def test_run_prints_one_line_only_when_something_waits(hermetic: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["hook", "run"])
    assert missing.exit_code == 0 and missing.output == "" and not (hermetic / ".memseed" / "state.db").exists()
    _waiting(3)
    line = runner.invoke(main, ["hook", "run"])
    assert line.exit_code == 0 and line.output == "memseed: 3 proposals wait for review — `memseed review`\n"
    codex = json.loads(runner.invoke(main, ["hook", "run", "--format", "codex"]).output)
    assert codex["hookSpecificOutput"]["additionalContext"].startswith("memseed: 3 proposals")
    later = runner.invoke(main, ["hook", "run", "--format", "hermes"], input=json.dumps({"extra": {"is_first_turn": False}}))
    assert later.output == ""


def test_run_is_silent_on_a_locked_or_corrupt_store(hermetic: Path) -> None:
    _waiting(1)
    db = load_settings(None).db_path
    locker = sqlite3.connect(db)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        locked = CliRunner().invoke(main, ["hook", "run"])
    finally:
        locker.rollback()
        locker.close()
    # WAL readers are not blocked by a writer's lock: the check answers (or, if it could not, says nothing)
    assert locked.exit_code == 0 and locked.output in ("", "memseed: 1 proposal waits for review — `memseed review`\n")
    db.write_bytes(b"this is not a database" * 100)
    corrupt = CliRunner().invoke(main, ["hook", "run"])
    assert corrupt.exit_code == 0 and corrupt.output == ""
