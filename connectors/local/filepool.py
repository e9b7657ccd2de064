"""A folder of message files (``.eml`` folders, maildirs) read on every core, in the same order.

Why: a folder of mail is read one file at a time, and each file is parsed whole (headers,
body, charset, HTML) — on a folder of tens of thousands of messages that is nearly all the
scan's time, on one core. The scanning process still lists the folder and decides which files
to read (names, stat, the incremental cursor: :func:`.mailfiles.read_message_files`); the
files to read go to worker processes in batches of :data:`BATCH` and come back as messages
with their skips, which the scanning process replays in listing order — so the items, skips
and cursor are those of a one-process read. A folder of fewer than :data:`MIN_FILES` files is
read in the scanning process (starting workers would cost more than they save).

A worker that dies on a file (a parser crash, the OOM killer) costs that file: its batch is
read again in fresh processes, halved until the one file that kills its reader is found; it
is skipped with its reason. The pool is the mbox reader's (:mod:`.mboxpool`): workers die
with the scan and leave Ctrl-C to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from pathlib import Path

from bootstrap_app.text.paths import printable
from bootstrap_app.types import Message

from ..base import ReadContext
from .mboxpool import in_order, submit_or_fail, warm_up, worker_pool

__all__ = ["BATCH", "MIN_FILES", "FileJob", "FileReader", "parallel_files"]

BATCH = 64
"""Files per worker task: enough that a task's pickling is noise, few enough to balance."""
MIN_FILES = 400
"""Below this many files to read, they are read in the scanning process."""

FileReader = Callable[[Path, str, str, ReadContext, bool | None], Message | None]
"""``(path, source id, ref, ctx, sent hint) -> Message or None`` (skips go to ``ctx``): a
module-level function, so a worker gets it by name (:func:`.eml.read_message_file`)."""
Entry = tuple[Path, str, bool | None]
"""(file, ref, sent-folder hint) of one file to read."""
Result = tuple[Message | None, tuple[tuple[str, str, str], ...]]
"""(the file's message or None, its skips as (source, ref, reason)), in a worker's answer."""


@dataclass(frozen=True, slots=True)
class FileJob:
    """What reading one file needs besides its name: picklable, so a worker gets it whole."""

    source_id: str
    read: FileReader
    cap: int
    cleaner: Callable[[str], str]
    since: datetime | None
    prepare: Callable[[Message], None] | None = None

    @classmethod
    def of(cls, source_id: str, read: FileReader, ctx: ReadContext) -> FileJob:
        return cls(source_id, read, ctx.max_text_chars, ctx.cleaner, ctx.since, ctx.prepare)


def read_batch(job: FileJob, batch: list[Entry]) -> list[Result]:
    """A worker's task: each file of ``batch`` read as the scanning process would read it."""
    out: list[Result] = []
    for path, ref, hint in batch:
        ctx = ReadContext(max_text_chars=job.cap, cleaner=job.cleaner, since=job.since)
        item = job.read(path, job.source_id, ref, ctx, hint)
        if item is not None and job.prepare is not None and not item.third_party_reason:
            job.prepare(item)  # what the analyzers read of the owner's own mail, on this core
        out.append((item, tuple((s.source, s.ref, s.reason) for s in ctx.skips)))
    return out


def parallel_files(job: FileJob, entries: Iterable[Entry], workers: int) -> Iterator[Result]:
    """Each entry's result, in order; read by ``workers`` processes once there are enough files."""
    entries = iter(entries)
    head = list(islice(entries, MIN_FILES))
    if workers <= 1 or len(head) < MIN_FILES:
        yield from read_batch(job, head)
        for entry in entries:
            yield from read_batch(job, [entry])
        return
    warm_up(job.prepare, job.cleaner)  # loaded once here, shared by the forked workers
    batches = _batches(head, entries)
    yield from in_order(batches, lambda pool, batch: submit_or_fail(pool, read_batch, job, batch),
                        lambda batch: _salvage(job, batch), workers)


def _batches(head: list[Entry], rest: Iterator[Entry]) -> Iterator[list[Entry]]:
    for at in range(0, len(head), BATCH):
        yield head[at:at + BATCH]
    while batch := list(islice(rest, BATCH)):
        yield batch


def _salvage(job: FileJob, batch: list[Entry]) -> Iterator[Result]:
    """Read a batch whose reader died again, halving it until the file that kills is alone."""
    pool = worker_pool(1)
    try:
        result = pool.submit(read_batch, job, batch).result()
    except Exception as exc:
        why = "the reader process died" if isinstance(exc, BrokenProcessPool) else f"{type(exc).__name__}: {exc}"
        pool.shutdown(wait=False, cancel_futures=True)
        if len(batch) == 1:
            path, ref, _ = batch[0]
            yield None, ((job.source_id, ref, f"{printable(path)}: could not be read ({why}); message skipped"),)
            return
        half = len(batch) // 2
        yield from _salvage(job, batch[:half])
        yield from _salvage(job, batch[half:])
        return
    pool.shutdown(wait=True)
    yield from result
