"""Real data nobody on the team wrote (skipped when ../shared/realdata is absent).

- The Enron inbox of Vince Kaminski: headers carry no display names and the owner writes from
  a dozen addresses (j.kaminski@, vkamins@, his AOL account ...). memseed must find him, his
  employer, and his real correspondents (assistant Shirley Crenshaw, research colleagues) —
  never the HR system, CERA newsletters or no.address@enron.com.
- A real Google Calendar export (gabi@gmail.com, X-WR-TIMEZONE Europe/London) whose titles were
  anonymised to "test": the timezone is a fact; "test" series, birthdays and a gym are not.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import ScanResult, scan
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
    assert {"j.kaminski@enron.com", "vkaminski@aol.com", "vince.kaminski@enron.com", "vkamins@enron.com"} \
        <= owner.addresses
    assert "shirley.crenshaw@enron.com" not in owner.addresses
    assert owner.name == "Vince Kaminski"
    by_name = {p.name: p for p in result.proposals}
    role = by_name["user-role"]
    assert "Vince Kaminski" in role.body and "Enron" in role.body
    assert "Duke Energy" not in role.body  # a forwarded mail's signature is not his
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


def test_kaminski_with_one_owner_address_finds_the_others(tmp_path: Path) -> None:
    path = realdata_file("email", "enron", "enron-kaminski-v-inbox.mbox")
    importlib.import_module("connectors.local.mbox")
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), owners=["vkaminski@aol.com"])
    assert {"vkaminski@aol.com", "j.kaminski@enron.com", "vkamins@enron.com"} <= result.owner.addresses
    assert result.owner.name == "Vince Kaminski"
    assert "working-rules" not in {p.name for p in result.proposals}  # forwards are not his words
