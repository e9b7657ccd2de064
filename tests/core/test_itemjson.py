"""The item cache's JSON codec gives back exactly the item it was given, for every kind and field."""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, fields
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from bootstrap_app.cache import codec as itemjson
from bootstrap_app.cache.codec import generic_item_to_json, item_from_json, item_to_json
from bootstrap_app.demo import build_demo
from bootstrap_app.errors import StoreError
from bootstrap_app.types import (
    ITEM_KINDS,
    AgentTurn,
    ChatMessage,
    Document,
    Event,
    Item,
    MemoryEntry,
    MemoryType,
    Message,
    Person,
    Repo,
)
from connectors import registry
from connectors.base import ReadContext
from tests.conftest import realdata_by_digest
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX

_T = datetime(2026, 3, 29, 1, 30, 15, 123456, tzinfo=UTC)
_ANNA = Person(name="Anna Ölund", address="anna@example.org")
_BO = Person(name="", address="bo@example.org")
_BASE = {"source": "x:/tmp/ä", "ref": "<r1@x>", "timestamp": _T, "people": (_ANNA, _BO), "authored_by_owner": False}

FULL: list[Item] = [
    Message(**_BASE, sender=_ANNA, to=(_BO,), cc=(_ANNA, _BO), subject="Re: ✓ plan", body="line 1\r\nline 2\x00",
            message_id="<m@x>", in_reply_to="<p@x>", thread_id="t1", labels=("Sent", "Inbox"), list_id="l.x",
            is_bulk=True, utc_offset_minutes=-360, delivered_from="mx.other.example", auth_failure="dmarc=fail",
            on_behalf_of="relay@x.example"),
    Event(**_BASE, summary="Standup", start=datetime(2026, 3, 29, 9, tzinfo=timezone(timedelta(hours=2))),
          end=datetime(2026, 3, 29, 9, 15), all_day=True, tzid="Europe/Berlin", organizer=_ANNA, attendees=(_BO,),
          series_uid="s1", rrule="FREQ=WEEKLY", location="Room 1", description="notes", status="confirmed",
          calendar_owner="anna@example.org", declined=("bo@example.org",), published=True),
    Document(**_BASE, path="/d/a.md", title="A", text="# A\n", doc_format="md", size=4, truncated=True),
    Repo(**_BASE, path="/r", name="r", remote_url="git@x:r.git", default_branch="main",
         files={"README.md": "hi", "pyproject.toml": "[x]"}, file_list=("README.md", "a.py"),
         languages={"Python": 3}, commit_count=7, authors=(("Anna", "anna@example.org", 5), ("Bo", "bo@x", 2)),
         recent_subjects=("fix", "feat"), first_commit=_T - timedelta(days=9), last_commit=_T,
         git_user_email="anna@example.org"),
    ChatMessage(**_BASE, workspace="w", channel="general", user=_ANNA, text="hej", thread_ts="1.2",
                subtype="thread_broadcast", user_title="Staff Engineer", user_tz="Europe/Berlin"),
    MemoryEntry(**_BASE, harness="claude-code", name="n", description="d", memory_type=MemoryType.FEEDBACK,
                body="b", scope="project", path="/m/n.md", line=7),
    AgentTurn(**_BASE, harness="codex", session="s-1", line=7, role="person", marks=("pasted",), text="use uv ✓",
              tool="shell", project="/r", cwd="/r/sub"),
]


def _default(f: object) -> object:
    d, factory = f.default, f.default_factory  # type: ignore[attr-defined]
    return d if d is not MISSING else factory() if factory is not MISSING else MISSING


@pytest.mark.parametrize("item", FULL, ids=lambda i: i.kind)
def test_every_field_round_trips(item: Item) -> None:
    # every field holds a non-default value here, so a field added later must be added to FULL too
    assert [f.name for f in fields(item) if getattr(item, f.name) == _default(f)] == []
    back = item_from_json(item_to_json(item))
    assert back == item and type(back) is type(item)
    for f in fields(item):  # same types too (a tuple stays a tuple, an offset stays that offset)
        assert type(getattr(back, f.name)) is type(getattr(item, f.name)), f.name
    assert back.timestamp is not None and back.timestamp.utcoffset() == item.timestamp.utcoffset()  # type: ignore[union-attr]


def test_every_item_kind_is_covered() -> None:
    assert {i.kind for i in FULL} == set(ITEM_KINDS)


def test_defaults_are_left_out_and_naive_times_stay_naive() -> None:
    bare = Message(source="s", ref="r", timestamp=datetime(2026, 1, 1, 12))
    text = item_to_json(bare)
    assert json.loads(text)["f"].keys() == {"source", "ref", "timestamp"}
    assert item_from_json(text) == bare and item_from_json(text).timestamp.tzinfo is None  # type: ignore[union-attr]


