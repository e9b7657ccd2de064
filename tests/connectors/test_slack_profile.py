"""Slack profiles ride along: every message carries its author's profile title and timezone."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.types import ChatMessage
from connectors.base import ReadContext
from connectors.local.slack_export import SlackExportSource
from tests.conftest import realdata_file

T0 = datetime(2024, 5, 6, 9, 0, tzinfo=UTC).timestamp()


def write_export(root: Path, *, title: str = "Staff Engineer at Acme Labs", tz: str = "Europe/Berlin",
                 days: int = 10) -> Path:
    """A two-person export: Maya (profile title + tz) and Jon (no title, an odd tz value)."""
    root.mkdir(parents=True)
    users = [{"id": "U1", "name": "maya", "real_name": "Maya Okafor", "tz": tz,
              "profile": {"email": "maya@acme.example", "title": title, "real_name": "Maya Okafor"}},
             {"id": "U2", "name": "jon", "tz": "Pacific Standard Time",
              "profile": {"real_name": "Jon Reyes", "email": "jon@acme.example", "title": ""}}]
    (root / "users.json").write_text(json.dumps(users))
    (root / "channels.json").write_text(json.dumps([{"id": "C1", "name": "ledger"}]))
    (root / "ledger").mkdir()
    for d in range(days):
        ts = T0 + d * 86400
        day = datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")
        msgs = [{"type": "message", "user": "U1", "text": f"standup notes {d}", "ts": f"{ts:.6f}"},
                {"type": "message", "user": "U2", "text": "thanks", "ts": f"{ts + 600:.6f}",
                 "thread_ts": f"{ts:.6f}"},
                {"type": "message", "user": "U1", "text": "merged", "ts": f"{ts + 3600:.6f}",
                 "thread_ts": f"{ts:.6f}"}]
        (root / "ledger" / f"{day}.json").write_text(json.dumps(msgs))
    return root


def _read(path: Path) -> list[ChatMessage]:
    return list(SlackExportSource(str(path)).read(ReadContext()))  # type: ignore[arg-type]


def test_every_message_carries_its_authors_profile(tmp_path: Path) -> None:
    items = _read(write_export(tmp_path / "acme"))
    maya = [i for i in items if i.user.address == "maya@acme.example"]
    jon = [i for i in items if i.user.address == "jon@acme.example"]
    assert len(maya) == 20 and len(jon) == 10
    assert {(i.user_title, i.user_tz) for i in maya} == {("Staff Engineer at Acme Labs", "Europe/Berlin")}
    assert {(i.user_title, i.user_tz) for i in jon} == {("", "")}  # not an IANA name: dropped


@pytest.mark.realdata
@pytest.mark.parametrize("folder", ["slack-export-viewer-testarchive", "julialang-subset-export-layout"])
def test_real_exports_pass_profiles_on(folder: str) -> None:
    root = realdata_file("slack", folder)
    users = {u["id"]: u for u in json.loads((root / "users.json").read_text(encoding="utf-8"))}
    items = _read(root)
    by_name = {u.get("real_name") or (u.get("profile") or {}).get("real_name"): u for u in users.values()}
    checked: Counter[str] = Counter()
    for item in items:
        user = by_name.get(item.user.name)
        if user is None or not user.get("tz"):
            continue
        assert item.user_tz == user["tz"]
        assert item.user_title == " ".join(((user.get("profile") or {}).get("title") or "").split())
        checked[item.user_tz] += 1
    assert sum(checked.values()) >= 20
