"""The Scan page and its background job, on the real pipeline and the generated demo persona."""

from __future__ import annotations

from pathlib import Path

import pytest

from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.report.scan import ScanEvent
from bootstrap_app.store import Store
from bootstrap_app.ui.jobs import ScanJob, current_job

from .conftest import app_at


@pytest.fixture(scope="module")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "footprint")


def test_job_folds_events_into_per_source_progress(settings) -> None:  # type: ignore[no-untyped-def]
    job = ScanJob(["x"], settings)
    for event in (ScanEvent("source-start", "mbox:/a", 0, "mbox"), ScanEvent("progress", "mbox:/a", 40, ""),
                  ScanEvent("skip", "mbox:/a", 0, "<1>: truncated"), ScanEvent("source-done", "mbox:/a", 41, ""),
                  ScanEvent("error", "/missing", 0, "no such file"), ScanEvent("stage", "", 0, "safety gate")):
        job.on_event(event)
    progress = {p.source: p for p in job.progress()}
    assert (progress["mbox:/a"].kind, progress["mbox:/a"].items, progress["mbox:/a"].skipped) == ("mbox", 41, 1)
    assert progress["mbox:/a"].state == "done"
    assert progress["/missing"].state == "error" and progress["/missing"].error == "no such file"
    assert job.stage == "safety gate"


def test_cancel_stops_the_scan(settings, demo_root: Path) -> None:  # type: ignore[no-untyped-def]
    job = ScanJob([str(demo_root)], settings)
    job.cancel()
    job.start()
    assert job.wait(60)
    assert job.stage == "cancelled"


def test_scan_page_runs_in_the_background_and_saves_to_the_store(
        settings, demo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("MEMSEED_OWNER", ",".join(demo_owner_addresses()))
    with Store(settings.db_path) as store:
        store.remember_source(str(demo_root))
    at = app_at("scan")
    assert at.multiselect(key="scan_sources").value == [str(demo_root)]
    at.button(key="start_scan").click().run()
    assert not at.exception, [e.value for e in at.exception]
    job = current_job(settings)
    assert job is not None
    assert job.wait(120), "the demo scan should finish"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert job.error is None, job.error
    assert any("Scan finished" in s.value for s in at.success)
    kinds = {row for row in at.dataframe[0].value["kind"]}
    assert {"mbox", "ics"} & kinds or len(kinds) >= 3, kinds
    with Store(settings.db_path) as other:
        run = other.runs(limit=1)[0]
        assert run["status"] == "finished"
        assert other.proposals(run_id=run["id"])
    metric = {m.label: m.value for m in at.metric}
    assert int(metric["Proposals"]) > 0


def test_scan_page_shows_progress_and_cancels(settings, demo_root: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """While the scan runs the page shows progress and a Cancel button; Cancel stops the pipeline."""
    import threading

    from bootstrap_app import pipeline

    release = threading.Event()
    reported = threading.Event()
    real_scan = pipeline.scan

    def held_scan(*args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs["on_event"](ScanEvent("source-start", "takeout:/demo", 0, "takeout"))
        reported.set()
        release.wait(30)  # the real pipeline runs once the test has pressed Cancel
        return real_scan(*args, **kwargs)

    monkeypatch.setattr(pipeline, "scan", held_scan)
    with Store(settings.db_path) as store:
        store.remember_source(str(demo_root))
    at = app_at("scan")
    at.button(key="start_scan").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # the scan thread reports on its own schedule: render again once it has said something
    assert reported.wait(30)
    at.run()
    assert any("Scanning" in i.value for i in at.info)
    assert "takeout:/demo" in list(at.dataframe[0].value["source"])
    at.button(key="cancel_scan").click().run()
    job = current_job(settings)
    assert job is not None and job.cancelled
    release.set()
    assert job.wait(60)
    at.run()
    assert job.stage == "cancelled"
    assert any("Scan cancelled" in w.value for w in at.warning)


def test_scan_page_shows_each_sources_throughput(settings, demo_root: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """While a large file is read the table shows items/s, MB/s, how much is read and the time
    left (the meter the CLI prints); a source that says nothing of its size shows the rate only."""
    import threading
    import time

    from bootstrap_app import pipeline

    release = threading.Event()
    reported = threading.Event()

    def held_scan(*args, **kwargs):  # type: ignore[no-untyped-def]
        emit = kwargs["on_event"]
        emit(ScanEvent("source-start", "mbox:/big.mbox", 0, "mbox"))
        emit(ScanEvent("source-start", "ics:/cal.ics", 0, "ics"))
        time.sleep(0.05)  # some time passes between the start and the first progress report
        emit(ScanEvent("progress", "mbox:/big.mbox", 30_000, "", done_bytes=250_000_000, total_bytes=1_000_000_000))
        emit(ScanEvent("progress", "ics:/cal.ics", 12, ""))
        reported.set()
        release.wait(30)
        raise pipeline.NoSourceReadable("held scan ends here")

    monkeypatch.setattr(pipeline, "scan", held_scan)
    with Store(settings.db_path) as store:
        store.remember_source(str(demo_root))
    at = app_at("scan")
    at.button(key="start_scan").click().run()
    assert reported.wait(30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value.set_index("source")
    big, cal = table.loc["mbox:/big.mbox"], table.loc["ics:/cal.ics"]
    assert big["read"] == "25%"
    assert float(big["items/s"].replace(",", "")) > 0 and float(big["MB/s"]) > 0
    assert big["time left"].endswith("s") and big["time left"][0].isdigit()
    assert float(cal["items/s"].replace(",", "")) > 0
    assert (cal["MB/s"], cal["read"], cal["time left"]) == ("", "", "")
    release.set()
    job = current_job(settings)
    assert job is not None and job.wait(60)
    at.run()
    done = at.dataframe[0].value.set_index("source").loc["mbox:/big.mbox"]
    assert done["read"] == "25%" and done["time left"] == ""  # a source no longer read has no time left
