"""``scan()``: sources -> items -> identity + signals -> proposals -> gate -> dedup -> store.

One pass over the items. Every item is shown to the identity collector and to the signal
analyzers while it streams and is then dropped; nothing holds the whole footprint, so the
cost grows linearly with the number of items. Who the owner is gets decided *after* the pass
(see :mod:`bootstrap_app.identity.resolve` for why that works without a second read). The store gets
each item's (source, ref, digest) — never its text.

The steps, each a function below: ``_resolve`` (locations -> sources), ``_read_source`` (one
source streamed through the run's consumers), ``_propose`` (owner, signals, proposals),
``_keep`` (gate, dedup, already decided) and ``_save``; ``_scan`` is the loop over them.

What changed since the last scan (``item_digest``, reseed's ``count_new_items``) and the read
context every source gets live in :mod:`bootstrap_app.cache.changes`: reseed asks that question
without running a scan; ``count_new_items`` and ``item_digest`` are still importable from here.
Mailbox sources keep their items in the local item cache (:mod:`bootstrap_app.cache.append`):
``cached=True`` (reseed) replays it instead of asking the provider again. Path sources (mbox,
``.ics``, Slack exports, repositories, folders) keep the items of their last full read beside it
(:mod:`bootstrap_app.cache.snapshots`): ``cached=True`` (the wizard's re-analysis, reseed) replays
them while the files' stats and the reader's version are unchanged.

A location that cannot be read becomes a :class:`SourceReport` with its error and the scan
goes on; only when *no* source could be read does :class:`NoSourceReadable` end the scan.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bootstrap_app.cache.append import CacheWriter, replay, serves
from bootstrap_app.cache.changes import count_new_items, item_digest, read_context
from bootstrap_app.cache.snapshots import SnapshotWriter, snapshot_key
from bootstrap_app.cache.snapshots import replay as replay_kept
from bootstrap_app.cache.snapshots import serves as kept_serves
from bootstrap_app.config import Settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.errors import MemseedError, NoSourceReadable, StoreError
from bootstrap_app.extract.collect import HeldMemory, LlmSample
from bootstrap_app.extract.dedup import dedup_against_memory
from bootstrap_app.extract.digest import preview_llm_request
from bootstrap_app.extract.heuristic import heuristic_proposals
from bootstrap_app.extract.imported import carry_over
from bootstrap_app.extract.llm import llm_extract
from bootstrap_app.extract.llm_transport import LLMProgress
from bootstrap_app.extract.supersede import Approved, link_updates
from bootstrap_app.extract.verify import verify_written
from bootstrap_app.identity.aliases import alias_evidence, record_suggestions
from bootstrap_app.identity.hints import check_given
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.report.ledger import RefWatch, ledger_of
from bootstrap_app.report.scan import ScanEvent, ScanResult, SourceReport, leftover_report, name_once
from bootstrap_app.safety.gate import gate
from bootstrap_app.signals import KindRouter, SignalBuilder
from bootstrap_app.signals.rules import RulesAccumulator
from bootstrap_app.signals.textfacts import PREPARE
from bootstrap_app.store import Store
from bootstrap_app.text.paths import is_text, printable
from bootstrap_app.types import Item, MemoryEntry, Message, Proposal
from connectors.base import ReadContext, Source
from connectors.local.lazybody import shared_files
from connectors.registry import detect, from_parts
from connectors.signature import location_signature

__all__ = ["ScanEvent", "ScanResult", "SourceReport", "count_new_items", "item_digest", "scan", "scan_demo"]

_FLUSH = 2000


def _resolve(locations: Sequence[str], emit: Callable[[ScanEvent], None],
             remembered: dict[str, list[tuple[str, str]]] | None = None) -> tuple[
        list[tuple[str, Source]], list[SourceReport]]:
    """Locations -> sources. ``remembered`` (re-analysis: location -> the parts its last scan
    resolved to): a location found there is rebuilt from them, not detected on the disk again."""
    found: list[tuple[str, Source]] = []
    failed: list[SourceReport] = []
    for location in locations:
        try:
            parts = (remembered or {}).get(location)
            leftovers: list[tuple[Path, str, bool]] = []
            for source in (from_parts(parts) if parts else None) or detect(location, leftovers=leftovers):
                found.append((location, source))
            if leftovers:
                failed.append(leftover_report(printable(location), leftovers))
        except MemseedError as exc:
            failed.append(SourceReport(source=printable(location), kind="", error=printable(str(exc))))
            emit(ScanEvent("error", printable(location), 0, printable(str(exc))))
    return found, failed


def scan(locations: Sequence[str], *, settings: Settings, store: Store | None = None, owners: Sequence[str] = (),
         llm: str = "off", since: datetime | None = None, on_event: Callable[[ScanEvent], None] | None = None,
         should_stop: Callable[[], bool] = lambda: False, existing_memory: Sequence[MemoryEntry] = (),
         incremental: bool = False, run_kind: str = "scan", cached: bool = False,
         llm_preview: Callable[[dict[str, Any]], None] | None = None) -> ScanResult:
    """Scan ``locations`` and return the gated, deduplicated proposals (also saved in the store).

    ``incremental`` resumes each source from the cursor it left in the store (reseed);
    ``existing_memory`` is what the target harness already holds (dedup / ``supersedes``).
    ``cached`` (re-analysis, reseed): a source the item cache can serve is replayed from it, not read;
    a re-analysis (not ``run_kind="reseed"``, which must find parts added since) also rebuilds each
    remembered location from the parts its last scan resolved to, without detecting it again.
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
        # a replayed mbox body that was kept as its span is read through one handle per mailbox
        with shared_files() if cached else contextlib.nullcontext():
            result = _scan(locations, settings, store, run_id, owners, llm, since, emit, should_stop,
                           existing_memory, (incremental, cached), llm_preview, run_kind)
    except BaseException as exc:
        with contextlib.suppress(sqlite3.Error, OSError):  # a full disk must not hide the real error
            store.finish_run(run_id, "failed", {"error": printable(str(exc))})
        raise
    else:
        store.finish_run(run_id, "finished", result.summary())
    finally:
        if own_store:
            store.close()
    return result


