"""Fixtures for the harness writer tests: a store with approved proposals of all four types."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal
from tests.conftest import realdata_file
from tests.skipguard import REALDATA, hermes_python

__all__ = ["REALMEM", "copy_real", "hermes_python", "make_proposals", "snapshot"]

REALMEM = REALDATA / "memory"
DERIVED = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)


def make_proposals() -> list[Proposal]:
    """Synthetic proposals of all four types (demo-persona-like; no real person)."""
    ev = (Evidence("mbox:/demo/mail.mbox", "<m1@example.org>", DERIVED, True, "sent by the owner"),)
    return [
        Proposal(type=MemoryType.USER, name="works-from-lagos",
                 description="Maya Okafor is a backend engineer working from Lagos (UTC+1)",
                 body="Maya Okafor is a backend engineer on the payments team, based in Lagos (WAT, UTC+1); "
                      "usual hours 09:00-17:30.", subject="user:maya:location", evidence=ev, derived_at=DERIVED),
        Proposal(type=MemoryType.FEEDBACK, name="small-pull-requests",
                 description="Prefers small pull requests with a test per change",
                 body="Keep pull requests under about 300 changed lines, with a test for each behaviour change.\n\n"
                      "**Why:** reviews on ledger-api stalled on big diffs.\n"
                      "**How to apply:** split refactors from behaviour changes.",
                 subject="feedback:pr-size", evidence=ev, derived_at=DERIVED),
        Proposal(type=MemoryType.PROJECT, name="ledger-api",
                 description="ledger-api is the payments ledger service (Python 3.12, FastAPI, Postgres)",
                 body="ledger-api keeps the double-entry ledger for payouts. Tests: `make test`. "
                      "Deploys go through deploy-console.", subject="project:ledger-api", evidence=ev,
                 derived_at=DERIVED),
        Proposal(type=MemoryType.REFERENCE, name="oncall-runbook",
                 description="The on-call runbook lives in the team wiki",
                 body="On-call runbook: https://wiki.example.org/payments/oncall (escalation list at the end).",
                 subject="reference:runbook", evidence=ev, derived_at=DERIVED),
    ]


@pytest.fixture(autouse=True)
def _no_harness_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Variables that relocate or disable harness memory must not leak in from the shell."""
    for name in ("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
                 "CLAUDE_CODE_REMOTE_MEMORY_DIR", "HERMES_DATA_DIR_SUFFIX"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def home(hermetic: Path) -> Path:
    return hermetic


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    with Store(home / ".memseed" / "state.db") as st:
        yield st


@pytest.fixture
def proposals() -> list[Proposal]:
    return make_proposals()


@pytest.fixture
def approved(store: Store, proposals: list[Proposal]) -> Store:
    store.save_proposals(store.start_run("scan", ["synthetic"]), proposals)
    decisions.approve(store, [p.id for p in proposals])
    return store


@pytest.fixture
def project(home: Path) -> Path:
    root = home / "code" / "ledger-api"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


def snapshot(root: Path) -> dict[str, tuple[str, int]]:
    """path -> (sha256, mtime_ns) of every file under ``root``."""
    out: dict[str, tuple[str, int]] = {}
    if not root.exists():
        return out
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path)] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return out


def copy_real(name: str, dest: Path) -> Path:
    """Copy a real memory folder into ``dest`` (skip cleanly when the real data is absent)."""
    src = realdata_file("memory", *name.split("/"))
    shutil.copytree(src, dest, symlinks=True)
    return dest


