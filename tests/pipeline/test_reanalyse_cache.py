"""Re-analysis replays every path source from the item cache (bootstrap_app.cache.snapshots).

The demo footprint (a Takeout with mbox and calendar, a Slack export, git repositories, a
document folder) is scanned once; then no source may be read: every reader raises and any
``open`` under the footprint fails. A re-analysis after an identity correction must still give
exactly what a full scan with the same correction gives, and a changed file is read again.
"""

from __future__ import annotations

import builtins
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.identity import review as ir
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult
from bootstrap_app.store import Store
from connectors.base import Source
from connectors.registry import detect


def _parts(root: Path) -> list[str]:
    return [str(root / "takeout"), *(str(p) for p in sorted((root / "slack").iterdir())),
            *(str(p) for p in sorted((root / "repos").iterdir())), str(root / "documents")]


def _seen(result: ScanResult) -> list[tuple[str, str, tuple[tuple[str, str, bool], ...]]]:
    return sorted((p.fingerprint, p.body, tuple((e.source, e.ref, e.authored_by_owner) for e in p.evidence))
                  for p in result.proposals)


@pytest.fixture
def footprint(tmp_path: Path) -> tuple[Path, list[str], Any]:
    root = build_demo(tmp_path / "demo")
    return root, _parts(root), load_settings(tmp_path / "home")


def _block_reads(monkeypatch: pytest.MonkeyPatch, root: Path, allowed: set[type] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Every reader of the footprint's sources raises (except ``allowed`` kinds, which are recorded),
    and opening any file under ``root`` fails: a replay needs neither. An mbox opened to read a
    kept message's body back from its byte span is recorded as ``body:<name>`` and let through
    (a refused open would read as an empty body, which only the proposals would show): the
    snapshot keeps as text every body an analysis can ask for, so none may be recorded."""
    reads: list[str] = []
    classes = {type(s) for loc in _parts(root) for s in detect(loc)}
    for cls in classes:
        original = cls.read

        def read(self: Source, ctx: Any, _cls: type = cls, _original: Any = original) -> Iterator[Any]:
            if _cls not in allowed:
                raise AssertionError(f"{self.id} was read again")
            reads.append(self.kind)
            return _original(self, ctx)

        monkeypatch.setattr(cls, "read", read)
    real_open = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | Path) and str(Path(file).absolute()).startswith(str(root)) and not allowed:
            if Path(file).suffix == ".mbox" and args[:1] == ("rb",):
                reads.append(f"body:{Path(file).name}")
                return real_open(file, *args, **kwargs)
            raise PermissionError(f"{file}: opened during re-analysis")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    monkeypatch.setattr(io, "open", guarded)
    return reads


def test_reanalysis_after_a_correction_reads_no_source_and_equals_a_full_scan(
        footprint: tuple[Path, list[str], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    root, locations, settings = footprint
    owners = demo_owner_addresses()
    first = scan(locations, settings=settings, owners=owners)
    slack = next(loc for loc in locations if "/slack/" in loc)
    with Store(settings.db_path) as store:
        ir.set_source_ownership(store, slack, "not-mine")  # the person's correction on "Who you are"
    with monkeypatch.context() as blocked:
        reads = _block_reads(blocked, root)
        replayed = scan(locations, settings=settings, owners=owners, cached=True)
    assert all(r.error is None for r in replayed.reports), [r.error for r in replayed.reports]
    assert reads == []  # not even the mbox: the bodies the analysis reads are kept as text
    assert [(r.source, r.items) for r in replayed.reports] == [(r.source, r.items) for r in first.reports]
    full = scan(locations, settings=settings, owners=owners)  # read everything, same correction
    assert _seen(replayed) == _seen(full)
    assert _seen(replayed) != _seen(first)  # the correction changed the analysis
    assert [(r.source, len(r.skipped), r.left_out, r.window_from) for r in replayed.reports] == \
        [(r.source, len(r.skipped), r.left_out, r.window_from) for r in full.reports]


def test_a_changed_file_is_read_again_and_the_rest_replayed(
        footprint: tuple[Path, list[str], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    root, locations, settings = footprint
    owners = demo_owner_addresses()
    scan(locations, settings=settings, owners=owners)
    doc = next(p for p in sorted((root / "documents").rglob("*.md")))
    doc.write_text(doc.read_text() + "\nOne more line.\n")
    from connectors.local.folder import DocumentFolderSource

    with monkeypatch.context() as blocked:
        reads = _block_reads(blocked, root, allowed={DocumentFolderSource})
        again = scan(locations, settings=settings, owners=owners, cached=True)
    assert reads == ["folder"] and all(r.error is None for r in again.reports)
    with monkeypatch.context() as blocked:  # and the new read was kept: nothing is read now
        _block_reads(blocked, root)
        third = scan(locations, settings=settings, owners=owners, cached=True)
    assert _seen(third) == _seen(again)


def test_a_new_reader_version_is_read_again(
        footprint: tuple[Path, list[str], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    root, locations, settings = footprint
    from connectors.local.slack_export import SlackExportSource

    scan(locations, settings=settings, owners=demo_owner_addresses())
    monkeypatch.setattr(SlackExportSource, "reader_version", SlackExportSource.reader_version + 1)
    with monkeypatch.context() as blocked:
        reads = _block_reads(blocked, root, allowed={SlackExportSource})
        scan(locations, settings=settings, owners=demo_owner_addresses(), cached=True)
    assert reads == ["slack"] * len(list((root / "slack").iterdir()))


def test_names_that_are_not_utf8_are_read_and_not_kept(hermetic: Path) -> None:
    """A folder whose name (or a file name inside it) is not valid UTF-8 is read as usual; the
    cache keeps nothing for it (SQLite stores UTF-8 only), so the re-analysis reads it again."""
    import os

    from bootstrap_app import load_settings, scan
    from bootstrap_app.store import Store

    root = Path(os.fsdecode(os.fsencode(hermetic) + b"/r\xf6ot"))
    root.mkdir()
    (root / "plan.md").write_text("# Plan\n\nThe storefront launch is on 2026-03-02.\n")
    (root / os.fsdecode(b"n\xf6tes.md")).write_text("# Notes\n\nKeep pull requests small.\n")
    settings = load_settings()
    with Store(settings.db_path) as store:
        first = scan([str(root)], settings=settings, store=store)
        again = scan([str(root)], settings=settings, store=store, cached=True)
    def seen(result: object) -> list[tuple[int, list[str], str | None]]:
        return [(r.items, sorted(s.reason for s in r.skipped), r.error) for r in result.reports]  # type: ignore[attr-defined]

    assert seen(first) == seen(again)
    assert seen(first)[0][0] >= 1 and seen(first)[0][2] is None
    assert sorted(p.name for p in first.proposals) == sorted(p.name for p in again.proposals)
