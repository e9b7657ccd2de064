"""Real data nobody on the team wrote (skipped when ../shared/realdata is absent).

- The Enron inbox of Vince Kaminski: headers carry no display names and the owner writes from
  a dozen addresses (j.kaminski@, vkamins@, his AOL account ...). memseed must find him, his
  employer, and his real correspondents (assistant Shirley Crenshaw, research colleagues) —
  never the HR system, CERA newsletters or no.address@enron.com. An inbox export holds no
  strong evidence for his other addresses (issue 14): the one the mailbox is delivered to is
  his, every address merely built from his name is a *suggestion* (until 2026-11 they were all
  adopted, 14 addresses; a stranger can register any of them).
- The Enron inbox of Chris Germany: ``wd <.germany@enron.com>`` is somebody else, and
  ``germany@enron.com`` is not proven his either: neither is adopted.
- A real Google Calendar export (gabi@gmail.com, X-WR-TIMEZONE Europe/London) whose titles were
  anonymised to "test": the timezone is a fact; "test" series, birthdays and a gym are not.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bootstrap_app.aliases import confirm_alias
from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import ScanResult, scan
from bootstrap_app.store import Store
from tests.conftest import realdata_file

pytestmark = pytest.mark.realdata


def _scan(path: Path, tmp_path: Path, module: str) -> ScanResult:
    try:
        importlib.import_module(module)
    except ImportError:
        pytest.skip(f"connector {module} is not installed")
    return scan([str(path)], settings=load_settings(tmp_path / "home"))


def test_kaminski_inbox(tmp_path: Path) -> None:
    path = realdata_file("email", "enron", "enron-kaminski-v-inbox.mbox")
    result = _scan(path, tmp_path, "connectors.local.mbox")
    owner = result.owner
    assert owner.addresses == {"j.kaminski@enron.com"}
    assert owner.reasons["j.kaminski@enron.com"].startswith("most frequent recipient")
    assert {"vkaminski@aol.com", "vince.kaminski@enron.com", "vkamins@enron.com"} <= set(owner.suggested)
    assert "shirley.crenshaw@enron.com" not in owner.addresses | set(owner.suggested)
    assert owner.name == "Vince Kaminski"
    by_name = {p.name: p for p in result.proposals}
    role = by_name["user-role"]
    assert "Vince Kaminski" in role.body and "Enron" in role.body
    assert "vkaminski@aol.com" not in role.body  # a suggestion is not listed as his address
    assert "Duke Energy" not in role.body  # a forwarded mail's signature is not his
    # he confirms the aliases that are his (memseed sources --confirm-alias): the next scan
    # counts them, and his two-way mail with his team shows
    mine = ("vkaminski@aol.com", "vince.kaminski@enron.com", "vince.j.kaminski@enron.com", "kaminski@enron.com",
            "vkamins@enron.com")
    settings = load_settings(tmp_path / "home")
    with Store(settings.db_path) as store:
        for address in mine:
            confirm_alias(store, address)
        result = scan([str(path)], settings=settings, store=store)
    assert result.owner.addresses == {"j.kaminski@enron.com", *mine}
    by_name = {p.name: p for p in result.proposals}
    team = by_name["closest-collaborators"].body
    assert "Shirley Crenshaw" in team and "Vasant Shanbhogue" in team and "Zimin Lu" in team
    assert "Administrative Coordinator" in team  # her own signature states her title
    for noise in ("arsystem", "cera.com", "no.address", "eei.org"):
        assert noise not in team
    # the corpus rewrote every Date header to US Pacific time: no zone, so no hours guessed
    assert "timezone-and-working-hours" not in by_name
    for p in result.proposals:
        assert p.evidence and all(len(e.excerpt) <= 200 for e in p.evidence)


def test_google_calendar_export(tmp_path: Path) -> None:
    path = realdata_file("ics", "recurring-ical-events", "google-personal-export-issue42.ics")
    result = _scan(path, tmp_path, "connectors.local.ics")
    assert "gabi@gmail.com" in result.owner.addresses
    by_name = {p.name: p for p in result.proposals}
    assert "Europe/London" in by_name["timezone-and-working-hours"].body
    text = "\n".join(p.body for p in result.proposals).lower()
    for noise in ("unknownorganizer", "fitness", "antibiotikum", "test:"):
        assert noise not in text
    assert not [p for p in result.proposals if p.name.startswith("ritual-test")]


def test_kaminski_with_one_owner_address_suggests_the_others(tmp_path: Path) -> None:
    path = realdata_file("email", "enron", "enron-kaminski-v-inbox.mbox")
    importlib.import_module("connectors.local.mbox")
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), owners=["vkaminski@aol.com"])
    # the address given is another account: the mailbox's own address still names its holder
    assert result.owner.addresses == {"vkaminski@aol.com", "j.kaminski@enron.com"}
    assert result.owner.reasons["j.kaminski@enron.com"].startswith("most frequent recipient")
    assert "vkamins@enron.com" in result.owner.suggested
    assert result.owner.name == "Vince Kaminski"
    assert "working-rules" not in {p.name for p in result.proposals}  # forwards are not his words


def test_germany_inbox_adopts_no_alias_without_strong_evidence(tmp_path: Path) -> None:
    path = realdata_file("email", "enron", "enron-germany-c-inbox.mbox")
    result = _scan(path, tmp_path, "connectors.local.mbox")
    owner = result.owner
    assert owner.addresses == {"chris.germany@enron.com"}
    assert {".germany@enron.com", "germany@enron.com"} <= set(owner.suggested)  # shown, never adopted
    assert all(owner.suggested[a] for a in owner.suggested)  # each with its evidence
    # the mailbox export files everything in the Inbox: nothing in it speaks as the owner
    assert "working-rules" not in {p.name for p in result.proposals}
