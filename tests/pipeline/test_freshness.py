"""Facts that change: npm + jest -> pnpm + vitest becomes an update of the approved entry.

End to end through the CLI on a generated git repository: ``scan`` (no ``--owner``: a newcomer),
approve everything, switch the repository to pnpm and vitest and commit, ``reseed``. The reseed
must propose exactly one update — the commands entry — keeping its name, naming the entry and
fingerprint it supersedes, carrying the old text (npm, jest) next to the new (pnpm, vitest), and
no second ``…-commands`` entry. Written to markdown, Claude Code and Hermes before and after:
each holds only the new fact afterwards, and ``memseed undo`` restores the old bytes. Every
proposal carries the date range of its evidence.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.extract.heuristic import heuristic_proposals
from bootstrap_app.extract.supersede import Approved, link_updates
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal


def _git(repo: Path, *args: str, when: str = "2026-02-02T10:00:00+00:00") -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Rita Lund", "GIT_AUTHOR_EMAIL": "rita@shop.example",
           "GIT_COMMITTER_NAME": "Rita Lund", "GIT_COMMITTER_EMAIL": "rita@shop.example",
           "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _shop(root: Path) -> Path:
    repo = root / "shop-web"
    repo.mkdir()
    _git(root, "init", "-q", "-b", "main", str(repo))
    (repo / "README.md").write_text("# shop-web\n\nshop-web is a storefront for the Lund family bakery.\n")
    (repo / "package.json").write_text(json.dumps(
        {"name": "shop-web", "scripts": {"test": "jest --ci", "lint": "eslint ."}, "engines": {"node": ">=20"}}))
    (repo / "package-lock.json").write_text("{}\n")
    (repo / "index.js").write_text("module.exports = {}\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "feat: storefront", when="2026-01-05T10:00:00+00:00")
    return repo


def test_npm_jest_to_pnpm_vitest_is_one_update_naming_what_it_replaces(tmp_path: Path) -> None:
    repo = _shop(tmp_path)
    _cli("scan", str(repo), "--quiet")
    settings = load_settings()
    with Store(settings.db_path) as store:
        first = {sp.proposal.name: sp.proposal for sp in store.proposals()}
    old = first["shop-web-commands"]
    assert "`npm test` → `jest --ci`" in old.body and "package manager: npm" in old.body
    assert old.evidence_from is not None and old.evidence_to is not None
    _cli("approve", *[p.id for p in first.values()])
    memory = tmp_path / "proj"
    _cli("write", "--target", "markdown", "--project", str(memory))
    _cli("write", "--target", "claude-code", "--project", str(repo))
    _cli("write", "--target", "hermes")
    home = Path(os.environ["HOME"])
    claude = next((home / ".claude" / "projects").glob("*shop-web/memory"))
    hermes = repo / "AGENTS.md"  # a repository's facts: its own AGENTS.md, which Hermes loads only there
    claude_before = {f.name: f.read_bytes() for f in claude.iterdir()}
    hermes_before = hermes.read_text()
    assert "npm test" in hermes_before and "npm test" in claude_before["shop-web-commands.md"].decode()
    before = {f.name: f.read_text() for f in (memory / "memory").glob("*.md")}
    assert "npm test" in before["shop-web-commands.md"]

    (repo / "package-lock.json").unlink()
    (repo / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (repo / "package.json").write_text(json.dumps(
        {"name": "shop-web", "packageManager": "pnpm@9.12.0",
         "scripts": {"test": "vitest run", "lint": "eslint ."}, "engines": {"node": ">=20"}}))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "build: move to pnpm and vitest", when="2026-03-09T10:00:00+00:00")

    summary = json.loads(_cli("reseed", "--json-summary").strip().splitlines()[-1])
    assert summary["new_proposals"] == 1 and summary["updates"] == 1
    with Store(settings.db_path) as store:
        waiting = [sp.proposal for sp in store.proposals(status="undecided")]
    assert len(waiting) == 1
    update = waiting[0]
    assert update.name == "shop-web-commands"  # replaced in place, no "shop-web-commands-2"
    assert update.supersedes == old.name and update.supersedes_fingerprint == old.fingerprint
    assert "update" in update.flags
    assert "`pnpm test` → `vitest run`" in update.body and "package manager: pnpm" in update.body
    assert "`jest" not in update.body and "`npm test`" not in update.body
    assert "`npm test` → `jest --ci`" in update.previous  # old against new for review
    assert update.evidence_to is not None and update.evidence_to.date().isoformat() == "2026-03-09"
    assert update.evidence_from is not None and update.evidence_from.date().isoformat() == "2026-01-05"
    shown = _cli("review", "--list")
    assert update.id in shown
    # approved and written: the entry is replaced in place, and undo brings the old one back
    _cli("approve", update.id)
    _cli("write", "--target", "markdown", "--project", str(memory))
    after = {f.name: f.read_text() for f in (memory / "memory").glob("*.md")}
    assert set(after) == set(before)  # no second shop-web-commands entry
    assert "pnpm test" in after["shop-web-commands.md"] and "`npm test`" not in after["shop-web-commands.md"]
    _cli("write", "--target", "claude-code", "--project", str(repo))
    _cli("write", "--target", "hermes")
    claude_after = {f.name: f.read_bytes().decode() for f in claude.iterdir()}
    assert set(claude_after) == set(claude_before)  # replaced in place: same files, one commands entry
    assert "pnpm test" in claude_after["shop-web-commands.md"] and "`npm test`" not in claude_after["shop-web-commands.md"]
    hermes_after = hermes.read_text()
    assert "pnpm test" in hermes_after and "`npm test`" not in hermes_after
    assert hermes_after.count("shop-web") == hermes_before.count("shop-web")
    for _ in range(3):  # hermes, claude-code, markdown: each write undone, newest first
        _cli("undo")
    assert {f.name: f.read_text() for f in (memory / "memory").glob("*.md")} == before
    assert {f.name: f.read_bytes() for f in claude.iterdir()} == claude_before
    assert hermes.read_text() == hermes_before
    # nothing new since: a second reseed proposes nothing
    again = json.loads(_cli("reseed", "--json-summary").strip().splitlines()[-1])
    assert again["new_proposals"] == 0


def _p(subject: str, key: str, name: str = "manager") -> Proposal:
    return Proposal(type=MemoryType.USER, name=name, description=f"Manager: {key}", body=f"The manager is {key}.",
                    subject=subject, key=key, evidence=(Evidence("mbox:x", key),))


def test_link_updates_new_manager_moved_runbook_and_chains() -> None:
    old = _p("owner:manager", "dana@acme.example")
    new = _p("owner:manager", "lee@acme.example")
    renamed = Approved(old.__class__(**{**old.__dict__, "name": "my-boss"}), old.fingerprint, 1.0)
    [linked], n = link_updates([new], [renamed])
    assert n == 1 and linked.supersedes == "my-boss" and linked.name == "my-boss"  # the edited name is kept
    assert linked.supersedes_fingerprint == old.fingerprint and "dana@acme.example" in linked.previous
    # a runbook that moved: same name, new subject (its path)
    book_old = _p("doc:ops/runbook.md", "ops/runbook.md", "runbook-deploys")
    book_new = _p("doc:docs/ops/runbook.md", "docs/ops/runbook.md", "runbook-deploys")
    [moved], _ = link_updates([book_new], [Approved(book_old, book_old.fingerprint, 1.0)])
    assert moved.supersedes == "runbook-deploys" and moved.supersedes_fingerprint == book_old.fingerprint
    # the newest approved entry is the one replaced; an already-decided proposal is left alone
    newer = Approved(new, new.fingerprint, 2.0)
    third = _p("owner:manager", "kim@acme.example")
    [chain], _ = link_updates([third], [Approved(old, old.fingerprint, 1.0), newer])
    assert chain.supersedes_fingerprint == new.fingerprint
    [same], n = link_updates([new], [newer], decided={new.fingerprint})
    assert n == 0 and same.supersedes is None
    unrelated = _p("owner:hours", "09:00-17:00", "working-hours")
    [alone], n = link_updates([unrelated], [newer])
    assert n == 0 and alone.supersedes is None


def test_link_updates_keeps_two_checkouts_of_the_same_folder_name_apart() -> None:
    """~/work/api and ~/oss/api give the same subject and entry name; each lives in its own
    project's memory, so the second is a new entry, while a change in the same checkout updates."""
    from dataclasses import replace

    work = replace(_p("repo:api:commands", "pm=npm", "api-commands"), type=MemoryType.PROJECT, scope="/home/u/work/api")
    oss = replace(_p("repo:api:commands", "pm=cargo", "api-commands"), type=MemoryType.PROJECT, scope="/home/u/oss/api")
    [other], n = link_updates([oss], [Approved(work, work.fingerprint, 1.0)])
    assert n == 0 and other.supersedes is None and "update" not in other.flags
    moved_on = replace(work, key="pm=pnpm")
    [update], n = link_updates([moved_on], [Approved(work, work.fingerprint, 1.0)])
    assert n == 1 and update.supersedes_fingerprint == work.fingerprint


