"""Planted secrets of every kind never leave as bytes: store, HOME tree, stdout/stderr, logs, LLM.

A mailbox outside HOME holds the owner's and a third party's mail, each carrying every secret
kind the redactor knows. It goes through the real pipeline with the LLM path on (a loopback
OpenAI-compatible server records every request byte), every proposal is approved and written
to a Hermes and a Claude Code memory folder inside the test HOME; then every byte memseed
wrote — ``state.db`` (and its WAL), the memory files, everything under HOME — plus captured
output, logs and the LLM requests are searched for each secret value.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import Person
from tests.safety import corpus as C
from tests.safety.chat_server import ChatServer, serve_chat
from tests.safety.test_secrets_pii import PLANTED


def _uses_uv(_prompt: str) -> list[dict[str, Any]]:
    return [{"type": "feedback", "name": "uses-uv", "description": "Maya runs the test suite with uv.",
             "body": "Run `uv run pytest` before pushing.", "subject": "tool:uv", "key": "uv run pytest",
             "confidence": 0.8, "evidence_ids": ["E1"], "scope": "global"}]


@pytest.fixture
def llm_server() -> Iterator[ChatServer]:
    with serve_chat(_uses_uv) as server:
        yield server


def _secret_mail(path: Path) -> None:
    blob = "\n".join(text for text, _value in PLANTED.values())
    outsider = Person("Mallory Vendor", "mallory@outside-vendor.example")
    import mailbox

    box = mailbox.mbox(str(path), create=True)
    for i, mate in enumerate(C.COLLEAGUES * 4):
        when = C.START.replace(hour=9 + i % 8, day=5 + i)
        box.add(C._message(C.OWNER, mate, f"ledger-api deploy {i}",
                           f"We use uv for ledger-api.\nCredentials for the record:\n{blob}", when, f"<own-{i}@x>"))
        box.add(C._message(mate, C.OWNER, f"Re: ledger-api deploy {i}", f"Thanks! Mine are:\n{blob}", when,
                           f"<re-{i}@x>"))
    box.add(C._message(outsider, C.OWNER, "invoice", f"Here are the keys:\n{blob}", C.START, "<mallory@x>"))
    box.flush()
    box.close()


def _all_bytes(root: Path) -> Iterator[tuple[Path, bytes]]:
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():
                yield path, path.read_bytes()


def test_planted_secrets_never_leave(tmp_path: Path, hermetic: Path, llm_server: ChatServer,
                                     capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    inbox = tmp_path / "outside-home" / f"inbox{C.mbox_suffix()}"
    inbox.parent.mkdir()
    _secret_mail(inbox)
    settings = load_settings(None, llm="openai", llm_base_url=llm_server.url, llm_api_key="", llm_max_retries=0)
    assert str(settings.home).startswith(str(hermetic))
    with Store(settings.db_path) as store:
        result = scan([str(inbox)], settings=settings, store=store, owners=[C.OWNER.address], llm="openai")
        assert result.proposals and llm_server.requests, result.llm_error
        decisions.approve(store, [p.id for p in result.proposals])
        from bootstrap_app.memory.write import apply_write, plan_write

        for target in ("hermes", "claude-code"):
            plan = plan_write(store, target, project=hermetic / "code" / "ledger-api")
            apply_write(store, plan)
    exported = "\n".join(json.dumps(p.to_json()) for p in result.proposals)
    out, err = capfd.readouterr()
    haystacks: list[tuple[str, bytes]] = [
        ("proposals", exported.encode()), ("stdout", out.encode()), ("stderr", err.encode()),
        ("logs", caplog.text.encode()), ("quarantine", repr(result.quarantined).encode()),
        *(("llm-request", r) for r in llm_server.requests),
        *((str(p), data) for p, data in _all_bytes(hermetic)),
    ]
    assert any(name.endswith("state.db") for name, _ in haystacks)
    written = [name for name, _ in haystacks if "/.hermes/" in name or "/.claude/" in name]
    assert written, "the approved proposals should have been written into the HOME tree"
    leaks = [(kind, name) for kind, (_text, value) in PLANTED.items() for name, data in haystacks
             if value.encode() in data]
    assert leaks == []
