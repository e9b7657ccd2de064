"""The extractor's prompt files and output schema, loaded from the packaged ``prompts`` folder.

Why files and not string constants: the prompts are part of what leaves the machine, so a
person (or a reviewer of this repository) should be able to read them as plain Markdown, and
the JSON schema is shared between the request (structured outputs) and the local validation
of the reply. They ship as package data (``pyproject.toml`` ``[tool.setuptools.package-data]``).
"""

from __future__ import annotations

import copy
import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

__all__ = [
    "GRAMMAR_LIMITS",
    "PROMPT_VERSION",
    "SCHEMA_NAME",
    "grammar_fact_chars",
    "grammar_schema",
    "load_prompt",
    "proposal_schema",
    "render_user",
    "system_prompt",
    "wire_schema",
]

PROMPT_VERSION = "extract-v1"
"""Bumped whenever the prompt text or schema changes meaningfully (recorded with LLM proposals)."""

SCHEMA_NAME = "memseed_proposals"

# Sent schemas keep to the strictest subset that OpenAI strict mode and the common
# OpenAI-compatible servers all accept (types, enums, required, additionalProperties: false):
# no length, pattern or numeric constraints. Every one of them is still enforced locally by
# :func:`bootstrap_app.extract.llm.validate_reply` against the full schema.
_WIRE_UNSUPPORTED = {"minLength", "maxLength", "pattern", "minimum", "maximum", "minItems", "maxItems",
                     "$schema", "title"}


@cache
def load_prompt(name: str) -> str:
    """The text of ``prompts/<name>`` (UTF-8)."""
    return resources.files("prompts").joinpath(name).read_text(encoding="utf-8")


def proposal_schema() -> dict[str, Any]:
    """The full JSON Schema of a reply (a fresh copy: callers may not mutate the cached one)."""
    return copy.deepcopy(_schema())


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(load_prompt("proposal_schema.json"))
    return data


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in _WIRE_UNSUPPORTED}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def wire_schema() -> dict[str, Any]:
    """The schema as sent in ``response_format`` (strict mode subset of :func:`proposal_schema`)."""
    stripped: dict[str, Any] = _strip(_schema())
    return stripped


GRAMMAR_LIMITS = {"name": 64, "description": 160, "body": 400, "subject": 120, "key": 120, "scope": 64}
"""Characters per string field in the grammar schema (the full schema's limits where smaller).

Why shorter than the full schema: a server that turns the schema into a grammar samples only
tokens that keep the answer valid, so the schema's bounds are what makes a small model *stop*:
every string closes within its limit and the list within ``maxItems``. The body keeps room for
the fact and its **Why:** line; the other fields are one-liners."""
_GRAMMAR_EVIDENCE = 4
_GRAMMAR_FACT_OVERHEAD = 180
"""Characters of one fact outside its string values: the keys, quotes, commas, the type enum,
the confidence number (measured: 149 on a fact with one-character values, written by json.dumps)."""


def grammar_fact_chars() -> int:
    """The most characters one fact can take under :func:`grammar_schema` (its values at their limits)."""
    return sum(GRAMMAR_LIMITS.values()) + _GRAMMAR_EVIDENCE * len('"E1234",') + _GRAMMAR_FACT_OVERHEAD


_SLUG = "^[a-z0-9]{3,12}(-[a-z0-9]{1,12}){0,4}$"
"""The name slug with its length inside the pattern (3 to 64 characters): llama-cpp-python made
the unbounded slug a grammar and ignored ``maxLength``, and SmolLM2-135M wrote a 74-character name."""


def _tenths(low: float, high: float) -> list[float]:
    """Every tenth from ``low`` to ``high`` (whole numbers written as ints: 0, 0.1, ..., 1)."""
    values = [round(i / 10, 1) for i in range(round(low * 10), round(high * 10) + 1)]
    return [int(v) if v == int(v) else v for v in values]


def grammar_schema(max_items: int) -> dict[str, Any]:
    """The schema sent *inside* ``{"type": "json_object"}`` to servers that make it a grammar.

    llama-cpp-python refuses ``json_schema`` but takes ``response_format: {"type": "json_object",
    "schema": ...}`` and constrains sampling to it (llama.cpp's own server documents the same
    form). Unlike :func:`wire_schema` it keeps the bounds a grammar can enforce - the name and
    ``E<n>`` patterns, the enums, ``maxLength`` from :data:`GRAMMAR_LIMITS`, ``maxItems`` - so the
    answer ends by itself; ``max_items`` is chosen by the caller so that the longest possible
    answer fits the tokens it may use. Descriptions are dropped (the system prompt has them).
    A bounded number (the confidence) becomes an enum of tenths: grammar converters ignore
    ``minimum``/``maximum`` (SmolLM2-135M answered 2.3 and 20.15 under them), a list of
    values they enforce.
    """
    schema = proposal_schema()
    for key in ("$schema", "title", "description"):
        schema.pop(key, None)
    facts = schema["properties"]["proposals"]
    facts["maxItems"] = max(0, min(int(facts.get("maxItems", max_items)), max_items))
    item = facts["items"]
    for name, prop in item["properties"].items():
        prop.pop("description", None)
        if name in GRAMMAR_LIMITS:
            prop["maxLength"] = min(GRAMMAR_LIMITS[name], int(prop.get("maxLength", GRAMMAR_LIMITS[name])))
        if name == "name":  # a converter turns the pattern into the grammar and drops the lengths beside it
            prop["pattern"] = _SLUG
        if prop.get("type") == "number" and "minimum" in prop and "maximum" in prop:
            prop["enum"] = _tenths(prop.pop("minimum"), prop.pop("maximum"))
    ids = item["properties"]["evidence_ids"]
    ids["maxItems"] = min(_GRAMMAR_EVIDENCE, int(ids.get("maxItems", _GRAMMAR_EVIDENCE)))
    return schema


def system_prompt() -> str:
    """The system message: data-not-instructions rules, memory types, and the schema inline.

    The schema is inlined so servers that only support ``json_object`` mode still know the shape.
    """
    schema_text = json.dumps(wire_schema(), indent=1, ensure_ascii=False)
    return load_prompt("extract_system.md").replace("{{SCHEMA}}", schema_text)


def render_user(digest_text: str) -> str:
    """The user message that wraps the digest."""
    return load_prompt("extract_user.md").replace("{{DIGEST}}", digest_text.rstrip("\n"))