@dataclass
class _Run:
    """What one scan carries from step to step: the store, the run, and the stream's consumers.

    Every item goes to the identity collector (it looks at every kind) and to ``router``, which
    hands it to the signal analyzers, the memory already held and (LLM on) the sample, each
    only for the kinds it declared.
    """

    settings: Settings
    store: Store
    run_id: int
    emit: Callable[[ScanEvent], None]
    should_stop: Callable[[], bool]
    collector: IdentityCollector
    builder: SignalBuilder
    held: HeldMemory
    sample: LlmSample | None
    router: KindRouter
    result: ScanResult
    seen_mail: dict[int, str] = field(default_factory=dict)
    """Message-ID hash -> the source that gave it first: a Gmail message and its Takeout twin count once."""
    given: tuple[str, ...] = ()
    """The ``owners`` this scan was given (``--owner``): each must match someone (owner_hints)."""
    ownership: dict[str, str] = field(default_factory=dict)
    """Locations the person said are ``shared`` or ``not-mine`` (wizard's Identity page). Nothing in
    either makes anybody the owner (the identity collector never sees their items); a shared
    source's items are still analysed (contacts, projects), a source that is not theirs is read and
    counted but left out of the analysis."""

    @classmethod
    def start(cls, settings: Settings, store: Store, run_id: int, owners: Sequence[str], use_llm: bool,
              existing_memory: Sequence[MemoryEntry], emit: Callable[[ScanEvent], None],
              should_stop: Callable[[], bool]) -> _Run:
        confirmed, rejected = alias_evidence(store)  # aliases the person confirmed count as strong evidence
        collector = IdentityCollector(explicit=tuple(dict.fromkeys([*owners, *settings.owners])),
                                      confirmed=confirmed, rejected=rejected)
        known = frozenset(collector.explicit)
        builder = SignalBuilder(known_owners=known)
        held = HeldMemory(entries=list(existing_memory))
        sample = LlmSample(known_owners=known) if use_llm else None  # only for the opt-in LLM path
        router = KindRouter([*builder.router.analyzers, held, *((sample,) if sample else ())])
        return cls(settings, store, run_id, emit, should_stop, collector, builder, held,
                   sample, router, ScanResult(run_id=run_id), given=tuple(owners),
                   ownership=store.source_ownership())


