"""Every transport failure of the real openai client becomes an LLMError saying what happened and what to do.

Each case is a real HTTP answer (or a refused connection) from a loopback server, read by the
real ``openai`` client with retries off; the message and the hint come from the failure table
in ``bootstrap_app/extract/llm.py``.
"""

from __future__ import annotations

import socket
from dataclasses import replace

import pytest

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMError
from bootstrap_app.extract.llm import llm_proposals

from .conftest import FakeLLM, footprint_items, footprint_signals


def _run(settings: Settings) -> LLMError:
    with pytest.raises(LLMError) as info:
        llm_proposals(footprint_items(), footprint_signals(), settings=replace(settings, llm_max_retries=0))
    return info.value


@pytest.mark.parametrize(("status", "message", "hint"), [
    (401, "refused the API key (401)", "llm_api_key"),
    (429, "rate limiting and retries ran out", "wait a minute"),
    (404, "does not know model 'test-model' or the endpoint", "llm_model"),
    (500, "answered 500", "llm_base_url"),
])
def test_status_answers_map_to_a_message_and_hint(llm_server: FakeLLM, llm_settings: Settings, status: int,
                                                   message: str, hint: str) -> None:
    llm_server.reply_error(status, f"scripted {status}")
    error = _run(llm_settings)
    assert message in str(error)
    assert hint.lower() in (error.hint or "").lower()
    assert len(llm_server.requests) == 1  # retries were off: one request, one answer


def test_refused_connection_names_the_server(llm_settings: Settings) -> None:
    with socket.socket() as sock:  # a port nothing listens on once this closes
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    error = _run(replace(llm_settings, llm_base_url=f"http://127.0.0.1:{port}/v1"))
    assert "cannot reach the LLM server" in str(error)
    assert "llm_base_url" in (error.hint or "")
