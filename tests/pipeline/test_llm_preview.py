"""--llm-preview (DESIGN principle 5): the exact request, written out, and nothing sent.

Run against the loopback OpenAI-compatible server of tests/llm: with the preview no request
reaches it; without, the request it records is the preview, field for field.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import Settings
from bootstrap_app.pipeline import scan, scan_demo
from bootstrap_app.store import Store
from tests.llm.conftest import API_KEY, KEY_ENV, FakeLLM

from .synth import PRIYA, TOM, at, mail, write_items

FACT = {"type": "user", "name": "maya-platform-engineer", "description": "Maya works on platform infrastructure",
        "body": "Maya Okafor works on Platform Infrastructure at Northwind Labs.", "subject": "llm:role",
        "key": "platform infrastructure", "confidence": 0.7, "evidence_ids": ["E1"], "scope": "global"}


def test_preview_sends_nothing_and_equals_what_is_sent(llm_server: FakeLLM, llm_settings: Settings) -> None:
    previews: list[dict[str, Any]] = []
    with Store(llm_settings.db_path) as store:
        previewed = scan_demo(llm_settings, store=store, llm="openai", llm_preview=previews.append)
    assert llm_server.requests == []  # nothing left the machine
    assert len(previews) == 1 and previews[0]["messages"][1]["role"] == "user"
    assert all("llm" not in p.flags for p in previewed.proposals) and previewed.proposals
    llm_server.reply_proposals([FACT])
    with Store(llm_settings.db_path) as store:
        sent = scan_demo(llm_settings, store=store, llm="openai")
    assert sent.llm_error is None and len(llm_server.requests) == 1
    assert llm_server.requests[0].json == previews[0]
    assert any("llm" in p.flags for p in sent.proposals)


def test_cli_llm_preview_file_and_stdout(llm_server: FakeLLM, llm_settings: Settings, tmp_path: Path) -> None:
    env = {"MEMSEED_HOME": str(tmp_path / "home"), "HOME": str(tmp_path), KEY_ENV: API_KEY,
           "MEMSEED_LLM_BASE_URL": llm_server.url, "MEMSEED_LLM_API_KEY": f"env:{KEY_ENV}",
           "MEMSEED_LLM_MODEL": "test-model"}
    runner = CliRunner()
    target = tmp_path / "request.json"
    res = runner.invoke(main, ["scan", "--demo", "-q", "--llm", "openai", "--llm-preview", str(target)], env=env)
    assert res.exit_code == 0, res.output
    request = json.loads(target.read_text(encoding="utf-8"))
    assert request["model"] == "test-model" and [m["role"] for m in request["messages"]] == ["system", "user"]
    proposals = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert proposals and all("llm" not in p["flags"] for p in proposals)  # the heuristic ones
    assert "nothing was sent" in res.stderr
    res = runner.invoke(main, ["scan", "--demo", "-q", "--llm", "openai", "--llm-preview", "-"], env=env)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == request  # stdout holds the request alone
    assert llm_server.requests == []


def test_preview_says_so_when_nothing_would_be_sent(llm_server: FakeLLM, llm_settings: Settings,
                                                    tmp_path: Path) -> None:
    # nothing the owner wrote (the owner only receives): llm_extract would send nothing, so the
    # preview is empty
    items = [mail(i, PRIYA, TOM, at(date(2026, 3, 2 + i), 10)) for i in range(5)]
    path = write_items(tmp_path / "others.items.json", items)
    previews: list[dict[str, Any]] = []
    scan([str(path)], settings=llm_settings, owners=[TOM.address], llm="openai",
         llm_preview=previews.append)
    assert previews == [{}] and llm_server.requests == []