def _read_source(run: _Run, location: str, source: Source, since: datetime | None,
                 mode: tuple[bool, bool]) -> SourceReport:
    """Stream one source (or its item cache) through the run's consumers; its failure is reported, never raised."""
    report = SourceReport(source=source.id, kind=source.kind, ownership=_ownership(run.ownership, location))
    run.result.reports.append(report)
    run.emit(ScanEvent("source-start", source.id, 0, source.kind))
    incremental, cached = mode
    served = cached and since is None and serves(run.store, source)
    key = None if served or since is not None else snapshot_key(source)  # before reading: a later change is news
    kept = cached and not served and kept_serves(run.store, source, key)
    cursor = run.store.cursor(source.id) if incremental and not served else None
    ctx = read_context(run.settings, since=since, cursor=cursor,
                   on_skip=lambda skip: run.emit(ScanEvent("skip", source.id, 0, f"{skip.ref}: {skip.reason}")),
                   on_progress=lambda _src, count: run.emit(ScanEvent("progress", source.id, count, "")),
                   should_stop=run.should_stop, prepare=PREPARE)
    ctx.on_bytes = lambda _src, done, total: run.emit(ScanEvent("progress", source.id, report.items, "", done, total))
    started = time.perf_counter()
    signature = location_signature(source.location)  # taken before reading: a later change is news
    batch: list[tuple[str, str, str]] = []
    cache = None if served else CacheWriter.open(run.store, source, location, ctx, since)
    snap = None if served or kept else SnapshotWriter.open(run.store, source, location, key, ctx, since)
    items = replay(run.store, source, ctx) if served else replay_kept(run.store, source, ctx) if kept \
        else source.read(ctx)
    watch = RefWatch(ctx.skips, ctx.notes)  # items also named by a skip: read with a remark, not lost
    try:
        for item in items:
            if watch.refs or len(ctx.skips) != watch.seen:
                watch.item(item.ref)
            if not (is_text(item.ref) and is_text(item.source) and is_text(getattr(item, "path", "") or "")):
                ctx.skip(item.source, item.ref, f"{printable(getattr(item, 'path', '') or item.ref)}: name is not "
                                                "valid UTF-8; rename it to have it read")
                continue
            report.items += 1
            report.item_kinds[item.kind] += 1
            if _seen_before(item, run.seen_mail):
                report.duplicates += 1
            elif not report.ownership:
                run.collector.observe(item)
                run.router.observe(item)
            elif report.ownership == "shared":
                view = _SHARED_VIEW.get(item.kind)
                run.router.observe(view(item) if view else item)
            digest = item_digest(item)
            batch.append((item.source, item.ref, digest))
            if cache is not None:
                cache.add(item, digest)
            elif snap is not None:
                snap.add(item, digest)
            if len(batch) >= _FLUSH:
                _record(run.store, run.run_id, batch, ctx, source.id)
                batch.clear()
                run.emit(ScanEvent("progress", source.id, report.items, ""))
            if run.should_stop():
                break
        _account_aliases(run.collector, source)
        _account_directory(run.builder, source)
        if snap is not None and not run.should_stop():
            snap.finish(ctx)  # a complete read: re-analysis replays it while the files stay as they are
        if ctx.new_cursor is not None:
            try:  # with a cache: the cursor moves with the cache's last rows, in one transaction
                cache.finish(ctx.new_cursor) if cache else run.store.set_cursor(source.id, ctx.new_cursor)
            except (sqlite3.Error, OSError) as exc:  # disk full: the next reseed reads it again
                ctx.skip(source.id, "(resume point)", f"resume point not saved ({exc}); the next reseed reads "
                                                      "this source again — free disk space", note=True)
        if signature is not None and not run.should_stop():
            # only a shortcut: without it reseed reads the source to see whether it changed
            with contextlib.suppress(sqlite3.Error, OSError):
                run.store.set_cursor(f"stat:{source.id}", {"signature": signature})  # reseed's quick check
    except MemseedError as exc:
        report.error = printable(str(exc))
    except Exception as exc:  # a connector bug must not lose the other sources' results
        report.error = printable(f"{type(exc).__name__}: {exc}")
    finally:
        if batch:
            _record(run.store, run.run_id, batch, ctx, source.id)
        if snap is not None:
            snap.flush()
        if cache is not None:
            cache.flush()  # rows before any cursor that covers them: a retry delivers them again
        report.skipped = list(ctx.skips)
        report.window_from = ctx.window_from.isoformat() if ctx.window_from else ""
        report.window_to = ctx.window_to.isoformat() if ctx.window_to else ""
        report.left_out, report.left_out_reason = ctx.left_out, "; ".join(ctx.left_out_reasons)
        report.seconds = time.perf_counter() - started
        report.ledger = ledger_of(ctx.found, report.items, ctx.skips, ctx.notes, watch.with_skip, ctx.passed,
                                  None if ctx.units_read is None else (ctx.units_read, ctx.units_failed))
        report.counted = ctx.counted and report.error is None and not run.should_stop()
    if report.error is None:  # no error: the loop finished, so the location was readable
        run.emit(ScanEvent("source-done", source.id, report.items, f"{len(report.skipped)} skipped"))
    else:
        run.emit(ScanEvent("error", source.id, report.items, report.error))
    return report


