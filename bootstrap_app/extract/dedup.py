"""Deduplicate proposals against memory the target harness already holds.

An existing entry "means the same" as a proposal when their names are near-identical
(difflib ratio) or their name + description share most content words (token Jaccard). Then:
if the existing entry already states the proposal's key content, the proposal adds nothing and
is dropped; otherwise the proposal is an update and carries ``supersedes`` = the entry's name.
Cost is proposals x entries (a few dozen x a few hundred), independent of the scanned volume.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher

from bootstrap_app.types import MemoryEntry, Proposal

__all__ = ["DedupResult", "dedup_against_memory", "similar"]

_STOP = frozenset(["a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "is", "are", "be", "from", "as", "it", "its", "this", "that", "your", "you", "their", "his", "her", "use", "uses", "using"])


def _tokens(text: str, values: bool = False) -> set[str]:
    """Content words; numbers (times, counts) are values, not meaning, unless ``values``."""
    return {t for t in re.split(r"[^a-z0-9]+", text.lower())
            if t and t not in _STOP and len(t) > 1 and (values or not t.isdigit())}


def similar(a_name: str, a_desc: str, b_name: str, b_desc: str) -> float:
    """0..1: the larger of name similarity and content-word Jaccard of name + description."""
    return _similar(a_name, _tokens(f"{a_name} {a_desc}"), b_name, _tokens(f"{b_name} {b_desc}"))


def _similar(a_name: str, ta: set[str], b_name: str, tb: set[str]) -> float:
    """:func:`similar` on content words already taken, so each side is tokenised once, not per pair."""
    name_ratio = SequenceMatcher(None, a_name.lower(), b_name.lower()).ratio() if a_name and b_name else 0.0
    jaccard = len(ta & tb) / len(ta | tb) if ta and tb else 0.0
    return max(name_ratio if name_ratio >= 0.85 else 0.0, jaccard)


@dataclass
class DedupResult:
    kept: list[Proposal] = field(default_factory=list)
    duplicates: list[tuple[Proposal, MemoryEntry]] = field(default_factory=list)
    superseding: int = 0


def _states_key(entry: MemoryEntry, proposal: Proposal) -> bool:
    key = _tokens(proposal.key.replace("=", " "), values=True)
    if not key:
        return True
    have = _tokens(f"{entry.name} {entry.description} {entry.body}", values=True)
    return len(key & have) / len(key) >= 0.8


def dedup_against_memory(proposals: Sequence[Proposal], existing: Sequence[MemoryEntry],
                         threshold: float = 0.6) -> DedupResult:
    result = DedupResult()
    entry_tokens = [_tokens(f"{entry.name} {entry.description}") for entry in existing] if proposals else []
    for p in proposals:
        best: tuple[float, MemoryEntry | None] = (0.0, None)
        p_tokens = _tokens(f"{p.name} {p.description}")
        for entry, tokens in zip(existing, entry_tokens, strict=True):
            if entry.memory_type is not None and str(entry.memory_type) != str(p.type):
                continue
            score = _similar(p.name, p_tokens, entry.name, tokens)
            if score > best[0]:
                best = (score, entry)
        score, match = best
        if match is None or score < threshold:
            result.kept.append(p)
        elif _states_key(match, p):
            result.duplicates.append((p, match))
        else:
            result.kept.append(replace(p, supersedes=match.name or match.path))
            result.superseding += 1
    return result
