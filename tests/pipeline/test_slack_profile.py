"""The owner's own Slack profile: title when no signature states one, timezone as corroboration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.pipeline import scan
from bootstrap_app.signals import SignalBuilder
from bootstrap_app.signals.contact_blocks import ROLE_WORDS
from bootstrap_app.types import Proposal
from connectors.base import ReadContext
from connectors.local.slack_export import SlackExportSource
from tests.conftest import realdata_file
from tests.connectors.test_slack_profile import write_export

from .synth import OWNER, mailbox, write_items

MAYA = "maya@acme.example"


def _scan(tmp_path: Path, locations: list[Path], owners: list[str]) -> dict[str, Proposal]:
    result = scan([str(p) for p in locations], settings=load_settings(tmp_path / "home"), owners=owners)
    return {p.name: p for p in result.proposals}


def test_slack_only_footprint_gets_title_and_zone_from_the_profile(tmp_path: Path) -> None:
    by_name = _scan(tmp_path, [write_export(tmp_path / "acme")], [MAYA])
    role = by_name["user-role"].body
    assert "Maya Okafor is a Staff Engineer" in role and "at Acme Labs" in role
    assert "Slack profile" in role
    hours = by_name["timezone-and-working-hours"]
    assert "Europe/Berlin timezone (from the Slack profile)" in hours.body
    assert any(e.excerpt.startswith("Slack profile of Maya Okafor") for e in hours.evidence)
    assert any("Slack profile" in e.excerpt for e in by_name["user-role"].evidence)


def test_owner_given_by_slack_id_is_recognised(tmp_path: Path) -> None:
    by_name = _scan(tmp_path, [write_export(tmp_path / "acme")], ["U1"])
    assert "Maya Okafor is a Staff Engineer" in by_name["user-role"].body


def test_a_title_that_names_no_role_is_not_a_title(tmp_path: Path) -> None:
    by_name = _scan(tmp_path, [write_export(tmp_path / "acme", title="The Viking")], [MAYA])
    role = by_name["user-role"].body
    assert "Viking" not in role and " is a " not in role


def _ada_with_slack(tmp_path: Path, **profile: str) -> dict[str, Proposal]:
    """Ada's synthetic mailbox (Berlin offsets, signature "Staff Engineer, Analytics Team") plus a
    Slack export whose first user is Ada with the given profile, scanned together."""
    export = write_export(tmp_path / "acme", **profile)
    users = json.loads((export / "users.json").read_text())
    users[0]["profile"]["email"] = OWNER.address
    (export / "users.json").write_text(json.dumps(users))
    mails = write_items(tmp_path / "ada.items.json", mailbox())
    return _scan(tmp_path, [export, mails], [OWNER.address])


def test_signature_beats_slack_title_and_mail_offsets_corroborate_the_zone(tmp_path: Path) -> None:
    by_name = _ada_with_slack(tmp_path, title="Chief Coffee Officer at Elsewhere")
    role = by_name["user-role"].body
    assert "Staff Engineer on the Analytics team" in role and "Coffee" not in role
    hours = by_name["timezone-and-working-hours"].body
    assert "Europe/Berlin timezone (from the Slack profile, matching the Date headers of sent mail)" in hours


def test_slack_zone_contradicting_the_mail_offsets_proposes_no_zone(tmp_path: Path) -> None:
    by_name = _ada_with_slack(tmp_path, tz="America/New_York")
    assert "timezone-and-working-hours" not in by_name


@pytest.mark.realdata
def test_julialang_member_profile() -> None:
    """On the real JuliaLang export, a member whose Slack title names a role gets it as title
    and their Slack zone as timezone (the owner is chosen as that member)."""
    root = realdata_file("slack", "julialang-subset-export-layout")
    users = json.loads((root / "users.json").read_text(encoding="utf-8"))
    items = list(SlackExportSource(str(root)).read(ReadContext()))  # type: ignore[arg-type]
    posts = {i.user.address: 0 for i in items}
    for i in items:
        posts[i.user.address] += 1
    candidates = [u for u in users if ROLE_WORDS.search((u.get("profile") or {}).get("title") or "")
                  and (u.get("profile") or {}).get("email") and u.get("tz")]
    assert candidates
    who = max(candidates, key=lambda u: posts.get(u["profile"]["email"].lower(), 0))
    owner_address = who["profile"]["email"].lower()
    collector = IdentityCollector(explicit=(owner_address,))
    builder = SignalBuilder(known_owners=(owner_address,))
    for item in items:
        collector.observe(item)
        builder.observe(item)
    profile = builder.build(collector.resolve()).profile
    assert profile.title and profile.title_from == "Slack profile"
    assert profile.title in who["profile"]["title"]
    assert profile.timezone == who["tz"] and profile.timezone_from == "Slack profile"


def test_where_they_work_in_their_own_words_beats_the_mail_domain(tmp_path: Path) -> None:
    """A Slack title that names no role but says where the person works is their own word for the
    employer: it comes before a guess from the address's domain, and the card says where each
    part comes from (issue 30)."""
    by_name = _scan(tmp_path, [write_export(tmp_path / "acme", title="Payments things at Northwind Co")], [MAYA])
    role = by_name["user-role"]
    assert "works at Northwind Co" in role.body and "Acme" not in role.body.split("Addresses:")[0]
    assert "employer — their own Slack profile" in role.body
    assert any(e.excerpt.startswith("Slack profile of Maya Okafor") for e in role.evidence)
    plain = _scan(tmp_path / "plain", [write_export(tmp_path / "plain" / "acme", title="The Viking")], [MAYA])
    assert "employer — their e-mail domain (a guess, not stated)" in plain["user-role"].body


def test_signature_title_is_said_to_come_from_the_signature(tmp_path: Path) -> None:
    mails = write_items(tmp_path / "ada.items.json", mailbox())
    role = _scan(tmp_path, [mails], [OWNER.address])["user-role"].body
    assert "Where from: title — their own mail signature" in role and "team — their own mail signature" in role
