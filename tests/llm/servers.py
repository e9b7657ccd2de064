"""The documented behaviour of the OpenAI-compatible servers people run, as modes of the stand-in.

Each mode says which ``response_format`` types the server takes, how it refuses the others,
how it reports a prompt longer than its context (or that it does not), and where it reports
its context size. The sources each mode is built from are cited beside it; the llama-cpp-python
mode is also checked against exchanges recorded from the real server (``recorded/``).

Token counts in the stand-in are ``len(text) // 3`` of the messages' text: a fixed, documented
approximation (real tokenizers vary), so tests compute the expected sizes the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["MODES", "ServerMode", "prompt_tokens"]


def prompt_tokens(request: dict[str, Any]) -> int:
    """The stand-in's token count of a request's messages (see the module docstring)."""
    return sum(len(str(m.get("content", ""))) for m in request.get("messages", [])) // 3


Refusal = Callable[[str], tuple[int, Any]]
Overflow = Callable[[int, int, int], tuple[int, Any]]


@dataclass(frozen=True)
class ServerMode:
    """One server's documented behaviour (see the citations in :data:`MODES`)."""

    name: str
    formats: frozenset[str]
    """``response_format.type`` values taken (``text`` = no response_format at all, always taken)."""
    refuse: Refusal
    """(status, body) for a response format it does not take."""
    overflow: Overflow | None
    """(status, body) for a prompt over the context, from (context, prompt tokens, max_tokens);
    None: the server silently truncates the prompt (Ollama)."""
    probes: dict[str, Callable[[int, str], Any]] = field(default_factory=dict)
    """"METHOD path" -> body reporting the context, from (context, model)."""
    overflow_streams_nothing: bool = False
    """A streamed request over the context gets a 200 event stream with no event in it (the
    overflow is raised inside the stream); only an unstreamed one gets the error."""
    schema_in_json_object: bool = False
    """Takes ``{"type": "json_object", "schema": {...}}`` and makes the schema a grammar; a server
    without it refuses the extra key the way its request validation does."""


def _openai_error(message: str, *, param: str | None = None, code: str | None = None,
                  kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _openai_overflow(context: int, prompt: int, answer: int) -> tuple[int, Any]:
    # OpenAI API error reference (400 invalid_request_error, code context_length_exceeded)
    return 400, _openai_error(f"This model's maximum context length is {context} tokens. However, your messages "
                              f"resulted in {prompt} tokens. Please reduce the length of the messages.",
                              param="messages", code="context_length_exceeded")


_REFUSAL = Path(__file__).parent / "recorded" / "json_schema_refusal.json"


def _llama_cpp_python_refusal(kind: str) -> tuple[int, Any]:
    # llama-cpp-python 0.3.36: response_format.type is Literal["text", "json_object"], validated in
    # the route, so its error handler answers 500 with the validation error and where it was
    # raised: the real server's own body (recorded/json_schema_refusal.json), naming ``kind``
    recorded = json.loads(_REFUSAL.read_text(encoding="utf-8"))
    body = json.loads(recorded["body"].replace("'input': 'json_schema'", f"'input': '{kind}'"))
    return int(recorded["status"]), body


def _llama_cpp_python_overflow(context: int, prompt: int, answer: int) -> tuple[int, Any]:
    # llama_cpp/server/errors.py: "Requested tokens (N) exceed context window of M" becomes an
    # OpenAI-shaped 400 context_length_exceeded naming the prompt and completion tokens
    return 400, _openai_error(f"This model's maximum context length is {context} tokens. However, you requested "
                              f"{prompt + answer} tokens ({prompt} in the messages, {answer} in the completion). "
                              "Please reduce the length of the messages or completion.",
                              param="messages", code="context_length_exceeded")


def _llama_server_overflow(context: int, prompt: int, answer: int) -> tuple[int, Any]:
    # llama.cpp server (ggml-org/llama.cpp PR 15780): error type exceed_context_size_error with
    # n_prompt_tokens and n_ctx; status 400 in current releases (500 before)
    return 400, {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                           "type": "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": context}}


