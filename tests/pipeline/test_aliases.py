"""Suggested aliases: stored by a scan, listed and decided by `memseed sources`, counted once confirmed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.errors import ConfigError
from bootstrap_app.identity.aliases import alias_evidence, confirm_alias, list_aliases, reject_alias
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from tests.safety import lookalike as L


def test_store_keeps_decisions_across_new_suggestions(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.suggest_aliases({"a@x.example": "shown with the owner's name", "b@y.example": "built from the name"})
        confirm_alias(store, "A@X.example")
        reject_alias(store, "b@y.example")
        store.suggest_aliases({"a@x.example": "newer evidence", "b@y.example": "newer", "c@z.example": "new"})
        rows = {a.address: (a.status, a.evidence) for a in list_aliases(store)}
        assert rows == {"a@x.example": ("confirmed", "shown with the owner's name"),
                        "b@y.example": ("rejected", "built from the name"), "c@z.example": ("suggested", "new")}
        assert list_aliases(store)[0].address == "c@z.example"  # pending first
        assert alias_evidence(store) == (("a@x.example",), frozenset({"b@y.example"}))
        with pytest.raises(ConfigError):
            confirm_alias(store, "not an address")


def test_cli_lists_confirms_and_the_next_scan_counts_it(tmp_path: Path) -> None:
    mbox = tmp_path / "mail.mbox"
    L.write_corpus(mbox)
    home = tmp_path / "home"
    runner = CliRunner()
    res = runner.invoke(main, ["--home", str(home), "scan", str(mbox), "-q", "--out", str(tmp_path / "p.jsonl")])
    assert res.exit_code == 0, res.output
    assert "suggested aliases (not counted as yours until confirmed): 11" in res.stderr
    res = runner.invoke(main, ["--home", str(home), "sources"])
    assert res.exit_code == 0, res.output
    assert "Suggested aliases" in res.output and "priya.raman@gmail.com" in res.output
    assert "--confirm-alias" in res.output
    res = runner.invoke(main, ["--home", str(home), "sources", "--reject-alias", "priya.raman@gmail.com",
                               "--confirm-alias", "praman@yahoo.com", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    status = {a["address"]: a["status"] for a in data["aliases"]}
    assert status["priya.raman@gmail.com"] == "rejected" and status["praman@yahoo.com"] == "confirmed"
    settings = load_settings(home)
    with Store(settings.db_path) as store:
        again = scan([str(mbox)], settings=settings, store=store)
    assert again.owner.reasons["praman@yahoo.com"] == "alias confirmed by the owner"
    assert "priya.raman@gmail.com" not in again.owner.addresses | set(again.owner.suggested)
    res = runner.invoke(main, ["--home", str(home), "sources", "--confirm-alias", "no-at-sign here"])
    assert res.exit_code != 0 and "not an e-mail address" in res.output + res.stderr
