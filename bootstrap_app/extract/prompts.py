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
    "PROMPT_VERSION",
    "SCHEMA_NAME",
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


def system_prompt() -> str:
    """The system message: data-not-instructions rules, memory types, and the schema inline.

    The schema is inlined so servers that only support ``json_object`` mode still know the shape.
    """
    schema_text = json.dumps(wire_schema(), indent=1, ensure_ascii=False)
    return load_prompt("extract_system.md").replace("{{SCHEMA}}", schema_text)


def render_user(digest_text: str) -> str:
    """The user message that wraps the digest."""
    return load_prompt("extract_user.md").replace("{{DIGEST}}", digest_text.rstrip("\n"))
