"""The LLM pass against each server's documented behaviour (tests/llm/servers.py), on the real openai client.

For every mode: the pass ends with proposals; the formats the server refuses cost one request
each, once, and are remembered so the next pass asks right away; where the server reports its
context, the digest is sized to fit it with room for the answer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMError
from bootstrap_app.extract.digest import build_digest
from bootstrap_app.extract.llm import llm_extract
from bootstrap_app.extract.llm_caps import recall

from .conftest import FakeLLM, footprint_items, footprint_signals
from .servers import MODES, prompt_tokens


def _fact() -> dict[str, Any]:
    return {"type": "feedback", "name": "use-uv-not-pip", "description": "Maya uses uv, not pip, in ledger-api",
            "body": "Use `uv run pytest`, not pip.", "subject": "tool:uv", "key": "uv run pytest",
            "confidence": 0.8, "evidence_ids": ["E3"], "scope": "ledger-api"}


def _formats_of(request: dict[str, Any]) -> str:
    return str((request.get("response_format") or {}).get("type", "text"))


def _formats(server: FakeLLM) -> list[str]:
    return [_formats_of(r.json) for r in server.requests]


@pytest.mark.parametrize("name", sorted(MODES))
def test_each_server_gets_an_answer_and_the_format_is_remembered(llm_server: FakeLLM, llm_settings: Settings,
                                                                 name: str) -> None:
    llm_server.mode = MODES[name]
    llm_server.reply_proposals([_fact()])
    llm_server.reply_proposals([_fact()])
    first = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    taken = first.mode
    assert taken in MODES[name].formats and [p.name for p in first.proposals] == ["use-uv-not-pip"]
    asked = _formats(llm_server)
    assert asked[-1] == taken and all(kind not in MODES[name].formats for kind in asked[:-1])
    assert recall(llm_settings).mode == taken
    before = len(llm_server.requests)
    llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert _formats(llm_server)[before:] == [taken]  # the next pass asks in the remembered mode at once


def test_llama_cpp_python_500_refusal_falls_back_without_retrying(llm_server: FakeLLM,
                                                                  llm_settings: Settings) -> None:
    """Issue 22: a 500 naming the allowed formats is a refusal, not a server failure to retry."""
    llm_server.mode = MODES["llama-cpp-python"]
    llm_server.reply_proposals([_fact()])
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert _formats(llm_server) == ["json_schema", "json_object"]
    assert result.mode == "json_object"
    assert any("refused response format json_schema" in note for note in result.notes)


def test_lmstudio_refuses_json_object_so_a_forced_json_object_fails_with_its_message(
        llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.mode = MODES["lmstudio"]
    forced = replace(llm_settings, llm_response_format="json_object")
    with pytest.raises(LLMError) as info:
        llm_extract(footprint_items(), footprint_signals(), settings=forced)
    assert "'response_format.type' must be 'json_schema' or 'text'" in str(info.value)
    assert len(llm_server.requests) == 1
    assert len(str(info.value).splitlines()) == 2  # the server's message on one line, then the hint


def test_forced_text_mode_sends_no_response_format_and_reads_json_out_of_prose(
        llm_server: FakeLLM, llm_settings: Settings) -> None:
    llm_server.reply_content("Here is what I found:\n" + json.dumps({"proposals": [_fact()]}) + "\nHope it helps!")
    result = llm_extract(footprint_items(), footprint_signals(),
                         settings=replace(llm_settings, llm_response_format="text"))
    assert "response_format" not in llm_server.requests[0].json
    assert result.mode == "text" and [p.name for p in result.proposals] == ["use-uv-not-pip"]


@pytest.mark.parametrize("name", ["llama-server", "vllm", "lmstudio", "ollama"])
def test_the_reported_context_sizes_the_digest(llm_server: FakeLLM, llm_settings: Settings, name: str) -> None:
    llm_server.mode, llm_server.context = MODES[name], 5000
    llm_server.reply_proposals([_fact()])
    settings = replace(llm_settings, llm_max_chars=200_000)
    items = footprint_items() * 3
    result = llm_extract(items, footprint_signals(), settings=settings)
    sent = llm_server.requests[-1].json
    assert result.context == 5000 and result.context_from
    assert sent["max_tokens"] <= 5000 // 4  # a quarter of the context at most, so the model can read
    assert prompt_tokens(sent) + sent["max_tokens"] <= 5000
    unsized = build_digest(items, footprint_signals(), max_chars=200_000)
    assert result.digest is not None and len(result.digest.text) < len(unsized.text)  # it was cut to fit
    assert not llm_server.truncated  # Ollama would have cut the prompt silently


@pytest.mark.parametrize("name", ["openai", "llama-cpp-python", "llama-server", "vllm"])
def test_a_context_error_shrinks_once_and_says_the_numbers(llm_server: FakeLLM, llm_settings: Settings,
                                                           name: str) -> None:
    """A server that does not report its context, told (wrongly) it is larger: the first request
    overflows, the error's numbers size a smaller digest, and the second fits."""
    llm_server.mode, llm_server.context = MODES[name], 4000
    llm_server.reply_proposals([_fact()])
    told = replace(llm_settings, llm_context=64_000, llm_max_tokens=800)
    result = llm_extract(footprint_items() * 3, footprint_signals(), settings=told)
    taken = [r.json for r in llm_server.requests if _formats_of(r.json) in MODES[name].formats]
    assert len(llm_server.requests) - len(taken) <= 1  # a refused format is asked once at most
    unstreamed = [r for r in taken if not r["stream"]]  # llama-cpp-python: the overflow is told only unstreamed
    assert len(unstreamed) == (1 if MODES[name].overflow_streams_nothing else 0)
    first, second = (r for r in taken if r["stream"])
    assert prompt_tokens(second) + second["max_tokens"] <= 4000 < prompt_tokens(first) + first["max_tokens"]
    assert [p.name for p in result.proposals] == ["use-uv-not-pip"]
    assert any("retried once with a" in note for note in result.notes)


def test_a_context_that_cannot_hold_the_prompt_says_what_to_change(llm_server: FakeLLM,
                                                                   llm_settings: Settings) -> None:
    llm_server.mode, llm_server.context = MODES["llama-cpp-python"], 1400
    with pytest.raises(LLMError) as info:
        llm_extract(footprint_items(), footprint_signals(), settings=replace(llm_settings, llm_context=64_000))
    text = str(info.value)
    assert f"the model's context is 1400 tokens; memseed sent {prompt_tokens(llm_server.requests[-1].json)} " \
           "prompt tokens" in text
    assert "llm_max_chars" in (info.value.hint or "") and "context" in (info.value.hint or "")
    assert len(llm_server.requests) <= 3  # refused json_schema, the empty stream, the same unstreamed


def test_ollama_without_num_ctx_is_sized_to_its_default_context(llm_server: FakeLLM,
                                                                llm_settings: Settings) -> None:
    """Ollama reports the trained context (here 32768) but runs with 4096 unless num_ctx is set,
    truncating silently beyond it: the digest must fit 4096, not 32768."""
    llm_server.get_replies["/api/show"] = (200, {"parameters": "stop <|im_end|>",
                                                 "model_info": {"llama.context_length": 32768}})
    llm_server.reply_proposals([_fact()])
    result = llm_extract(footprint_items() * 3, footprint_signals(),
                         settings=replace(llm_settings, llm_max_chars=200_000))
    sent = llm_server.requests[-1].json
    assert result.context == 4096
    assert prompt_tokens(sent) + sent["max_tokens"] <= 4096
