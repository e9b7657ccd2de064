"""What a scan reports: progress events while it runs, per-source reports and the result.

Kept apart from :mod:`bootstrap_app.pipeline` so the CLI, the app and notebooks can import
the plain records (and format a summary) without pulling in the engine.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.report.ledger import Ledger
from bootstrap_app.safety.gate import Quarantined
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Proposal, Skip
from connectors.harness_memory import EntryOutcome

__all__ = ["EventKind", "ScanEvent", "ScanResult", "SourceReport", "format_summary", "leftover_report", "llm_line",
           "name_once", "run_outcome", "shorten", "skip_categories"]

EventKind = Literal["source-start", "progress", "skip", "source-done", "error", "stage", "llm-progress"]
"""``llm-progress``: the LLM's streamed answer so far (``count`` tokens; ``message`` says how long)."""


@dataclass(frozen=True)
class ScanEvent:
    kind: EventKind
    source: str = ""
    count: int = 0
    message: str = ""
    done_bytes: int = 0
    """On ``progress`` from a file source: bytes read so far (with ``total_bytes``, 0 when unknown);
    :class:`~bootstrap_app.report.throughput.Throughput` turns them into rates and a time left."""
    total_bytes: int = 0


_HEAD_END = re.compile(r"\s\(|:\s|;\s")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_PATHLIKE = re.compile(r"[/\\]|\.\w{2,5}$|^[A-Za-z]:")


def _detail(skip: Skip, source: str) -> str:
    """The reason without the file or location it starts with (the source line names it)."""
    text = skip.reason.strip()
    location = source.partition(":")[2]
    for prefix in (location, skip.ref):
        if prefix and text.startswith(prefix):
            rest = text[len(prefix):]
            if rest.startswith(": ") or not rest:
                return rest[2:].strip() or "unreadable"
            text = rest  # a member inside the location (``/Takeout/Mail/x.mbox: ...``)
            break
    head, sep, rest = text.partition(": ")
    if sep and rest and _PATHLIKE.search(head):
        return rest.strip()
    return text or "unreadable"


def name_once(source: str, message: str) -> str:
    """``source: message`` on one line, unless the message already names the source.

    Errors raised by connectors and :func:`connectors.base.detect` name their file or URI
    themselves (``/x/y.mbox: no such file``), so prefixing the source again printed
    ``gmail:: gmail:: ...``. The source is matched as given and without its ``kind:`` prefix.
    """
    first = (message or "unreadable").splitlines()[0].strip()
    bare = source.split(":", 1)[1] if ":" in source else ""
    if (source and source in first) or (len(bare) > 1 and bare in first):
        return first
    if not source:
        return first
    return f"{source} {first}" if source.endswith(":") else f"{source}: {first}"  # "gmail: …", not "gmail:: …"


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut at a word boundary with an ellipsis; never in the middle of a word."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def skip_categories(skips: list[Skip], source: str, examples: int = 3) -> list[dict[str, Any]]:
    """Skips grouped by the *kind* of reason, most frequent first.

    The category is the head of the reason (before its first ``(``, ``:`` or ``;`` detail),
    with counts folded so "3 messages in Spam" and "5 messages in Spam" count together; the
    label keeps the reason's own words (identifiers such as user ids are never rewritten), and
    up to ``examples`` refs show where to look.
    """
    groups: dict[str, list[tuple[Skip, str]]] = {}
    for skip in skips:
        detail = _detail(skip, source)
        head = _HEAD_END.split(detail, maxsplit=1)[0].strip() or detail
        groups.setdefault(_NUMBER.sub("#", head).lower(), []).append((skip, detail))
    out: list[dict[str, Any]] = []
    for members in sorted(groups.values(), key=lambda m: -len(m)):
        details = {d for _, d in members}
        if len(details) == 1:
            label = shorten(next(iter(details)))
        else:
            heads = {_HEAD_END.split(d, maxsplit=1)[0].strip() for d in details}
            head = next(iter(heads)) if len(heads) == 1 else _NUMBER.sub("N", members[0][1].split(" (")[0])
            label = shorten(_HEAD_END.split(head, maxsplit=1)[0].strip() or head)
        refs = list(dict.fromkeys(s.ref for s, _ in members if s.ref))[:examples]
        out.append({"category": label, "count": len(members), "examples": refs})
    return out