def _vllm_overflow(context: int, prompt: int, answer: int) -> tuple[int, Any]:
    # vLLM OpenAI-compatible server: ErrorResponse at the top level (object "error", code 400)
    return 400, {"object": "error", "message": f"This model's maximum context length is {context} tokens. However, "
                 f"you requested {prompt + answer} tokens ({prompt} in the messages, {answer} in the completion). "
                 "Please reduce the length of the messages or completion.",
                 "type": "BadRequestError", "param": None, "code": 400}


def _vllm_refusal(kind: str) -> tuple[int, Any]:
    return 400, {"object": "error", "message": f"response_format type {kind!r} is not supported",
                 "type": "BadRequestError", "param": None, "code": 400}


def _lmstudio_refusal(kind: str) -> tuple[int, Any]:
    # LM Studio 0.3.x (lmstudio-bug-tracker issues 169, 189, 307): a bare string error, 400
    return 400, {"error": "'response_format.type' must be 'json_schema' or 'text'"}


def _ollama_refusal(kind: str) -> tuple[int, Any]:
    return 400, _openai_error(f"invalid response_format type {kind!r}")


MODES: dict[str, ServerMode] = {
    # OpenAI API reference, chat/create response_format: text, json_object, json_schema
    "openai": ServerMode("openai", frozenset({"text", "json_object", "json_schema"}),
                         lambda kind: (400, _openai_error(f"Invalid value: '{kind}'", param="response_format")),
                         _openai_overflow),
    # llama-cpp-python server (docs/server.md "JSON mode"; issue 22's recorded run): text and
    # json_object; no context endpoint
    # a streamed overflow is a 200 with an empty event stream (recorded: context_length_streamed)
    # and the schema inside json_object made a grammar (llama_cpp/server/types.py ResponseFormat:
    # type + optional schema; recorded: junk_answer, demo_grammar)
    "llama-cpp-python": ServerMode("llama-cpp-python", frozenset({"text", "json_object"}),
                                   _llama_cpp_python_refusal, _llama_cpp_python_overflow,
                                   overflow_streams_nothing=True, schema_in_json_object=True),
    # llama.cpp server README: response_format json_object / json_schema (grammar-constrained);
    # GET /props -> default_generation_settings.n_ctx
    "llama-server": ServerMode("llama-server", frozenset({"text", "json_object", "json_schema"}),
                               lambda kind: (400, {"error": {"code": 400, "message": f"unsupported response_format "
                                                             f"type {kind}", "type": "invalid_request_error"}}),
                               _llama_server_overflow,
                               {"GET /props": lambda ctx, model: {"default_generation_settings": {"n_ctx": ctx}}},
                               schema_in_json_object=True),
    # Ollama docs/openai.md: "JSON mode" (json_object) and, from v0.5.0, json_schema structured
    # outputs; a prompt over num_ctx is truncated, not refused; POST /api/show reports
    # model_info.<arch>.context_length (and num_ctx in "parameters" when a Modelfile sets it)
    "ollama": ServerMode("ollama", frozenset({"text", "json_object", "json_schema"}), _ollama_refusal, None,
                         {"POST /api/show": lambda ctx, model: {"parameters": f"num_ctx {ctx}",
                                                                "model_info": {"llama.context_length": ctx * 4}}}),
    # vLLM structured outputs docs (response_format json_object / json_schema); /v1/models cards
    # carry max_model_len
    "vllm": ServerMode("vllm", frozenset({"text", "json_object", "json_schema"}), _vllm_refusal, _vllm_overflow,
                       {"GET /v1/models": lambda ctx, model: {"object": "list", "data": [
                           {"id": model, "object": "model", "owned_by": "vllm", "max_model_len": ctx}]}}),
    # LM Studio docs "Structured Output": json_schema; json_object refused (bug tracker 189);
    # REST API GET /api/v0/models/{model} -> loaded_context_length, max_context_length
    "lmstudio": ServerMode("lmstudio", frozenset({"text", "json_schema"}), _lmstudio_refusal, _openai_overflow,
                           {"GET /api/v0/models/test-model": lambda ctx, model: {
                               "id": model, "state": "loaded", "max_context_length": ctx * 4,
                               "loaded_context_length": ctx}}),
}
