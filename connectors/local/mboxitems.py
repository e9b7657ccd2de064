"""One mbox message -> what the reader does with it: an item, a skip, or the end of the read.

Why apart from :mod:`.mbox`: the same per-message decision runs in the scanning process and in
the worker processes of the parallel reader (:mod:`.mboxpool`), so it is a pure function of a
picklable :class:`MboxJob` and a byte range. Its results (:class:`Outcome`) carry the skips
as data; :func:`.mbox.read_mbox` replays them into the read context in file order, so a
parallel read reports exactly what a one-process read does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from bootstrap_app.text.mail import trim_quoted
from bootstrap_app.types import Message

from .lazybody import FileBody, LazyMessage, shared_files
from .mailbody import extract_body
from .mailparse import message_fields, parse_date
from .rawmessage import RawMessage
from .tnef import tnef_reason

__all__ = ["MboxJob", "Outcome", "Reader", "outcome", "outcomes", "range_outcomes"]

_SKIP_LABELS = frozenset({"spam", "trash", "[imap]/trash", "[gmail]/spam", "[gmail]/trash"})
MAX_BODY_MB = 16


@dataclass(frozen=True, slots=True)
class MboxJob:
    """What reading one mbox needs besides the bytes: picklable, so a worker process gets it whole."""

    path: str
    source_id: str
    label: str
    cap: int
    """``ReadContext.max_text_chars``: a body is cut to this many characters."""
    cleaner: Callable[[str], str]
    since: datetime | None = None
    sent_hint: bool | None = None
    lazy: bool = True
    """Bodies are read back from the file when first used (:mod:`.lazybody`); False when the
    file is a temporary copy that is gone once the read ends (a Takeout zip's member)."""
    prepare: Callable[[Message], None] | None = None
    """``ReadContext.prepare``: run by :func:`range_outcomes` on the messages whose text the scan reads."""

    def clean(self, text: str, limit: int | None = None) -> str:
        """``ReadContext.clean`` with this job's cap and cleaner."""
        cap = self.cap if limit is None else limit
        return self.cleaner(text[:cap] if len(text) > cap else text)


@dataclass(slots=True)
class Outcome:
    """What one message of the file comes to, in file order.

    ``resume`` is the byte offset the next incremental read starts from after this message (-1:
    unchanged); ``skips`` are (ref, reason) pairs for ``ctx.skip``; ``spam``: left out as Spam or
    Trash; ``stop``: nothing after this can be read (the file ends in a separator or shrank).
    """

    resume: int
    item: Message | None = None
    skips: tuple[tuple[str, str], ...] = ()
    spam: bool = False
    stop: bool = False

    def __reduce__(self) -> tuple[type[Outcome], tuple[Any, ...]]:
        """Pickled as its values, the common case (an item, nothing else) as two: a worker sends
        one per message; the slots default sends a dict of all five names with every one."""
        if not (self.skips or self.spam or self.stop):
            return Outcome, (self.resume, self.item)
        return Outcome, (self.resume, self.item, self.skips, self.spam, self.stop)


@lru_cache(maxsize=1024)
def _in_spam_or_trash(labels: str) -> bool:
    """Whether Takeout's ``X-Gmail-Labels`` files the message in Spam or Trash (memoized: a
    mailbox has a handful of label combinations, and every message asks)."""
    return not _SKIP_LABELS.isdisjoint(x.strip().lower() for x in labels.split(","))


def outcome(job: MboxJob, raw: RawMessage, read_own: bool = False) -> Outcome:
    """The decision for one message as :func:`~.mbox.iter_mbox` found it. ``read_own``: a lazy
    item's body is read at once when the message is not judged received (:func:`range_outcomes`),
    with the headers parsed here."""
    label, source_id = job.label, job.source_id
    ref = raw.header("message-id").strip() or f"@{raw.offset}"
    if raw.truncated and not raw.header_block:
        return Outcome(-1, skips=((f"@{raw.offset}", f"{label}: {raw.truncated}; message skipped"),), stop=True)
    if raw.truncated.startswith("header block"):
        return Outcome(-1, skips=((ref, f"{label}: {raw.truncated}; message skipped"),))
    resume = raw.offset if raw.truncated else raw.next_offset
    if _in_spam_or_trash(raw.header("x-gmail-labels")):
        return Outcome(resume, spam=True)
    if job.since is not None:
        when = parse_date(raw.header("date"))
        if when is not None and when < job.since:
            return Outcome(resume)
    skips: list[tuple[str, str]] = []
    try:
        headers = raw.item_headers
        fields = message_fields(headers, source=source_id, ref=ref, clean=job.clean, sent_hint=job.sent_hint)
        ctype = headers.get("content-type", "")
        item: Message
        if job.lazy:
            start, header_end, body_start, body_end = raw.span
            body = FileBody(job.path, start, header_end, body_start, body_end, job.cap, job.cleaner)
            item = LazyMessage.with_loader(body, **fields)
            if read_own and not item.third_party_reason:
                item.read_now(headers, raw.header_block)
            if tnef_reason(ctype, raw.body_head, "?"):  # rare: decode now to say whether text was left
                skips.append((ref, f"{label}: {tnef_reason(ctype, raw.body_head, body.text())}"))
        else:
            text = extract_body(headers, raw.header_block, raw.body)
            item = Message(**fields, body=job.clean(trim_quoted(text)) if text else "")
            if why := tnef_reason(ctype, raw.body, text):
                skips.append((ref, f"{label}: {why}"))
    except Exception as exc:  # one bad message never stops the mailbox
        return Outcome(resume, skips=((ref, f"{label}: message at byte {raw.offset} unreadable ({exc})"),))
    if raw.truncated:
        skips.append((ref, f"{label}: {raw.truncated}; read partially"))
    if raw.oversize:
        skips.append((ref, f"{label}: message over {MAX_BODY_MB} MB; body read partially"))
    return Outcome(resume, item, tuple(skips))


Reader = Callable[..., Iterator[RawMessage]]
""":func:`.mbox.iter_mbox`, handed in (it is picklable by name) so this module never imports the reader."""


def outcomes(reader: Reader, job: MboxJob, start: int = 0, stop: int | None = None,
             mode: tuple[bool, bool] | None = None, read_own: bool = False) -> Iterator[Outcome]:
    """The outcomes of the messages from byte ``start`` (a message boundary) up to ``stop``
    (another one, or the end of the file); ``mode`` is the file's (strict, crlf) from its start;
    ``read_own``: see :func:`outcome`."""
    for raw in reader(job.path, headers_only=job.lazy, start=start, stop=stop, mode=mode, peek=job.lazy):
        yield outcome(job, raw, read_own)


def range_outcomes(reader: Reader, job: MboxJob, start: int, stop: int, mode: tuple[bool, bool]) -> list[Outcome]:
    """A worker's task: every outcome of one byte range, as one list (one pickling round trip).

    The bodies the scan will read anyway are decoded here, on the worker's core: those of
    messages not judged received (the owner's own mail is among them; the profile and the
    working rules read each of them), and what the analyzers read in them is worked out here
    too (``job.prepare``). A received message's body stays unread: the scanning process
    decodes it only if it is among its sender's newest.

    The bodies are read through one handle for the whole range (:func:`.lazybody.shared_files`),
    not one ``open`` per body: a third of list mail is the owner's, so that was one ``open``,
    ``seek`` and ``close`` per three messages.
    """
    with shared_files():
        done = list(outcomes(reader, job, start, stop, mode, read_own=True))
        for out in done:
            if out.item is not None and not out.item.third_party_reason:
                _ = out.item.body  # read already by outcome() when lazy (its headers at hand)
                if job.prepare is not None:
                    job.prepare(out.item)
    return done
