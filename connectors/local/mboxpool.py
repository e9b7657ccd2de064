"""A large mbox parsed on every core: byte ranges cut at message boundaries, results in file order.

Why this shape: the scan's analyzers want one stream of items in file order (their counters and
first-seen evidence depend on it), while most of the cost of a large mailbox is in turning bytes
into items (finding the messages, parsing headers, addresses, dates, delivery evidence). So the
file is cut into ranges of about :data:`CHUNK_BYTES` at ``From `` separator lines — the very
lines a one-process read splits at, found with the same rule and the same (strict, crlf) mode
taken at the start of the read — and worker processes turn each range into its
:class:`~.mboxitems.Outcome` list while the scanning process replays them in order. At most
two ranges per worker are in flight, so memory stays flat however large the file is.

A worker that dies (a hostile message that crashes a parser, the OOM killer) or raises costs
that message and not the scan: the range is read again in fresh processes, halved until the
one message that kills its reader is found; it is skipped with its reason, the rest of the
range is read. Workers are killed with the scan (``PR_SET_PDEATHSIG`` on Linux), so a scan
killed mid-way leaves no reader behind.
"""

from __future__ import annotations

import gc
import mmap
import os
import pickle
import re
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import get_context
from typing import Any, TypeVar

from bootstrap_app.text.secrets import load_detectors, redact_secrets

from .mboxitems import MboxJob, Outcome, Reader, range_outcomes

__all__ = ["CHUNK_BYTES", "MIN_BYTES", "PROFILE_ENV", "in_order", "packed", "parallel_outcomes", "profiled",
           "submit_or_fail", "warm_up", "worker_pool"]

CHUNK_BYTES = 4 * 1024 * 1024
"""Bytes of mbox per worker task: big enough that pickling per task is noise, small enough to balance."""
T = TypeVar("T")
R = TypeVar("R")
MIN_BYTES = 16 * 1024 * 1024
"""Below this a file is read in the scanning process: starting workers would cost more than they save."""
PROFILE_ENV = "MEMSEED_PROFILE_WORKERS"
"""A folder: every worker task is run under cProfile and its stats written there (one ``.prof``
file per task; ``benchmarks/bench_mbox.py --profile-workers``), to see where a worker's CPU goes."""
_ENVELOPE = re.compile(rb"From [^\r\n]*\d:\d\d[^\r\n]*\r?\n")  # as :mod:`.mbox` splits


def _worker_init() -> None:
    """In each worker: die with the scanning process, and leave Ctrl-C to it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes that die with the scanning process (forked where the platform allows)."""
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context(method), initializer=_worker_init)


def profiled(task: Callable[..., T], *args: Any) -> T:
    """``task(*args)`` in a worker, profiled when :data:`PROFILE_ENV` names a folder (pickling the
    result back happens after it, in the pool's own loop, and is not counted)."""
    folder = os.environ.get(PROFILE_ENV)
    if not folder:
        return task(*args)
    import cProfile

    prof = cProfile.Profile()
    try:
        return prof.runcall(task, *args)
    finally:
        prof.dump_stats(os.path.join(folder, f"worker-{os.getpid()}-{id(prof):x}.prof"))


def warm_up(prepare: object, cleaner: object) -> None:
    """Before workers are forked: load here what their readers would each load on first use — the
    ``prepare`` hook's data (its ``setup``) and, for the default cleaner, detect-secrets' plugins —
    so the workers share one copy instead of each paying for it."""
    if (setup := getattr(prepare, "setup", None)) is not None:
        setup()
    if cleaner is redact_secrets:
        load_detectors()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a moment (and back as it was).

    Why around pickling a task's results: a batch is thousands of new containers (items, their
    tuples) and no cycle, yet every 700 of them start a collection, and the older generations
    are walked again and again while the batch grows; that was more than half of loading a
    batch in the scanning process."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def packed(task: Callable[..., list[R]], *args: Any) -> bytes:
    """In a worker: ``task(*args)`` (:func:`profiled`), its results pickled here with the
    collector paused; :func:`in_order` loads them the same way in the scanning process."""
    result = profiled(task, *args)
    with _gc_paused():
        return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def _unpacked(blob: bytes) -> list[Any]:
    with _gc_paused():
        result: list[Any] = pickle.loads(blob)
    return result


def submit_or_fail(pool: ProcessPoolExecutor, task: Callable[..., list[R]], *args: Any) -> Future[bytes]:
    """``task(*args)`` on ``pool``, profiled and pickled there (:func:`packed`). A pool that broke
    since the last task (a worker died before its result was asked for) gives a failed future,
    which :func:`in_order` then handles as that worker's death."""
    try:
        return pool.submit(packed, task, *args)
    except BrokenProcessPool as exc:
        failed: Future[bytes] = Future()
        failed.set_exception(exc)
        return failed


