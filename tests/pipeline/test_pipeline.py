"""scan() and the CLI end to end over the synthetic connector: store, decisions, exit codes, JSON Lines."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.errors import NoSourceReadable
from bootstrap_app.pipeline import ScanEvent, scan
from bootstrap_app.store import Store

from .synth import OWNER, Person, at, mail, mailbox, write_items

FIELDS = {"id", "fingerprint", "type", "name", "description", "body", "scope", "confidence", "evidence",
          "flags", "supersedes"}


@pytest.fixture
def items_file(tmp_path: Path) -> Path:
    return write_items(tmp_path / "box.items.json", mailbox())


def test_scan_records_run_items_and_proposals(items_file: Path, tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "home")
    events: list[ScanEvent] = []
    with Store(settings.db_path) as store:
        result = scan([str(items_file)], settings=settings, store=store, on_event=events.append)
        assert result.owner.addresses == {OWNER.address}
        assert result.reports[0].items == len(mailbox()) and result.reports[0].error is None
        assert store.item_count() == len(mailbox())
        assert {sp.fingerprint for sp in store.proposals()} == {p.fingerprint for p in result.proposals}
        assert store.runs()[0]["status"] == "finished"
        assert store.sources()[0]["location"] == str(items_file.resolve())
    kinds = {e.kind for e in events}
    assert {"source-start", "source-done", "stage"} <= kinds
    summary = result.summary()
    assert summary["by_type"]["user"] >= 3 and summary["errors"] == {}


def test_decided_fingerprints_are_not_proposed_again(items_file: Path, tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        first = scan([str(items_file)], settings=settings, store=store)
        victim = first.proposals[0]
        store.decide(victim.fingerprint, "rejected")
        second = scan([str(items_file)], settings=settings, store=store)
    assert victim.fingerprint not in {p.fingerprint for p in second.proposals}
    assert second.already_decided == 1
    assert second.new_proposals == 0 and first.new_proposals == len(first.proposals)


def test_bad_location_is_reported_and_scan_goes_on(items_file: Path, tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "home")
    result = scan([str(tmp_path / "missing.mbox"), str(items_file)], settings=settings)
    errors = result.summary()["errors"]
    assert list(errors) == [str(tmp_path / "missing.mbox")] and "no such file" in errors[str(tmp_path / "missing.mbox")]
    assert result.proposals
    with pytest.raises(NoSourceReadable) as info:
        scan([str(tmp_path / "missing.mbox")], settings=settings)
    assert "memseed sources" in info.value.hint


def test_cli_scan_writes_json_lines_and_summary(items_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "proposals.jsonl"
    quarantine = tmp_path / "q.jsonl"
    runner = CliRunner()
    res = runner.invoke(main, ["scan", str(items_file), "--out", str(out), "--quarantine", str(quarantine)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and all(set(rec) >= FIELDS for rec in lines)
    for rec in lines:
        assert rec["type"] in {"user", "feedback", "project", "reference"}
        assert rec["id"] == rec["fingerprint"][:8]
        assert all({"source", "ref", "date", "authored_by_owner", "excerpt"} <= set(e) for e in rec["evidence"])
    assert quarantine.exists()
    assert "items read" in res.stderr and "proposals:" in res.stderr
    res = runner.invoke(main, ["scan", str(items_file), "--json-summary"])
    assert res.exit_code == 0
    summary = json.loads(res.stderr.strip().splitlines()[-1])
    assert summary["items"] == len(mailbox())
    assert [json.loads(line)["name"] for line in res.stdout.splitlines()]  # proposals on stdout


def test_cli_bad_path_and_no_source(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["scan", str(tmp_path / "nope.mbox")])
    assert res.exit_code == 2
    assert "no source could be read" in res.stderr and "hint:" in res.stderr
    res = runner.invoke(main, ["scan"])
    assert res.exit_code == 2 and "--demo" in res.stderr


@pytest.mark.parametrize("command", ["scan", "sources", "reseed"])
def test_help_has_an_example(command: str) -> None:
    res = CliRunner().invoke(main, [command, "--help"])
    assert res.exit_code == 0 and "memseed " + command in res.output and "Example" in res.output


def test_sources_and_reseed_are_quiet_without_news(items_file: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["reseed"]).exit_code == 2  # nothing remembered yet
    assert runner.invoke(main, ["scan", str(items_file), "-q"]).exit_code == 0
    res = runner.invoke(main, ["sources"])
    assert "synthetic" in res.output and str(items_file.resolve()) in res.output
    res = runner.invoke(main, ["reseed", "--quiet"])
    assert res.exit_code == 0 and res.stdout == "" and res.stderr == ""
    # a new colleague starts answering: the collaborator list changes -> one new proposal
    zoe = Person("Zoe Park", "zoe@acme.example")
    extra = []
    for i in range(30):
        extra.append(mail(50_000 + 2 * i, OWNER, zoe, at(date(2026, 5, 4 + i % 5), 11), labels=("Sent",)))
        extra.append(mail(50_001 + 2 * i, zoe, OWNER, at(date(2026, 5, 4 + i % 5), 12)))
    with items_file.open("a") as fh:
        from .synth import to_json

        fh.writelines(json.dumps(to_json(m)) + "\n" for m in extra)
    res = runner.invoke(main, ["reseed", "--quiet"])
    assert res.exit_code == 0
    assert "new proposals wait for approval" in res.stdout
    assert not res.stdout.startswith("memseed reseed: 0 ")


def test_llm_gets_bounded_owner_sample_and_plain_signals(items_file: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The LLM step receives only the owner's own mails (at most 200) and plain-data signals that
    already hold the deterministic findings; what it returns goes through the safety gate like
    any proposal: a cited one is stored, one without evidence is quarantined as ``no-evidence``."""
    import bootstrap_app.pipeline as pipeline_module
    from bootstrap_app.extract.llm import LLMResult
    from bootstrap_app.types import Evidence, MemoryType, Proposal

    seen: dict[str, Any] = {}

    def fake(sample: Any, signals: Any, *, settings: Any, **_: Any) -> LLMResult:
        seen["sample"], seen["signals"] = list(sample), signals
        first = sample[0]
        cited = Proposal(type=MemoryType.USER, name="likes-short-mails", description="Writes short mails",
                         body="Ada writes short mails.", subject="llm:style", flags=("llm",),
                         evidence=(Evidence(first.source, first.ref, first.timestamp, True, "notes"),))
        uncited = Proposal(type=MemoryType.USER, name="invented-fact", description="Nothing backs this",
                           body="Ada owns a boat.", subject="llm:boat", flags=("llm",))
        return LLMResult(proposals=[cited, uncited], returned=2)

    monkeypatch.setattr(pipeline_module, "llm_extract", fake)
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        result = scan([str(items_file)], settings=settings, store=store, llm="openai")
        stored = {sp.proposal.name for sp in store.proposals()}
    sample = seen["sample"]
    assert 0 < len(sample) <= 200
    assert all(i.authored_by_owner and i.sender.address == OWNER.address for i in sample)
    signals = json.loads(json.dumps(seen["signals"]))  # plain data only: survives a JSON round trip
    assert signals["owner"]["addresses"] == [OWNER.address]
    assert "Priya Raman" in {c["name"] for c in signals["contacts"]}  # computed before the LLM ran
    assert "likes-short-mails" in stored and "invented-fact" not in stored
    assert [q.reason for q in result.quarantined if q.proposal_name == "invented-fact"] == ["no-evidence"]


