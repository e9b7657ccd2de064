"""A Gmail message and its Takeout twin are the same item, dedupe by Message-ID, and propose the same.

The stand-in serves the demo persona's Takeout mbox as Gmail would (hex ids, label ids, no
X-GM-* headers), so the two paths read the very same messages.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from bootstrap_app.config import load_settings
from bootstrap_app.demo import demo_locations
from bootstrap_app.pipeline import scan
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google.gmail import GmailSource
from connectors.local.mbox import read_mbox

from .google_standin import GoogleStandIn

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
