"""Demo fixtures: the demo is built once per test session (scale 1 and scale 3) and shared.

Why session scope: building is deterministic and tests only read the result, so one build
per scale keeps the suite fast; tests that modify a demo build their own copy.
"""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from demo_helpers import read_mbox

from bootstrap_app.demo import build_demo, demo_locations


@pytest.fixture(scope="session")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "maya", 1)


@pytest.fixture(scope="session")
def demo3_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo3") / "maya", 3)


@pytest.fixture(scope="session")
def where(demo_root: Path) -> dict[str, Path]:
    return demo_locations(demo_root)


@pytest.fixture(scope="session")
def messages(where: dict[str, Path]) -> list[EmailMessage]:
    return read_mbox(where["mbox"])
