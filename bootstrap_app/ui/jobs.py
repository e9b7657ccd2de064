"""Background scans for the app: one thread per scan, progress the page can poll, cancel.

Why a thread and not a Streamlit callback: a scan of a real mailbox takes minutes, and the
page must stay responsive (rerun, navigate, press Cancel) while it runs. The thread calls
:func:`bootstrap_app.pipeline.scan` with its own :class:`~bootstrap_app.store.Store`
connection; the pipeline records the run, proposals and quarantine in the store, so when the
thread ends the Review page reads the result from the store like any other.

Jobs are kept in a module-level registry keyed by the state database path, so reloading the
browser tab (a new Streamlit session) finds the scan that is still running.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app import pipeline
from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.report.throughput import Throughput
from bootstrap_app.store import Store

__all__ = ["ScanJob", "SourceProgress", "current_job", "start_scan"]


@dataclass
class SourceProgress:
    """What the Scan page shows for one source while (and after) it is read."""

    source: str
    kind: str = ""
    items: int = 0
    skipped: int = 0
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    error: str | None = None
    meter: Throughput = field(default_factory=Throughput)
    """Items and bytes per second and the time left (:mod:`bootstrap_app.report.throughput`): ``meter.line()``."""

    @property
    def elapsed(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    @property
    def state(self) -> str:
        if self.error:
            return "error"
        return "done" if self.finished is not None else "reading"


class ScanJob:
    """A scan running in a daemon thread. Read its fields from any thread; they are locked."""

    def __init__(self, locations: Sequence[str], settings: Settings, *, demo: bool = False,
                 runner: Callable[..., Any] | None = None, cached: bool = False) -> None:
        self.locations = list(locations)
        self.cached = cached
        """Re-analysis (the Identity page): sources the item cache holds are replayed, not read again."""
        self.settings = settings
        self.demo = demo
        self._runner = runner
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._progress: dict[str, SourceProgress] = {}
        self.stage = "starting"
        self.started = time.monotonic()
        self.finished: float | None = None
        self.result: Any = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name="memseed-scan", daemon=True)

    # -- control ------------------------------------------------------------------------
    def start(self) -> ScanJob:
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Ask the pipeline to stop at the next item; what was read so far is still saved."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- progress -----------------------------------------------------------------------
    def progress(self) -> list[SourceProgress]:
        with self._lock:
            return [SourceProgress(**vars(p)) for p in self._progress.values()]

    @property
    def elapsed(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def on_event(self, event: Any) -> None:
        """Fold one pipeline ScanEvent into the per-source progress."""
        kind = getattr(event, "kind", "")
        source = getattr(event, "source", "") or ""
        with self._lock:
            if kind == "stage":
                self.stage = getattr(event, "message", "") or self.stage
                return
            if not source:
                return
            prog = self._progress.get(source)
            if prog is None:
                prog = self._progress[source] = SourceProgress(source)
            if kind == "source-start":
                prog.kind = getattr(event, "message", "") or prog.kind
                self.stage = "reading sources"
            elif kind == "progress":
                prog.items = max(prog.items, int(getattr(event, "count", 0) or 0))
                prog.meter.update(prog.items, getattr(event, "done_bytes", 0) or None,
                                  getattr(event, "total_bytes", 0) or None)
            elif kind == "skip":
                prog.skipped += 1
            elif kind == "source-done":
                prog.items = max(prog.items, int(getattr(event, "count", 0) or 0))
                prog.finished = time.monotonic()
            elif kind == "error":
                prog.error = getattr(event, "message", "") or "error"
                prog.finished = time.monotonic()

    # -- the thread ---------------------------------------------------------------------
    def _run(self) -> None:
        try:
            with Store(self.settings.db_path) as store:
                runner = self._runner
                if runner is None:
                    runner = pipeline.scan
                extra: dict[str, Any] = {"cached": True} if self.cached else {}
                self.result = runner(self.locations, settings=self.settings, store=store,
                                     owners=self.settings.owners, on_event=self.on_event,
                                     should_stop=self._stop.is_set, **extra)
                for report in getattr(self.result, "reports", None) or []:
                    self._merge_report(report)
        except MemseedError as exc:
            self.error = str(exc)
        except Exception as exc:  # a bug: show it on the page rather than losing the thread silently
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self.finished = time.monotonic()
                self.stage = "cancelled" if self.cancelled else ("failed" if self.error else "finished")

    def _merge_report(self, report: Any) -> None:
        """The pipeline's final per-source report wins over the streamed counts."""
        source = str(getattr(report, "source", ""))
        with self._lock:
            prog = self._progress.get(source) or SourceProgress(source)
            prog.kind = str(getattr(report, "kind", "") or prog.kind)
            prog.items = int(getattr(report, "items", prog.items) or 0)
            prog.skipped = len(getattr(report, "skipped", ()) or ())
            prog.error = getattr(report, "error", None) or prog.error
            seconds = getattr(report, "seconds", None)
            if seconds is not None:
                prog.started = time.monotonic() - float(seconds)
                prog.finished = time.monotonic()
            elif prog.finished is None:
                prog.finished = time.monotonic()
            self._progress[source] = prog


_JOBS: dict[str, ScanJob] = {}
_JOBS_LOCK = threading.Lock()


def current_job(settings: Settings) -> ScanJob | None:
    """The latest scan started for this app home (running or finished), if any."""
    with _JOBS_LOCK:
        return _JOBS.get(str(settings.db_path))


def start_scan(locations: Sequence[str], settings: Settings, **kw: Any) -> ScanJob:
    """Start a scan unless one is already running for this home; return the job either way."""
    with _JOBS_LOCK:
        job = _JOBS.get(str(settings.db_path))
        if job is not None and job.running:
            return job
        job = ScanJob(locations, settings, **kw)
        _JOBS[str(settings.db_path)] = job
    return job.start()
