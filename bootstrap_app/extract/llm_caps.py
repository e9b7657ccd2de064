"""What an LLM endpoint supports (response format, context size), found out once and remembered.

Why remembered: the servers people run locally differ. OpenAI and vLLM take a strict
``json_schema`` response format; llama-cpp-python refuses it (with an HTTP 500 naming the
allowed ``'text' or 'json_object'``) but takes the schema *inside* ``json_object``
(``json_object_schema``: ``{"type": "json_object", "schema": ...}``, made a grammar, so even a
small model answers in shape and stops); some servers take neither. Finding out costs a refused
request, and every scan would pay it again, so what worked is kept per endpoint and model in
``llm_endpoints.json`` in the app dir and the next scan asks in that mode right away.

The context size decides how big a digest fits. Where the server reports it, it is read
(nothing personal is sent, only the model name): llama.cpp's ``GET /props``
(``default_generation_settings.n_ctx``), vLLM's ``GET /v1/models`` (``max_model_len``),
LM Studio's ``GET /api/v0/models/{model}`` (``loaded_context_length``) and Ollama's
``POST /api/show`` (``num_ctx`` in ``parameters`` when set, else ``model_info.*.context_length``).
The ``llm_context`` setting wins over all of them.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bootstrap_app.config import Settings

from . import prompts

__all__ = ["CHARS_PER_TOKEN", "FORMAT_ORDER", "OPENAI_BASE", "Capabilities", "Plan", "digest_chars_for",
           "endpoint_key", "forget", "formats_for", "grammar_items", "plan", "probe_context", "recall", "remember"]

log = logging.getLogger(__name__)

FORMAT_ORDER = ("json_schema", "json_object_schema", "json_object", "text")
"""The response formats tried, most exact first; a refused one falls through to the next.

``json_object_schema`` is ``{"type": "json_object", "schema": <bounded schema>}``, the form
llama-cpp-python and llama.cpp's server document for a schema-constrained (grammar) answer."""

OPENAI_BASE = "https://api.openai.com/v1"
"""The endpoint when ``llm_base_url`` is empty. Its strict ``json_schema`` works, and it is never
sent the ``schema`` key inside ``json_object`` (not part of its API): ``json_object_schema`` is
asked there as plain ``json_object``."""

CHARS_PER_TOKEN = 2.6
"""Characters per token of the request (the schema's JSON, ids and names tokenise densely):
a 37,712-character demo request is 13,999 tokens for SmolLM2's tokenizer (2.69, measured against
llama-cpp-python 0.3.36, tests/llm/recorded/context_length.json); a little lower is the safe
side, and a context-length error corrects it once with the server's own count."""

