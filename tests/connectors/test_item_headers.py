"""A header block parsed for an item only (``ITEM_HEADERS``) builds the very item a full parse does.

Why: the mbox reader parses just the headers the item is made from (a large mailbox's header
blocks are mostly DKIM/ARC stamps nobody reads). That is only right while every header the
item's code reads is on the list, so the reads are recorded here and checked against it, and
the kept values are compared with a full parse's on awkward blocks and on real mail.
"""

from __future__ import annotations

import pickle
import re

import pytest

from bootstrap_app.items import Person
from connectors.local import mailparse
from connectors.local.mailbody import extract_body
from connectors.local.mailparse import ITEM_HEADERS, message_fields, parse_header_block, split_message
from tests.conftest import REALDATA

_AWKWARD = [
    b"From: Ana Lima <ana@example.com>\nTo: a@example.com\nTo: b@example.com\nSubject: hi\n\tthere\n",
    b"Subject\n : folded before the colon\nFrom : spaced <s@example.com>\nDate: Mon, 1 Jan 2024 10:00:00 +0100\n",
    b"Received: from a.example.org (a.example.org [192.0.2.1])\r\n\tby mx.example.com with ESMTP\r\n"
    b"Received: by mx.example.com\r\nDKIM-Signature: v=1;\r\n b=abc\r\n  def\r\nFrom: x@example.com\r\n",
    b" leading continuation\ngarbage line without colon\n\tcontinued garbage\nMessage-ID: <1@x>\n"
    b"Authentication-Results: mx; \n \n spf=fail\nList-Id: <list.example.org>\nContent-Type: text/plain;\n"
    b" charset=\"utf-8\"\nX-Gmail-Labels: Inbox,\"Work, old\"\nX-Unread-Header: kept out\n",
    "Subject: =?utf-8?q?caf=C3=A9?=\nFrom: Zoë <zoe@example.com>\n".encode("latin-1", "replace"),
    b"Cc:\nReferences: <a@x>\nReferences: <b@x>\nPrecedence: bulk\nReturn-Path: <>\n",
]


class _Recording(dict[str, str]):
    """A header dict that remembers every name asked of it."""

    def __init__(self, data: dict[str, str]) -> None:
        super().__init__(data)
        self.asked: set[str] = set()

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


def _real_messages() -> list[bytes]:
    folder = REALDATA / "email"
    if not folder.is_dir():
        return []
    return [p.read_bytes() for p in sorted(folder.rglob("*.eml"))]


@pytest.mark.parametrize("block", _AWKWARD)
def test_item_parse_keeps_exactly_the_full_parse_values(block: bytes) -> None:
    full = parse_header_block(block)
    assert parse_header_block(block, ITEM_HEADERS) == {k: v for k, v in full.items() if k in ITEM_HEADERS}


def test_folded_values_are_unfolded_as_before() -> None:
    headers = parse_header_block(_AWKWARD[1] + _AWKWARD[0])
    assert headers["subject"] == "folded before the colon"
    assert headers["from"] == "spaced <s@example.com>"
    assert parse_header_block(_AWKWARD[0])["subject"] == "hi there"
    assert parse_header_block(_AWKWARD[2])["received"].split("\n") == [
        "from a.example.org (a.example.org [192.0.2.1]) by mx.example.com with ESMTP", "by mx.example.com"]
    assert "x-unread-header" not in parse_header_block(_AWKWARD[3], ITEM_HEADERS)


def _check_reads(data: bytes) -> None:
    block, body, _ = split_message(data)
    recorded = _Recording(parse_header_block(block))
    fields = message_fields(recorded, source="t", ref="r", clean=lambda text, limit=None: text)
    extract_body(recorded, block, body)
    assert recorded.asked <= ITEM_HEADERS, f"read but not in ITEM_HEADERS: {recorded.asked - ITEM_HEADERS}"
    assert message_fields(parse_header_block(block, ITEM_HEADERS), source="t", ref="r",
                          clean=lambda text, limit=None: text) == fields


@pytest.mark.parametrize("block", _AWKWARD)
def test_every_header_the_item_reads_is_listed(block: bytes) -> None:
    _check_reads(block + b"\nbody\n")


_STRAY_CR = [b"Subject: a\r\n \r\n\tb\rc\r\n\t\rd\nTo: x@example.com,\r\n\r y@example.com\r\nCc: \r\r\n z@x\n",
              b"Received: by a\n\t\t with b\r\n   \t id c\rReceived: from d\r\n\r\n\tnot a fold\n"]


def test_unfolding_is_the_plain_crlf_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fold regex reads LF only (the block's CRLFs are LFs by then): the same values as the
    plain rule ``\\r?\\n[ \\t]+``, on awkward blocks (stray CRs, blank continuations) and real mail."""
    blocks = _AWKWARD + _STRAY_CR + [split_message(m)[0] for m in _real_messages()]
    fast = [parse_header_block(b) for b in blocks]
    monkeypatch.setattr(mailparse, "_FOLD", re.compile(r"\r?\n[ \t]+"))
    assert fast == [parse_header_block(b) for b in blocks]
    assert fast[len(_AWKWARD)]["subject"] == "a  b\rc \rd"


def test_real_mail_builds_the_same_item_from_its_item_headers() -> None:
    messages = _real_messages()
    if not messages:
        pytest.skip(f"real data folder {REALDATA} is absent")
    for data in messages:
        _check_reads(data)


def test_people_pickle_as_their_values() -> None:
    person = Person("  Ana   Lima ", "Ana@Example.com ")
    back = pickle.loads(pickle.dumps(person))
    assert back == person and (back.name, back.address) == ("Ana Lima", "ana@example.com")
