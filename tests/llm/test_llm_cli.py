"""What the person sees: the LLM line of the scan summary, --llm-report, --json-summary, `memseed llm check`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bootstrap_app.cli import main

from .conftest import API_KEY, KEY_ENV, FakeLLM
from .servers import MODES

GOOD = {"type": "user", "name": "maya-platform-engineer", "description": "Maya works on platform infrastructure",
        "body": "Maya Okafor works on Platform Infrastructure at Northwind Labs.", "subject": "llm:role",
        "key": "platform infrastructure", "confidence": 0.7, "evidence_ids": ["E1"], "scope": "global"}
INVENTED = {**GOOD, "name": "lives-in-lisbon", "subject": "llm:home", "description": "Maya lives in Lisbon",
            "body": "Maya moved to Lisbon in 2024.", "key": "Lisbon"}
UNCITED = {**GOOD, "name": "likes-tea", "subject": "llm:tea", "description": "Maya likes tea", "body": "Tea.",
           "key": "tea", "evidence_ids": []}


def _env(server: FakeLLM, tmp_path: Path) -> dict[str, str]:
    return {"MEMSEED_HOME": str(tmp_path / "home"), "HOME": str(tmp_path), KEY_ENV: API_KEY,
            "MEMSEED_LLM_BASE_URL": server.url, "MEMSEED_LLM_API_KEY": f"env:{KEY_ENV}",
            "MEMSEED_LLM_MODEL": "test-model"}


def test_scan_says_what_the_llm_returned_kept_and_dropped(llm_server: FakeLLM, tmp_path: Path) -> None:
    llm_server.reply_proposals([GOOD, INVENTED, UNCITED])
    report = tmp_path / "llm-report.jsonl"
    res = CliRunner().invoke(main, ["scan", "--demo", "-q", "--llm", "openai", "--llm-report", str(report)],
                             env=_env(llm_server, tmp_path))
    assert res.exit_code == 0, res.output
    assert ("LLM: 3 facts returned, 1 kept, 2 dropped (1 cite no evidence, 1 not supported by the cited text)"
            in res.stderr)
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    by_name = {r["name"]: r for r in rows}
    assert by_name["maya-platform-engineer"]["status"] == "kept"
    assert by_name["lives-in-lisbon"]["category"] == "not supported by the cited text"
    assert "'Lisbon'" in by_name["lives-in-lisbon"]["reason"]
    assert by_name["likes-tea"]["reason"] == "cites no evidence"


def test_json_summary_carries_the_llm_numbers(llm_server: FakeLLM, tmp_path: Path) -> None:
    llm_server.reply_proposals([GOOD, INVENTED])
    res = CliRunner().invoke(main, ["scan", "--demo", "-q", "--llm", "openai", "--json-summary"],
                             env=_env(llm_server, tmp_path))
    assert res.exit_code == 0, res.output
    summary: dict[str, Any] = json.loads(res.stderr.strip().splitlines()[-1])
    llm = summary["llm"]
    assert (llm["returned"], llm["kept"], llm["dropped"]) == (2, 1, 1)
    assert llm["mode"] == "json_schema" and llm["answer_tokens"] > 0 and llm["digest_chars"] > 0
    assert summary["llm_error"] is None


def test_llm_check_finds_the_format_and_the_next_scan_asks_in_it(llm_server: FakeLLM, tmp_path: Path) -> None:
    llm_server.mode = MODES["llama-cpp-python"]
    llm_server.reply_content('{"ok": true, "word": "pebble"}')
    env = _env(llm_server, tmp_path)
    res = CliRunner().invoke(main, ["llm", "check"], env=env)
    assert res.exit_code == 0, res.output
    assert "refused response formats: json_schema" in res.stdout and "answers in: json_object_schema" in res.stdout
    assert "context: not reported" in res.stdout
    checked = [r.json for r in llm_server.requests]
    assert [(r.get("response_format") or {}).get("type") for r in checked] == ["json_schema", "json_object"]
    assert checked[1]["response_format"]["schema"]["required"] == ["ok", "word"]  # the check's schema, as a grammar
    assert all(len(json.dumps(r["messages"])) < 300 for r in checked)  # a tiny request, nothing personal
    llm_server.reply_proposals([GOOD])
    res = CliRunner().invoke(main, ["scan", "--demo", "-q", "--llm", "openai"], env=env)
    assert res.exit_code == 0, res.output
    sent = llm_server.requests[-1].json["response_format"]  # asked right away in the remembered mode
    assert sent["type"] == "json_object" and set(sent["schema"]["properties"]) == {"proposals"}
    assert len(llm_server.requests) == 3


def test_llm_check_reports_the_context_and_a_broken_endpoint(llm_server: FakeLLM, tmp_path: Path) -> None:
    llm_server.mode, llm_server.context = MODES["llama-server"], 8192
    llm_server.reply_content('{"ok": true, "word": "pebble"}')
    env = _env(llm_server, tmp_path)
    res = CliRunner().invoke(main, ["llm", "check", "--json"], env=env)
    assert res.exit_code == 0, res.output
    found = json.loads(res.stdout)
    assert (found["context"], found["context_from"], found["mode"]) == (8192, "llama.cpp /props", "json_schema")
    llm_server.reply_error(400, "model 'test-model' not found, try pulling it first")
    res = CliRunner().invoke(main, ["llm", "check"], env={**env, "MEMSEED_LLM_MAX_RETRIES": "0"})
    assert res.exit_code == 1
    assert "error: the LLM server answered 400: model 'test-model' not found, try pulling it first" in res.stdout