_FILE = "llm_endpoints.json"
_MIN_DIGEST = 2_000
"""The smallest digest build_digest makes (characters)."""
_PROBE_TIMEOUT = 3.0
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Probes go straight to the configured server, never through an environment proxy."""


@dataclass(frozen=True)
class Capabilities:
    """What one endpoint+model was found to take: ``mode`` (a FORMAT_ORDER entry or ""), ``context``."""

    mode: str = ""
    context: int = 0
    context_from: str = ""
    updated: str = ""


def endpoint_key(settings: Settings) -> str:
    """``<base url>|<model>``: the same model behind another server may behave differently."""
    base = (settings.llm_base_url or OPENAI_BASE).rstrip("/")
    return f"{base}|{settings.llm_model or 'gpt-4o-mini'}"


def _read(home: Path) -> dict[str, Any]:
    try:
        data = json.loads((home / _FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def recall(settings: Settings) -> Capabilities:
    """What was remembered for this endpoint+model (empty Capabilities when nothing was)."""
    entry = _read(settings.home).get(endpoint_key(settings))
    if not isinstance(entry, dict):
        return Capabilities()
    mode = entry.get("mode") if entry.get("mode") in FORMAT_ORDER else ""
    context = _int(entry.get("context"))
    return Capabilities(mode=str(mode), context=context, context_from=str(entry.get("context_from", "")),
                        updated=str(entry.get("updated", "")))


def _write(home: Path, data: dict[str, Any]) -> None:
    """Replace the file atomically; a failed write only costs a probe next time."""
    try:
        fd, tmp = tempfile.mkstemp(dir=home, prefix=".llm_endpoints.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
        os.replace(tmp, home / _FILE)
    except OSError as exc:
        log.info("could not remember the LLM endpoint's capabilities: %s", exc)


def remember(settings: Settings, caps: Capabilities) -> None:
    """Store ``caps`` for this endpoint+model."""
    data = _read(settings.home)
    stamped = Capabilities(caps.mode, caps.context, caps.context_from, datetime.now(UTC).isoformat(timespec="seconds"))
    data[endpoint_key(settings)] = asdict(stamped)
    _write(settings.home, data)


def forget(settings: Settings) -> None:
    """Drop what was remembered for this endpoint+model (``memseed llm check`` finds out afresh)."""
    data = _read(settings.home)
    if data.pop(endpoint_key(settings), None) is not None:
        _write(settings.home, data)


def _root(base_url: str) -> str:
    """The server root of an OpenAI-style base URL (``http://host:8080/v1`` -> ``http://host:8080``)."""
    return re.sub(r"/v1/?$", "", base_url.rstrip("/"))


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _from_props(data: Any, model: str) -> int:
    # llama.cpp server README, GET /props: "default_generation_settings" holds "n_ctx"
    settings = data.get("default_generation_settings") if isinstance(data, dict) else None
    return _int(settings.get("n_ctx")) if isinstance(settings, dict) else 0


def _from_models(data: Any, model: str) -> int:
    # vLLM's /v1/models lists each model card with "max_model_len"
    cards = data.get("data") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return 0
    lengths = [_int(c.get("max_model_len")) for c in cards if isinstance(c, dict) and c.get("id") == model]
    lengths = lengths or [_int(c.get("max_model_len")) for c in cards if isinstance(c, dict) and len(cards) == 1]
    return max(lengths, default=0)


def _from_lmstudio(data: Any, model: str) -> int:
    # LM Studio REST API (GET /api/v0/models/{model}): "loaded_context_length", "max_context_length"
    if not isinstance(data, dict):
        return 0
    return _int(data.get("loaded_context_length")) or _int(data.get("max_context_length"))


_OLLAMA_DEFAULT_CTX = 4096
"""Ollama's docs/context-length.mdx: without num_ctx (Modelfile) or OLLAMA_CONTEXT_LENGTH, a model
runs with 4k context below 24 GiB of VRAM, whatever it was trained for, and a longer prompt is
truncated silently. Sizing to the trained length would lose the digest's end without a word."""


def _from_ollama(data: Any, model: str) -> int:
    # Ollama API docs, POST /api/show: "parameters" (a Modelfile text, "num_ctx 8192" when set)
    # and "model_info" ("<arch>.context_length": what the model was trained for)
    if not isinstance(data, dict):
        return 0
    found = re.search(r"^\s*num_ctx\s+(\d+)", str(data.get("parameters") or ""), re.M)
    if found:
        return int(found.group(1))
    info = data.get("model_info")
    trained = max((_int(v) for k, v in info.items() if str(k).endswith(".context_length")), default=0) \
        if isinstance(info, dict) else 0
    return min(trained, _OLLAMA_DEFAULT_CTX) if trained else 0


_PROBES = (
    ("GET", "{root}/props", "llama.cpp /props", _from_props),
    ("GET", "{base}/models", "/v1/models max_model_len", _from_models),
    ("GET", "{root}/api/v0/models/{model}", "LM Studio /api/v0/models", _from_lmstudio),
    ("POST", "{root}/api/show", "Ollama /api/show", _from_ollama),
)


def probe_context(settings: Settings) -> tuple[int, str]:
    """(context tokens, where it came from): ``llm_context``, else what the server reports, else (0, "")."""
    if settings.llm_context:
        return settings.llm_context, "llm_context setting"
    base = settings.llm_base_url.rstrip("/")
    if not base:
        return 0, ""  # OpenAI's own API reports no context size; its models' contexts are large
    model = settings.llm_model or ""
    for method, template, label, read in _PROBES:
        url = template.format(root=_root(base), base=base, model=urllib.parse.quote(model, safe=""))
        data = json.dumps({"model": model}).encode() if method == "POST" else None
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with _OPENER.open(request, timeout=_PROBE_TIMEOUT) as response:
                found = read(json.loads(response.read(1_000_000)), model)
        except (OSError, ValueError):  # HTTPError, URLError, timeouts, a non-JSON page: not this server
            continue
        if found:
            return found, label
    return 0, ""


def digest_chars_for(context: int, max_tokens: int, max_chars: int) -> int:
    """The digest size (characters) that leaves ``max_tokens`` of ``context`` for the answer.

    The system prompt (rules and schema) is counted too; without a known context the
    ``llm_max_chars`` setting alone decides.
    """
    if context <= 0:
        return max_chars
    fixed = len(prompts.system_prompt()) + len(prompts.render_user(""))
    room = int((context - max_tokens - 64) * CHARS_PER_TOKEN) - fixed
    return max(0, min(max_chars, room))


def formats_for(settings: Settings) -> tuple[str, ...]:
    """The formats this endpoint may be asked in: the setting's one, or all of FORMAT_ORDER.

    OpenAI's own API (no ``llm_base_url``, or its URL) never gets ``json_object_schema``: it is
    dropped from the fallbacks, and a forced one is asked as plain ``json_object``.
    """
    modes: tuple[str, ...] = FORMAT_ORDER if settings.llm_response_format == "auto" \
        else (settings.llm_response_format,)
    if (settings.llm_base_url or OPENAI_BASE).rstrip("/") == OPENAI_BASE:
        modes = tuple(dict.fromkeys("json_object" if m == "json_object_schema" else m for m in modes))
    return modes


def grammar_items(max_tokens: int) -> int:
    """How many facts the grammar schema allows so that the longest answer fits ``max_tokens``.

    Counted at :data:`CHARS_PER_TOKEN` (the dense side for JSON) from the most characters a fact
    can take (:func:`~bootstrap_app.extract.prompts.grammar_fact_chars`): a grammar-constrained
    answer then closes before the limit instead of being cut off and losing every fact. At least one.
    """
    per_fact = prompts.grammar_fact_chars() / CHARS_PER_TOKEN
    return max(1, int((max_tokens - 16) // per_fact))


@dataclass(frozen=True)
class Plan:
    """How the next request is asked: the formats to try in order, the context, the sizes."""

    modes: tuple[str, ...]
    context: int
    context_from: str
    max_tokens: int
    max_chars: int


def plan(settings: Settings, *, probe: bool = True) -> Plan:
    """The request plan from settings, what was remembered and (``probe``) what the server reports.

    ``llm_response_format`` other than ``auto`` forces one mode; otherwise the remembered mode goes
    first and only the formats after it remain to fall back to. The answer gets ``llm_max_tokens``
    but never more than a quarter of a known context, so a small model still has room to read.
    """
    caps = recall(settings)
    modes = formats_for(settings)
    if settings.llm_response_format == "auto" and caps.mode in modes:
        modes = modes[modes.index(caps.mode):]
    if settings.llm_context:
        context, where = settings.llm_context, "llm_context setting"
    elif caps.context:
        context, where = caps.context, caps.context_from or "remembered"
    elif probe:
        context, where = probe_context(settings)
    else:
        context, where = 0, ""
    max_tokens = max(16, min(settings.llm_max_tokens, context // 4)) if context else settings.llm_max_tokens
    chars = digest_chars_for(context, max_tokens, settings.llm_max_chars)
    if context and chars < _MIN_DIGEST and max_tokens > context // 6:  # a small context: a shorter answer
        max_tokens = max(16, context // 6)
        chars = digest_chars_for(context, max_tokens, settings.llm_max_chars)
    return Plan(modes, context, where, max_tokens, chars)
