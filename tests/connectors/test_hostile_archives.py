"""Hostile archives: ``../`` and absolute names, symlinks stored in the zip, nested zips, zip
bombs and members too big for the disk. Nothing is written outside the app's folder, memory
stays bounded, every refusal is a skip with its reason, and the rest is still read."""

from __future__ import annotations

import json
import shutil
import stat
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from connectors.base import ReadContext
from connectors.local import takeout as takeout_mod
from connectors.registry import detect

MBOX = (b"From jon@x.example Mon Mar  2 09:00:00 2026\nFrom: Jon <jon@x.example>\nTo: ana@x.example\n"
        b"Subject: Hello\nDate: Mon, 02 Mar 2026 09:00:00 +0000\nMessage-ID: <h1@x.example>\n\nHi Ana\n\n")


def _symlink(zf: zipfile.ZipFile, name: str, target: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    zf.writestr(info, target)


def _bomb(zf: zipfile.ZipFile, name: str, mib: int) -> None:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    with zf.open(info, "w", force_zip64=True) as out:
        chunk = b" " * (1 << 20)
        for _ in range(mib):
            out.write(chunk)


def _snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _hostile_takeout(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("Takeout/archive_browser.html", "<html></html>")
        zf.writestr("Takeout/Mail/All mail.mbox", MBOX)
        zf.writestr("../../escaped.mbox", MBOX)
        zf.writestr("/tmp/absolute-escape.mbox", MBOX)
        _symlink(zf, "Takeout/Mail/link.mbox", "/etc/passwd")
        with zipfile.ZipFile(path.with_name("inner.zip"), "w") as inner:
            inner.writestr("Takeout/Mail/inner.mbox", MBOX)
        zf.write(path.with_name("inner.zip"), "Takeout/Drive/inner.zip")
    path.with_name("inner.zip").unlink()
    return path


def test_takeout_zip_escapes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    archive = _hostile_takeout(inputs / "takeout.zip")
    home = tmp_path / "home"
    unpacked: list[Path] = []
    real = takeout_mod.read_mbox

    def spy(path: Path, *args, **kw):
        unpacked.append(path)
        yield from real(path, *args, **kw)

    monkeypatch.setattr(takeout_mod, "read_mbox", spy)
    before = _snapshot(tmp_path)
    result = scan([str(archive)], settings=load_settings(home))
    [report] = result.reports
    assert report.error is None
    # the good mbox and the two with hostile names are read as mail, never written where they point
    assert report.items == 3
    assert unpacked and all(p.is_relative_to(home / "scratch") for p in unpacked)
    assert {p for p in _snapshot(tmp_path) - before if not p.startswith("home")} == set()
    assert not Path("/tmp/absolute-escape.mbox").exists()
    reasons = " | ".join(s.reason for s in report.skipped)
    assert "symbolic link stored in the archive" in reasons
    assert "archive inside the archive is not opened" in reasons
    assert list((home / "scratch").iterdir()) == []  # unpacked copies are gone


def test_takeout_member_bigger_than_the_free_disk_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _hostile_takeout(tmp_path / "takeout.zip")
    real_usage = shutil.disk_usage

    def nearly_full(path):  # the disk the scratch folder is on has 1 MB left
        usage = real_usage(path)
        return usage._replace(free=1 << 20)

    monkeypatch.setattr(takeout_mod.shutil, "disk_usage", nearly_full)
    [src] = detect(archive)
    ctx = ReadContext(scratch_dir=str(tmp_path))
    assert list(src.read(ctx)) == []
    assert sum("MB free" in s.reason for s in ctx.skips) == 3


def _slack(path: Path, *, bomb_mib: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("export/users.json", json.dumps([{"id": "U1", "real_name": "Ana Ruiz"}]))
        zf.writestr("export/channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        zf.writestr("export/general/2026-03-02.json",
                    json.dumps([{"type": "message", "user": "U1", "text": "hello", "ts": "1772442000.000100"}]))
        _bomb(zf, "export/general/2026-03-03.json", bomb_mib)
        _symlink(zf, "export/general/2026-03-04.json", "/etc/passwd")
        zf.writestr("../../export/general/2026-03-05.json", "[]")
    return path


def test_slack_zip_bomb_and_symlink_are_refused_in_bounded_memory(tmp_path: Path) -> None:
    archive = _slack(tmp_path / "slack.zip", bomb_mib=80)
    assert archive.stat().st_size < 2 * 1024 * 1024  # 80 MiB inflated from well under 2 MiB
    [src] = detect(archive)
    ctx = ReadContext()
    tracemalloc.start()
    try:
        items = list(src.read(ctx))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [getattr(i, "text", "") for i in items] == ["hello"]
    assert peak < 16 * 1024 * 1024, peak  # never inflated into memory
    reasons = {s.ref: s.reason for s in ctx.skips}
    assert "per-file cap" in reasons["general/2026-03-03.json"]
    assert "symbolic link" in reasons["general/2026-03-04.json"]


def test_calendar_too_big_to_parse_is_refused_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "huge.ics"
    with open(path, "wb") as f:
        f.write(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
        f.truncate(64 * 1024 * 1024)  # sparse: no disk used
    [src] = detect(path)
    from bootstrap_app.errors import SourceError

    with pytest.raises(SourceError, match="over the 2 MB limit") as caught:
        list(src.read(ReadContext(max_file_bytes=1024 * 1024)))
    assert "max_file_bytes" in caught.value.hint
