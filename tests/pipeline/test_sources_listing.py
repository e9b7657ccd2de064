"""`memseed sources`: only what reads a person's data, and counts from the store, not the disk.

The shipped test source (``*.fake.jsonl``) is not listed to people (it is added by the tests
that use it). Remembered locations show the items their last scan read and the last sync from
the store: a folder that vanished since still lists (a walk would have failed), and only
``--check`` looks at the disk and says it is unreadable now.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.report.sources import source_catalog
from bootstrap_app.store import Store
from connectors import registry
from connectors.fake import FakeSource


def _sources(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, ["sources", "--json", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def _notes(root: Path, count: int) -> Path:
    folder = root / "notes"
    folder.mkdir()
    for i in range(count):
        (folder / f"note-{i:03}.md").write_text(f"# Note {i}\n\nThe ledger needs review item {i}.\n")
    return folder


def test_the_test_source_is_not_listed_to_people() -> None:
    assert FakeSource not in registry.SOURCES and FakeSource not in registry.registered()
    kinds = {k["kind"] for k in _sources()["kinds"]}
    assert "fake" not in kinds and {"mbox", "git", "folder"} <= kinds
    text = CliRunner().invoke(main, ["sources"], catch_exceptions=False).output
    assert ".fake.jsonl" not in text and "test messages" not in text
    with registry.extended(FakeSource):  # what its own tests do: listed only inside the block
        settings = load_settings()
        with Store(settings.db_path) as store:
            assert "fake" in {k.kind for k in source_catalog(settings, store).kinds}
    assert "fake" not in {k["kind"] for k in _sources()["kinds"]}


def test_counts_and_last_sync_come_from_the_store(tmp_path: Path) -> None:
    folder = _notes(tmp_path, 12)
    assert CliRunner().invoke(main, ["scan", str(folder), "-q"]).exit_code == 0
    [row] = _sources()["remembered"]
    assert row["location"] == str(folder.resolve()) and row["items"] == 12 and row["kinds"] == ["folder"]
    assert row["last_scanned"] and row["error"] == ""
    shutil.rmtree(folder)  # gone from disk: the listing still shows what the last scan read
    [row] = _sources()["remembered"]
    assert row["items"] == 12 and row["error"] == ""
    [checked] = _sources("--check")["remembered"]
    assert checked["items"] == 0 and "no such file" in checked["error"]
    text = CliRunner().invoke(main, ["sources", "--check"], catch_exceptions=False).output
    assert "unreadable now" in text


def test_a_location_scanned_before_parts_were_recorded_still_counts(tmp_path: Path) -> None:
    folder = _notes(tmp_path, 5)
    other = tmp_path / "notes-2"  # a sibling whose path starts the same is not "under" it
    other.mkdir()
    (other / "x.md").write_text("# X\n\nAnother note.\n")
    assert CliRunner().invoke(main, ["scan", str(folder), str(other), "-q"]).exit_code == 0
    db = sqlite3.connect(load_settings().db_path)
    db.execute("UPDATE sources SET parts=NULL")  # what a store from before schema 2 holds
    db.commit()
    db.close()
    counts = {r["location"]: (r["items"], r["kinds"]) for r in _sources()["remembered"]}
    assert counts == {str(folder.resolve()): (5, ["folder"]), str(other.resolve()): (1, ["folder"])}