def test_location_signature_changes_with_any_file_and_leaves_git_to_its_cursor(tmp_path: Path) -> None:
    from connectors.signature import location_signature

    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "a.mbox").write_text("From x\n\nhello\n")
    first = location_signature(str(folder))
    assert first is not None and first == location_signature(str(folder))
    with (folder / "a.mbox").open("a") as fh:
        fh.write("From y\n\nmore\n")
    assert location_signature(str(folder)) != first
    # the same size and the old mtime kept (cp -p / rsync -t over it): still a change
    kept, one = location_signature(str(folder)), location_signature(str(folder / "a.mbox"))
    st = (folder / "a.mbox").stat()
    head = "From z\n\nHELLO\n"
    (folder / "new.tmp").write_text(head + "x" * (st.st_size - len(head)))
    assert (folder / "new.tmp").stat().st_size == st.st_size
    os.replace(folder / "new.tmp", folder / "a.mbox")
    os.utime(folder / "a.mbox", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert location_signature(str(folder)) != kept and location_signature(str(folder / "a.mbox")) != one
    assert location_signature(str(folder / "a.mbox")) is not None
    assert location_signature(str(_shop(tmp_path))) is None  # a git working copy: HEAD decides
    assert location_signature(str(tmp_path / "missing")) is None


def _scanned_runbooks(tmp_path: Path) -> tuple[Path, dict[str, Proposal]]:
    """A notes folder with two runbooks, scanned through the CLI: the folder and its proposals by name."""
    docs = tmp_path / "notes"
    docs.mkdir()
    (docs / "runbook-deploys.md").write_text("# Runbook: deploys\n\nSteps for a deploy.\n")
    (docs / "oncall-runbook-db.md").write_text("# On-call runbook: database\n\nWhat to check.\n")
    _cli("scan", str(docs), "--quiet")
    with Store(load_settings().db_path) as store:
        return docs, {sp.proposal.name: sp.proposal for sp in store.proposals()}


def test_moved_runbook_is_an_update_and_a_vanished_one_a_removal(tmp_path: Path) -> None:
    docs, first = _scanned_runbooks(tmp_path)
    settings = load_settings()
    assert {"runbook-deploys", "runbook-on-call-runbook-database"} <= set(first)
    _cli("approve", *[p.id for p in first.values()])
    _cli("write", "--target", "markdown", "--project", str(tmp_path / "proj"))
    (docs / "ops").mkdir()
    (docs / "runbook-deploys.md").rename(docs / "ops" / "runbook-deploys.md")  # moved
    (docs / "oncall-runbook-db.md").unlink()  # gone
    _cli("reseed", "--json-summary")
    with Store(settings.db_path) as store:
        waiting = {sp.proposal.name: sp.proposal for sp in store.proposals(status="undecided")}
    moved = waiting["runbook-deploys"]
    assert moved.supersedes == "runbook-deploys" and moved.supersedes_fingerprint == first["runbook-deploys"].fingerprint
    assert "ops/runbook-deploys.md" in moved.body and "update" in moved.flags and "stale" not in moved.flags
    gone = waiting["runbook-on-call-runbook-database"]
    old = first["runbook-on-call-runbook-database"]
    assert gone.flags == ("stale", "remove") and gone.supersedes_fingerprint == old.fingerprint
    assert "oncall-runbook-db.md" in gone.body and "No longer holds" in gone.body and gone.previous
    assert len(waiting) == 2


def test_stale_references_in_a_repository(tmp_path: Path) -> None:
    from bootstrap_app.extract.verify import stale_references

    repo = tmp_path / "svc"
    (repo / "scripts").mkdir(parents=True)
    (repo / "Makefile").write_text("lint:\n\truff check .\n")
    (repo / "package.json").write_text(json.dumps({"scripts": {"test": "vitest run"}}))
    (repo / "scripts" / "deploy.sh").write_text("#!/bin/sh\n")
    body = ("- Lint: `make lint`\n- Format: `make fmt`\n- Test: `npm test`; also `npm run e2e`\n"
            "- Setup: `npm install`\n- Deploy: `scripts/deploy.sh`, `scripts/release.sh`\n"
            "- Changelog: `CHANGELOG.md`\n- Default branch: `main`\n- Build: `cargo build` / `go test ./...`")
    assert stale_references(body, str(repo)) == ["make fmt", "npm run e2e", "scripts/release.sh", "CHANGELOG.md"]
    assert stale_references(body, str(tmp_path / "gone")) == [str(tmp_path / "gone")]
    # a default branch with a slash is a git ref, not a missing path
    assert stale_references("- Default branch: `release/v2`; CI: GitHub Actions", str(repo)) == []


def test_stale_references_use_the_runner_the_scan_named(tmp_path: Path) -> None:
    """A bun project with the text lockfile (bun.lock) says `bun test`; that still holds."""
    from bootstrap_app.extract.verify import stale_references

    repo = tmp_path / "web"
    repo.mkdir()
    (repo / "package.json").write_text(json.dumps({"scripts": {"test": "bun test", "lint": "biome check ."}}))
    (repo / "bun.lock").write_text("{}\n")
    assert stale_references("- Test: `bun test`\n- Lint: `bun lint`\n- E2E: `bun e2e`", str(repo)) == ["bun e2e"]


def test_a_new_manager_named_after_the_old_ones_last_1on1_is_the_manager_now() -> None:
    from datetime import date

    from tests.pipeline.synth import OWNER, PRIYA, at, mail, mailbox, standup_series
    from tests.pipeline.test_signals import build

    items = mailbox() + standup_series()  # weekly 1:1 organised by Daniel, March-April
    _owner, signals = build(items, owners=[OWNER.address])
    assert signals.manager is not None and signals.manager.key == "daniel@acme.example"
    news = mail(99_001, OWNER, PRIYA, at(date(2026, 5, 6), 11), labels=("Sent",),
                body="Quick update: my new manager is Lee Park, starting this week.\n\nAda")
    _owner, signals = build([*items, news], owners=[OWNER.address])
    assert signals.manager is not None and signals.manager.name == "Lee Park"
    assert any("after the last sign of" in r for r in signals.manager.reasons)
    # said while the 1:1 with Daniel still goes on: not enough to replace him
    early = mail(99_002, OWNER, PRIYA, at(date(2026, 3, 10), 11), labels=("Sent",),
                 body="FYI my manager is Lee Park for the offsite.\n\nAda")
    _owner, signals = build([*items, early], owners=[OWNER.address])
    assert signals.manager is not None and signals.manager.key == "daniel@acme.example"
    # and the changed manager becomes an update of the approved entry, naming it
    old = next(p for p in heuristic_proposals(build(items, owners=[OWNER.address])[1]) if p.name == "manager")
    new = next(p for p in heuristic_proposals(build([*items, news], owners=[OWNER.address])[1]) if p.name == "manager")
    [linked], n = link_updates([new], [Approved(old, old.fingerprint, 1.0)])
    assert n == 1 and linked.supersedes_fingerprint == old.fingerprint and "Daniel" in linked.previous
    assert "Lee Park" in linked.body


def test_location_signature_survives_undecodable_file_names(tmp_path: Path) -> None:
    from connectors.signature import location_signature

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("x")
    assert location_signature(str(folder)) is not None


def test_new_proposal_fields_round_trip_through_json() -> None:
    from datetime import UTC, datetime

    ev = (Evidence("git:/r", "r", datetime(2026, 3, 1, tzinfo=UTC), structural=True),
          Evidence("git:/r", "s", datetime(2026, 1, 1, tzinfo=UTC)))
    p = Proposal(type=MemoryType.PROJECT, name="r-commands", description="d", body="b", subject="repo:r:commands",
                 evidence=ev, supersedes="r-commands", supersedes_fingerprint="abc", previous="old text",
                 evidence_from=datetime(2025, 6, 1, tzinfo=UTC))
    assert p.evidence_to == datetime(2026, 3, 1, tzinfo=UTC) and p.evidence_from == datetime(2025, 6, 1, tzinfo=UTC)
    back = Proposal.from_json(json.loads(json.dumps(p.to_json())))
    assert back == p and back.evidence[0].structural and not back.evidence[1].structural
    later = Proposal(type=MemoryType.PROJECT, name="x", description="d", body="b", subject="s", evidence=ev,
                     evidence_from=datetime(2026, 2, 1, tzinfo=UTC))
    assert later.evidence_from == datetime(2026, 1, 1, tzinfo=UTC)  # never later than the oldest evidence


def test_an_approved_removal_deletes_the_entry_everywhere_and_undo_restores_it(tmp_path: Path) -> None:
    """reseed -> approve the removal -> write -> history -> undo, through the CLI: each harness
    loses the entry (Claude Code topic file and its MEMORY.md line, Hermes entry, markdown file),
    the journal keeps the old text, a second write changes nothing, undo is byte-exact."""
    docs, first = _scanned_runbooks(tmp_path)
    settings = load_settings()
    _cli("approve", *[p.id for p in first.values()])
    memory, project = tmp_path / "proj", tmp_path / "work"
    project.mkdir()
    targets = (("markdown", "--project", str(memory)), ("claude-code", "--project", str(project)), ("hermes",))
    for target in targets:
        _cli("write", "--target", *target)
    home = Path(os.environ["HOME"])
    folders = [memory / "memory", next((home / ".claude" / "projects").glob("*work/memory")), home / ".hermes" / "memories"]

    def snapshot() -> dict[Path, bytes]:
        return {f: f.read_bytes() for folder in folders for f in sorted(folder.iterdir()) if f.suffix == ".md"}

    before = snapshot()
    gone_file = "runbook-on-call-runbook-database.md"
    assert all((folder / gone_file).is_file() for folder in folders[:2])
    assert "oncall-runbook-db.md" in (folders[2] / "MEMORY.md").read_text()
    (docs / "oncall-runbook-db.md").unlink()
    assert json.loads(_cli("reseed", "--json-summary").strip().splitlines()[-1])["new_items"] == 1
    with Store(settings.db_path) as store:
        [removal] = [sp.proposal for sp in store.proposals(status="undecided")]
    assert removal.flags == ("stale", "remove")
    _cli("approve", removal.id)
    for target in targets:
        _cli("write", "--target", *target)
    after = snapshot()
    for folder in folders[:2]:
        assert not (folder / gone_file).exists() and (folder / "runbook-deploys.md").is_file()
        index = (folder / "MEMORY.md").read_text()
        assert gone_file not in index and "runbook-deploys.md" in index
    hermes = (folders[2] / "MEMORY.md").read_text()
    assert "oncall-runbook-db.md" not in hermes and "runbook-deploys.md" in hermes
    assert "No longer holds" not in "".join(b.decode() for b in after.values())  # the note is never written
    shown = _cli("history")
    checked = removal.evidence[0].date
    assert checked is not None and shown.count(f"removed (true until {checked.date().isoformat()})") == 3
    for target in targets:  # done: nothing left to write, no note about an entry "not memseed's"
        out = _cli("write", "--target", *target)
        assert "not one memseed wrote" not in out
    assert snapshot() == after
    for _ in targets:  # undo the three removals, newest first
        _cli("undo")
    assert snapshot() == before
