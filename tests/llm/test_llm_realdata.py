"""Real mailboxes (Enron, public record) through the digest: no third-party body line gets in."""

from __future__ import annotations

import re

import pytest

from bootstrap_app.extract.digest import build_digest
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.registry import detect
from tests.conftest import realdata_by_digest
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX, MailOracle

CASES = [TUNING_INBOX, HELD_OUT_INBOX]
"""The two Enron inboxes, by their digest in the real-data manifest (their file names name people)."""


@pytest.mark.realdata
@pytest.mark.parametrize("digest", CASES, ids=["tuning", "held-out"])
def test_real_inbox_digest_keeps_third_party_text_out(digest: str) -> None:
    path = realdata_by_digest(digest)
    oracle = MailOracle(path)  # the owner: the most frequent recipient and the addresses beside the name
    owners = (oracle.address, *sorted(oracle.own_addresses))
    items = [item for source in detect(path) for item in source.read(ReadContext())]
    collector = IdentityCollector(explicit=owners)
    for item in items:
        collector.observe(item)
    owner = collector.resolve()
    items = [owner.mark(item) for item in items]
    digest = build_digest(items, {})
    assert len(digest.text) <= 24_000
    # the export files every message in the Inbox (X-Folder), so none of them is the owner's own
    # words, whatever its From says (issue 14): everything is a third-party metadata line
    assert digest.stats["owner_blocks"] == 0 and "author=owner" not in digest.text
    assert digest.stats["third_party_lines"] > 0
    claims = [i for i in items if isinstance(i, Message) and owner.is_owner(i.sender)]
    assert claims and all(i.third_party_reason and not i.authored_by_owner for i in claims)
    leaked = [line for item in items if isinstance(item, Message) and not item.authored_by_owner
              for line in (raw.strip() for raw in item.body.splitlines())
              if len(line) >= 40 and re.search(r"[a-z]{3}", line) and line in digest.text]
    assert leaked == []
    subjects = [i.subject for i in items if isinstance(i, Message) and not i.authored_by_owner
                and len(i.subject) >= 25 and not any(i.subject in getattr(o, "subject", "") for o in items
                                                     if o.authored_by_owner)]
    assert subjects and not [s for s in subjects if s in digest.text]
