"""``memseed status`` and ``memseed config`` on a fresh and on a used app dir, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings, settings_origins
from bootstrap_app.memory.write import apply_write, plan_write
from bootstrap_app.pipeline import scan_demo
from bootstrap_app.review import decisions
from bootstrap_app.store import Store


def _run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    return result.exit_code, result.output


def test_status_on_a_fresh_app_dir_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    code, out = _run(home, "status")
    assert code == 0, out
    assert "fresh: nothing scanned yet" in out and "waiting for review: nothing" in out
    assert "last run: never" in out and "last write: never" in out
    assert not (home / "state.db").exists()
    code, out = _run(home, "status", "--json")
    data = json.loads(out)
    assert data["fresh"] is True and data["waiting_total"] == 0 and data["sources"] == []
    assert {h["target"] for h in data["hooks"]} == {"claude-code", "codex", "gemini", "hermes"}
    assert not any(h["installed"] for h in data["hooks"])


def test_status_on_a_used_app_dir(tmp_path: Path) -> None:
    home = tmp_path / "used"
    settings = load_settings(home)
    with Store(settings.db_path) as store:
        result = scan_demo(settings, store)
        users = [p for p in result.proposals if str(p.type) == "user"]
        decisions.approve(store, [users[0].id])
        decisions.reject(store, [users[1].id])
        apply_write(store, plan_write(store, "claude-code"))
        waiting = len(store.proposals(status="undecided"))
    code, out = _run(home, "status", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["fresh"] is False
    assert data["waiting_total"] == waiting == len(result.proposals) - 2
    assert data["decided"] == {"approved": 1, "rejected": 1}
    assert data["last_run"]["status"] and data["last_run"]["kind"]
    assert data["last_write"]["target"] == "claude-code" and data["last_write"]["files"]
    assert data["written_entries"] == 1 and data["stale"] == []
    code, out = _run(home, "status")
    assert f"waiting for review: {waiting} (" in out
    assert "last write: claude-code" in out and "written entries: 1; stale: 0" in out


def test_status_reports_an_installed_hook(tmp_path: Path) -> None:
    home = tmp_path / "app"
    code, out = _run(home, "hook", "install", "--target", "claude-code", "--yes")
    assert code == 0, out
    data = json.loads(_run(home, "status", "--json")[1])
    assert [h["target"] for h in data["hooks"] if h["installed"]] == ["claude-code"]
    assert "start-up hook: claude-code" in _run(home, "status")[1]


def test_config_names_where_each_setting_comes_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "app"
    home.mkdir()
    (home / "config.toml").write_text('llm_model = "local-model"\njobs = 1\n', encoding="utf-8")
    monkeypatch.setenv("MEMSEED_JOBS", "2")
    code, out = _run(home, "config", "--json")
    assert code == 0, out
    rows = {row["key"]: row for row in json.loads(out)}
    assert rows["home"]["value"] == str(home) and rows["home"]["origin"] == "flag"
    assert rows["llm_model"] == {**rows["llm_model"], "value": "local-model", "origin": "config.toml",
                                 "where": str(home / "config.toml")}
    assert rows["jobs"]["value"] == 2 and rows["jobs"]["origin"] == "env" and rows["jobs"]["where"] == "$MEMSEED_JOBS"
    assert rows["llm"]["value"] == "off" and rows["llm"]["origin"] == "default"
    assert rows["llm_api_key"]["value"] == "env:OPENAI_API_KEY"  # a reference, never the secret
    code, out = _run(home, "config")
    assert "llm_model" in out and "local-model  <- config.toml" in out and "<- env ($MEMSEED_JOBS)" in out


def test_origins_and_settings_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.toml").write_text('owner = ["a@x.org"]\nllm_timeout = 30\n', encoding="utf-8")
    monkeypatch.setenv("MEMSEED_LLM_MAX_TOKENS", "99")
    settings = load_settings(tmp_path, jobs=3)
    origins = {o.key: o for o in settings_origins(tmp_path, jobs=3)}
    for key, origin in origins.items():
        assert getattr(settings, key) == (Path(origin.value) if key == "home" else origin.value), key
    assert origins["jobs"].origin == "flag" and origins["llm_max_tokens"].origin == "env"
    assert origins["llm_timeout"].origin == "config.toml" and origins["max_text_chars"].origin == "default"
