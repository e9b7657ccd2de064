"""A Gmail message and its Takeout twin are the same item, dedupe by Message-ID, and propose the same.

The stand-in serves the demo persona's Takeout mbox as Gmail would (hex ids, label ids, no
X-GM-* headers), so the two paths read the very same messages.
"""

from __future__ import annotations

import json
import mailbox
from dataclasses import fields
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.demo import demo_locations
from bootstrap_app.pipeline import scan
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google import gmail as gmail_mod
from connectors.google.gmail import GmailSource
from connectors.local.mbox import read_mbox
from tests.conftest import realdata_by_digest, realdata_file
from tests.mail_oracle import HELD_OUT_INBOX

from .google_standin import GoogleStandIn
from .google_world import World, raw_message

_SAME = [f.name for f in fields(Message) if f.name not in ("source", "labels", "body")]


def test_gmail_item_equals_its_takeout_twin(google: GoogleStandIn, demo_root: Path) -> None:
    home = load_settings(None).home
    ctx = ReadContext(credentials=lambda _p: auth.credentials(home), home=home, sleep=lambda _s: None)
    cloud = list(GmailSource("gmail:").read(ctx))
    mbox = demo_locations(demo_root)["mbox"]
    export = {m.message_id: m for m in read_mbox(mbox, "takeout:x", ReadContext())}
    assert cloud
    for item in cloud:
        twin = export[item.message_id]  # type: ignore[union-attr]
        for name in _SAME:
            assert getattr(item, name) == getattr(twin, name), (name, item.ref)
        assert set(item.labels) - {"Archived"} == set(twin.labels) - {"Archived"}  # type: ignore[union-attr]
        if "Sent" in item.labels:  # type: ignore[union-attr]
            assert item.body == twin.body  # type: ignore[union-attr]  # the owner's words, fetched in full


def test_both_sources_dedupe_and_propose_what_takeout_alone_proposes(google: GoogleStandIn,
                                                                     demo_root: Path) -> None:
    settings = load_settings(None)
    mbox = str(demo_locations(demo_root)["mbox"])
    alone = scan([mbox], settings=settings)
    both = scan([mbox, "gmail:"], settings=settings)
    gmail = next(r for r in both.reports if r.kind == "gmail")
    assert gmail.items > 0 and gmail.duplicates == gmail.items  # every Gmail message was in the Takeout
    assert both.owner is not None and alone.owner is not None
    assert both.owner.addresses == alone.owner.addresses

    def fingerprints(result: object) -> set[str]:
        return {p.fingerprint for p in result.proposals}  # type: ignore[attr-defined]

    assert fingerprints(both) == fingerprints(alone)  # the twin copies add nothing, change nothing
    cloud_only = scan(["gmail:"], settings=load_settings(None))
    assert cloud_only.owner is not None and cloud_only.owner.addresses == alone.owner.addresses
    gmail_fps = {(p.type, p.subject) for p in cloud_only.proposals}
    takeout_fps = {(p.type, p.subject) for p in alone.proposals}
    assert gmail_fps and gmail_fps == takeout_fps, gmail_fps ^ takeout_fps


@pytest.mark.parametrize("corpus", [HELD_OUT_INBOX, ("email", "notmuch", "notmuch-lkml-corpus.mbox")],
                         ids=["enron-held-out", "lkml"])
def test_real_mail_through_gmail_equals_the_mbox_reader(corpus: tuple[str, ...] | str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Other people's real MIME (folded and doubled-space subjects, patches, odd charsets) served
    as Gmail: every field the headers or body give must equal what the mbox reader makes of it.
    (The Enron inbox is named by its manifest digest: its file name names a person.)"""
    path = realdata_by_digest(corpus) if isinstance(corpus, str) else realdata_file(*corpus)
    world = World(account="owner@example.com")
    box = mailbox.mbox(str(path))
    for n, key in enumerate(box.iterkeys()):  # half as the owner's (bodies fetched), half received
        world.add_mail(raw_message(box, key), labels=["SENT"] if n % 2 == 0 else ["INBOX"])
    monkeypatch.setattr(gmail_mod, "SENT_BODIES", 10**6)
    with GoogleStandIn(world) as standin:
        creds = tmp_path / "authorized_user.json"
        creds.write_text(json.dumps(standin.authorized_user()), encoding="utf-8")
        monkeypatch.setenv("MEMSEED_GOOGLE_API_ROOT", standin.root)
        monkeypatch.setenv("MEMSEED_GOOGLE_CREDENTIALS", str(creds))
        home = load_settings(None).home
        cloud = list(GmailSource("gmail:").read(ReadContext(credentials=lambda _p: auth.credentials(home),
                                                            home=home, sleep=lambda _s: None)))
    export: dict[str, Message] = {}
    for m in read_mbox(path, "takeout:x", ReadContext()):
        export.setdefault(m.message_id, m)
    assert len(cloud) == len(export) > 100
    # thread ids and labels are Gmail's own (this mbox is not a Takeout); the rest must agree
    same = [n for n in _SAME if n not in ("thread_id", "authored_by_owner")]
    for item in cloud:
        twin = export[item.message_id]  # type: ignore[union-attr]
        assert [n for n in same if getattr(item, n) != getattr(twin, n)] == [], item.ref
        if "Sent" in item.labels:  # type: ignore[union-attr]
            assert item.body == twin.body, item.ref  # type: ignore[union-attr]


@pytest.mark.parametrize("header", ["X-Autoreply: yes", "X-Auto-Response-Suppress: All", "Return-Path: <>",
                                    "Return-Path: <mailer-daemon@mx.example.org>", "List-Post: <mailto:l@x.org>",
                                    "X-Autogenerated: Reply"])
def test_received_machine_mail_is_bulk_from_gmail_as_in_the_mbox(header: str, google: GoogleStandIn,
                                                                 tmp_path: Path) -> None:
    """Received mail comes as metadata with a chosen header list; every header the mbox reader
    judges bulk by must be on it, or an auto-reply counts as a person writing to the owner."""
    raw = (f"{header}\nFrom: Ana <ana@example.org>\nTo: maya@example.com\nSubject: Out of office\n"
           "Date: Thu, 01 Oct 2026 09:00:00 +0000\nMessage-ID: <auto-1@example.org>\n\nAway.\n").encode()
    google.world.add_mail(raw, labels=["INBOX"])
    box = mailbox.mbox(str(tmp_path / "one.mbox"))
    box.add(raw)
    box.flush()
    [twin] = read_mbox(tmp_path / "one.mbox", "takeout:x", ReadContext())
    home = load_settings(None).home
    ctx = ReadContext(credentials=lambda _p: auth.credentials(home), home=home, sleep=lambda _s: None)
    [item] = [i for i in GmailSource("gmail:").read(ctx) if i.message_id == "<auto-1@example.org>"]  # type: ignore[attr-defined]
    assert twin.is_bulk and item.is_bulk  # type: ignore[attr-defined]
