"""Fixtures for the app tests: a store filled with generated proposals, and an AppTest on it."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bootstrap_app.config import load_settings
from bootstrap_app.identity.review import mark_identity_shown
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal
from bootstrap_app.ui import APP_FILE, TOKEN_ENV

TYPES = (MemoryType.USER, MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.REFERENCE)


def synthetic_proposals(n: int, *, sensitive_every: int = 7) -> list[Proposal]:
    """``n`` distinct proposals spread over the four types; every ``sensitive_every``-th is sensitive."""
    out = []
    for i in range(n):
        flags = ("sensitive",) if sensitive_every and i % sensitive_every == 3 else ()
        if i % 11 == 5:
            flags = (*flags, "unverified-path")
        out.append(Proposal(
            type=TYPES[i % 4], name=f"fact {i:03d} about topic {i % 13}",
            description=f"Generated fact number {i}", body=f"The person prefers option {i} for topic {i % 13}.",
            subject=f"synthetic:{i}", key=f"k{i}", confidence=0.4 + (i % 6) / 10, flags=flags,
            evidence=(Evidence(f"mbox:/demo/mail-{i % 3}.mbox", f"<{i}@demo.example>",
                               datetime(2026, 1, 1 + i % 28, tzinfo=UTC), i % 2 == 0, f"excerpt {i}"),)))
    return out


@pytest.fixture
def settings(hermetic: Path):  # type: ignore[no-untyped-def]
    return load_settings()


@pytest.fixture
def seeded(settings) -> Callable[[int], Store]:  # type: ignore[no-untyped-def]
    """Fill the hermetic app home's store with ``n`` generated proposals (one scan run)."""

    def make(n: int) -> Store:
        store = Store(settings.db_path)
        run = store.start_run("scan", ["synthetic"])
        store.save_proposals(run, synthetic_proposals(n))
        store.finish_run(run, "finished", {"proposals": n})
        mark_identity_shown(store, run)  # the person has been past the identity page
        return store

    return make


def app_at(page: str | None = None, timeout: float = 30) -> AppTest:
    """An AppTest of the whole app, switched to ``views/<page>.py`` when given."""
    at = AppTest.from_file(str(APP_FILE), default_timeout=timeout)
    at.query_params["token"] = os.environ[TOKEN_ENV]  # as the link `memseed app` opens does
    at.run()
    if page:
        at.switch_page(f"views/{page}.py").run()
    return at