def test_the_demo_personas_items_round_trip(tmp_path: Path) -> None:
    root = build_demo(tmp_path / "demo")
    seen: set[str] = set()
    count = 0
    for source in registry.detect(root):
        for item in source.read(ReadContext(claimed=registry.claimed_by_other)):
            assert item_from_json(item_to_json(item)) == item, (source.id, item.ref)
            seen.add(item.kind)
            count += 1
    assert count > 100 and {"message", "event", "document", "repo", "chatmessage"} <= seen


@pytest.mark.parametrize("text", ["", "{}", '{"kind": "message"}', '{"kind": "nope", "f": {}}',
                                  '{"kind": "message", "f": {"source": "s", "ref": "r", "bogus": 1}}',
                                  '{"kind": "message", "f": {"source": "s", "ref": "r", "timestamp": {"$zz": 1}}}'])
def test_a_damaged_row_is_a_store_error(text: str) -> None:
    with pytest.raises(StoreError, match="cannot be read back"):
        item_from_json(text)


# -- the fast encoder (orjson, a plan per class) must write exactly what the generic one writes --

class _Label(str):
    """A str subclass: not a type the fast path knows, so it must go the generic way."""


_AWKWARD: list[Item] = [
    Message(source="s", ref="lone \udc80 surrogate", subject="x"),  # orjson refuses it; json writes it
    Repo(source="s", ref="r", languages={"Python": 2**70}),  # past 64 bits
    Repo(source="s", ref="r", languages={"nan": float("nan"), "inf": float("-inf"), "f": 1e16}),  # type: ignore[dict-item]
    Message(source="s", ref="r", subject=_Label("a str subclass"), labels=(_Label("Sent"),)),
    Message(source="s", ref="r", timestamp=datetime(2026, 1, 1, 12), sender=Person(), to=(), cc=(_BO,)),
    Repo(source="s", ref="r", authors=(("Ä", "a@x", 1), ("", "", 0)), files={"": "", "ü": "\x00\u2028"}),
    MemoryEntry(source="s", ref="r", memory_type=MemoryType.USER, body="§ ✓ \U0001f600"),
    Message(source="s", ref="r", utc_offset_minutes=0, is_bulk=False, authored_by_owner=True),
]


@pytest.mark.parametrize("item", FULL + _AWKWARD, ids=lambda i: f"{i.kind}-{i.ref[:12]}")
def test_the_fast_encoder_writes_what_the_generic_one_writes(item: Item) -> None:
    for omit, extra in (("", None), ("body", {"fb": ["/m/box", 1, 2, 3, 4, 5]})):
        assert item_to_json(item, omit, extra) == generic_item_to_json(item, omit, extra)


@pytest.mark.parametrize("item", _AWKWARD, ids=lambda i: f"{i.kind}-{i.ref[:12]}")
def test_awkward_values_round_trip(item: Item) -> None:
    back = item_from_json(item_to_json(item))
    assert item_to_json(back) == item_to_json(item)  # NaN != NaN, so compared as text


def test_ordinary_items_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> str:
        raise AssertionError("fell back to the generic encoder")

    monkeypatch.setattr(itemjson, "generic_item_to_json", refuse)
    for item in FULL:
        assert item_from_json(item_to_json(item)) == item


@pytest.mark.realdata
@pytest.mark.parametrize("digest", [TUNING_INBOX, HELD_OUT_INBOX])
def test_the_fast_encoder_matches_on_real_mail(digest: str) -> None:
    path = realdata_by_digest(digest)
    count = 0
    for source in registry.detect(str(path)):
        for item in source.read(ReadContext(claimed=registry.claimed_by_other)):
            assert item_to_json(item, "body") == generic_item_to_json(item, "body"), item.ref
            count += 1
    assert count > 100


def test_the_remembered_timestamp_text_is_never_another_datetimes() -> None:
    utc_noon = datetime(2026, 1, 1, 12, tzinfo=UTC)
    berlin_1pm = utc_noon.astimezone(timezone(timedelta(hours=1)))  # equal to utc_noon, other text
    assert berlin_1pm == utc_noon
    for value in (utc_noon, utc_noon, berlin_1pm, utc_noon, datetime(2026, 1, 1, 12)):
        assert itemjson.isoformat(value) == value.isoformat()


def test_a_class_with_one_field_left_encodes_like_the_generic_walk() -> None:
    @dataclass(frozen=True)
    class _Tiny:  # attrgetter of one name gives a value, not a tuple: the plan must not trip on it
        kind = "tiny"
        ref: str = ""
        body: str = ""

    for item in (_Tiny("r", "b"), _Tiny()):
        assert item_to_json(item, "body") == generic_item_to_json(item, "body")  # type: ignore[arg-type]
