"""The loopback OpenAI-compatible server of tests/llm, for the pipeline's --llm-preview tests."""

from tests.llm.conftest import llm_server, llm_settings

__all__ = ["llm_server", "llm_settings"]
