"""``--jobs``: a scan whose mailboxes are parsed by worker processes proposes byte for byte what a
one-process scan does (demo persona at 1x and 10x, the Enron inboxes of the real-data folder).

The parallel reader normally starts only for files over 16 MB; here its threshold and range size
are lowered so these small mailboxes are cut into many ranges.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult
from connectors.local import mboxpool
from tests.conftest import realdata_by_digest
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX


def _scan(locations: list[str], home: Path, jobs: int, owners: tuple[str, ...] = ()) -> ScanResult:
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f"jobs = {jobs}\n", encoding="utf-8")
    return scan(locations, settings=load_settings(home), owners=owners)


def _record(result: ScanResult) -> str:
    """Everything a scan hands out except the clock: proposals, quarantine, per-source reports."""
    proposals = [{k: v for k, v in p.to_json().items() if k != "derived_at"} for p in result.proposals]
    quarantined = [(q.reason, q.source, q.ref, q.excerpt, q.proposal_name) for q in result.quarantined]
    reports = [(r.source, r.items, r.duplicates, [(s.ref, s.reason) for s in r.skipped], r.error)
               for r in result.reports]
    return json.dumps({"p": proposals, "q": quarantined, "r": reports}, ensure_ascii=False, sort_keys=True,
                      default=str)


@pytest.fixture
def many_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mboxpool, "MIN_BYTES", 0)
    monkeypatch.setattr(mboxpool, "CHUNK_BYTES", 64 * 1024)


def _parallel_used(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = mboxpool.parallel_outcomes

    def counting(*args: Any, **kw: Any) -> Any:
        calls.append(args[-1])
        return real(*args, **kw)

    monkeypatch.setattr(mboxpool, "parallel_outcomes", counting)
    return calls


@pytest.mark.parametrize("scale", [1, 10])
def test_demo_proposals_are_identical_with_every_core(tmp_path: Path, scale: int, many_ranges: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = build_demo(tmp_path / f"demo-x{scale}", scale=scale)
    one = _scan([str(root)], tmp_path / "one", 1, demo_owner_addresses())
    calls = _parallel_used(monkeypatch)
    many = _scan([str(root)], tmp_path / "many", 3, demo_owner_addresses())
    assert calls == [3]  # the demo's mbox went through three workers
    assert one.proposals and _record(many) == _record(one)


@pytest.mark.realdata
@pytest.mark.parametrize("digest", [TUNING_INBOX, HELD_OUT_INBOX])
def test_enron_inbox_proposals_are_identical_with_every_core(tmp_path: Path, digest: str, many_ranges: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = realdata_by_digest(digest)
    one = _scan([str(path)], tmp_path / "one", 1)
    calls = _parallel_used(monkeypatch)
    many = _scan([str(path)], tmp_path / "many", 2)
    assert calls == [2]
    assert one.proposals and _record(many) == _record(one)