_SHARED_VIEW: dict[str, Callable[[Any], Item]] = {
    "event": lambda ev: replace(ev, calendar_owner="", tzid="", published=True),
}
"""Item kind -> the item as analysers see it from a *shared* source: without the fields that say
whose it is (a shared calendar's account and its zone describe whoever shares it, not the person),
and read as reference material, like a published feed: a shared calendar gives no fact about the
person — no zone, no ritual, no meeting counted with a collaborator (issue 30)."""


def _ownership(said: dict[str, str], location: str) -> str:
    """What the person said about ``location`` — as typed, or as the absolute path it names."""
    if not said:
        return ""
    if location in said:
        return said[location]
    path = Path(location).expanduser()
    return said.get(str(path.resolve()), "") if path.exists() else ""


def _nothing_readable(run: _Run) -> ScanResult:
    """Stopped before anything was read: an empty result. Otherwise every source failed: raise."""
    if run.should_stop():
        run.emit(ScanEvent("stage", "", 0, "stopped"))
        return run.result  # cancelled before anything was read: nothing to propose, nothing failed
    errors = "; ".join(name_once(r.source, r.error or "unreadable") for r in run.result.reports if r.error)
    hints = {_hint(r.error) for r in run.result.reports} - {""}
    raise NoSourceReadable(
        f"no source could be read ({errors or 'nothing given'})",
        hint=hints.pop() if len(hints) == 1 else
        "pass a .mbox, .ics, Takeout folder/zip, git repository, Slack export or document folder "
        "(`memseed sources` lists the forms), or try `memseed scan --demo`")


def _hint(error: str | None) -> str:
    """The ``hint:`` line a :class:`MemseedError` put in a report's error text, if any."""
    for line in (error or "").splitlines()[1:]:
        if line.strip().startswith("hint:"):
            return line.strip()[5:].strip()
    return ""


def _record(store: Store, run_id: int, batch: list[tuple[str, str, str]], ctx: ReadContext, source_id: str) -> None:
    """Record a batch of read items; a full disk skips the batch with a reason, the scan goes on
    (those items count as new again on the next incremental run, which is the safe side)."""
    try:
        store.record_items(run_id, batch)
    except (sqlite3.Error, OSError) as exc:
        ctx.skip(source_id, f"({len(batch)} items)", f"{len(batch)} items read but not recorded in the store "
                                                     f"({exc}); free disk space and scan again", note=True)


def _propose(run: _Run, llm: str, llm_preview: Callable[[dict[str, Any]], None] | None) -> list[Proposal]:
    """Decide the owner, build the signals, and turn them into proposals (plus the LLM's, opted in)."""
    run.emit(ScanEvent("stage", "", 0, "resolving identity and signals"))
    owner = run.result.owner = run.collector.resolve()
    check_given(owner, run.given)
    record_suggestions(run.store, owner.suggested)
    signals = run.builder.build(owner)
    proposals = heuristic_proposals(signals, notes=run.result.notes)
    sample = run.sample.result(owner) if run.sample is not None else []
    if llm_preview is not None:
        _preview(sample, signals.to_dict(), run.settings, llm_preview, run.emit)
    elif run.sample is not None:
        proposals += _llm(run, sample, signals.to_dict())
    return proposals


