"""The demo Slack export has the official layout and Maya's activity pattern."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bootstrap_app.demo import PERSONA


@pytest.fixture(scope="module")
def export(where: dict[str, Path]) -> dict[str, Any]:
    root = where["slack"]
    users = json.loads((root / "users.json").read_text(encoding="utf-8"))
    channels = json.loads((root / "channels.json").read_text(encoding="utf-8"))
    messages: dict[str, list[dict[str, Any]]] = {}
    for channel in channels:
        days = sorted((root / channel["name"]).iterdir())
        messages[channel["name"]] = []
        for day in days:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d\.json", day.name), day
            batch = json.loads(day.read_text(encoding="utf-8"))
            assert isinstance(batch, list) and batch
            for msg in batch:
                assert datetime.fromtimestamp(float(msg["ts"]), UTC).date().isoformat() == day.stem
            messages[channel["name"]] += batch
    return {"users": users, "channels": channels, "messages": messages}


def test_users_json_ties_maya_to_her_work_address(export: dict[str, Any]) -> None:
    maya = next(u for u in export["users"] if u["id"] == PERSONA["slack_user_id"])
    assert maya["profile"]["email"] == PERSONA["work_email"]
    assert maya["profile"]["title"] == PERSONA["title"]
    assert maya["real_name"] == PERSONA["name"] and maya["tz"] == PERSONA["timezone"]
    assert any(u.get("is_bot") for u in export["users"])


def test_channels_and_maya_activity(export: dict[str, Any]) -> None:
    names = {c["name"] for c in export["channels"]}
    assert names == {*PERSONA["active_channels"], *PERSONA["quiet_channels"]}
    by_maya = {name: sum(m.get("user") == PERSONA["slack_user_id"] and not m.get("subtype") for m in msgs)
               for name, msgs in export["messages"].items()}
    for name in PERSONA["active_channels"]:
        assert by_maya[name] >= 20, name
    for name in PERSONA["quiet_channels"]:
        assert by_maya[name] <= 1 and len(export["messages"][name]) >= 20, name


def test_maya_writes_in_working_hours(export: dict[str, Any]) -> None:
    start, end = (time.fromisoformat(t) for t in PERSONA["working_hours"])
    tz = ZoneInfo(PERSONA["timezone"])
    for msgs in export["messages"].values():
        for msg in msgs:
            if msg.get("user") == PERSONA["slack_user_id"]:
                local = datetime.fromtimestamp(float(msg["ts"]), UTC).astimezone(tz)
                assert local.weekday() < 5 and start <= local.time() <= end


def test_threads_are_consistent(export: dict[str, Any]) -> None:
    msgs = export["messages"]["ledger-dev"]
    by_ts = {m["ts"]: m for m in msgs}
    assert len(by_ts) == len(msgs), "ts is unique within a channel"
    replies = [m for m in msgs if m.get("thread_ts") and m["thread_ts"] != m["ts"]]
    assert len(replies) >= 10
    per_root = Counter(r["thread_ts"] for r in replies)
    for root_ts, count in per_root.items():
        assert by_ts[root_ts]["reply_count"] == count
        assert float(root_ts) < min(float(r["ts"]) for r in replies if r["thread_ts"] == root_ts)


def test_edge_cases_a_reader_must_survive(export: dict[str, Any]) -> None:
    every = [m for msgs in export["messages"].values() for m in msgs]
    subtypes = Counter(m.get("subtype") for m in every)
    assert subtypes["channel_join"] >= 1 and subtypes["bot_message"] >= 1
    assert all("user" not in m for m in every if m.get("subtype") == "bot_message")
    known = {u["id"] for u in export["users"]}
    unknown = {m["user"] for m in every if "user" in m} - known
    assert len(unknown) == 1
