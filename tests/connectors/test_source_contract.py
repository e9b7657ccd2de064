"""Every registered source keeps the source contract (connectors/base.py), checked the same way.

Declarations: a unique kind, a description, URI schemes no two sources share, a ``cursor_doc``
for every source that leaves a cursor. Behaviour, on the demo persona's footprint (every local
kind it holds) and on the shipped :class:`FakeSource`: items carry their source's id (or, for an
archive's parts, an id under it), skips
carry a reason, a complete read leaves a cursor, and a second read from that cursor brings
nothing new and not the whole read again.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.demo import build_demo
from bootstrap_app.errors import SourceNotFound
from bootstrap_app.pipeline import item_digest
from bootstrap_app.types import Message, Person
from connectors import registry
from connectors.base import (
    CACHE_MODES,
    DECLARATIONS,
    AccountComposite,
    AccountSource,
    Availability,
    ReadContext,
    Source,
)
from connectors.fake import FakeSource, fake_line

ALL = sorted((*registry.registered(), FakeSource), key=lambda cls: cls.priority)
"""The shipped sources and the test source (not registered for users; see test_fake_is_not_listed)."""


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.kind)
def test_declarations(cls: type[Source]) -> None:
    assert cls.kind and cls.kind == cls.kind.lower() and " " not in cls.kind
    assert cls.description.strip()
    assert cls.auth in ("", *registry.AUTH_PROVIDERS) or cls.auth in ("google", "microsoft")
    assert isinstance(registry.availability(cls, None), Availability)
    assert cls.cache in CACHE_MODES
    if cls.cache:  # the item cache is kept up to the cursor: no cursor, nothing to keep it by
        assert cls.cursor_doc.strip()


def test_kinds_and_schemes_are_unique() -> None:
    kinds = Counter(cls.kind for cls in ALL)
    assert [k for k, n in kinds.items() if n > 1] == []
    schemes = Counter(s for cls in ALL for s in cls.uri_schemes)
    assert [s for s, n in schemes.items() if n > 1] == []


@pytest.mark.parametrize("cls", [c for c in ALL if c in registry.by_shape() or c is FakeSource],
                         ids=lambda c: c.kind)
def test_sniff_is_quiet_on_missing_and_foreign_paths(cls: type[Source], tmp_path: Path) -> None:
    assert cls.sniff(tmp_path / "missing") is False
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\x00\xff" * 64)
    assert cls.sniff(odd) in (True, False)  # answers, does not raise


@pytest.mark.parametrize("form_cls", registry.uri_forms(), ids=lambda fc: fc[0])
def test_uri_sources_resolve_to_their_canonical_id(form_cls: tuple[str, type[Source]]) -> None:
    _, cls = form_cls
    for scheme in cls.uri_schemes:
        found = registry.detect(f"{scheme}:")
        assert found and all(isinstance(s, Source) for s in found)
        assert registry.source_for_scheme(scheme) is cls


def test_unknown_scheme_is_named_once(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFound) as caught:
        registry.detect("nosuchkind:")
    message = str(caught.value).splitlines()[0]
    assert message.count("nosuchkind") == 1 and "memseed sources" in str(caught.value)


def _read_all(source: Source, cursor: dict[str, object] | None = None) -> tuple[list[object], ReadContext]:
    ctx = ReadContext(cursor=cursor, claimed=registry.claimed_by_other)
    return list(source.read(ctx)), ctx


@pytest.fixture(scope="module")
def demo_sources(tmp_path_factory: pytest.TempPathFactory) -> list[Source]:
    root = build_demo(tmp_path_factory.mktemp("contract") / "demo")
    return registry.detect(root)


def test_demo_covers_several_kinds(demo_sources: list[Source]) -> None:
    kinds = {s.kind for s in demo_sources}
    assert {"takeout", "slack", "git", "folder"} <= kinds, kinds


def test_every_demo_source_keeps_the_contract(demo_sources: list[Source]) -> None:
    for source in demo_sources:
        items, ctx = _read_all(source)
        assert items, source
        # an archive's parts are sources of their own under the archive's id (takeout:…!part)
        assert all(i.source.startswith(source.id) for i in items)  # type: ignore[attr-defined]
        assert all(s.reason.strip() for s in ctx.skips)
        if not type(source).cursor_doc:
            continue
        assert ctx.new_cursor is not None, f"{source.kind} declares a cursor but left none"
        json.dumps(ctx.new_cursor, default=str)  # cursors are stored as JSON
        seen = {(i.ref, item_digest(i)) for i in items}  # type: ignore[attr-defined,arg-type]
        again, _ = _read_all(source, ctx.new_cursor)
        # nothing changed, so nothing new may appear; a source may re-deliver the items at its
        # cursor's boundary (same mtime: never lose a file), but not the whole read again
        assert all((i.ref, item_digest(i)) in seen for i in again)  # type: ignore[attr-defined,arg-type]
        assert len(items) == 1 or len(again) < len(items), f"{source.kind}: the cursor saved nothing"


def _msg(n: int) -> Message:
    return Message(source="", ref=f"m{n}", timestamp=datetime(2026, 3, n, 9, tzinfo=UTC),
                   sender=Person("Ada", "ada@example.org"), to=(Person("Bo", "bo@example.org"),),
                   subject=f"note {n}", body="AKIAIOSFODNN7EXAMPLE is the key", labels=("Sent",))


def test_fake_source_round_trips_and_reads_only_new_lines(tmp_path: Path) -> None:
    path = tmp_path / "box.fake.jsonl"
    path.write_text("\n".join([fake_line(_msg(1)), "{not json", fake_line(_msg(2))]) + "\n", encoding="utf-8")
    with registry.extended(FakeSource):
        [source] = registry.detect(path)
    assert isinstance(source, FakeSource)
    items, ctx = _read_all(source)
    assert [i.ref for i in items] == ["m1", "m2"]  # type: ignore[attr-defined]
    assert [s.ref for s in ctx.skips] == ["line 2"] and "JSONDecodeError" in ctx.skips[0].reason
    assert "AKIAIOSFODNN7EXAMPLE" not in items[0].body  # type: ignore[attr-defined]  # cleaned at the boundary
    with path.open("a", encoding="utf-8") as handle:
        handle.write(fake_line(_msg(3)) + "\n")
    again, _ = _read_all(source, ctx.new_cursor)
    assert [i.ref for i in again] == ["m3"]  # type: ignore[attr-defined]


def test_extended_registry_is_undone() -> None:
    class Toy(FakeSource, kind="toy"):
        suffix = ".toy.jsonl"

    with registry.extended(Toy):
        assert Toy in registry.registered()
    assert Toy not in registry.registered()


def test_declarations_are_class_keywords_or_attributes() -> None:
    """Both forms declare the same thing; a keyword wins over what the parent declared."""

    class Keyworded(Source, kind="kw", priority=7, uri_schemes=("kw", "k"), catch_all=True,
                    description="d", cursor_doc="c"):
        pass

    class Attributed(Source):
        kind = "attr"
        priority = 8

    class Child(Keyworded, kind="child"):
        pass

    assert (Keyworded.kind, Keyworded.priority, Keyworded.uri_schemes, Keyworded.catch_all) == (
        "kw", 7, ("kw", "k"), True)
    assert (Keyworded.description, Keyworded.cursor_doc, Keyworded.auth) == ("d", "c", "")
    assert (Attributed.kind, Attributed.priority, Attributed.description) == ("attr", 8, "")
    assert (Child.kind, Child.priority, Child.uri_schemes) == ("child", 7, ("kw", "k"))
    assert Source.kind == "" and Source.priority == 50  # the base keeps its defaults
    assert set(DECLARATIONS) == {name for name, note in vars(Source)["__annotations__"].items()
                                 if str(note).startswith("ClassVar")}


def test_unknown_or_mistyped_declarations_fail_at_class_creation() -> None:
    with pytest.raises(TypeError, match=r"cursor\b.*a source declares kind, description, uri_schemes"):
        class Misspelt(Source, kind="x", cursor="mtime"):
            pass
    with pytest.raises(TypeError, match="uri_schemes must be a tuple of strings"):
        class Letters(Source, uri_schemes="gmail"):
            pass
    with pytest.raises(TypeError, match="priority must be a whole number"):
        class Late(Source, priority="last"):
            pass
    with pytest.raises(TypeError, match="cache must be one of"):
        class Cached(Source, cache="always"):
            pass
    with pytest.raises(TypeError, match="uri_schemes must be a tuple of strings"):
        class AccountLetters(AccountSource, kind="x", uri_schemes="gmail"):  # checked after the defaults
            pass


def test_mailbox_sources_are_served_by_the_item_cache() -> None:
    """gmail: and outlook: report only added mail from their cursor, so a reseed keeps the rest
    in the item cache; snapshot sources (folders, repos, .ics) are read in full again."""
    cached = {cls.kind for cls in ALL if cls.cache}
    assert {"gmail", "outlook"} <= cached
    assert not cached & {cls.kind for cls in registry.by_shape()}


@pytest.mark.parametrize("cls", [c for c in ALL if issubclass(c, AccountSource)], ids=lambda c: c.kind)
def test_account_sources_are_named_by_their_kind(cls: type[AccountSource]) -> None:
    assert cls.uri_schemes[0] == cls.kind and cls.uri_form == f"{cls.kind}:[ACCOUNT]"
    for scheme in cls.uri_schemes:  # an alias names the same source, in canonical form
        [source, *rest] = cls.from_uri(f"{scheme}: Ada@Example.ORG")
        assert source.id.endswith(":ada@example.org") and all(isinstance(s, AccountSource) for s in rest)
        assert source.id == f"{cls.kind}:ada@example.org" or issubclass(cls, AccountComposite)


class _Inbox(AccountSource, kind="toy-mail", description="toy mail", cursor_doc="n"):
    def read(self, ctx: ReadContext) -> Iterator[Message]:
        yield replace(_msg(1), source=self.id)
        ctx.new_cursor = {"n": 1}


class _Diary(AccountSource, kind="toy-calendar", uri_schemes=("toy-calendar", "tcal"), description="toy cal"):
    def read(self, ctx: ReadContext) -> Iterator[Message]:
        ctx.skip(self.id, "e1", "unreadable")
        yield replace(_msg(2), source=self.id)


class _Whole(AccountComposite, kind="toy", description="toy account"):
    parts = (_Inbox, _Diary)


def test_account_source_defaults_and_composite() -> None:
    """An account source's URI comes from its kind unless it declares aliases; a composite
    expands to its parts for the same account, and read directly it reads each part in full
    (its parts' skips reported, no cursor kept: a cursor is a part's own)."""
    assert (_Inbox.uri_schemes, _Inbox.uri_form) == (("toy-mail",), "toy-mail:[ACCOUNT]")
    assert (_Diary.uri_schemes, _Diary.uri_form) == (("toy-calendar", "tcal"), "toy-calendar:[ACCOUNT]")
    assert (_Whole.uri_schemes, _Whole.uri_form) == (("toy",), "toy:[ACCOUNT]")
    assert _Diary("tcal:Bo@Example.org").id == "toy-calendar:bo@example.org"
    assert _Inbox("toy-mail:").id == "toy-mail:" and _Inbox("toy-mail:").account == ""
    parts = _Whole.from_uri("toy:bo@example.org")
    assert [(type(p), p.id) for p in parts] == [(_Inbox, "toy-mail:bo@example.org"),
                                                (_Diary, "toy-calendar:bo@example.org")]
    ctx = ReadContext(cursor={"n": 0})
    items = list(_Whole("toy:bo@example.org").read(ctx))
    assert [(i.source, i.ref) for i in items] == [("toy-mail:bo@example.org", "m1"),
                                                  ("toy-calendar:bo@example.org", "m2")]
    assert [(s.source, s.reason) for s in ctx.skips] == [("toy-calendar:bo@example.org", "unreadable")]
    assert ctx.new_cursor is None


@pytest.mark.parametrize("kind,suffix", [("eml", ".eml"), ("msg", ".msg")])
def test_one_message_per_file_folders_are_told_by_one_rule(kind: str, suffix: str, tmp_path: Path) -> None:
    """A file named *.eml / *.msg, or a folder whose visible files are at least half such files
    and that holds no git repository (a project folder with one saved message is not a mail export)."""
    cls = next(c for c in ALL if c.kind == kind)
    export = tmp_path / "export"
    (export / "sub").mkdir(parents=True)
    for name in (f"a{suffix}", f"B{suffix.upper()}", "notes.txt", ".hidden.txt", ".x.txt"):
        (export / name).write_bytes(b"x")
    assert cls.sniff(export) and cls.sniff(export / f"a{suffix}") and not cls.sniff(export / "notes.txt")
    (export / "c.txt").write_bytes(b"x")
    (export / "d.txt").write_bytes(b"x")
    assert not cls.sniff(export)  # two of five visible files
    (export / "c.txt").unlink()
    assert cls.sniff(export)  # two of four: half is enough; hidden files and sub-folders do not count
    (export / "sub" / ".git").mkdir()
    assert not cls.sniff(export)
    with pytest.raises(SourceNotFound, match=r"gone: no such file or folder") as caught:
        list(cls(tmp_path / "gone").read(ReadContext()))
    assert caught.value.hint == "check the path"
