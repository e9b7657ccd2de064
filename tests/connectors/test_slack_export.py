"""Slack exports (folder and zip): users, mentions, DMs, missing users, malformed day files."""

from __future__ import annotations

import json
import zipfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import ChatMessage
from connectors.base import ReadContext
from connectors.local.slack_export import SlackExportSource
from connectors.registry import detect
from tests.conftest import realdata_file

T0 = datetime(2024, 5, 6, 9, 0, tzinfo=UTC).timestamp()


def _export(root: Path) -> Path:
    root.mkdir(parents=True)
    users = [{"id": "U1", "name": "maya", "real_name": "Maya Okafor", "profile": {"email": "Maya@Example.com"}},
             {"id": "U2", "name": "jon", "profile": {"real_name": "Jon Reyes", "email": "jon@example.com"}}]
    (root / "users.json").write_text(json.dumps(users))
    (root / "channels.json").write_text(json.dumps([{"id": "C1", "name": "ledger"}]))
    (root / "dms.json").write_text(json.dumps([{"id": "D1", "members": ["U1", "U2"]}]))
    (root / "ledger").mkdir()
    day1 = [
        {"type": "message", "user": "U1", "text": "<@U2> can you review <https://git.example.com/pr/1|PR 1> &amp; "
                                                  "ping <#C1|ledger>? token xoxb-1234567890-abcdefghij", "ts": f"{T0:.6f}"},
        {"type": "message", "user": "U2", "text": "on it", "ts": f"{T0 + 60:.6f}", "thread_ts": f"{T0:.6f}"},
        {"type": "message", "user": "U9", "text": "I left the company", "ts": f"{T0 + 120:.6f}",
         "user_profile": {"real_name": "Old Timer"}},
        {"type": "message", "user": "U9", "text": "again", "ts": f"{T0 + 130:.6f}"},
        {"type": "message", "subtype": "bot_message", "bot_id": "B1", "username": "github", "text": "CI passed",
         "ts": f"{T0 + 180:.6f}"},
        "not a message",
    ]
    (root / "ledger" / "2024-05-06.json").write_text(json.dumps(day1))
    (root / "ledger" / "2024-05-07.json").write_text('[{"type": "message", "user": "U1", "text": "broken"')
    (root / "ledger" / "2024-05-08.json").write_text(json.dumps(
        [{"type": "message", "user": "U1", "text": "next day", "ts": f"{T0 + 2 * 86400:.6f}"}]))
    (root / "D1").mkdir()
    (root / "D1" / "2024-05-06.json").write_text(json.dumps(
        [{"type": "message", "user": "U2", "text": "lunch?", "ts": f"{T0 + 300:.6f}"}]))
    return root


def _read(path: Path, **kw: object) -> tuple[list[ChatMessage], ReadContext]:
    ctx = ReadContext(**kw)  # type: ignore[arg-type]
    return list(SlackExportSource(path).read(ctx)), ctx  # type: ignore[arg-type]


def test_folder_export(tmp_path: Path) -> None:
    root = _export(tmp_path / "acme-slack")
    [src] = detect(root)
    assert isinstance(src, SlackExportSource)
    items, ctx = _read(root)
    assert len(items) == 7
    first = next(i for i in items if i.channel == "ledger")
    assert first.workspace == "acme-slack" and first.channel == "ledger"
    assert first.user.label == "Maya Okafor <maya@example.com>"
    assert first.text.startswith("@Jon Reyes can you review PR 1 & ping #ledger?")
    assert "xoxb-1234567890" not in first.text
    assert next(i for i in items if i.text == "on it").thread_ts == first.ref.split("/")[1]
    gone = [i for i in items if i.user.address == "u9"]
    assert [g.user.name for g in gone] == ["Old Timer", ""]
    bot = next(i for i in items if i.subtype == "bot_message")
    assert bot.user.name == "github" and bot.user.address == "b1"
    dm = next(i for i in items if i.text == "lunch?")
    assert dm.channel == "dm:Maya Okafor,Jon Reyes"
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "malformed" in reasons["ledger/2024-05-07.json"]
    assert "1 user id(s) not in users.json (2 messages" in reasons["users.json"] and "U9" in reasons["users.json"]
    assert ctx.new_cursor == {"ts": T0 + 2 * 86400}


def test_zip_export_with_top_folder_cursor_and_since(tmp_path: Path) -> None:
    root = _export(tmp_path / "src" / "Acme Slack export")
    archive = tmp_path / "Acme Slack export May 2024.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in root.rglob("*"):
            if f.is_file():
                zf.write(f, f"Acme Slack export/{f.relative_to(root)}")
    assert [type(s) for s in detect(archive)] == [SlackExportSource]
    items, _ = _read(archive)
    assert len(items) == 7 and items[0].workspace == "Acme Slack export May 2024"
    newer, _ = _read(archive, cursor={"ts": T0 + 150})
    assert sorted(i.text for i in newer) == ["CI passed", "lunch?", "next day"]
    later, _ = _read(archive, since=datetime(2024, 5, 7, tzinfo=UTC))
    assert [i.text for i in later] == ["next day"]


def test_bad_exports(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFound):
        _read(tmp_path / "missing")
    bad_zip = tmp_path / "export.zip"
    bad_zip.write_bytes(b"PK\x03\x04 not a zip")
    assert not SlackExportSource.sniff(bad_zip)
    with pytest.raises(SourceError, match="not a readable zip"):
        _read(bad_zip)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "channels.json").write_text("[]")
    with pytest.raises(SourceError, match=r"no users\.json"):
        _read(empty)


@pytest.mark.realdata
def test_real_slack_export_viewer_archive() -> None:
    items, ctx = _read(realdata_file("slack", "slack-export-viewer-testarchive"))
    assert len(items) == 158 and not ctx.skips
    kinds = Counter(i.subtype for i in items)
    assert kinds["bot_message"] == 94 and kinds[""] == 49
    assert Counter(i.channel for i in items) == {"enrique": 102, "traveling-sailor": 56}


@pytest.mark.realdata
def test_real_julialang_export() -> None:
    items, ctx = _read(realdata_file("slack", "julialang-subset-export-layout"))
    assert Counter(i.channel for i in items) == {"vscode-dev": 1062, "oceananigans": 780, "rust": 567,
                                                 "infrastructure": 434}
    assert not ctx.skips
    assert Counter(i.user.name for i in items).most_common(1)[0] == ("David Anthoff", 551)
    assert any(i.text.startswith("@") and "<@" not in i.text for i in items)