def _keep(run: _Run, proposals: list[Proposal]) -> list[Proposal]:
    """Safety gate, then dedup against held memory, then drop what the person already decided."""
    run.emit(ScanEvent("stage", "", len(proposals), "safety gate"))
    gated = gate(proposals)
    rules = run.builder.by_signal.get("rules")  # the owner's own dangerous steps it held back
    held_back = rules.held_back_records(run.result.owner) if isinstance(rules, RulesAccumulator) else []
    run.result.quarantined = list(gated.quarantined) + held_back
    dedup = dedup_against_memory(gated.passed, run.held.entries)
    run.result.duplicates, run.result.superseding = len(dedup.duplicates), dedup.superseding
    decided = run.store.decided_fingerprints()
    known = run.store.proposal_fingerprints()
    kept = _updates(run, dedup.kept, decided)
    final: list[Proposal] = []
    for p in kept:
        if p.fingerprint in decided:
            run.result.already_decided += 1
            continue
        final.append(p)
    final += _carried(run, decided, {p.fingerprint for p in final})
    run.result.new_proposals = sum(1 for p in final if p.fingerprint not in known)
    return final


def _carried(run: _Run, decided: set[str], taken: set[str]) -> list[Proposal]:
    """Each memory entry read from an agent's memory as a proposal of its own (``extract.imported``):
    gated, not one the target holds, another source gave or the person rejected."""
    if not run.held.read:
        return []
    approved = [sp.effective for sp in run.store.proposals(status="approved")]
    carried = carry_over(run.held.read, run.held.given, approved, frozenset(decided))
    run.result.imported = carried.outcomes
    run.result.quarantined += carried.quarantined
    run.result.already_decided += sum(1 for o in carried.outcomes if o.status in ("decided", "approved"))
    return [p for p in carried.proposals if p.fingerprint not in taken]


def _updates(run: _Run, proposals: list[Proposal], decided: set[str]) -> list[Proposal]:
    """A changed fact about an approved entry becomes its update (not a twin); entries memseed
    wrote are re-checked, and stale paths/commands get a fix or removal (see extract.verify)."""
    approved = [Approved(sp.effective, sp.fingerprint, sp.decision.at.timestamp())
                for sp in run.store.proposals(status="approved") if sp.decision is not None]
    kept, updates = link_updates(proposals, approved, decided)
    run.result.superseding += updates
    written = run.store.written()
    if written:
        replaced = {p.supersedes_fingerprint for p in kept if p.supersedes_fingerprint}
        fixes = verify_written(((a.fingerprint, a.proposal) for a in approved if a.fingerprint in written), replaced)
        kept += gate(fixes).passed
        run.result.superseding += len(fixes)
    return kept


def _save(run: _Run, final: list[Proposal], readable: dict[str, list[Source]]) -> None:
    run.result.proposals = final
    try:
        run.store.save_proposals(run.run_id, final)
        run.store.add_quarantine(run.run_id, [(q.reason, q.source, q.ref, q.excerpt)
                                              for q in run.result.quarantined])
        for location, parts in readable.items():
            # a location that is not valid UTF-8 is kept as its bytes (store.scanstate), and re-read
            run.store.remember_source(str(Path(location).expanduser().resolve()) if Path(location).exists()
                                      else location, scanned=True,
                                      parts=[(s.id, s.kind) for s in parts if is_text(s.id)])
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"the proposals could not be saved ({exc})",
                         hint="free disk space (or check the app folder's permissions) and run the scan again") \
            from exc
    run.emit(ScanEvent("stage", "", len(final), "done"))


def _scan(locations: list[str], settings: Settings, store: Store, run_id: int, owners: Sequence[str], llm: str,
          since: datetime | None, emit: Callable[[ScanEvent], None], should_stop: Callable[[], bool],
          existing_memory: Sequence[MemoryEntry], mode: tuple[bool, bool],
          llm_preview: Callable[[dict[str, Any]], None] | None = None, run_kind: str = "scan") -> ScanResult:
    use_llm = (bool(llm) and llm != "off") or llm_preview is not None
    run = _Run.start(settings, store, run_id, owners, use_llm, existing_memory, emit, should_stop)
    sources, failed = _resolve(locations, emit, _remembered_parts(store) if mode[1] and run_kind != "reseed" else None)
    run.result.reports.extend(failed)
    parts: dict[str, list[Source]] = {}  # what each location resolved to, kept for `memseed sources`
    readable: set[str] = set()
    for location, source in sources:
        if should_stop():
            break
        parts.setdefault(location, []).append(source)
        if _read_source(run, location, source, since, mode).error is None:
            readable.add(location)
    if not readable:
        return _nothing_readable(run)
    _save(run, _keep(run, _propose(run, llm, llm_preview)), {loc: parts[loc] for loc in parts if loc in readable})
    if not (mode[0] or since is not None or should_stop() or any(r.error for r in run.result.reports)):
        _retire(run)  # a whole analysis of what it read: what it no longer derives is gone
    return run.result


