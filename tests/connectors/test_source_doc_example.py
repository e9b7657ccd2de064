"""The IRC-log source of docs/extending.md ("Add a source"), loaded from the doc, keeps the source contract.

The same checks the source contract test runs over the built-in sources: declarations, quiet
detection, item ids under the source's id, skips with a reason, a cursor that resumes without
re-reading, redaction at the boundary; then a whole ``scan()`` through the registry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import UnsupportedSource
from bootstrap_app.pipeline import item_digest, scan
from bootstrap_app.types import ChatMessage
from connectors import registry
from connectors.base import ReadContext, Source
from tests.doc_examples import load_example

IrcLogSource: type[Source] = load_example("Add a source").IrcLogSource

LOG = """\
[2026-03-02 09:00] <maya> morning, the ledger deploy is at 10
[2026-03-02 09:01] <daniel> ok
-!- priya has joined #ledger
[2026-03-02 09:05] <maya> key for staging is AKIAIOSFODNN7EXAMPLE, rotate it after
garbage line without a timestamp
[2026-03-03 09:00] <maya> we never push to main; open a pull request
"""


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "#ledger.irclog"
    path.write_text(LOG, encoding="utf-8")
    return path


def _read(source: Source, cursor: dict[str, object] | None = None) -> tuple[list[ChatMessage], ReadContext]:
    ctx = ReadContext(cursor=cursor, claimed=registry.claimed_by_other)
    items = list(source.read(ctx))
    assert all(isinstance(i, ChatMessage) for i in items)
    return items, ctx  # type: ignore[return-value]


def test_declarations_and_quiet_detection(tmp_path: Path) -> None:
    assert IrcLogSource.kind == "irclog" and IrcLogSource.description.strip() and IrcLogSource.cursor_doc
    assert IrcLogSource.sniff(tmp_path / "missing.irclog") is False
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\x00\xff" * 64)
    assert IrcLogSource.sniff(odd) is False


def test_detected_through_the_registry_only_when_listed(log: Path) -> None:
    with pytest.raises(UnsupportedSource):
        registry.detect(log)  # not listed: nobody claims an .irclog
    with registry.extended(IrcLogSource):
        [source] = registry.detect(log)
        assert type(source) is IrcLogSource
    assert IrcLogSource not in registry.registered()


def test_items_skips_cursor_and_redaction(log: Path) -> None:
    source = IrcLogSource(str(log))
    items, ctx = _read(source)
    assert [(i.user.name, i.channel, i.ref) for i in items] == [
        ("maya", "ledger", "ledger:1"), ("daniel", "ledger", "ledger:2"), ("maya", "ledger", "ledger:4"),
        ("maya", "ledger", "ledger:6")]
    assert all(i.source == source.id and i.source.startswith("irclog:") for i in items)
    assert "AKIAIOSFODNN7EXAMPLE" not in items[2].text and "REDACTED" in items[2].text
    assert [(s.ref, bool(s.reason.strip())) for s in ctx.skips] == [("line 3", True), ("line 5", True)]
    json.dumps(ctx.new_cursor)
    seen = {(i.ref, item_digest(i)) for i in items}
    again, _ = _read(source, ctx.new_cursor)
    assert again == []
    with log.open("a", encoding="utf-8") as handle:
        handle.write("[2026-03-04 10:00] <daniel> merged\n")
    newer, _ = _read(source, ctx.new_cursor)
    assert [(i.ref, i.text) for i in newer] == [("ledger:7", "merged")]
    assert all((i.ref, item_digest(i)) not in seen for i in newer)


def test_scan_reads_it_through_the_registry(log: Path, tmp_path: Path) -> None:
    with registry.extended(IrcLogSource):
        result = scan([str(log)], settings=load_settings(tmp_path / "home"), owners=["irc:maya"])
    [report] = result.reports
    assert (report.kind, report.items, len(report.skipped), report.error) == ("irclog", 4, 2, None)
