"""Fixtures for the cloud connectors: a Google stand-in serving the demo persona's account
(Microsoft's stand-in fixtures, ``ms``, ``signed_in`` and ``account``, live in ms_fixtures.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bootstrap_app.demo import build_demo
from bootstrap_app.demo.cast import CAST

from .google_demo import demo_world
from .google_standin import GoogleStandIn
from .google_world import World
from .ms_fixtures import account, ms, signed_in  # noqa: F401  (fixtures for the test_ms_* modules)

MAYA = CAST["maya"].email


@pytest.fixture(scope="session")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "demo")


@pytest.fixture
def world(demo_root: Path) -> World:
    return demo_world(demo_root)


@pytest.fixture
def google(world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GoogleStandIn]:
    """The stand-in running, with MEMSEED_GOOGLE_API_ROOT and MEMSEED_GOOGLE_CREDENTIALS set."""
    with GoogleStandIn(world) as standin:
        creds = tmp_path / "authorized_user.json"
        creds.write_text(json.dumps(standin.authorized_user()), encoding="utf-8")
        monkeypatch.setenv("MEMSEED_GOOGLE_API_ROOT", standin.root)
        monkeypatch.setenv("MEMSEED_GOOGLE_CREDENTIALS", str(creds))
        monkeypatch.setenv("MEMSEED_TOKEN_STORE", "file")
        yield standin
