"""File-system hazards: each one skips the one item with a reason, and the scan goes on.

Names that are not valid UTF-8, symlink loops, unreadable files, very deep trees, files that
change while being read, and a store whose disk is full.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from bootstrap_app.text.paths import is_text, printable
from connectors.base import ReadContext
from connectors.local import folder as folder_mod
from connectors.local.folder import DocumentFolderSource
from connectors.local.walk import MAX_DEPTH
from connectors.registry import detect

BAD = os.fsdecode(b"caf\xe9-notes.md")  # latin-1 bytes in a name: lone surrogates in Python


def _folder(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "plan.md").write_text("# Plan\nShip the ledger.\n")
    (root / "notes.txt").write_text("Deploys on Tuesday.\n")
    (root / BAD).write_text("# Café\nnotes\n")
    return root


def _read(root: Path) -> tuple[list, list]:
    ctx = ReadContext()
    items = list(DocumentFolderSource(root).read(ctx))
    return items, ctx.skips


def test_name_not_utf8_is_one_skip(tmp_path: Path) -> None:
    items, skips = _read(_folder(tmp_path / "docs"))
    assert sorted(i.ref for i in items) == ["notes.txt", "plan.md"]
    [skip] = skips
    assert "not valid UTF-8" in skip.reason and "caf\\xe9-notes.md" in skip.reason
    assert all(is_text(x) for x in (skip.ref, skip.reason, skip.source))


def test_scan_of_folder_with_bad_names_stores_and_prints(tmp_path: Path) -> None:
    root = _folder(tmp_path / "docs")
    sub = root / os.fsdecode(b"d\xffir")
    sub.mkdir()
    (sub / "inner.md").write_text("# Inner\n")
    result = scan([str(root)], settings=load_settings(tmp_path / "home"))
    [report] = result.reports
    assert report.items == 2 and report.error is None
    assert len(report.skipped) == 2
    json.dumps(result.summary(), ensure_ascii=False).encode("utf-8")  # no surrogate reaches JSON


def test_root_with_bad_name_is_read_under_a_printable_id(tmp_path: Path) -> None:
    root = _folder(tmp_path / os.fsdecode(b"r\xf6ot"))
    result = scan([str(root)], settings=load_settings(tmp_path / "home"))
    [report] = result.reports
    assert report.items == 2 and report.source.endswith("r\\xf6ot")


def test_symlink_loops_and_dangling_links(tmp_path: Path) -> None:
    root = _folder(tmp_path / "docs")
    (root / "loop").symlink_to(root)  # a folder link back up: never followed
    (root / "self.md").symlink_to(root / "self.md")  # a link to itself: ELOOP when opened
    (root / "gone.md").symlink_to(root / "missing.md")
    items, skips = _read(root)
    assert sorted(i.ref for i in items) == ["notes.txt", "plan.md"]
    reasons = {s.ref: s.reason for s in skips}
    assert "symbolic links" in reasons["self.md"] and "No such file" in reasons["gone.md"]


def test_unreadable_file_and_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "docs")
    locked = root / "locked"
    locked.mkdir()
    (locked / "secret.md").write_text("x")
    (root / "private.md").write_text("x")
    real_open, real_scandir = open, os.scandir

    def deny_open(file, *args, **kw):  # root ignores file modes, so EACCES is injected here
        if str(file).endswith("private.md"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kw)

    def deny_scandir(path=".", *args, **kw):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path, *args, **kw)

    monkeypatch.setattr("builtins.open", deny_open)
    monkeypatch.setattr(os, "scandir", deny_scandir)
    items, skips = _read(root)
    assert sorted(i.ref for i in items) == ["notes.txt", "plan.md"]
    reasons = {s.ref: s.reason for s in skips}
    assert "Permission denied" in reasons["private.md"]
    assert "cannot be listed" in reasons["locked"]


def test_very_deep_tree(tmp_path: Path) -> None:
    root = _folder(tmp_path / "docs")
    deep = root
    for _ in range(MAX_DEPTH + 5):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "bottom.md").write_text("# Bottom\n")
    shallow = root.joinpath(*["d"] * 3)
    (shallow / "three.md").write_text("# Three\n")
    items, skips = _read(root)
    assert "d/d/d/three.md" in {i.ref for i in items}
    assert any("folders deep" in s.reason for s in skips)
    assert sys.getrecursionlimit() > 0  # the walk is iterative; detect's walk is bounded too
    assert detect(root)


def test_detect_walk_survives_a_tree_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    top = tmp_path / "footprint"
    deep = str(top)
    os.mkdir(deep)
    for _ in range(1100):  # ~2.2 kB path: within PATH_MAX, beyond Python's recursion limit
        deep += "/d"
        os.mkdir(deep)
    (top / "cal.ics").write_text("BEGIN:VCALENDAR\nEND:VCALENDAR\n")
    try:
        assert [s.kind for s in detect(top)] == ["ics"]
    finally:  # shutil.rmtree recurses too: take the tree down from the bottom
        while deep != str(top):
            os.rmdir(deep)
            deep = os.path.dirname(deep)


def test_file_changing_while_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "docs")
    real = folder_mod.extract_document

    def growing(path: Path, ctx: ReadContext):  # another program appends while we read
        out = real(path, ctx)
        if path.name == "notes.txt":
            with open(path, "a") as f:
                f.write("appended meanwhile\n")
        return out

    monkeypatch.setattr(folder_mod, "extract_document", growing)
    items, skips = _read(root)
    assert [i.ref for i in items] == ["plan.md"]
    assert any(s.ref == "notes.txt" and "changed while being read" in s.reason for s in skips)
    monkeypatch.setattr(folder_mod, "extract_document", real)
    items, _ = _read(root)  # the next scan reads it
    assert "notes.txt" in {i.ref for i in items}


def test_disk_full_store_skips_with_reason(tmp_path: Path) -> None:
    """SQLITE_FULL (what ENOSPC becomes inside SQLite), made real with max_page_count."""
    root = tmp_path / "docs"
    root.mkdir()
    for n in range(600):
        (root / f"note-{n:04d}.md").write_text(f"# Note {n}\n" + "word " * 50)
    settings = load_settings(tmp_path / "home")
    store = Store(settings.db_path)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages + 2}")
    result = scan([str(root)], settings=settings, store=store)
    [report] = result.reports
    assert report.error is None and report.items == 600  # every file was read ...
    lost = [s for s in report.skipped if "not recorded in the store" in s.reason]
    assert lost and all("free disk space" in s.reason for s in lost)  # ... the store said why it kept less
    assert store._db.execute("SELECT count(*) FROM items").fetchone()[0] < 600
    store._db.execute("PRAGMA max_page_count=1073741823")
    result = scan([str(root)], settings=settings, store=store)  # with space again, all is read
    assert result.reports[0].items == 600
    assert store._db.execute("SELECT count(*) FROM items").fetchone()[0] >= 600
    store.close()
    assert isinstance(sqlite3.connect(settings.db_path).execute("PRAGMA integrity_check").fetchone()[0], str)


def test_printable() -> None:
    assert printable(os.fsdecode(b"a\xffb")) == "a\\xffb"
    assert printable("a\ud800b") == "a\\ud800b"
    assert printable("plain é") == "plain é"