@dataclass
class SourceReport:
    source: str
    kind: str
    item_kinds: Counter[str] = field(default_factory=Counter)
    """Items read per item kind (message, event, chatmessage …): what the source turned out to hold."""
    ownership: str = ""
    """What the person said about the source (``shared``, ``not-mine``; empty: theirs)."""
    items: int = 0
    skipped: list[Skip] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    duplicates: int = 0
    """Messages another source of the same scan already gave (same Message-ID), not counted twice."""
    window_from: str = ""
    window_to: str = ""
    """The analysis window the source read (ISO 8601 UTC; empty when it has none)."""
    left_out: int = 0
    """Items outside the window or over a cap: held by the source, not read."""
    left_out_reason: str = ""
    """Why, and how to read them (``--since``)."""
    ledger: Ledger | None = None
    """found = read + skipped (:mod:`bootstrap_app.report.ledger`); its ``failed_units`` is set for every read."""
    counted: bool = False
    """The reader counted what it found, so the ledger's balance is checked."""

    @property
    def partial(self) -> bool:
        """Some of the source failed: its read raised, or a unit its reader counted could not be
        read (not a choice). A reader that does not count yet uses skips for remarks too, so its
        skips alone do not make a scan partial."""
        return self.error is not None or bool(self.counted and self.ledger and self.ledger.failed_units)

    def to_json(self) -> dict[str, Any]:
        categories = skip_categories(self.skipped, self.source)[:10]
        ledger = self.ledger.to_json() if self.ledger is not None and self.counted else None
        return {"source": self.source, "kind": self.kind, "item_kinds": dict(self.item_kinds),
                "ownership": self.ownership, "items": self.items, "skipped": len(self.skipped),
                "skip_reasons": {c["category"]: c["count"] for c in categories},
                "skip_categories": categories, "error": self.error,
                "seconds": round(self.seconds, 3), "duplicates": self.duplicates,
                "window_from": self.window_from, "window_to": self.window_to, "left_out": self.left_out,
                "left_out_reason": self.left_out_reason, "ledger": ledger, "partial": self.partial}


def leftover_report(location: str, leftovers: list[tuple[Any, str, bool]]) -> SourceReport:
    """What a folder given to the scan holds beside its sources — files of no kind memseed reads,
    folders too deep or that cannot be listed — as a report of its own (kind ``not read``), so
    they are counted, not dropped: found = skipped, each with its reason."""
    skips = [Skip(location, printable(str(path)), f"{printable(str(path))}: {why}")
             for path, why, failed in leftovers if failed]
    passed: dict[str, int] = {}
    for _, why, failed in leftovers:
        if not failed:
            passed[why] = passed.get(why, 0) + 1
    report = SourceReport(source=location, kind="not read", skipped=skips, counted=True)
    report.ledger = Ledger(len(leftovers), 0, len(skips), passed, len(skips))
    return report


