"""Exchanges recorded from a real llama-cpp-python server, replayed byte for byte to the real openai client.

``benchmarks/llm_record.py`` (``make e2e-llm``) recorded each answer of a real server (status,
content type, body: a JSON error or the SSE stream) to memseed's own requests. Here the
stand-in serves those bytes back, so the pass is checked against what the real server says, not
against what its documentation says it says; the expectations below are read from each
recording (its numbers, its message), not written down from it.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMError
from bootstrap_app.extract.llm import llm_extract
from bootstrap_app.pipeline import scan_demo
from bootstrap_app.store import Store

from .conftest import FakeLLM, footprint_items, footprint_signals

RECORDED = Path(__file__).parent / "recorded"
NAMES = ("json_schema_refusal", "context_length_streamed", "context_length")
GOOD = {"type": "project", "name": "ledger-uses-uv", "description": "ledger-api uses uv, not pip",
        "body": "ledger-api uses uv instead of pip.", "subject": "tool:uv", "key": "uv for ledger-api",
        "confidence": 0.8, "evidence_ids": ["E3"], "scope": "global"}


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))


def _said(fixture: dict[str, Any]) -> str:
    """The server's whole error message in a recorded JSON body."""
    body = json.loads(fixture["body"])
    inner = body.get("error", body)
    return str(inner.get("message") if isinstance(inner, dict) else inner)


def test_the_recordings_are_real_server_answers() -> None:
    for name in NAMES:
        fixture = _fixture(name)
        assert fixture["server"].startswith("llama-cpp-python ") and fixture["model"], name
        if fixture["status"] != 200:
            assert _said(fixture), name
    assert _fixture("context_length_streamed")["body"] == ""  # the streamed overflow: a 200 with no event


def test_the_json_schema_refusal_is_a_500_that_falls_back_in_one_step(llm_server: FakeLLM,
                                                                      llm_settings: Settings) -> None:
    refusal = _fixture("json_schema_refusal")
    assert refusal["status"] == 500 and refusal["request"]["response_format"] == "json_schema"
    llm_server.reply_recorded(refusal)
    llm_server.reply_proposals([GOOD])
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    formats = [(r.json.get("response_format") or {}).get("type") for r in llm_server.requests]
    assert formats == ["json_schema", "json_object"]  # no retry of the 500, one fallback
    assert "schema" in llm_server.requests[1].json["response_format"]  # the schema inside json_object
    assert result.mode == "json_object_schema" and [p.name for p in result.proposals] == ["ledger-uses-uv"]


def test_the_refusal_message_is_the_servers_own_line(llm_server: FakeLLM, llm_settings: Settings) -> None:
    refusal = _fixture("json_schema_refusal")
    llm_server.reply_recorded(refusal)
    with pytest.raises(LLMError) as info:
        llm_extract(footprint_items(), footprint_signals(),
                    settings=replace(llm_settings, llm_response_format="json_schema"))
    lines = str(info.value).splitlines()
    assert len(lines) == 2 and lines[1].strip().startswith("hint:")  # the message, then the hint
    said = lines[0].split("answered 500: ", 1)[1]
    assert said in _said(refusal).splitlines() or said in [x.strip() for x in _said(refusal).splitlines()]
    assert "Input should be" in said and "json_object" in said
    assert 'File "' not in said


def test_a_streamed_overflow_is_asked_again_unstreamed_and_the_digest_shrinks_once(
        llm_server: FakeLLM, llm_settings: Settings) -> None:
    """llama-cpp-python 0.3.36 raises a context overflow inside the stream: a 200 with no event.
    memseed asks the same request once unstreamed, reads the numbers of the real 400, shrinks."""
    streamed, overflow = _fixture("context_length_streamed"), _fixture("context_length")
    said = _said(overflow)
    context = int(re.search(r"maximum context length is (\d+)", said).group(1))  # type: ignore[union-attr]
    prompt = int(re.search(r"\((\d+) in the messages", said).group(1))  # type: ignore[union-attr]
    assert context == overflow["n_ctx"]
    llm_server.reply_recorded(streamed)
    llm_server.reply_recorded(overflow)
    llm_server.reply_proposals([GOOD])
    # the demo request as recorded (llm_max_chars 60000, a context thought to be large), so the
    # server's count in the recording is the count of this very request
    told = replace(llm_settings, llm_context=64_000, llm_max_chars=60_000, llm_response_format="json_object")
    with Store(told.db_path) as store:
        result = scan_demo(told, store=store, llm="openai")
    sent = [r.json for r in llm_server.requests]
    # the demo digest moves a little whenever a rule's wording changes; within 2% the server's token
    # count of the recording still stands for this request (beyond it: re-record, `make e2e-llm`)
    assert sum(len(m["content"]) for m in sent[0]["messages"]) == pytest.approx(
        overflow["request"]["message_chars"], rel=0.02)
    assert [r["stream"] for r in sent] == [True, False, True]
    assert sent[0]["messages"] == sent[1]["messages"]  # the same request, unstreamed
    shrunk = sum(len(m["content"]) for m in sent[2]["messages"])
    ratio = overflow["request"]["message_chars"] / prompt  # this server's characters per token, this request
    assert shrunk / ratio + sent[2]["max_tokens"] <= context  # the shrunk request fits, by the server's own count
    assert result.llm is not None and result.llm_error is None
    assert any(f"the model's context is {context} tokens; memseed sent {prompt} prompt tokens" in note
               for note in result.llm["notes"])
