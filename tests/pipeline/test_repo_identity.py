"""Two checkouts with the same folder name are two questions, and an upgrade re-asks nothing.

Repository facts are keyed by the checkout's path (``repo:<path>:<topic>``). Before schema 3
they were keyed by folder name, so ``~/work/api`` and ``~/oss/api`` with the same commands got
one fingerprint: approving one approved the other, and the second was never proposed. The
store migration re-keys the old proposals to their checkout (their ``scope``), and the
decision, the write journal and proposals that supersede them follow.

End to end on repositories built with ``git``: scan, decide, reseed through the CLI; the old
store is made by writing what the old code wrote (folder-name subjects) into a store rolled
back to schema 1.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.store import SCHEMA_VERSION, Store
from bootstrap_app.types import DecisionStatus, Proposal, legacy_repo_subject, repo_subject


def _git(repo: Path, *args: str) -> None:
    when = "2026-02-02T10:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": "Ines Varga", "GIT_AUTHOR_EMAIL": "ines@tools.example",
           "GIT_COMMITTER_NAME": "Ines Varga", "GIT_COMMITTER_EMAIL": "ines@tools.example",
           "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _api(parent: Path) -> Path:
    """A small Python repository called ``api`` (same files wherever it is made)."""
    repo = parent / "api"
    repo.mkdir(parents=True)
    _git(parent, "init", "-q", "-b", "main", str(repo))
    (repo / "README.md").write_text("# api\n\napi serves the stock levels of the warehouse.\n")
    (repo / "Makefile").write_text("test:\n\tpytest -q\n\nlint:\n\truff check .\n")
    (repo / "pyproject.toml").write_text('[project]\nname = "api"\nrequires-python = ">=3.12"\n')
    (repo / "app.py").write_text("VALUE = 1\n")
    (repo / ".commitlintrc.json").write_text('{"extends": ["@commitlint/config-conventional"]}\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "feat: stock levels")
    return repo


def _commit(repo: Path) -> None:
    """A new commit that changes no fact (so a reseed reads the repository again in full)."""
    (repo / "app.py").write_text("VALUE = 2\n")
    _git(repo, "commit", "-q", "-am", "fix: value")


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _repo_proposals(store: Store) -> dict[tuple[str, str], Proposal]:
    """(scope, name) -> proposal, for every stored proposal scoped to a checkout."""
    return {(sp.proposal.scope, sp.proposal.name): sp.proposal for sp in store.proposals()
            if sp.proposal.scope != "global"}


def test_two_checkouts_with_one_folder_name_are_two_proposals(tmp_path: Path) -> None:
    work, oss = _api(tmp_path / "work"), _api(tmp_path / "oss")
    _cli("scan", str(work), str(oss), "--quiet")
    with Store(load_settings().db_path) as store:
        found = _repo_proposals(store)
    a, b = found[(str(work.resolve()), "api-commands")], found[(str(oss.resolve()), "api-commands")]
    assert a.key == b.key and a.description == b.description  # the same facts ...
    assert a.fingerprint != b.fingerprint  # ... about two places
    assert a.subject == repo_subject(str(work.resolve()), "api", "commands")
    # deciding one leaves the other asked, also after a reseed
    _cli("approve", a.id)
    _commit(work)
    _commit(oss)
    outcome = json.loads(_cli("reseed", "--json-summary"))
    assert outcome["new_items"] >= 2 and outcome["already_decided"] >= 1
    with Store(load_settings().db_path) as store:
        undecided = {sp.fingerprint for sp in store.proposals(status="undecided")}
        assert a.fingerprint not in undecided and b.fingerprint in undecided
        assert store.decision(b.fingerprint) is None


def _downgrade_to_schema_1(db_path: Path) -> None:
    """Roll a store back to what memseed wrote at schema 1 (no ``sources.parts``, no renames)."""
    db = sqlite3.connect(db_path)
    db.execute("ALTER TABLE sources DROP COLUMN parts")
    db.execute("DROP TABLE fingerprint_renames")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()


def test_an_old_store_keeps_its_decisions_after_the_upgrade(tmp_path: Path) -> None:
    repo = _api(tmp_path / "work")
    _cli("scan", str(repo), "--quiet")
    settings = load_settings()
    with Store(settings.db_path) as store:
        now = list(_repo_proposals(store).values())
        # what the old code stored: the same proposals, keyed by folder name
        old = [replace(p, subject=f"repo:api:{p.subject.rsplit(':', 1)[1]}") for p in now]
        assert {legacy_repo_subject(p.subject, p.scope) for p in old} == {p.subject for p in now}
        store._db.execute("DELETE FROM proposals")
        run = store.start_run("scan", [str(repo)])
        store.save_proposals(run, old)
        commands = next(p for p in old if p.name == "api-commands")
        convention = next(p for p in old if p.name != "api-commands")
        store.decide(commands.fingerprint, DecisionStatus.APPROVED)
        store.decide(convention.fingerprint, DecisionStatus.REJECTED)
    _cli("write", "--target", "claude-code", "--project", str(repo))  # written under the old id
    memory = next((Path(os.environ["HOME"]) / ".claude" / "projects").glob("*api/memory"))
    assert f"memseed_id: {commands.id}" in (memory / "api-commands.md").read_text()
    _downgrade_to_schema_1(settings.db_path)

    with Store(settings.db_path) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        by_name = {sp.proposal.name: sp for sp in store.proposals()}
        assert by_name["api-commands"].proposal.subject == repo_subject(str(repo.resolve()), "api", "commands")
        assert by_name["api-commands"].decision is not None and by_name["api-commands"].decision.approved
        assert by_name[convention.name].decision is not None
        assert by_name[convention.name].decision.status is DecisionStatus.REJECTED
        new_fp = by_name["api-commands"].fingerprint
        assert new_fp != commands.fingerprint and set(store.written("claude-code")) == {new_fp}
        assert store.get(commands.id).fingerprint == new_fp  # the id the person saw still works
    # writing again finds the entry memseed wrote under the old id: no second file, no "removed" note
    out = _cli("write", "--target", "claude-code", "--project", str(repo))
    assert "removed since" not in out and sorted(f.name for f in memory.iterdir()) == ["MEMORY.md", "api-commands.md"]
    assert f"memseed_id: {new_fp[:8]}" in (memory / "api-commands.md").read_text()
    # a reseed of the same repository asks nothing again
    _commit(repo)
    outcome = json.loads(_cli("reseed", "--json-summary"))
    assert outcome["new_items"] >= 1 and outcome["already_decided"] >= 2
    with Store(settings.db_path) as store:
        assert [sp.proposal.name for sp in store.proposals(status="undecided")
                if sp.proposal.scope != "global"] == []
        assert len(_repo_proposals(store)) == len(now)


def test_legacy_subject_rule() -> None:
    assert legacy_repo_subject("repo:api:commands", "/home/u/oss/api") == "repo:/home/u/oss/api:commands"
    assert legacy_repo_subject("repo:api:commands", "/home/u/oss/web") is None  # another folder
    assert legacy_repo_subject("repo:/home/u/oss/api:commands", "/home/u/oss/api") is None  # already new
    assert legacy_repo_subject("repo:api:commands", "global") is None
    assert legacy_repo_subject("repo:api", "/home/u/oss/api") == "repo:/home/u/oss/api"  # an LLM's short form
    assert legacy_repo_subject("person:a@b.example", "/x/api") is None
    assert json.dumps(legacy_repo_subject("repo:api:signoff", "C:\\src\\api")) == json.dumps("repo:C:\\src\\api:signoff")
