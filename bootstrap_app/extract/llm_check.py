"""Find out what an LLM endpoint takes with one tiny request, before a scan sends a digest.

Why a separate check: a scan that fails on the server's quirks has already built a digest and
made the person wait. ``memseed llm check`` asks for a two-field JSON object about nothing
personal, in each response format in turn until one is taken, reads the context size the
server reports, and remembers both (:mod:`~bootstrap_app.extract.llm_caps`), so the next scan
asks right away in the mode that works.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMError

from .digest import settings_model
from .llm_caps import Capabilities, forget, formats_for, probe_context, remember
from .llm_transport import Budget, complete, make_client

__all__ = ["CheckResult", "check_endpoint"]

_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}, "word": {"type": "string"}},
           "required": ["ok", "word"], "additionalProperties": False}
_PROMPT = 'Answer with a JSON object {"ok": true, "word": "<any English word>"} and nothing else.'


@dataclass
class CheckResult:
    """What the check found: the mode taken, the modes refused, the context, or the error."""

    endpoint: str
    model: str
    mode: str = ""
    refused: list[str] = field(default_factory=list)
    context: int = 0
    context_from: str = ""
    answer: str = ""
    error: str = ""
    seconds: float = 0.0

    @property
    def usable(self) -> bool:
        return bool(self.mode) and not self.error

    def to_json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "model": self.model, "mode": self.mode, "refused": self.refused,
                "context": self.context, "context_from": self.context_from, "answer": self.answer,
                "error": self.error, "seconds": round(self.seconds, 2), "usable": self.usable}

    def lines(self) -> list[str]:
        context = (f"{self.context} tokens ({self.context_from})" if self.context
                   else "not reported (set llm_context in config.toml to size the digest)")
        out = [f"endpoint: {self.endpoint}", f"model: {self.model}", f"context: {context}"]
        if self.refused:
            out.append(f"refused response formats: {', '.join(self.refused)}")
        if self.mode:
            out.append(f"answers in: {self.mode} ({self.seconds:.1f} s){' - remembered for scans' if self.usable else ''}")
        if self.answer:
            out.append(f"answer: {self.answer[:120]}")
        if self.error:
            out.append(f"error: {self.error}")
        return out


def _payload(model: str, mode: str) -> dict[str, Any]:
    payload: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": _PROMPT}],
                               "max_tokens": 24, "stream": True}
    if mode == "json_schema":
        payload["response_format"] = {"type": "json_schema",
                                      "json_schema": {"name": "check", "strict": True, "schema": _SCHEMA}}
    elif mode == "json_object_schema":
        payload["response_format"] = {"type": "json_object", "schema": _SCHEMA}
    elif mode == "json_object":
        payload["response_format"] = {"type": "json_object"}
    return payload


def check_endpoint(settings: Settings, client: Any = None) -> CheckResult:
    """Ask once per response format until one is taken; remember what worked. Never raises LLMError."""
    forget(settings)
    model = settings_model(settings)
    result = CheckResult(endpoint=settings.llm_base_url or "https://api.openai.com/v1", model=model)
    result.context, result.context_from = probe_context(settings)
    modes = formats_for(settings)
    own = client is None
    try:
        if client is None:
            client = make_client(settings)
        budget = Budget(min(settings.llm_budget, 120.0))
        reply = complete(client, lambda mode: _payload(model, mode), modes, settings=settings, budget=budget)
    except LLMError as exc:
        result.error = str(exc).replace("\n", " ")
        return result
    finally:
        if own and client is not None:
            client.close()
    result.mode, result.refused, result.seconds = reply.mode, list(reply.refused_modes), reply.seconds
    result.answer = " ".join(reply.content.split())
    try:
        json.loads(reply.content.strip().strip("`").removeprefix("json"))
    except ValueError:
        if reply.mode != "text":
            result.error = f"the server took {reply.mode} but answered something that is not JSON"
            return result
    remember(settings, Capabilities(mode=reply.mode, context=result.context, context_from=result.context_from))
    return result
