"""Every source accounted for: what the last scan read from it, what it left out, what it gave.

Why: "2,843 items, 0 proposals" with no reason reads as a bug, and "500 items, skipped 0" for a
calendar of 4,778 events hides a window. The scan already knows all of it — the per-source
report (items, skips with their reasons, duplicates, the window and what it left out when the
source reports them), the owner it resolved and the evidence behind every proposal — so this
module folds that into one row per source, and when a source contributed nothing it says the
most likely reason *and* what to do about it. The wizard's Scan and Sources pages only render
:func:`source_accounting`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.store import Store

__all__ = ["SourceAccount", "source_accounting"]

_CHAT, _EVENT, _MESSAGE = "chatmessage", "event", "message"


@dataclass(frozen=True)
class SourceAccount:
    """One source of the last scan, in words a person can act on."""

    source: str
    kind: str
    items: int
    window: str = ""
    """The window the source applied (newest N, since a date), when the source reports one."""
    left_out: dict[str, int] = field(default_factory=dict)
    """Why items were not used, and how many: skips by reason, duplicates, what the window cut."""
    proposals: int = 0
    reason: str = ""
    """Why the source contributed no proposal (empty when it did)."""
    fix: str = ""
    """What the person can do about it."""
    found: int | None = None
    """What the reader found (files, messages, entries, rows), when it counts them: the ledger
    found = read + skipped (:mod:`bootstrap_app.report.ledger`); None for a reader that does not count yet."""
    skipped: int = 0
    balanced: bool = True
    """False when found != read + skipped: the reader lost something without a word (a fault)."""
    partial: bool = False
    """Something in it could not be read (not a choice); the rest was."""


def _window(report: dict[str, Any]) -> str:
    """The window as text: ``window_from``/``window_to`` (ISO dates) of the source report, or a
    ``window`` field (text or mapping), when the source reports one."""
    start, end = str(report.get("window_from") or ""), str(report.get("window_to") or "")
    if start or end:
        return f"{start[:10] or '…'} to {end[:10] or '…'}"
    window = report.get("window")
    if isinstance(window, dict):
        return ", ".join(f"{k} {v}" for k, v in window.items() if v not in (None, "", 0))
    return str(window) if window else ""


def _left_out(report: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    if report.get("ownership") == "not-mine" and report.get("items"):
        out["not analysed: you said this source is not yours"] = int(report["items"])
    for reason, count in (report.get("skip_reasons") or {}).items():
        out[str(reason)] = int(count)
    if report.get("skipped") and not out:
        out["skipped"] = int(report["skipped"])
    ledger = report.get("ledger") or {}
    for reason, count in (ledger.get("passed_over") or {}).items():  # a choice, stated like the window
        out[str(reason)] = int(count)
    if report.get("duplicates"):
        out["already read from another source (same message)"] = int(report["duplicates"])
    extra = report.get("left_out")  # a source that reports what its window or caps cut
    if isinstance(extra, dict):
        out.update({str(k): int(v) for k, v in extra.items() if isinstance(v, int | float) and v})
    elif isinstance(extra, int | float) and extra:
        out[str(report.get("left_out_reason") or "outside the window")] = int(extra)
    return out


def _main_kind(report: dict[str, Any]) -> str:
    """The item kind most of the source's items were (``message``, ``event``, ``chatmessage`` …)."""
    kinds: dict[str, int] = report.get("item_kinds") or {}
    return max(kinds, key=lambda k: kinds[k]) if kinds else ""


def _why_none(report: dict[str, Any], owner: dict[str, Any], ownership: str | None) -> tuple[str, str]:
    """The likeliest reason a source gave nothing, and the fix — from the report, not guessed."""
    kind, items = _main_kind(report), int(report.get("items") or 0)
    if report.get("error"):
        return f"could not be read: {report['error']}", "fix the location or sign in again, then scan again"
    if items == 0:
        return "nothing was read from it", "check that the location holds files of this kind"
    if ownership:
        return ("you marked it as shared or not yours, so nothing in it counts as written by you",
                "change that on the Identity page if it is yours")
    if not owner.get("addresses") and not owner.get("slack_ids"):
        return ("memseed does not know who you are, so none of it counts as yours",
                "add your address (or pick yourself) on the Identity page, then re-analyse")
    if kind == _CHAT and not owner.get("slack_ids"):
        return ("no owner found in this chat export: none of your addresses is a member of it",
                "pick yourself on the Identity page (type the address of your chat profile), then re-analyse")
    if kind == _EVENT:
        return ("none of its events were organised by an address memseed knows as yours",
                "if this calendar is yours, add its account's address on the Identity page")
    if kind == _MESSAGE:
        return ("too little of it was written by you to show a pattern",
                "confirm your other addresses on the Identity page, or add your Sent folder")
    return "nothing in it reached the evidence needed for a proposal", "add more of this kind of source"


def source_accounting(store: Store, run_id: int | None = None) -> list[SourceAccount]:
    """One :class:`SourceAccount` per source of the run (default: the last finished scan)."""
    runs = store.runs(limit=50)
    run = next((r for r in runs if run_id is None or r["id"] == run_id), None)
    if run is None:
        return []
    summary = run.get("summary") or {}
    owner = summary.get("owner") or {}
    contributed: Counter[str] = Counter()
    for sp in store.proposals(run_id=run["id"]):
        for source in {e.source for e in sp.proposal.evidence}:
            contributed[source] += 1
    out: list[SourceAccount] = []
    for report in summary.get("sources") or []:
        source = str(report.get("source", ""))
        count = contributed.get(source, 0)
        reason, fix = ("", "") if count else _why_none(report, owner, report.get("ownership") or None)
        ledger = report.get("ledger") or {}
        out.append(SourceAccount(source, str(report.get("kind", "")), int(report.get("items") or 0),
                                 _window(report), _left_out(report), count, reason, fix,
                                 int(ledger["found"]) if "found" in ledger else None, int(ledger.get("skipped", 0)),
                                 bool(ledger.get("balanced", True)), bool(report.get("partial"))))
    return out
