"""Owner hints (issue 20): a list archive is nobody's inbox, a bare Slack export offers candidates,
``--owner`` in any form names the same person, and a ``--owner`` matching nobody is an error.

Every source here is generated in the test (mbox through the stdlib, a Slack export as JSON), so
the real connectors read them; nobody in them is real."""

from __future__ import annotations

import json
import mailbox
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import OwnerNotFound
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult, format_summary

LIST = "devtalk@lists.quarry.example"
T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday


def _scan(tmp_path: Path, path: Path, owners: tuple[str, ...] = ()) -> ScanResult:
    return scan([str(path)], settings=load_settings(tmp_path / "home"), owners=owners)


def _list_archive(path: Path, headed: int, total: int) -> Path:
    """``total`` posts by eight people to one list; the first ``headed`` carry the list's headers."""
    box = mailbox.mbox(str(path))
    for i in range(total):
        msg = EmailMessage()
        msg["From"] = f"Poster {i % 8} <poster{i % 8}@site{i % 8}.example>"
        msg["To"] = LIST
        if i % 3:
            msg["Cc"] = f"poster{(i + 1) % 8}@site{(i + 1) % 8}.example"
        msg["Subject"] = f"Re: thoughts on {['parsing', 'tagging', 'search'][i % 3]}"
        msg["Date"] = (T0 + timedelta(hours=5 * i)).strftime("%a, %d %b %Y %H:%M:%S +0000")
        msg["Message-ID"] = f"<m{i}@site.example>"
        if i < headed:
            msg["List-Id"] = "Dev talk <devtalk.lists.quarry.example>"
            msg["List-Post"] = f"<mailto:{LIST}>"
            msg["Precedence"] = "list"
        msg.set_content(f"I think the {i} approach is fine.\n")
        box.add(msg)
    box.close()
    return path


@pytest.mark.parametrize("headed", [40, 8])
def test_a_mailing_list_archive_is_nobodys_inbox(tmp_path: Path, headed: int) -> None:
    """Every message from one list (and, second, only some with the list's headers, as in early
    list archives): the list address is never the owner, nothing about "you" is proposed, and
    the summary says why and how to pick the owner."""
    result = _scan(tmp_path, _list_archive(tmp_path / "list.mbox", headed, 40))
    assert not result.owner.known and LIST not in result.owner.suggested
    assert "mailing-list archive" in result.owner.unknown_why and LIST in result.owner.unknown_why
    assert not [p for p in result.proposals if p.name in ("user-role", "closest-collaborators")]
    text = format_summary(result.summary())
    assert "owner: unknown (a mailing-list archive" in text and "--owner" in text and "EMAIL" not in text


def _slack(root: Path, *, users: bool = True, emails: bool = False) -> Path:
    """Three people and a bot; Ivo writes most (on weekdays and weekends, over five weeks)."""
    people = [("U01IVO", "ivo", "Ivo Kestrel", 30), ("U02MAE", "mae", "Mae Lindqvist", 12), ("U03OLA", "ola", "Ola Brandt", 4)]
    root.mkdir(parents=True)
    if users:
        (root / "users.json").write_text(json.dumps([
            {"id": uid, "name": handle, "real_name": name, "tz": "Europe/Oslo",
             "profile": {"real_name": name, **({"email": f"{handle}@fjord.example"} if emails else {})}}
            for uid, handle, name, _ in people]))
    (root / "channels.json").write_text(json.dumps([{"id": "C1", "name": "general"}]))
    (root / "general").mkdir()
    days: dict[str, list[dict[str, object]]] = {}
    for uid, handle, name, n in people:
        for i in range(n):
            when = T0 + timedelta(days=i, hours=i % 6)
            days.setdefault(when.strftime("%Y-%m-%d"), []).append(
                {"type": "message", "user": uid, "text": f"note {i}", "ts": f"{when.timestamp():.6f}",
                 "user_profile": {"real_name": name, "name": handle}})
    for i in range(60):
        when = T0 + timedelta(hours=i)
        days.setdefault(when.strftime("%Y-%m-%d"), []).append(
            {"type": "message", "subtype": "bot_message", "bot_id": "B9", "username": "ci", "text": "build ok",
             "ts": f"{when.timestamp() + 1:.6f}"})
    for day, messages in days.items():
        (root / "general" / f"{day}.json").write_text(json.dumps(messages))
    return root


def test_a_slack_export_alone_offers_candidates_never_a_bot(tmp_path: Path) -> None:
    result = _scan(tmp_path, _slack(tmp_path / "ws"))
    assert not result.owner.known
    candidates = result.summary()["owner"]["owner_candidates"]
    assert [c["owner"] for c in candidates] == ["U01IVO", "U02MAE", "U03OLA"]
    assert candidates[0] == {"owner": "U01IVO", "kind": "slack", "name": "Ivo Kestrel",
                             "evidence": "wrote 30 chat messages"}
    text = format_summary(result.summary())
    assert "maybe Ivo Kestrel (U01IVO): wrote 30 chat messages  -> --owner U01IVO" in text
    assert "EMAIL" not in text


def test_a_slack_export_without_users_json_is_read_and_says_so(tmp_path: Path) -> None:
    result = _scan(tmp_path, _slack(tmp_path / "ws", users=False))
    [report] = result.reports
    assert report.error is None and report.items == 30 + 12 + 4 + 60
    assert any("not in users.json" in s.reason for s in report.skipped)
    assert [c.owner for c in result.owner.candidates][:1] == ["U01IVO"]


@pytest.mark.parametrize("emails", [False, True])
def test_owner_as_id_handle_name_or_email_gives_the_same_result(tmp_path: Path, emails: bool) -> None:
    root = _slack(tmp_path / "ws", emails=emails)
    forms = ["U01IVO", "ivo", "@ivo", "Ivo Kestrel", "ivo kestrel"] + (["ivo@fjord.example"] if emails else [])
    seen = []
    for i, form in enumerate(forms):
        result = scan([str(root)], settings=load_settings(tmp_path / f"home{i}"), owners=(form,))
        assert result.owner.known and result.owner.name == "Ivo Kestrel", form
        seen.append(sorted((p.name, p.body) for p in result.proposals))
    assert all(s == seen[0] for s in seen) and seen[0]


def test_an_owner_matching_nobody_is_an_error_naming_the_nearest(tmp_path: Path) -> None:
    root = _slack(tmp_path / "ws")
    with pytest.raises(OwnerNotFound) as caught:
        _scan(tmp_path, root, owners=("ivoo",))
    assert "'ivoo' (nearest: ivo" in str(caught.value)
    assert "U01IVO" in caught.value.hint  # the likely owners, to pick from
