"""Types, store and config: the contracts every other part stands on."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

import pytest

from bootstrap_app.config import load_settings, resolve_secret
from bootstrap_app.errors import ConfigError, StoreError, UnknownProposal
from bootstrap_app.store import Store
from bootstrap_app.types import DecisionStatus, Evidence, MemoryType, Proposal, fingerprint_of, slugify


def _proposal(subject: str = "contact:jane@acme.example", key: str = "manager", body: str = "Jane.") -> Proposal:
    return Proposal(type=MemoryType.USER, name="Jane Doe is my manager", description="Manager",
                    body=body, subject=subject, key=key,
                    evidence=(Evidence("mbox:/x", "<1@x>", datetime(2024, 1, 2, tzinfo=UTC), True, "hi"),))


def test_fingerprint_ignores_wording_but_not_key_content() -> None:
    a = _proposal(body="Jane is the manager.")
    b = _proposal(body="Jane Doe manages me.")
    c = _proposal(key="skip-level")
    assert a.fingerprint == b.fingerprint
    assert a.fingerprint != c.fingerprint
    assert a.fingerprint == fingerprint_of("user", "Contact:JANE@acme.example ", "Manager")


def test_slugify_is_safe() -> None:
    assert slugify("../../etc/passwd") == "etc-passwd"
    assert slugify("CON") == "con-memory"
    assert slugify("   ") == "memory"
    assert slugify("Ünïcödé Ledger API") == "unicode-ledger-api"


def test_proposal_json_round_trip() -> None:
    p = _proposal()
    q = Proposal.from_json(p.to_json())
    assert q == p
    assert set(p.to_json()) >= {"id", "fingerprint", "type", "name", "description", "body", "scope",
                                "confidence", "evidence", "flags", "supersedes"}


def test_store_decisions_persist_across_connections(tmp_path) -> None:
    db = tmp_path / "state.db"
    with Store(db) as store:
        run = store.start_run("scan", ["demo"])
        store.save_proposals(run, [_proposal()])
        stored = store.get(_proposal().id)
        store.decide(stored.fingerprint, DecisionStatus.EDITED, {"body": "Jane Doe (VP) is my manager."})
    with Store(db) as store:
        again = store.get(_proposal().fingerprint)
        assert again.decision is not None and again.decision.approved
        assert again.effective.body == "Jane Doe (VP) is my manager."
        assert store.proposals(status="undecided") == []
        assert store.proposal_fingerprints() == {_proposal().fingerprint}
        assert len(store.proposals(status="approved")) == 1
        with pytest.raises(UnknownProposal):
            store.get("zzzz")


def test_store_refuses_newer_schema(tmp_path) -> None:
    db = tmp_path / "state.db"
    Store(db).close()
    import sqlite3

    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer memseed"):
        Store(db)


def test_settings_precedence(tmp_path, monkeypatch) -> None:
    home = tmp_path / "app"
    home.mkdir()
    (home / "config.toml").write_text('llm = "openai"\nmax_text_chars = 100\n', encoding="utf-8")
    assert load_settings(home).llm == "openai"
    monkeypatch.setenv("MEMSEED_MAX_TEXT_CHARS", "200")
    assert load_settings(home).max_text_chars == 200
    assert load_settings(home, max_text_chars=300).max_text_chars == 300
    (home / "config.toml").write_text("llm = [", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(home)


def test_secret_references_never_take_plain_values(monkeypatch) -> None:
    monkeypatch.setenv("X_KEY", "abc")
    assert resolve_secret("env:X_KEY") == "abc"
    with pytest.raises(ConfigError):
        resolve_secret("sk-plainvalue")


def test_network_is_refused_beyond_loopback() -> None:
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("203.0.113.1", 80), timeout=1)
