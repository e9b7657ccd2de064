"""Pipeline fixtures: the test-only sources of synth.py, and the loopback OpenAI-compatible server
of tests/llm for the --llm-preview tests."""

from collections.abc import Iterator

import pytest

from connectors import registry
from tests.llm.conftest import llm_server, llm_settings

from .synth import ExplodingSource, SyntheticItems

__all__ = ["llm_server", "llm_settings", "test_sources"]


@pytest.fixture(autouse=True)
def test_sources() -> Iterator[None]:
    """``*.items.json`` and ``*.boom`` files are detectable in these tests (and only here)."""
    with registry.extended(SyntheticItems, ExplodingSource):
        yield
