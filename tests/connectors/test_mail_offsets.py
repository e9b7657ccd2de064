"""Mail keeps the offset its Date header was written in (the sender's clock), besides UTC."""

from __future__ import annotations

import mailbox
from datetime import UTC
from email.message import EmailMessage
from pathlib import Path

from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local.eml import EmlSource
from connectors.local.mailparse import parse_date_offset
from connectors.local.mbox import read_mbox


def _msg(i: int, date: str) -> EmailMessage:
    m = EmailMessage()
    m["From"] = "Maya Okafor <maya@example.com>"
    m["To"] = "Jon Reyes <jon@example.com>"
    m["Subject"] = f"status {i}"
    m["Date"] = date
    m["Message-ID"] = f"<o{i}@example.com>"
    m.set_content("hello\n")
    return m


DATES = ["Tue, 02 Jan 2024 09:15:00 -0600", "Wed, 03 Jul 2024 17:00:00 +0530 (IST)",
         "Thu, 04 Jan 2024 08:00:00 -0000", "Fri, 05 Jan 2024 08:00:00 GMT", "not a date"]


def test_parse_date_offset() -> None:
    assert [parse_date_offset(d) for d in DATES] == [-360, 330, None, 0, None]
    assert parse_date_offset("Tue, 1 Jan 2002 17:03:20 EST") == -300
    assert parse_date_offset("") is None


def test_mbox_and_eml_messages_carry_the_offset(tmp_path: Path) -> None:
    box = mailbox.mbox(str(tmp_path / "sent.mbox"))
    for i, date in enumerate(DATES):
        box.add(_msg(i, date))
    box.flush()
    box.close()
    items: list[Message] = list(read_mbox(tmp_path / "sent.mbox", "mbox:test", ReadContext()))
    assert [m.utc_offset_minutes for m in items] == [-360, 330, None, 0, None]
    first = items[0].timestamp
    assert first is not None and first.tzinfo is UTC and first.hour == 15  # 09:15 -0600 is 15:15 UTC
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "a.eml").write_bytes(bytes(_msg(9, DATES[1])))
    (eml,) = list(EmlSource(str(folder)).read(ReadContext()))
    assert eml.utc_offset_minutes == 330
