"""Progress that means something: rates and time left from what a reader reports, on the CLI's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bootstrap_app.cli import scan as scan_cli
from bootstrap_app.report.scan import ScanEvent
from bootstrap_app.report.throughput import Throughput
from connectors.base import ReadContext
from connectors.local.mbox import read_mbox


def test_rates_and_time_left_follow_the_counts() -> None:
    meter = Throughput(started=100.0)
    meter.update(items=2_000, done_bytes=25_000_000, total_bytes=100_000_000, now=110.0)
    assert meter.items_per_second == pytest.approx(200.0)
    assert meter.bytes_per_second == pytest.approx(2_500_000.0)
    assert meter.seconds_left == pytest.approx(30.0)
    assert meter.line() == "2,000 items · 200 items/s · 2.5 MB/s · 25% · 30s left"
    meter.update(items=1_000, now=200.0)  # counts never go back
    assert meter.items == 2_000 and meter.seconds_left == pytest.approx(300.0)
    assert Throughput(started=0.0).seconds_left is None


def test_an_mbox_reports_its_bytes(tmp_path: Path) -> None:
    msg = "From a@b.example Mon Jan  1 10:00:00 2024\nFrom: a@b.example\nSubject: s\n\nbody\n\n"
    path = tmp_path / "m.mbox"
    path.write_text(msg * 1200, encoding="utf-8")
    seen: list[tuple[int, int]] = []
    ctx = ReadContext(on_bytes=lambda _s, done, total: seen.append((done, total)))
    assert len(list(read_mbox(path, "mbox:m", ctx))) == 1200
    size = path.stat().st_size
    assert seen[-1] == (size, size) and len(seen) >= 3 and seen == sorted(seen)


def test_the_cli_prints_rates_and_time_left(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan_cli, "_EVERY", 0.0)
    printer = scan_cli.ProgressPrinter()
    printer(ScanEvent("source-start", "mbox:x", 0, "mbox"))
    printer.meters["mbox:x"].started -= 10.0
    printer(ScanEvent("progress", "mbox:x", 5_000, "", 40_000_000, 80_000_000))
    err = capsys.readouterr().err
    assert "5,000 items" in err and "items/s" in err and "MB/s" in err and "50%" in err and "left" in err
