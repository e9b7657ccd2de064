"""`memseed hook`: the start-up hook is added and removed with a backup, and its check never fails."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.memory import hooks as agenthooks
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal


def _waiting(n: int) -> None:
    with Store(load_settings(None).db_path) as store:
        store.save_proposals(store.start_run("scan", ["t"]), [
            Proposal(type=MemoryType.FEEDBACK, name=f"fact-{i}", description=f"Fact {i}", body=f"Fact number {i}.",
                     subject=f"feedback:{i}", evidence=(Evidence("folder:/x", "a.md", None, True, "x"),))
            for i in range(n)])


def _installed(hermetic: Path, target: str = "claude-code") -> list[str]:
    """The hook command `memseed hook install` writes, installed for real, as an argv."""
    result = CliRunner().invoke(main, ["hook", "install", "--target", target, "--yes"])
    assert result.exit_code == 0, result.output
    path = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}
    data = json.loads((hermetic / path[target]).read_text())
    return shlex.split(data["hooks"]["SessionStart"][0]["hooks"][0]["command"])


def _session_start(argv: list[str], stdin: str = "", importtime: bool = False) -> subprocess.CompletedProcess[str]:
    """What the agent does at session start: run the command (its own process, the test's HOME)."""
    if importtime:
        argv = [argv[0], "-X", "importtime", *argv[1:]]
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": ""})


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
    argv = shlex.split(command)
    assert argv[1:3] == ["-I", "-S"] and argv[3].endswith("bootstrap_app/hookcheck.py")  # a script, not the package
    assert argv[4:] == ["--home", str(hermetic / ".memseed"), "--format", "text"]
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
    assert group["hooks"][0]["type"] == "command" and group["hooks"][0]["command"].endswith(f"--format {target}")
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
    text, codex = _installed(hermetic), _installed(hermetic, "codex")
    missing = _session_start(text)
    assert (missing.returncode, missing.stdout) == (0, "") and not (hermetic / ".memseed" / "state.db").exists()
    assert runner.invoke(main, ["hook", "run"]).output == ""  # the older command line says the same
    _waiting(3)
    said = "memseed: 3 proposals wait for review — `memseed review`\n"
    first = _session_start(text)  # no summary yet: the full check answers, and leaves one
    assert (first.returncode, first.stdout) == (0, said)
    again = _session_start(text, importtime=True)  # the summary answers: the package is never imported
    assert again.stdout == said and "bootstrap_app" not in again.stderr and "sqlite3" in again.stderr
    assert not any(line.endswith("| site") for line in again.stderr.splitlines())  # -S: site is not loaded
    assert runner.invoke(main, ["hook", "run"]).output == said
    answer = json.loads(_session_start(codex).stdout)
    assert answer["hookSpecificOutput"]["additionalContext"] == said.strip()
    assert json.loads(runner.invoke(main, ["hook", "run", "--format", "codex"]).output) == answer
    later = runner.invoke(main, ["hook", "run", "--format", "hermes"], input=json.dumps({"extra": {"is_first_turn": False}}))
    assert later.output == ""
    hermes_argv = [*text[:-1], "hermes"]
    assert json.loads(_session_start(hermes_argv).stdout) == {"context": said.strip()}
    assert _session_start(hermes_argv, json.dumps({"extra": {"is_first_turn": False}})).stdout == ""
    _waiting(4)  # a new proposal is counted at once (the count is read, not summarised)
    assert _session_start(text).stdout == said.replace("3 proposals", "4 proposals")


def test_run_is_silent_on_a_locked_or_corrupt_store(hermetic: Path) -> None:
    argv = _installed(hermetic)
    _waiting(1)
    db = load_settings(None).db_path
    said = "memseed: 1 proposal waits for review — `memseed review`\n"
    for warm in (False, True):  # without a summary (the full check) and with one (the script alone)
        locker = sqlite3.connect(db)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            locked = _session_start(argv)
            locked_cli = CliRunner().invoke(main, ["hook", "run"])
        finally:
            locker.rollback()
            locker.close()
        # WAL readers are not blocked by a writer's lock: the check answers (or, if it could not, says nothing)
        assert locked.returncode == 0 and locked.stdout in ("", said) and locked_cli.output in ("", said)
        assert _session_start(argv).stdout == said  # the summary is left behind here, if not before
        if not warm:
            assert sqlite3.connect(db).execute("SELECT stale FROM hook_watch").fetchone() == (0,)
    db.write_bytes(b"this is not a database" * 100)
    corrupt = _session_start(argv)
    assert (corrupt.returncode, corrupt.stdout, corrupt.stderr) == (0, "", "")
    assert CliRunner().invoke(main, ["hook", "run"]).output == ""


def test_an_older_hook_command_is_upgraded_and_still_removed(hermetic: Path) -> None:
    """Hooks installed before the script (`memseed --home H hook run --format F`) keep working
    (the command still exists), and `hook install` turns them into the script's command."""
    home = hermetic / ".memseed"
    old = f"memseed --home {home} hook run --format text"
    settings = hermetic / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [
        {"matcher": "startup", "hooks": [{"type": "command", "command": old, "timeout": 10}]}]}}))
    change = agenthooks.plan_install("claude-code", home)
    assert change.after is not None and "upgraded" in change.note
    CliRunner().invoke(main, ["hook", "install", "--target", "claude-code", "--yes"])
    groups = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert [h["command"] for g in groups for h in g["hooks"]] == [agenthooks.command_for("claude-code", home)]
    assert agenthooks.plan_install("claude-code", home).note == "already installed"
    config = hermetic / ".hermes" / "config.yaml"
    config.parent.mkdir()
    config.write_text(f"model: x\nhooks:\n  pre_llm_call:\n    - command: {json.dumps(old)}\n      timeout: 10\n")
    CliRunner().invoke(main, ["hook", "install", "--target", "hermes", "--yes"])
    upgraded = config.read_text()
    assert old not in upgraded and json.dumps(agenthooks.command_for("hermes", home)) in upgraded
    CliRunner().invoke(main, ["hook", "remove", "--target", "hermes", "--yes"])
    CliRunner().invoke(main, ["hook", "remove", "--target", "claude-code", "--yes"])
    assert config.read_text() == "model: x\n" and json.loads(settings.read_text()) == {}