def _retire(run: _Run) -> None:
    """Drop the undecided proposals this complete run could have derived again and did not
    (:meth:`Store.retire_undecided`); a store error here loses nothing, so it is reported only."""
    try:
        retired = run.store.retire_undecided(run.run_id)
    except sqlite3.Error as exc:
        run.emit(ScanEvent("error", "", 0, f"earlier proposals not re-checked ({exc})"))
        return
    if retired:
        run.result.notes.append(f"{retired} earlier proposal(s) no longer follow from the sources and were "
                                "taken out of the review")


def _remembered_parts(store: Store) -> dict[str, list[tuple[str, str]]]:
    """Remembered location -> the sources its last scan resolved to: what a re-analysis rebuilds
    them from instead of detecting them again. Not for reseed, which must find a part added since."""
    return {str(r["location"]): list(r["parts"]) for r in store.sources() if r["parts"]}


def _account_aliases(collector: IdentityCollector, source: Source) -> None:
    """An account source's own addresses (Gmail's send-as aliases) are strong owner evidence:
    the provider, not a header anyone can write, says they are the signed-in person's."""
    hook: Callable[[str], None] | None = getattr(collector, "account_alias", None)
    if hook is None:
        return
    for address in getattr(source, "owner_addresses", ()):
        hook(address)


def _account_directory(builder: SignalBuilder, source: Source) -> None:
    """An account source's directory entry of its signed-in owner (Microsoft Graph ``/me``:
    job title, company) goes to the profile, which ranks it after the owner's own signature."""
    facts = getattr(source, "owner_directory", None)
    if facts:
        builder.profile.account_directory(dict(facts), str(getattr(source, "directory_from", "directory")),
                                          source.id)


def _seen_before(item: Item, seen: dict[int, str]) -> bool:
    """True for a message another source already gave (same Message-ID: a Gmail message and its
    Takeout twin). Within one source nothing is dropped: that source's reader owns its copies."""
    if not isinstance(item, Message) or not item.message_id:
        return False
    first = seen.setdefault(hash(item.message_id.strip().lower()), item.source)
    return first != item.source


def _llm(run: _Run, sample: list[Item], signals: dict[str, Any]) -> list[Proposal]:
    """The opt-in LLM pass: its progress as ``llm-progress`` events, its numbers on the result;
    a failure (or the person stopping it) keeps the heuristic proposals and says why."""
    run.emit(ScanEvent("stage", "", len(sample), "LLM extraction"))

    def progress(step: LLMProgress) -> None:
        text = step.message or f"{step.tokens} tokens, {step.elapsed:.0f} s"
        run.emit(ScanEvent("llm-progress", "llm", step.tokens, f"{step.stage}: {text}"))

    try:
        extracted = llm_extract(sample, signals, settings=run.settings, progress=progress,
                                should_stop=run.should_stop)
    except MemseedError as exc:
        run.result.llm_error = str(exc)
        run.emit(ScanEvent("error", "llm", 0, str(exc)))
        return []
    if extracted.mode != "none":
        run.result.llm = extracted.summary()
        run.result.llm_report = extracted.report()
    return list(extracted.proposals)


def _preview(sample: list[Item], signals: dict[str, Any], settings: Settings,
             show: Callable[[dict[str, Any]], None], emit: Callable[[ScanEvent], None]) -> None:
    """The request :func:`_llm` would send first, built by the same digest code and plan, and nothing sent."""
    emit(ScanEvent("stage", "", len(sample), "LLM request preview (nothing is sent)"))
    show(preview_llm_request(sample, signals, settings=settings))  # {}: nothing to cite, nothing sent


def scan_demo(settings: Settings, store: Store | None = None, *, scale: int = 1, **kw: Any) -> ScanResult:
    """Build the demo persona into ``settings.home/"demo"`` (once) and scan it."""
    root = build_demo(settings.home / ("demo" if scale == 1 else f"demo-x{scale}"), scale=scale)
    owners = tuple(kw.pop("owners", ())) or demo_owner_addresses()
    return scan([str(root)], settings=settings, store=store, owners=owners, **kw)