def in_order(tasks: Iterator[T], submit: Callable[[ProcessPoolExecutor, T], Future[bytes]],
             salvage: Callable[[T], Iterator[R]], workers: int) -> Iterator[R]:
    """Each task's results, in task order, computed by ``workers`` processes (``submit`` hands
    back a future of the results pickled in the worker: :func:`submit_or_fail`).

    At most two tasks per worker are in flight (a bounded queue: memory stays flat however large
    the input). A task whose worker died, or whose reader raised, goes to ``salvage``, which
    narrows down what killed it (one message, one file) so that only that is lost. A dead worker
    breaks the whole pool, so the tasks still in flight are submitted again to a fresh one."""
    pending: deque[tuple[T, Future[bytes]]] = deque()
    pool = worker_pool(workers)
    try:
        while True:
            while len(pending) < 2 * workers and (task := next(tasks, None)) is not None:
                pending.append((task, submit(pool, task)))
            if not pending:
                pool.shutdown(wait=True)  # all done: the workers exit now, none outlives the read
                return
            task, future = pending.popleft()
            try:
                result: list[R] = _unpacked(future.result())
            except Exception as exc:  # a dead worker (BrokenProcessPool) or a bug in one task
                if isinstance(exc, BrokenProcessPool):  # every task in flight is lost with the pool
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = worker_pool(workers)
                    pending = deque((t, submit(pool, t)) for t, _ in pending)
                yield from salvage(task)
                continue
            yield from result
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _next_boundary(mm: mmap.mmap, at: int, size: int, strict: bool) -> int:
    """The first message boundary (the ``F`` of a separator line) after byte ``at``, or -1."""
    while True:
        nxt = mm.find(b"\nFrom ", at, size)
        if nxt == -1:
            return -1
        if not strict or _ENVELOPE.match(mm, nxt + 1):
            return nxt + 1
        at = nxt + 1


def _ranges(path: str, pos: int, size: int, strict: bool, chunk: int) -> Iterator[tuple[int, int]]:
    """Consecutive (start, stop) ranges covering ``pos``..``size``, each cut at a boundary."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        size = min(size, len(mm))
        start = pos
        while start < size:
            cut = _next_boundary(mm, min(size, start + chunk), size, strict) if start + chunk < size else -1
            if cut == -1:
                yield start, size
                return
            yield start, cut
            start = cut


def _starts(path: str, start: int, stop: int, strict: bool) -> list[int]:
    """Every message boundary in ``start``..``stop`` (``start`` included): where to halve a range."""
    out = [start]
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        at = start + 1
        while (cut := _next_boundary(mm, at, min(stop, len(mm)), strict)) != -1 and cut < stop:
            out.append(cut)
            at = cut
    return out


def parallel_outcomes(reader: Reader, job: MboxJob, pos: int, size: int, mode: tuple[bool, bool],
                      workers: int) -> Iterator[Outcome]:
    """The outcomes of ``pos``..``size`` of ``job``'s file, parsed by ``workers`` processes, in file order."""
    ranges = _ranges(job.path, pos, size, mode[0], CHUNK_BYTES)
    warm_up(job.prepare, job.cleaner)  # what the readers need is loaded once, here; the forked workers share it
    return in_order(ranges, lambda pool, span: submit_or_fail(pool, range_outcomes, reader, job, *span, mode),
                    lambda span: _salvage(reader, job, _starts(job.path, span[0], span[1], mode[0]), span[1], mode),
                    workers)


def _salvage(reader: Reader, job: MboxJob, starts: list[int], stop: int,
             mode: tuple[bool, bool]) -> Iterator[Outcome]:
    """Read a range whose reader died again, halving it until the message that kills is alone."""
    pool = worker_pool(1)
    try:
        result = pool.submit(range_outcomes, reader, job, starts[0], stop, mode).result()
    except Exception as exc:
        why = "the reader process died" if isinstance(exc, BrokenProcessPool) else f"{type(exc).__name__}: {exc}"
        pool.shutdown(wait=False, cancel_futures=True)
        if len(starts) == 1:
            yield Outcome(stop, skips=((f"@{starts[0]}", f"{job.label}: message at byte {starts[0]} could not be "
                                                         f"read ({why}); message skipped"),))
            return
        half = len(starts) // 2
        yield from _salvage(reader, job, starts[:half], starts[half], mode)
        yield from _salvage(reader, job, starts[half:], stop, mode)
        return
    pool.shutdown(wait=True)
    yield from result
