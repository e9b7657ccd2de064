"""The safety gate applied to every proposal inside ``scan`` (placeholder until the full gate lands).

``gate(proposals)`` returns the proposals that pass and the ones quarantined, each with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bootstrap_app.types import Proposal

__all__ = ["GateResult", "Quarantined", "gate"]


@dataclass(frozen=True)
class Quarantined:
    reason: str
    source: str
    ref: str
    excerpt: str
    proposal_name: str = ""


@dataclass
class GateResult:
    passed: list[Proposal] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)


def gate(proposals: Iterable[Proposal]) -> GateResult:
    result = GateResult()
    result.passed.extend(proposals)
    return result
