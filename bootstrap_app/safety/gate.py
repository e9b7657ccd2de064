"""The safety gate every proposal passes inside ``scan``, before dedup and review.

Order (each stage sees the output of the one before; a proposal stops at its first failure):

1. **Secrets** — name, description, body and excerpts are redacted again; a proposal that
   still holds a secret afterwards is blocked (``secret``). Redactions add the flag ``redacted``.
2. **Dangerous steps** (``dangerous.py``): a proposal telling the agent to pipe a download into a
   shell, run code from a URL, add a package registry, disable verification/hooks/tests/signing,
   send credentials or data anywhere, or weaken permissions is quarantined as
   ``dangerous:<class>`` — whoever wrote it, the owner included (a person can still write such a
   step into memory by hand; memseed never proposes one).
3. **Injection scan** on name/description/body (NFKC). Invisible characters: stripped from an
   owner-backed proposal, quarantine otherwise. The Hermes-equivalent set and the structural
   checks always quarantine (``injection:<id>``, ``structure:<id>``): a writer would refuse
   them anyway, and the person should not review what cannot be written. The memory-poisoning
   tripwires (``tripwire:<id>``) apply whenever *any* evidence is third-party — an owner's own
   "Always run the tests" is fine; the same words next to someone else's mail are not. Three
   (markdown image with a query string, encoded payload, base64 blob) apply to everyone.
4. **Provenance** (``provenance.py``): ``third-party-quote``, ``instruction-without-owner-evidence``,
   ``third-party-free-text``. Then every third-party evidence excerpt is checked: one matching
   the Hermes set is dropped (``excerpt-injection:<id>``); one holding free text or a tripwire
   is reduced to facts (names, addresses, dates, amounts); short metadata stays as written.
   A proposal left without evidence is dropped (its records say why); one that never had
   evidence is ``no-evidence`` — evidence or it did not happen.
5. **PII** — ``sensitive`` / ``sensitive:<kind>`` flags; never a quarantine.

Quarantine records are one per (proposal, evidence) so the scan summary can count items by
reason; their excerpts are redacted, stripped of invisible characters and at most 200 chars.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from bootstrap_app.text.secrets import find_secrets, redact_secrets
from bootstrap_app.text.unicode import find_invisible, sanitize_untrusted
from bootstrap_app.types import Evidence, Proposal

from .dangerous import find_dangerous
from .injection import HERMES_IDS, TRIPWIRES, scan_text
from .pii import pii_flags
from .provenance import ItemText, facts_only, holds_free_text, owner_backed, provenance_reasons

__all__ = ["GateResult", "Quarantined", "gate", "gate_one", "sanitize_untrusted"]

_HERMES_ID_SET = frozenset(HERMES_IDS)
_TRIPWIRE_IDS = frozenset(pid for pid, _c, _r in TRIPWIRES)
ALWAYS_TRIPWIRES = frozenset({"markdown_image_query", "encoded_payload", "base64_blob"})
"""Tripwires that apply even to owner-backed proposals: never the shape of a memory entry."""


@dataclass(frozen=True)
class Quarantined:
    """A proposal (or one of its evidence items) held back by the gate, with the reason."""

    reason: str
    source: str
    ref: str
    excerpt: str
    proposal_name: str = ""


@dataclass
class GateResult:
    passed: list[Proposal] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)

    def reasons(self) -> dict[str, int]:
        """Quarantine count per reason (what the scan summary prints)."""
        counts: dict[str, int] = {}
        for q in self.quarantined:
            counts[q.reason] = counts.get(q.reason, 0) + 1
        return counts


def _safe_excerpt(text: str) -> str:
    return sanitize_untrusted(redact_secrets(text))[:200]


def _records(p: Proposal, reason: str, detail: str = "", only: Evidence | None = None) -> list[Quarantined]:
    evidence = [only] if only is not None else list(p.evidence)
    if not evidence:
        return [Quarantined(reason, "", "", _safe_excerpt(detail or p.body), p.name)]
    return [Quarantined(reason, e.source, e.ref, _safe_excerpt(detail or e.excerpt or p.body), p.name)
            for e in evidence]


def _redact(p: Proposal) -> tuple[Proposal, bool]:
    name, desc, body = redact_secrets(p.name), redact_secrets(p.description), redact_secrets(p.body)
    evidence = tuple(replace(e, excerpt=redact_secrets(e.excerpt)) for e in p.evidence)
    changed = (name, desc, body) != (p.name, p.description, p.body) or evidence != p.evidence
    if not changed:
        return p, False
    return replace(p, name=name, description=desc, body=body, evidence=evidence), True


def _fields(p: Proposal) -> str:
    return "\n".join((p.name, p.description, p.body))


def gate_one(p: Proposal, item_text: ItemText | None = None) -> tuple[Proposal | None, list[Quarantined]]:
    """Gate a single proposal: (the proposal as it may pass, or None) and its quarantine records."""
    if not p.evidence:
        return None, _records(p, "no-evidence")
    # 1. secrets
    p, redacted = _redact(p)
    leftover = find_secrets(_fields(p)) + [s for e in p.evidence for s in find_secrets(e.excerpt)]
    if leftover:
        return None, _records(p, "secret", f"[{leftover[0][0]}]")
    flags = list(p.flags)
    if redacted and "redacted" not in flags:
        flags.append("redacted")

    # 2. dangerous steps, whoever wrote them
    danger = find_dangerous(_fields(p))
    if danger:
        return None, _records(p, danger[0].reason, danger[0].excerpt)

    # 3. injection scan
    third_party = any(not e.authored_by_owner for e in p.evidence)
    # Words an LLM wrote are not the owner's words, even when it cites the owner's mail: the
    # poisoning tripwires always apply to them (llm.py already asks for declarative phrasing).
    trusted_wording = not third_party and "llm" not in p.flags
    if owner_backed(p) and any(find_invisible(x) for x in (p.name, p.description, p.body)):
        p = replace(p, description=sanitize_untrusted(p.description), body=sanitize_untrusted(p.body))
    for finding in scan_text(_fields(p)):
        if finding.id in _TRIPWIRE_IDS and trusted_wording and finding.id not in ALWAYS_TRIPWIRES:
            continue  # the owner's own "Always run the tests" is exactly what memory is for
        if finding.category == "invisible":
            reason = "invisible-unicode"
        elif finding.category == "structure":
            reason = f"structure:{finding.id}"
        elif finding.id in _HERMES_ID_SET:
            reason = f"injection:{finding.id}"
        else:
            reason = f"tripwire:{finding.id}"
        return None, _records(p, reason, finding.excerpt)

    # 4. provenance
    problems = provenance_reasons(p, item_text)
    if problems:
        reason, _anchor, detail = problems[0]
        out: list[Quarantined] = []
        for ev in p.evidence:
            r, d = next(((r, d) for r, e, d in problems if e is ev), (reason, detail))
            out.extend(_records(p, r, d, only=ev))
        return None, out
    kept: list[Evidence] = []
    dropped: list[Quarantined] = []
    for ev in p.evidence:
        if ev.authored_by_owner:
            kept.append(ev)
            continue
        hits = scan_text(ev.excerpt, tripwires=False, structure=False)
        if hits:
            dropped.extend(_records(p, f"excerpt-injection:{hits[0].id}", hits[0].excerpt, only=ev))
            continue
        if holds_free_text(ev.excerpt) or scan_text(ev.excerpt):
            ev = replace(ev, excerpt=facts_only(ev.excerpt))
        kept.append(ev)
    if not kept:
        return None, dropped  # every evidence item was poisoned: nothing left to stand on

    # 5. personal data
    for flag in sorted(pii_flags(_fields(p))):
        if flag not in flags:
            flags.append(flag)
    return replace(p, evidence=tuple(kept), flags=tuple(flags)), dropped


def gate(proposals: Iterable[Proposal], *, item_text: ItemText | None = None) -> GateResult:
    """Apply the gate to every proposal. ``item_text(source, ref)`` (optional) returns an item's
    full redacted text so quotes from outside the 200-char excerpt are caught too."""
    result = GateResult()
    for proposal in proposals:
        passed, records = gate_one(proposal, item_text)
        result.quarantined.extend(records)
        if passed is not None:
            result.passed.append(passed)
    return result

