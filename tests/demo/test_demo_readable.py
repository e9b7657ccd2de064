"""The demo is readable by memseed's own connectors: every part is recognised and reads cleanly.

Why here: the demo exists to be scanned. These tests run the real ``detect`` and
``pipeline.scan`` over the built demo and check that no source errors and (almost) nothing
is skipped — Spam/Trash mail and the Slack message from an unknown user are the only
things a connector may reasonably skip.
"""

from __future__ import annotations

from pathlib import Path

from demo_helpers import read_mbox

from bootstrap_app.config import load_settings
from bootstrap_app.demo import demo_locations, demo_owner_addresses
from bootstrap_app.pipeline import scan
from connectors.registry import detect


def test_connectors_detect_parts_of_the_demo(demo_root: Path) -> None:
    sources = detect(demo_root)
    assert sources and all(s.kind for s in sources)


def test_scan_reads_the_demo_without_errors(demo_root: Path) -> None:
    result = scan([str(demo_root)], settings=load_settings(), owners=demo_owner_addresses())
    assert result.reports
    for report in result.reports:
        assert report.error is None, f"{report.source}: {report.error}"
        assert len(report.skipped) <= 3, [s.reason for s in report.skipped]
    mail = [r for r in result.reports if "mbox" in r.kind or "takeout" in r.kind or r.source.endswith(".mbox")]
    assert mail, "the demo's Takeout mail is read"
    box = read_mbox(demo_locations(demo_root)["mbox"])
    binned = sum(bool({"Spam", "Trash"} & set(str(m["X-Gmail-Labels"]).split(","))) for m in box)
    assert sum(r.items for r in mail) >= len(box) - binned, "only Spam/Trash may be left out"
