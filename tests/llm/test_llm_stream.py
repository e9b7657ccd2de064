"""Bounded time and visible progress: the answer streams, can be stopped, and the pass has one budget.

The stand-in streams its scripted answer as ``chat.completion.chunk`` events, slowly when told
to, and notes when the client goes away mid-answer (the way a real server learns it can stop
generating).
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

import pytest

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMCancelled, LLMError
from bootstrap_app.extract.llm import llm_extract
from bootstrap_app.extract.llm_transport import LLMProgress

from .conftest import FakeLLM, footprint_items, footprint_signals


def _fact(name: str = "use-uv-not-pip") -> dict[str, Any]:
    return {"type": "feedback", "name": name, "description": "Maya uses uv, not pip, in ledger-api",
            "body": "Use `uv run pytest`, not pip.", "subject": f"tool:{name}", "key": "uv run pytest",
            "confidence": 0.8, "evidence_ids": ["E3"], "scope": "ledger-api"}


def _wait_for_disconnect(server: FakeLLM) -> bool:
    for _ in range(100):
        if server.client_left:
            return True
        time.sleep(0.05)
    return False


def test_the_answer_streams_with_progress_and_max_tokens_is_always_sent(llm_server: FakeLLM,
                                                                        llm_settings: Settings) -> None:
    llm_server.reply_proposals([_fact()])
    seen: list[LLMProgress] = []
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings, progress=seen.append)
    sent = llm_server.requests[0].json
    assert sent["stream"] is True and sent["max_tokens"] == llm_settings.llm_max_tokens
    answering = [p.tokens for p in seen if p.stage == "answering"]
    assert answering == sorted(answering) and answering[-1] == result.reply.completion_tokens > 10
    assert seen[0].stage == "waiting"
    assert [p.name for p in result.proposals] == ["use-uv-not-pip"]


def test_stopping_closes_the_request_mid_answer(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.chunk_delay = 0.02
    llm_server.reply_proposals([_fact(f"fact-{i}") for i in range(20)])
    seen: list[int] = []

    def stop() -> bool:
        return bool(seen) and seen[-1] >= 5

    with pytest.raises(LLMCancelled, match="request was closed"):
        llm_extract(footprint_items(), footprint_signals(), settings=llm_settings,
                    progress=lambda p: seen.append(p.tokens), should_stop=stop)
    assert _wait_for_disconnect(llm_server)
    total = len(json.dumps({"proposals": [_fact(f"fact-{i}") for i in range(20)]})) // 4
    assert llm_server.streamed_chunks < total  # the server stopped well before the end of the answer


def test_ctrl_c_closes_the_request_and_becomes_llm_cancelled(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.chunk_delay = 0.02
    llm_server.reply_proposals([_fact(f"fact-{i}") for i in range(20)])

    def interrupt(progress: LLMProgress) -> None:
        if progress.tokens >= 3:
            raise KeyboardInterrupt

    with pytest.raises(LLMCancelled, match="Ctrl-C"):
        llm_extract(footprint_items(), footprint_signals(), settings=llm_settings, progress=interrupt)
    assert _wait_for_disconnect(llm_server)


def test_the_budget_bounds_a_slowly_generating_model(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.chunk_delay = 0.05
    answer = [_fact(f"fact-{i}") for i in range(20)]
    llm_server.reply_proposals(answer)
    with pytest.raises(LLMError, match="whole time budget") as info:
        llm_extract(footprint_items(), footprint_signals(), settings=replace(llm_settings, llm_budget=0.6))
    assert "llm_budget" in (info.value.hint or "")
    assert _wait_for_disconnect(llm_server)
    assert llm_server.streamed_chunks < len(json.dumps({"proposals": answer})) // 4  # stopped long before the end


def test_a_timeout_is_retried_once_only(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.delay = 0.6
    for _ in range(4):
        llm_server.reply_proposals([_fact()])
    slow = replace(llm_settings, llm_timeout=0.2, llm_max_retries=3)
    with pytest.raises(LLMError, match="did not answer in time"):
        llm_extract(footprint_items(), footprint_signals(), settings=slow)
    assert len(llm_server.requests) == 2


def test_a_cut_off_answer_names_the_limit(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.reply_content('{"proposals": [{"type": "user", "na', finish_reason="length")
    with pytest.raises(LLMError, match="cut off at the answer limit") as info:
        llm_extract(footprint_items(), footprint_signals(), settings=replace(llm_settings, llm_max_tokens=300))
    assert "(300 tokens" in str(info.value) and "llm_max_tokens" in (info.value.hint or "")


def test_an_answer_broken_off_without_a_finish_reason_says_so(llm_server: FakeLLM, llm_settings: Settings) -> None:
    """llama-cpp-python ends a stream with ``[DONE]`` mid-answer when another request waits for the
    model: no finish reason, half a JSON object. The message says the server broke it off."""
    half = json.dumps({"proposals": [_fact("cut-here")]})[:60]
    events = [{"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
               "choices": [{"index": 0, "delta": {"content": half[i:i + 7]}, "finish_reason": None}]}
              for i in range(0, len(half), 7)]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    llm_server.reply_recorded({"status": 200, "content_type": "text/event-stream", "body": body})
    with pytest.raises(LLMError) as info:
        llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    first = str(info.value).splitlines()[0]
    assert first.startswith(f"the LLM server ended its answer early, without a finish reason, after {len(events)} tokens")
    assert "not JSON" in first or "proposal schema" in first


def test_a_reply_in_another_shape_says_what_came_back(llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.reply_content(json.dumps({"name": "x", "type": "user"}))
    with pytest.raises(LLMError) as info:
        llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert "(want {\"proposals\": [...]}, got an object with keys name, type)" in str(info.value)


def test_a_raw_newline_inside_a_string_does_not_lose_the_answer(llm_server: FakeLLM, llm_settings: Settings) -> None:
    """A grammar server's JSON may carry a raw control character inside a string (recorded from
    llama-cpp-python on the demo); the answer is still read, fact by fact."""
    text = json.dumps({"proposals": [_fact()]}).replace("Use `uv run pytest`", "Use\n`uv run pytest`\t")
    assert "\n" in text and "\t" in text
    llm_server.reply_content(text)
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert [p.name for p in result.proposals] == ["use-uv-not-pip"]


def test_a_budget_spent_before_the_first_word_names_the_budget(llm_server: FakeLLM, llm_settings: Settings) -> None:
    """A server still reading the prompt when the pass's budget runs out: the wait was bounded by
    ``llm_budget`` (well below ``llm_timeout``), so that is what the message names, and nothing is retried."""
    llm_server.delay = 1.5
    llm_server.reply_proposals([_fact()])
    llm_server.reply_proposals([_fact()])
    with pytest.raises(LLMError, match="whole time budget") as info:
        llm_extract(footprint_items(), footprint_signals(),
                    settings=replace(llm_settings, llm_budget=0.4, llm_timeout=30))
    assert "llm_budget" in (info.value.hint or "") and "llm_timeout" not in str(info.value)
    assert len(llm_server.requests) == 1