def test_since_and_stop(items_file: Path, tmp_path: Path) -> None:
    from datetime import UTC, datetime

    settings = load_settings(tmp_path / "home")
    later = scan([str(items_file)], settings=settings, since=datetime(2026, 4, 1, tzinfo=UTC))
    full = len(mailbox())
    assert 0 < later.items < full
    stopped = scan([str(items_file)], settings=settings, should_stop=lambda: True)
    assert stopped.items == 0 and stopped.proposals == []


def test_existing_memory_dedups_and_supersedes(items_file: Path, tmp_path: Path) -> None:
    from bootstrap_app.types import MemoryEntry, MemoryType

    settings = load_settings(tmp_path / "home")
    first = {p.name: p for p in scan([str(items_file)], settings=settings).proposals}
    role = first["user-role"]
    same = MemoryEntry(source="claude-code:", ref="user-role.md", name="user-role", memory_type=MemoryType.USER,
                       description=role.description, body=role.body)
    old_team = MemoryEntry(source="claude-code:", ref="collab.md", name="closest-collaborators",
                           memory_type=MemoryType.USER, description="Works most closely with Bob Stone",
                           body="Bob Stone <bob@acme.example>")
    again = scan([str(items_file)], settings=settings, existing_memory=[same, old_team])
    names = {p.name: p for p in again.proposals}
    assert "user-role" not in names and again.duplicates == 1
    assert names["closest-collaborators"].supersedes == "closest-collaborators" and again.superseding == 1


def test_sources_json_and_forget(items_file: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["scan", str(items_file), "-q"]).exit_code == 0
    data = json.loads(runner.invoke(main, ["sources", "--json"]).output)
    assert {"mbox", "ics", "synthetic"} <= {k["kind"] for k in data["kinds"]}
    assert any(u["uri"] == "claude-code:[PROJECT]" for u in data["uris"])
    assert [r["location"] for r in data["remembered"]] == [str(items_file.resolve())]
    runner.invoke(main, ["sources", "--forget", str(items_file.resolve())])
    assert json.loads(runner.invoke(main, ["sources", "--json"]).output)["remembered"] == []


def test_a_failing_source_is_reported_and_the_others_still_count(items_file: Path, tmp_path: Path) -> None:
    boom = tmp_path / "x.boom"
    boom.write_text("x")
    result = scan([str(boom), str(items_file)], settings=load_settings(tmp_path / "home"))
    failed = next(r for r in result.reports if r.kind == "boom")
    assert failed.items == 1 and failed.error == "RuntimeError: connector bug"
    assert result.proposals and result.summary()["errors"] == {failed.source: failed.error}


def test_reseed_also_reads_the_sources_listed_in_config(items_file: Path) -> None:
    runner = CliRunner()
    home = Path(load_settings().home)
    (home / "config.toml").write_text(f"sources = [{json.dumps(str(items_file))}]\n", encoding="utf-8")
    res = runner.invoke(main, ["reseed", "--json-summary"])
    assert res.exit_code == 0, res.output
    outcome = json.loads(res.stdout)
    assert outcome["new_items"] == len(mailbox()) and outcome["new_proposals"] > 0
