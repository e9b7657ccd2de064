"""LazyMessage.with_loader's build without ``__init__`` and the items' lock-free memo properties,
each compared with the way they replace (the dataclass ``__init__``, functools.cached_property)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.types import Message, Person
from connectors.local.lazybody import LazyMessage
from connectors.local.mailparse import ITEM_HEADERS, message_fields, parse_header_block
from connectors.local.mbox import iter_mbox
from tests.conftest import realdata_by_digest
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX


def _reference(load: Any, **fields: Any) -> LazyMessage:
    """How with_loader built its item before: the dataclass ``__init__``, then the loader."""
    item = LazyMessage(**fields)
    item.__dict__["_body"] = None
    item.__dict__["_load"] = load
    return item


def _load() -> str:
    return "text"


def _same(fields: dict[str, Any]) -> None:
    fast, slow = LazyMessage.with_loader(_load, **fields), _reference(_load, **fields)
    assert list(fast.__dict__.items()) == list(slow.__dict__.items())  # keys in the same order too
    assert type(fast) is LazyMessage and fast.body_loaded is False
    assert fast == slow and fast.body == "text"


def _fields(block: bytes, sent_hint: bool | None = None) -> dict[str, Any]:
    return message_fields(parse_header_block(block, ITEM_HEADERS), source="mbox:t", ref="<r@x>",
                          clean=lambda text, limit=None: text, sent_hint=sent_hint)


AWKWARD = [
    b"From: Jon <jon@example.com>\nTo: a@b.example, c@d.example\nSubject: hi\nDate: Mon, 1 Jan 2024 10:00:00 +0100\n",
    b"Sender: relay@lists.example\nSubject: no From at all\n",
    b"",
    b"From: =?utf-8?q?J=C3=B6rg?= <j@x.example>\nX-Gmail-Labels: Inbox,Sent\nList-Id: <l.example>\n",
    b"From: a@x.example\nReceived: from mx.other.example (mx.other.example [203.0.113.5]) by mx.x.example "
    b"with ESMTP id 1\nAuthentication-Results: mx.x.example; dmarc=fail\nX-Folder: \\\\Inbox\n",
]


@pytest.mark.parametrize("block", AWKWARD)
@pytest.mark.parametrize("sent_hint", [None, True])
def test_with_loader_builds_what_init_builds(block: bytes, sent_hint: bool | None) -> None:
    _same(_fields(block, sent_hint))


def test_with_loader_without_a_sender_or_with_a_body_goes_through_init() -> None:
    _same({"source": "s", "ref": "r"})  # sender's default factory: a Person of its own
    a, b = LazyMessage.with_loader(_load, source="s", ref="r"), LazyMessage.with_loader(_load, source="s", ref="r")
    assert a.sender == Person() and a.sender is not b.sender
    item = LazyMessage.with_loader(lambda: "late", source="s", ref="r", sender=Person(), body="early")
    assert "body" not in item.__dict__ and item.body == "late"  # the loader decides, as before


def test_with_loader_refuses_what_init_refuses() -> None:
    with pytest.raises(TypeError):
        LazyMessage.with_loader(_load, ref="r", sender=Person())  # no source
    with pytest.raises(TypeError):
        LazyMessage.with_loader(_load, source="s", ref="r", sender=Person(), colour="red")


@pytest.mark.realdata
@pytest.mark.parametrize("digest", [TUNING_INBOX, HELD_OUT_INBOX], ids=["tuning", "held-out"])
def test_with_loader_on_real_mail(digest: str) -> None:
    path: Path = realdata_by_digest(digest)
    raws = list(iter_mbox(path, headers_only=True))
    assert len(raws) > 300
    for raw in raws:
        _same(_fields(raw.header_block))


class _Reference(Message):
    """Message with its two memo properties as functools.cached_property (what they were)."""

    in_sent = cached_property(Message.in_sent.func)
    third_party_reason = cached_property(Message.third_party_reason.func)


MESSAGES = [
    {},
    {"labels": ("Sent",)},
    {"labels": ("INBOX",)},
    {"labels": ("[Gmail]/Sent Mail",), "delivered_from": "mx.other.example"},
    {"auth_failure": "dmarc=fail", "labels": ("Sent",)},
    {"on_behalf_of": "relay@x.example"},
    {"on_behalf_of": "relay@x.example", "labels": ("Sent",)},
]


@pytest.mark.parametrize("extra", MESSAGES)
def test_memo_properties_match_cached_property(extra: dict[str, Any]) -> None:
    fast, slow = Message(source="s", ref="r", **extra), _Reference(source="s", ref="r", **extra)
    assert fast.third_party_reason == slow.third_party_reason and fast.in_sent == slow.in_sent
    assert list(fast.__dict__.items()) == list(slow.__dict__.items())  # both kept, in the same order