@dataclass
class ScanResult:
    run_id: int
    proposals: list[Proposal] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)
    reports: list[SourceReport] = field(default_factory=list)
    owner: OwnerIdentity = field(default_factory=OwnerIdentity)
    already_decided: int = 0
    duplicates: int = 0
    superseding: int = 0
    new_proposals: int = 0
    """Proposals the store had never seen before this run (what reseed announces)."""
    llm_error: str | None = None
    imported: list[EntryOutcome] = field(default_factory=list)
    """One per memory entry read from an agent's memory: proposed, ready, or why not."""
    notes: list[str] = field(default_factory=list)
    """What a cap left out of the proposals (``5 more recurring meetings not proposed …``)."""
    llm: dict[str, Any] | None = None
    """The LLM pass in numbers (facts returned / kept / dropped by reason, tokens, time), when it ran."""
    llm_report: list[dict[str, Any]] = field(default_factory=list)
    """One record per fact the model returned: kept, or dropped with its reason (``--llm-report``)."""

    @property
    def items(self) -> int:
        return sum(r.items for r in self.reports)

    @property
    def status(self) -> str:
        """``complete``, or ``partial`` when a source (or a unit of one) could not be read, or a
        ledger does not balance (a reader lost something without a word)."""
        bad = any(r.partial or (r.counted and r.ledger is not None and not r.ledger.balanced) for r in self.reports)
        return "partial" if bad else "complete"

    def summary(self) -> dict[str, Any]:
        by_type = Counter(str(p.type) for p in self.proposals)
        reasons = Counter(q.reason for q in self.quarantined)
        return {
            "run_id": self.run_id,
            "status": self.status,
            "owner_reasons": dict(self.owner.reasons),
            "items": self.items,
            "sources": [r.to_json() for r in self.reports],
            "errors": {r.source: r.error for r in self.reports if r.error},
            "proposals": len(self.proposals),
            "new_proposals": self.new_proposals,
            "by_type": dict(sorted(by_type.items())),
            "quarantined": len(self.quarantined),
            "quarantine_reasons": dict(reasons.most_common()),
            "already_decided": self.already_decided,
            "duplicates_of_existing_memory": self.duplicates,
            "superseding_existing_memory": self.superseding,
            "owner": {"names": list(self.owner.names),
                      "addresses": list(self.owner.ordered) or sorted(self.owner.addresses),
                      "slack_ids": sorted(self.owner.slack_ids),
                      "suggested_aliases": sorted(self.owner.suggested),
                      "unknown_why": self.owner.unknown_why,
                      "owner_candidates": [c.to_json() for c in self.owner.candidates]},
            "llm_error": self.llm_error,
            "memory_entries": dict(Counter(o.status for o in self.imported).most_common()),
            "notes": list(self.notes),
            "llm": self.llm,
        }


def llm_line(llm: dict[str, Any]) -> str:
    """"LLM: 12 facts returned, 7 kept, 5 dropped (3 cite no evidence, 2 not supported by the cited text)"."""
    line = f"LLM: {llm['returned']} facts returned, {llm['kept']} kept, {llm['dropped']} dropped"
    if llm.get("drop_reasons"):
        line += " (" + ", ".join(f"{n} {reason}" for reason, n in llm["drop_reasons"].items()) + ")"
    if llm.get("seconds"):
        line += f"; {llm['answer_tokens']} answer tokens in {llm['seconds']:.0f} s ({llm['mode']})"
    return line


def _ledger_line(ledger: dict[str, Any]) -> str:
    """``found 14 = read 13 + skipped 1`` (and what was passed over), or the mismatch, loudly."""
    line = f"found {ledger['found']} = read {ledger['read']} + skipped {ledger['skipped']}"
    passed = ledger.get("passed_over") or {}
    if passed:
        line += " (" + ", ".join(f"{n} {why}" for why, n in passed.items()) + ")"
    if not ledger.get("balanced", True):
        gap = ledger["found"] - ledger["read"] - ledger["skipped"]
        line = (f"LEDGER MISMATCH: found {ledger['found']}, read {ledger['read']}, skipped {ledger['skipped']}: "
                f"{gap:+d} unaccounted (a reader fault; please report it)")
    return line


def run_outcome(run: dict[str, Any]) -> str:
    """How a stored run (``Store.runs``) ended, in words: ``complete``, ``partial: …``, ``failed: …``
    or ``unfinished``.

    Why not the run's own status column: it says only whether the run got to its end
    (``finished``/``failed``), and a reseed that could not read a remembered source still gets
    there. What happened is in the summary it stored: the scan's ``status`` and per-source
    ``partial``, or a cheap reseed's ``unreadable`` locations."""
    summary = run.get("summary") or {}
    if run.get("status") == "failed":
        return "failed: " + shorten(str(summary.get("error") or "see the command's output").splitlines()[0], 160)
    if not run.get("finished"):
        return "unfinished"
    unreadable = list(summary.get("unreadable") or [])
    sources = summary.get("sources") or []
    partial = [s for s in sources if s.get("partial")]
    if summary.get("status") == "partial" or unreadable or partial:
        if partial:
            return f"partial: {len(partial)} of {len(sources)} sources could not be read in full"
        if unreadable:
            return f"partial: {len(unreadable)} source(s) could not be read ({shorten(', '.join(unreadable), 120)})"
        return "partial: some input could not be read"
    return "complete"


