"""A Received line's memo key (``delivery._hop_shape``) never changes its verdict.

Why: :func:`connectors.local.delivery.external_hop` judges a line by the verdict of its shape,
memoized; a shape that dropped text the verdict reads would judge a stranger's server as the
owner's own (or the reverse). Each line's verdict, worked out on the whole line without the memo,
must equal the verdict of its shape: on awkward lines and on every Received line of the real mail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from connectors.local.delivery import _hop_shape, _hop_verdict, external_hop
from connectors.local.mailparse import parse_header_block, split_message
from connectors.local.mbox import iter_mbox
from tests.conftest import REALDATA

_AWKWARD = [
    "from mail2.example.com (mail2.example.com. [10.0.0.2]) by mx.google.com with SMTPS id 2.2 "
    "for <sam@example.com>; Sun, 01 Jan 2023 00:14:00 +0000",
    "from mx.owner.example (unknown [203.0.113.5]) by mx.owner.example with ESMTP id abc; Tue, 3 Mar 2020 10:00:00 +0000",
    "from evil.example (by fake.owner.example with ESMTPA) by mx.owner.example with ESMTP id 1",
    "from a.other.org ([198.51.100.7] helo=owner.example) by mx.owner.example with esmtp (Exim 4.96) id 1x",
    "from host (host [192.168.1.2]) by relay.owner.example with SMTP; Tue, 3 Mar 2020 10:00:00 +0000 (UTC)",
    "from [203.0.113.9] by mx.owner.example with HTTP id 9 for <a@owner.example>",
    "from x.other.org with ESMTP by mx.owner.example id 4",
    "from x.other.org (x.other.org [198.51.100.1]) by mx.owner.example",
    "from x.other.org (x.other.org [198.51.100.1]) with SMTP",
    "from 198.51.100.3 by mx.owner.example with SMTP id 7 (using TLS) via relay.other.org",
    "from smtp.example.co.uk (smtp.example.co.uk [198.51.100.4]) by mx.example.co.uk with ESMTPS id 8",
    "from mail.other.org (mail.other.org [2001:db8::1]) by mx.owner.example (Postfix) with ESMTPS id 3F",
    "by 2002:a05:6a10:2 with SMTP id 0000000000000002; Sun, 01 Jan 2023 00:14:00 +0000",
    "from a(by b.owner.example) by c.other.org with ESMTP id 1",  # a ``by`` inside the host's own word
    "from by.other.org (by.other.org [198.51.100.9]) by mx.owner.example with SMTP id 2",
    "from x.other.org with SMTP by mx.owner.example (x.other.org [198.51.100.8]) by relay.owner.example id 5",
]


def _received(blocks: list[bytes]) -> list[str]:
    return [line for block in blocks for line in parse_header_block(block).get("received", "").split("\n") if line]


def _real_lines() -> list[str]:
    folder = REALDATA / "email"
    if not folder.is_dir():
        return []
    blocks = [split_message(p.read_bytes())[0] for p in sorted(folder.rglob("*.eml"))]
    for path in sorted(folder.rglob("*.mbox")):
        blocks.extend(raw.header_block for raw in iter_mbox(Path(path), headers_only=True))
    return _received(blocks)


def _same(line: str) -> None:
    assert _hop_verdict.__wrapped__(_hop_shape(line)) == _hop_verdict.__wrapped__(line), line


@pytest.mark.parametrize("line", _AWKWARD)
def test_awkward_lines_keep_their_verdict(line: str) -> None:
    _same(line)


def test_the_shape_is_shared_by_one_server_pair() -> None:
    one, two = (f"from mail2.example.com (mail2.example.com. [198.51.100.2]) by mx.google.com with SMTPS id {n}.2 "
                f"for <u{n}@example.com>; Sun, 0{n} Jan 2023 00:14:00 +0000" for n in (1, 2))
    assert _hop_shape(one) == _hop_shape(two)
    assert external_hop(one) == external_hop(two) == "mail2.example.com"


def test_real_received_lines_keep_their_verdict() -> None:
    lines = _real_lines()
    if not lines:
        pytest.skip(f"real data folder {REALDATA} is absent")
    assert len(lines) > 100
    for line in lines:
        _same(line)
