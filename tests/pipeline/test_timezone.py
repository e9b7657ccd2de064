"""Timezone from a mail-only footprint: the owner's usual Date-header offset, honestly named.

An offset (``UTC-06:00``) is what the headers say; an IANA zone is never guessed from it. And
when every sender's Date header carries the owner's offsets (an archive that rewrote them,
like the Enron corpus did to US Pacific time), the offsets say nothing and nothing is proposed.
"""

from __future__ import annotations

import mailbox
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.pipeline import scan
from bootstrap_app.signals import SignalBuilder
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local.mbox import read_mbox
from tests.conftest import realdata_by_digest
from tests.mail_oracle import TUNING_INBOX

OWNER = "ana@prairie.example"


def _msg(sender: str, to: str, when: datetime, i: int) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, to, f"plan {i}"
    m["Date"] = format_datetime(when)
    m["Message-ID"] = f"<t{i}@x.example>"
    m.set_content(f"notes {i}\n")
    return m


def _mbox(path: Path, rewritten: bool) -> Path:
    """Ana (UTC-6) writes to ten people at ten domains on weekdays 08:00-14:00; they answer
    from their own clocks, or (``rewritten``) every header shows Ana's -0600."""
    box = mailbox.mbox(str(path))
    ana = timezone(timedelta(hours=-6))
    peers = [(f"peer{k}@org{k}.example", timezone(timedelta(hours=(k % 5) - 1))) for k in range(10)]
    i = 0
    for day in range(30):
        base = datetime(2026, 2, 2, tzinfo=ana) + timedelta(days=day)
        if base.weekday() >= 5:
            continue
        for k, (peer, tz) in enumerate(peers[:4]):
            sent = base.replace(hour=8 + 2 * k)
            box.add(_msg(f"Ana Ruiz <{OWNER}>", peer, sent, i))
            reply = sent + timedelta(hours=1)
            box.add(_msg(peer, OWNER, reply.astimezone(ana if rewritten else tz), i + 1))
            i += 2
        for peer, tz in peers[4:]:
            box.add(_msg(peer, OWNER, (base + timedelta(hours=3)).astimezone(ana if rewritten else tz), i))
            i += 1
    box.flush()
    box.close()
    return path


def test_mail_only_footprint_gets_the_owners_offset(tmp_path: Path) -> None:
    path = _mbox(tmp_path / "ana.mbox", rewritten=False)
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), owners=[OWNER])
    hours = {p.name: p for p in result.proposals}["timezone-and-working-hours"]
    assert "UTC-06:00" in hours.body and "America/" not in hours.body
    assert "08:00–14:00 UTC-06:00" in hours.body
    assert hours.key.startswith("UTC-06:00 ")


def _signals(path: Path, owners: tuple[str, ...] = ()):
    collector = IdentityCollector(explicit=owners)
    builder = SignalBuilder(known_owners=owners)
    for item in read_mbox(path, f"mbox:{path}", ReadContext()):
        collector.observe(item)
        builder.observe(item)
    return builder.build(collector.resolve())


def test_rewritten_archive_offsets_propose_nothing(tmp_path: Path) -> None:
    path = _mbox(tmp_path / "rewritten.mbox", rewritten=True)
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), owners=[OWNER])
    assert "timezone-and-working-hours" not in {p.name for p in result.proposals}
    profile = _signals(path, (OWNER,)).profile
    assert profile.timezone == "" and "rewrote" in profile.timezone_note


@pytest.mark.realdata
def test_tuning_inbox_offsets_are_the_corpus_not_the_owner() -> None:
    path = realdata_by_digest(TUNING_INBOX)
    items: list[Message] = list(read_mbox(path, "mbox:k", ReadContext()))
    offsets = {m.utc_offset_minutes for m in items}
    assert offsets == {-420, -480}  # every header in US Pacific time, whoever wrote it
    profile = _signals(path).profile
    # no zone is guessed. (The export files every message in the Inbox, so since issue 14 none of
    # them counts as the owner's sent mail and the note says so; the rewritten-archive rule itself is
    # covered by test_rewritten_archive_offsets_propose_nothing.)
    assert profile.timezone == "" and profile.timezone_note == "too few sent mails with a dated offset"


def test_demo_mailbox_alone_gives_the_owners_offset(tmp_path: Path) -> None:
    """The demo's outside senders stamp their own zone, so its mailbox does not look rewritten
    and a mail-only scan recovers Maya's Berlin summer offset (the mails end mid-October)."""
    from bootstrap_app.demo import build_demo

    root = build_demo(tmp_path / "demo")
    mbox = next((root / "takeout").rglob("*.mbox"))
    result = scan([str(mbox)], settings=load_settings(tmp_path / "home"))
    hours = {p.name: p for p in result.proposals}["timezone-and-working-hours"]
    assert "UTC+02:00" in hours.body