def format_summary(summary: dict[str, Any]) -> str:
    """The human summary printed on stderr after a scan."""
    status = " (partial: some input could not be read, see below)" if summary.get("status") == "partial" else ""
    lines = ["", f"memseed scan #{summary['run_id']}: {summary['items']} items read{status}"]
    for src in summary["sources"]:
        line = f"  {src['kind'] or '?':14} {src['items']:>7} items"
        if src["skipped"]:
            line += f", {src['skipped']} skipped"
        error_lines = (src["error"] or "").splitlines()
        if error_lines:
            line += f"  ERROR: {shorten(error_lines[0], 160)}"
        lines.append(f"{line}  {src['source']}")
        # a MemseedError's second line is its hint (what to do); the progress line showed only the first
        lines += [f"      {shorten(h, 160)}" for h in (e.strip() for e in error_lines[1:]) if h.startswith("hint:")]
        if (ledger := src.get("ledger")) is not None:
            lines.append(f"      {_ledger_line(ledger)}")
        if src.get("window_from"):
            lines.append(f"      analysis window {src['window_from'][:10]} to {src.get('window_to', '')[:10]}")
        if src.get("left_out"):
            lines.append(f"      {src['left_out']:>5} left out: {shorten(src.get('left_out_reason', ''), 200)}")
        for cat in src.get("skip_categories", []):
            refs = ", ".join(shorten(r, 60) for r in cat["examples"])
            lines.append(f"      {cat['count']:>5} x {cat['category']}" + (f"  (e.g. {refs})" if refs else ""))
    owner = summary["owner"]
    who = ", ".join(owner["names"][:1] + owner["addresses"][:4] + owner["slack_ids"][:2])
    lines.append(f"  owner: {who}" if who else f"  owner: unknown ({owner.get('unknown_why') or 'nothing names one'})")
    for c in owner.get("owner_candidates", [])[:5]:
        label = f"{c['name']} ({c['owner']})" if c["name"] else c["owner"]
        lines.append(f"    maybe {label}: {c['evidence']}  -> --owner {c['owner']}")
    if not who:
        lines.append("    pick yourself with --owner (an e-mail address, Slack user id, handle or full name)")
    if owner.get("suggested_aliases"):
        lines.append(f"  suggested aliases (not counted as yours until confirmed): {len(owner['suggested_aliases'])}"
                     " -> `memseed sources`")
    types = ", ".join(f"{k} {v}" for k, v in summary["by_type"].items()) or "none"
    lines.append(f"  proposals: {summary['proposals']} ({types}); new since last run: {summary['new_proposals']}")
    if summary["already_decided"]:
        lines.append(f"  not proposed again (already decided): {summary['already_decided']}")
    if summary["duplicates_of_existing_memory"] or summary["superseding_existing_memory"]:
        lines.append(f"  existing memory: {summary['duplicates_of_existing_memory']} duplicates dropped, "
                     f"{summary['superseding_existing_memory']} would replace an entry")
    if summary.get("memory_entries"):
        entries = summary["memory_entries"]
        lines.append(f"  agent memory entries read: {sum(entries.values())} ("
                     + ", ".join(f"{k} {v}" for k, v in entries.items()) + ")")
    lines += [f"  note: {shorten(note, 300)}" for note in summary.get("notes", [])]
    lines.append(f"  quarantined by the safety gate: {summary['quarantined']}")
    for reason, n in summary["quarantine_reasons"].items():
        lines.append(f"    {n} x {reason}")
    if summary.get("llm"):
        lines.append(f"  {llm_line(summary['llm'])}")
        lines += [f"    {note}" for note in summary["llm"].get("notes", [])]
    if summary.get("llm_error"):
        lines.append(f"  LLM extraction failed: {summary['llm_error']}")
    if summary["errors"]:
        lines.append(f"  sources with errors: {len(summary['errors'])}")
    return "\n".join(lines)
