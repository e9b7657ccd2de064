"""``scan()``: sources -> items -> identity + signals -> proposals -> gate -> dedup -> store.

One pass over the items. Every item is shown to the identity collector and to the signal
analyzers while it streams and is then dropped; nothing holds the whole footprint, so the
cost grows linearly with the number of items. Who the owner is gets decided *after* the pass
(see :mod:`bootstrap_app.identity` for why that works without a second read). The store gets
each item's (source, ref, digest) — never its text.

A location that cannot be read becomes a :class:`SourceReport` with its error and the scan
goes on; only when *no* source could be read does :class:`NoSourceReadable` end the scan.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError, NoSourceReadable
from bootstrap_app.extract.dedup import dedup_against_memory
from bootstrap_app.extract.heuristic import heuristic_proposals
from bootstrap_app.identity import IdentityCollector, OwnerIdentity
from bootstrap_app.safety.gate import gate
from bootstrap_app.scanreport import ScanEvent, ScanResult, SourceReport
from bootstrap_app.signals import SignalBuilder, person_key
from bootstrap_app.store import Store
from bootstrap_app.types import ChatMessage, Document, Event, Item, MemoryEntry, Message, Proposal, Repo, Skip
from connectors import registry
from connectors.base import ReadContext, Source
from connectors.registry import detect

__all__ = ["ScanEvent", "ScanResult", "SourceReport", "count_new_items", "item_digest", "scan", "scan_demo"]

_FLUSH = 2000
_RESERVOIR = 200


def item_digest(item: Item) -> str:
    """sha256 of ref + timestamp + subject/title: enough to notice a changed item, no body."""
    title = ""
    if isinstance(item, Message):
        title = item.subject
    elif isinstance(item, Event):
        title = item.summary
    elif isinstance(item, Document):
        title = item.title
    elif isinstance(item, Repo):
        title = f"{item.name} {item.commit_count}"
    elif isinstance(item, MemoryEntry):
        title = item.name
    stamp = item.timestamp.isoformat() if item.timestamp else ""
    return hashlib.sha256(f"{item.ref}\x1f{stamp}\x1f{title}".encode()).hexdigest()


class _Reservoir:
    """Per-author uniform samples of the items an LLM may see; the owner is chosen at the end.

    Kept per author because the owner may only be known after the stream (see identity); at
    most ``authors`` x ``per_author`` items, texts cut to 2,000 characters, and only when the
    LLM is switched on. Only the owner's samples (at most 200) ever leave this object.
    """

    def __init__(self, per_author: int = 20, authors: int = 200, known: frozenset[str] = frozenset()) -> None:
        self.per_author, self.authors, self.known = per_author, authors, known
        self.samples: dict[str, list[Item]] = {}
        self.seen: dict[str, int] = {}
        self.rng = random.Random(11)

    def add(self, item: Item) -> None:
        if isinstance(item, Message):
            key = person_key(item.sender)
            if item.is_bulk:
                return
            if len(item.body) > 2000:
                item = replace(item, body=item.body[:2000])
        elif isinstance(item, ChatMessage):
            key = person_key(item.user)
        elif isinstance(item, Document) and item.people:
            key = person_key(item.people[0])
            if len(item.text) > 2000:
                item = replace(item, text=item.text[:2000])
        else:
            return
        if not key or (key not in self.samples and len(self.samples) >= self.authors):
            return
        # already known to be the owner's (Sent label, --owner): room for the whole sample
        cap = _RESERVOIR if (item.authored_by_owner is True or key in self.known) else self.per_author
        bucket = self.samples.setdefault(key, [])
        self.seen[key] = self.seen.get(key, 0) + 1
        if len(bucket) < cap:
            bucket.append(item)
        else:
            j = self.rng.randrange(self.seen[key])
            if j < len(bucket):
                bucket[j] = item

    def owner_items(self, owner: OwnerIdentity, limit: int = _RESERVOIR) -> list[Item]:
        items = [owner.mark(i) for key, bucket in self.samples.items() if owner.is_owner_address(key)
                 for i in bucket]
        items = [i for i in items if i.authored_by_owner]
        if len(items) > limit:
            items = self.rng.sample(items, limit)
        return items


def _context(settings: Settings, **kw: Any) -> ReadContext:
    """A read context wired to the registry: logins hand out credentials, and a catch-all folder
    walk leaves paths that another source reads to that source."""
    home = settings.home
    return ReadContext(max_text_chars=int(settings.get("max_text_chars", 20_000)),
                       max_file_bytes=int(settings.get("max_file_bytes", 20 * 1024 * 1024)),
                       credentials=lambda provider: registry.credentials(provider, home), home=home,
                       claimed=registry.claimed_by_other, **kw)


def _resolve(locations: Sequence[str], emit: Callable[[ScanEvent], None]) -> tuple[
        list[tuple[str, Source]], list[SourceReport]]:
    found: list[tuple[str, Source]] = []
    failed: list[SourceReport] = []
    for location in locations:
        try:
            for source in detect(location):
                found.append((location, source))
        except MemseedError as exc:
            failed.append(SourceReport(source=str(location), kind="", error=str(exc)))
            emit(ScanEvent("error", str(location), 0, str(exc)))
    return found, failed


def scan(locations: Sequence[str], *, settings: Settings, store: Store | None = None, owners: Sequence[str] = (),
         llm: str = "off", since: datetime | None = None, on_event: Callable[[ScanEvent], None] | None = None,
         should_stop: Callable[[], bool] = lambda: False, existing_memory: Sequence[MemoryEntry] = (),
         incremental: bool = False, run_kind: str = "scan",
         llm_preview: Callable[[dict[str, Any]], None] | None = None) -> ScanResult:
    """Scan ``locations`` and return the gated, deduplicated proposals (also saved in the store).

    ``incremental`` resumes each source from the cursor it left in the store (reseed);
    ``existing_memory`` is what the target harness already holds (dedup / ``supersedes``).
    ``llm_preview`` (DESIGN principle 5, preview before anything leaves the machine): instead
    of calling the LLM, hand it the exact ``/chat/completions`` payload that would be sent
    (``{}`` when nothing would be sent) and keep the heuristic proposals only.
    """
    own_store = store is None
    store = store or Store(settings.db_path)
    emit = on_event or (lambda event: None)
    locations = [str(loc) for loc in locations]
    run_id = store.start_run(run_kind, locations)
    try:
        result = _scan(locations, settings, store, run_id, owners, llm, since, emit, should_stop,
                       existing_memory, incremental, llm_preview)
    except BaseException as exc:
        store.finish_run(run_id, "failed", {"error": str(exc)})
        raise
    else:
        store.finish_run(run_id, "finished", result.summary())
    finally:
        if own_store:
            store.close()
    return result


def _scan(locations: list[str], settings: Settings, store: Store, run_id: int, owners: Sequence[str], llm: str,
          since: datetime | None, emit: Callable[[ScanEvent], None], should_stop: Callable[[], bool],
          existing_memory: Sequence[MemoryEntry], incremental: bool,
          llm_preview: Callable[[dict[str, Any]], None] | None = None) -> ScanResult:
    result = ScanResult(run_id=run_id)
    sources, failed = _resolve(locations, emit)
    result.reports.extend(failed)
    collector = IdentityCollector(explicit=tuple(dict.fromkeys([*owners, *settings.owners])))
    builder = SignalBuilder(known_owners=collector.explicit)
    use_llm = (bool(llm) and llm != "off") or llm_preview is not None
    reservoir = _Reservoir(known=frozenset(collector.explicit))  # filled only for the opt-in LLM path
    memory: list[MemoryEntry] = list(existing_memory)
    readable: set[str] = set()
    for location, source in sources:
        if should_stop():
            break
        report = SourceReport(source=source.id, kind=source.kind)
        result.reports.append(report)
        emit(ScanEvent("source-start", source.id, 0, source.kind))

        def on_skip(skip: Skip, _id: str = source.id) -> None:
            emit(ScanEvent("skip", _id, 0, f"{skip.ref}: {skip.reason}"))

        def on_progress(_src: str, count: int, _id: str = source.id) -> None:
            emit(ScanEvent("progress", _id, count, ""))

        ctx = _context(settings, since=since, cursor=store.cursor(source.id) if incremental else None,
                       on_skip=on_skip, on_progress=on_progress, should_stop=should_stop)
        started = time.perf_counter()
        batch: list[tuple[str, str, str]] = []
        try:
            for item in source.read(ctx):
                report.items += 1
                collector.observe(item)
                builder.observe(item)
                if use_llm:
                    reservoir.add(item)
                if isinstance(item, MemoryEntry) and len(memory) < 20_000:
                    memory.append(item)  # memory already held somewhere: dedup against it
                batch.append((item.source, item.ref, item_digest(item)))
                if len(batch) >= _FLUSH:
                    store.record_items(run_id, batch)
                    batch.clear()
                    emit(ScanEvent("progress", source.id, report.items, ""))
                if should_stop():
                    break
            readable.add(location)
            if ctx.new_cursor is not None:
                store.set_cursor(source.id, ctx.new_cursor)
        except MemseedError as exc:
            report.error = str(exc)
            emit(ScanEvent("error", source.id, report.items, str(exc)))
        except Exception as exc:  # a connector bug must not lose the other sources' results
            report.error = f"{type(exc).__name__}: {exc}"
            emit(ScanEvent("error", source.id, report.items, report.error))
        finally:
            if batch:
                store.record_items(run_id, batch)
            report.skipped = list(ctx.skips)
            report.seconds = time.perf_counter() - started
        if report.error is None:  # no error: the loop finished, so the location was readable
            emit(ScanEvent("source-done", source.id, report.items, f"{len(report.skipped)} skipped"))
    if not readable and should_stop():
        emit(ScanEvent("stage", "", 0, "stopped"))
        return result  # cancelled before anything was read: nothing to propose, nothing failed
    if not readable:
        errors = "; ".join(f"{r.source}: {(r.error or 'unreadable').splitlines()[0]}" for r in result.reports)
        raise NoSourceReadable(
            f"no source could be read ({errors or 'nothing given'})",
            hint="pass a .mbox, .ics, Takeout folder/zip, git repository, Slack export or document folder "
                 "(`memseed sources` lists the forms), or try `memseed scan --demo`")
    emit(ScanEvent("stage", "", 0, "resolving identity and signals"))
    owner = collector.resolve()
    result.owner = owner
    signals = builder.build(owner)
    proposals = heuristic_proposals(signals)
    if llm_preview is not None:
        _preview(reservoir.owner_items(owner), signals.to_dict(), settings, llm_preview, emit)
    elif use_llm:
        proposals += _llm(reservoir.owner_items(owner), signals.to_dict(), settings, result, emit)
    emit(ScanEvent("stage", "", len(proposals), "safety gate"))
    gated = gate(proposals)
    result.quarantined = list(gated.quarantined)
    dedup = dedup_against_memory(gated.passed, memory)
    result.duplicates, result.superseding = len(dedup.duplicates), dedup.superseding
    decided = store.decided_fingerprints()
    known = store.proposal_fingerprints()
    final: list[Proposal] = []
    for p in dedup.kept:
        if p.fingerprint in decided:
            result.already_decided += 1
            continue
        final.append(p)
        if p.fingerprint not in known:
            result.new_proposals += 1
    result.proposals = final
    store.save_proposals(run_id, final)
    store.add_quarantine(run_id, [(q.reason, q.source, q.ref, q.excerpt) for q in result.quarantined])
    for location in readable:
        store.remember_source(str(Path(location).expanduser().resolve()) if Path(location).exists() else location,
                              scanned=True)
    emit(ScanEvent("stage", "", len(final), "done"))
    return result


def _llm(sample: list[Item], signals: dict[str, Any], settings: Settings, result: ScanResult,
         emit: Callable[[ScanEvent], None]) -> list[Proposal]:
    emit(ScanEvent("stage", "", len(sample), "LLM extraction"))
    try:
        from bootstrap_app.extract.llm import llm_proposals

        return list(llm_proposals(sample, signals, settings=settings))
    except MemseedError as exc:
        result.llm_error = str(exc)
        emit(ScanEvent("error", "llm", 0, str(exc)))
        return []


def _preview(sample: list[Item], signals: dict[str, Any], settings: Settings,
             show: Callable[[dict[str, Any]], None], emit: Callable[[ScanEvent], None]) -> None:
    """The request :func:`_llm` would send, built by the same digest code, and nothing sent."""
    from bootstrap_app.extract.digest import llm_request, settings_digest, settings_model

    emit(ScanEvent("stage", "", len(sample), "LLM request preview (nothing is sent)"))
    digest = settings_digest(sample, signals, settings)
    # llm_extract sends nothing when the digest holds nothing a fact could cite
    show(llm_request(digest, model=settings_model(settings)) if digest.evidence else {})


def count_new_items(locations: Sequence[str], store: Store, settings: Settings) -> tuple[int, list[str]]:
    """Items that are new or changed since the last scan (reseed's cheap "anything new?").

    Each source is read from its stored cursor (connectors that support one skip what they
    already delivered); whatever still comes is compared with the digests the store recorded,
    so a calendar re-expanded in full or an unchanged repository snapshot is not news. Cursors
    are never advanced here. Returns (new or changed items, locations that could not be read).
    """
    new = 0
    failed: list[str] = []
    known: dict[str, dict[str, str]] = {}
    for location in locations:
        try:
            sources = detect(location)
        except MemseedError:
            failed.append(location)
            continue
        for source in sources:
            ctx = _context(settings, cursor=store.cursor(source.id))
            try:
                for item in source.read(ctx):
                    digests = known.get(item.source)
                    if digests is None:
                        digests = known[item.source] = store.item_digests(item.source)
                    if digests.get(item.ref) != item_digest(item):
                        new += 1
            except MemseedError:
                failed.append(location)
            except Exception:  # a connector bug: let the full scan report it
                new += 1
    return new, failed


def scan_demo(settings: Settings, store: Store | None = None, *, scale: int = 1, **kw: Any) -> ScanResult:
    """Build the demo persona into ``settings.home/"demo"`` (once) and scan it."""
    from bootstrap_app.demo import build_demo, demo_owner_addresses

    root = build_demo(settings.home / ("demo" if scale == 1 else f"demo-x{scale}"), scale=scale)
    owners = tuple(kw.pop("owners", ())) or demo_owner_addresses()
    return scan([str(root)], settings=settings, store=store, owners=owners, **kw)
