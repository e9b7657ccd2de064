"""Microsoft URIs end to end: `memseed scan`, the pipeline, `memseed sources`, `memseed reseed`."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import count_new_items, scan
from bootstrap_app.store import Store

from .ms_fixtures import OWNER, PEERS
from .ms_standin import MSStandIn


@pytest.mark.parametrize("uri,kinds", [
    ("outlook:", {"outlook"}), ("outlook-calendar:", {"outlook-calendar"}), ("onedrive:", {"onedrive"}),
    ("microsoft:", {"outlook", "outlook-calendar", "onedrive"}),
])
def test_every_uri_scans_through_the_cli(account: Path, ms: MSStandIn, uri: str, kinds: set[str]) -> None:
    result = CliRunner().invoke(main, ["scan", uri, "--json-summary", "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with Store(account / "state.db") as store:
        remembered = [s["location"] for s in store.sources()]
        counts = {kind: len(store.item_digests(f"{kind}:")) for kind in ("outlook", "outlook-calendar", "onedrive")}
    assert remembered == [uri]
    assert {k for k, n in counts.items() if n} == kinds
    if "outlook" in kinds:
        assert counts["outlook"] == 27
    if "outlook-calendar" in kinds:
        assert counts["outlook-calendar"] == 4
    if "onedrive" in kinds:
        assert counts["onedrive"] == 1


def test_pipeline_finds_the_owner_and_reseed_reads_only_what_is_new(account: Path, ms: MSStandIn) -> None:
    settings = load_settings(account)
    before = ms.world.graph_requests()
    with Store(settings.db_path) as store:
        result = scan(["microsoft:"], settings=settings, store=store)
        first = ms.world.graph_requests() - before
        assert not [r.error for r in result.reports if r.error]
        assert OWNER[1] in result.owner.addresses
        assert result.proposals  # contacts / rhythms from the account
        # first scan: /me, 2 mail folders, 1 calendar page, 1 drive page, 1 download
        assert first == 6
        calm = ms.world.graph_requests()
        new, failed = count_new_items(["microsoft:"], store, settings)
        assert (new, failed) == (0, [])
        assert ms.world.graph_requests() - calm == 4  # one delta link per folder/calendar/drive
        assert [p for kind, p in ms.world.log[-4:] if "$deltatoken" not in p] == []
        ms.world.add_message("sentitems", subject="Decision: ship Friday", sender=OWNER, to=[PEERS[0]],
                             body="We ship on Friday.", when=dt.datetime(2026, 10, 30, tzinfo=dt.UTC))
        calm = ms.world.graph_requests()
        again = scan(["microsoft:"], settings=settings, store=store, incremental=True)
        assert ms.world.graph_requests() - calm == 4
        assert sum(r.items for r in again.reports) == 1


@pytest.mark.parametrize("directory", [True, False])
def test_user_role_states_the_directory_title_and_employer(account: Path, ms: MSStandIn, directory: bool) -> None:
    """Graph's /me directory entry names the owner's title and company; without it (null, as
    Graph answers for an account the admin filled in nothing for) the mail domain is used."""
    if not directory:
        ms.world.user.update(jobTitle=None, companyName=None, department=None)
    settings = load_settings(account)
    with Store(settings.db_path) as store:
        result = scan(["microsoft:"], settings=settings, store=store)
    assert not [r.error for r in result.reports if r.error]
    role = next(p for p in result.proposals if p.name == "user-role")
    if directory:
        assert "Maya Okafor is a Principal Platform Engineer at Contoso Pharmaceuticals." in role.body
        assert "directory (Microsoft 365)" in role.body
        assert any("directory entry" in e.ref for e in role.evidence)
    else:
        assert "Principal Platform Engineer" not in role.body and "Pharmaceuticals" not in role.body
        assert "directory" not in role.body
        assert "(Employer inferred from the email domain, not stated.)" in role.body


@pytest.mark.parametrize("uris,me_reads", [
    (["outlook:"], 1), (["outlook-calendar:"], 1), (["onedrive:"], 1), (["microsoft:"], 1),
    (["outlook:", "onedrive:"], 2),  # two URIs are two accounts' worth of sources: each asks once
])
def test_every_graph_source_reads_the_directory_once_per_account(account: Path, ms: MSStandIn, uris: list[str],
                                                                 me_reads: int) -> None:
    """``/me`` (job title, employer) reaches the profile whichever Graph source runs, read once
    per account: ``microsoft:``'s three parts share it, and a reseed takes it from the cursors."""
    settings = load_settings(account)
    with Store(settings.db_path) as store:
        result = scan(uris, settings=settings, store=store)
        assert ms.world.graph_requests("/v1.0/me?") == me_reads
        role = next(p for p in result.proposals if p.name == "user-role")
        assert "Principal Platform Engineer at Contoso Pharmaceuticals" in role.body
        assert "directory (Microsoft 365)" in role.body
        scan(uris, settings=settings, store=store, incremental=True)
        assert ms.world.graph_requests("/v1.0/me?") == me_reads  # cursors keep the entry: no new /me


def test_sources_lists_the_account_and_cli_errors_are_one_line(account: Path, ms: MSStandIn) -> None:
    out = CliRunner().invoke(main, ["sources", "--json"], catch_exceptions=False)
    assert out.exit_code == 0
    text = out.output
    data = json.loads(text)
    blob = json.dumps(data)
    assert "outlook" in blob and "maya@contoso.test" in blob
    ms.world.revoked = True
    result = CliRunner().invoke(main, ["scan", "outlook:", "-q"])
    assert result.exit_code != 0
    assert "memseed auth microsoft" in result.output
    with Store(account / "state.db") as store:
        assert store.cursor("outlook:") is None


def test_memseed_reseed_with_nothing_new_costs_one_request_per_delta(account: Path, ms: MSStandIn) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["scan", "microsoft:", "-q"], catch_exceptions=False).exit_code == 0
    before = ms.world.graph_requests()
    calm = runner.invoke(main, ["reseed", "--json-summary"], catch_exceptions=False)
    assert json.loads(calm.output)["new_items"] == 0
    assert ms.world.graph_requests() - before == 4
    assert len([p for kind, p in ms.world.log if kind == "download"]) == 1  # the first scan's only
    ms.world.add_message("inbox", subject="Can you review the rollout?", sender=PEERS[1], to=[OWNER],
                         body="Please review.", when=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
    before, before_mail = ms.world.graph_requests(), ms.world.graph_requests("mailFolders")
    news = json.loads(runner.invoke(main, ["reseed", "--json-summary"], catch_exceptions=False).output)
    assert news["new_items"] == 1 and not news["errors"]
    # the quick check (4 delta links; it puts the new mail into the item cache), then reseed's
    # re-scan of the account: /me, calendar, drive and its download as a first scan, but the two
    # mail folders come from the cache (not listed again)
    assert ms.world.graph_requests() - before == 4 + 4
    assert ms.world.graph_requests("mailFolders") - before_mail == 2


def test_offline_scan_is_one_line_and_keeps_the_old_cursor(account: Path, ms: MSStandIn) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["scan", "outlook:", "-q"], catch_exceptions=False).exit_code == 0
    with Store(account / "state.db") as store:
        cursor = store.cursor("outlook:")
    assert cursor is not None
    ms.stop()
    result = runner.invoke(main, ["scan", "outlook:", "-q"])
    assert result.exit_code == 2
    assert "cannot be reached (offline?)" in result.output.splitlines()[0]
    with Store(account / "state.db") as store:
        assert store.cursor("outlook:") == cursor
