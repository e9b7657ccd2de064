"""The LLM pass against each server's documented behaviour (tests/llm/servers.py), on the real openai client.

For every mode: the pass ends with proposals; the formats the server refuses cost one request
each, once, and are remembered so the next pass asks right away; where the server reports its
context, the digest is sized to fit it with room for the answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMError
from bootstrap_app.extract import prompts
from bootstrap_app.extract.digest import build_digest, llm_request
from bootstrap_app.extract.llm import llm_extract
from bootstrap_app.extract.llm_caps import (
    CHARS_PER_TOKEN,
    FORMAT_ORDER,
    formats_for,
    grammar_items,
    plan,
    recall,
)

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


def _wire(mode: str) -> str:
    """The ``response_format.type`` a memseed mode is sent as."""
    return "json_object" if mode == "json_object_schema" else mode


@pytest.mark.parametrize("name", sorted(MODES))
def test_each_server_gets_an_answer_and_the_format_is_remembered(llm_server: FakeLLM, llm_settings: Settings,
                                                                 name: str) -> None:
    llm_server.mode = MODES[name]
    llm_server.reply_proposals([_fact()])
    llm_server.reply_proposals([_fact()])
    first = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    taken = first.mode
    assert _wire(taken) in MODES[name].formats and [p.name for p in first.proposals] == ["use-uv-not-pip"]
    asked = _formats(llm_server)
    assert asked[-1] == _wire(taken) and all(kind not in MODES[name].formats for kind in asked[:-1])
    assert recall(llm_settings).mode == taken
    before = len(llm_server.requests)
    llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert _formats(llm_server)[before:] == [_wire(taken)]  # the next pass asks in the remembered mode at once
    # a schema inside json_object only where json_schema was refused and the server makes it a grammar
    grammar = taken == "json_object_schema"
    assert grammar == ("json_schema" not in MODES[name].formats and MODES[name].schema_in_json_object)
    assert len(llm_server.grammars) == (2 if grammar else 0)


def test_llama_cpp_python_500_refusal_falls_back_without_retrying(llm_server: FakeLLM,
                                                                  llm_settings: Settings) -> None:
    """Issue 22: a 500 naming the allowed formats is a refusal, not a server failure to retry; the
    next step is json_object with memseed's bounded schema attached, which the server makes a grammar."""
    llm_server.mode = MODES["llama-cpp-python"]
    llm_server.reply_proposals([_fact()])
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert _formats(llm_server) == ["json_schema", "json_object"]
    assert result.mode == "json_object_schema" and recall(llm_settings).mode == "json_object_schema"
    assert any("refused response format json_schema" in note for note in result.notes)
    (schema,) = llm_server.grammars
    sent = llm_server.requests[1].json
    assert schema == prompts.grammar_schema(grammar_items(sent["max_tokens"]))
    facts = schema["properties"]["proposals"]
    assert 1 <= facts["maxItems"] <= 40 and facts["items"]["required"] == prompts.proposal_schema()[
        "properties"]["proposals"]["items"]["required"]
    strings = [p for p in facts["items"]["properties"].values() if p.get("type") == "string" and "enum" not in p]
    assert strings and all(0 < p["maxLength"] <= 400 for p in strings)  # every string bounded: the grammar stops
    # the longest answer the grammar allows fits the answer tokens memseed asked for
    assert facts["maxItems"] * prompts.grammar_fact_chars() / CHARS_PER_TOKEN <= sent["max_tokens"]


def test_a_server_that_refuses_the_schema_key_falls_back_to_plain_json_object(
        llm_server: FakeLLM, llm_settings: Settings) -> None:
    """A server taking json_object whose validation refuses an undocumented ``schema`` key in it."""
    llm_server.mode = replace(MODES["llama-cpp-python"], schema_in_json_object=False)
    llm_server.reply_proposals([_fact()])
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    asked = [r.json.get("response_format") for r in llm_server.requests]
    assert [a["type"] for a in asked] == ["json_schema", "json_object", "json_object"]
    assert "schema" in asked[1] and asked[2] == {"type": "json_object"}
    assert result.mode == "json_object" and recall(llm_settings).mode == "json_object"
    assert [p.name for p in result.proposals] == ["use-uv-not-pip"]


@pytest.mark.parametrize("base", ["", "https://api.openai.com/v1", "https://api.openai.com/v1/"])
def test_openai_proper_is_never_sent_the_schema_key(llm_settings: Settings, base: str) -> None:
    """OpenAI's strict json_schema works; a schema inside json_object is not part of its API."""
    auto = replace(llm_settings, llm_base_url=base)
    assert "json_object_schema" not in formats_for(auto) and plan(auto, probe=False).modes == (
        "json_schema", "json_object", "text")
    forced = replace(auto, llm_response_format="json_object_schema")
    assert formats_for(forced) == ("json_object",)
    digest = build_digest(footprint_items(), footprint_signals(), max_chars=6_000)
    for mode in plan(forced, probe=False).modes:
        assert "schema" not in (llm_request(digest, model="gpt-4o-mini", mode=mode, max_tokens=2048)
                                .get("response_format") or {})
    local = replace(llm_settings, llm_base_url="http://127.0.0.1:8080/v1")
    assert formats_for(local) == FORMAT_ORDER and formats_for(replace(
        local, llm_response_format="json_object_schema")) == ("json_object_schema",)


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


def test_the_grammar_schema_bounds_every_fact_and_is_a_subset_of_the_full_schema() -> None:
    """The longest fact the grammar allows fits grammar_fact_chars and is valid under the full schema,
    so whatever a grammar server lets through, memseed's own validation can accept."""
    import jsonschema

    schema = prompts.grammar_schema(3)
    facts = schema["properties"]["proposals"]
    props = facts["items"]["properties"]
    assert facts["maxItems"] == 3 and set(props) == set(facts["items"]["required"])
    longest = {"type": max(props["type"]["enum"], key=len), "confidence": max(props["confidence"]["enum"],
                                                                                key=lambda v: len(str(v))),
               "evidence_ids": ["E1234"] * props["evidence_ids"]["maxItems"]}
    slug = props["name"]["pattern"]  # the bounded slug: its longest and shortest fit the full schema
    longest["name"] = "-".join(["a" * 12] * 5)
    assert re.fullmatch(slug.strip("^$"), longest["name"]) and not re.fullmatch(slug.strip("^$"), "ab")
    assert len(longest["name"]) == props["name"]["maxLength"]
    assert not re.fullmatch(slug.strip("^$"), longest["name"] + "-a")  # no longer name fits the pattern
    for name, prop in props.items():
        if name not in longest:
            assert prop["type"] == "string" and prop["maxLength"] == prompts.GRAMMAR_LIMITS[name]
            longest[name] = "a" * prop["maxLength"]
    jsonschema.validate({"proposals": [longest] * 3}, schema)
    jsonschema.validate({"proposals": [longest] * 3}, prompts.proposal_schema())
    jsonschema.validate({"proposals": [{**longest, "name": "abc"}]}, prompts.proposal_schema())
    assert len(json.dumps(longest)) <= prompts.grammar_fact_chars()
    # a confidence the grammar cannot produce (SmolLM2 answered 2.3 when only minimum/maximum said so)
    assert all(0 <= v <= 1 for v in props["confidence"]["enum"]) and 2.3 not in props["confidence"]["enum"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"proposals": [{**longest, "confidence": 2.3}]}, schema)
    assert [grammar_items(t) for t in (16, 1024, 2048)] == [1, 2, 4]  # at least one; more with room
