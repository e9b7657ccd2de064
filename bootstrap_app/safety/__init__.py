"""Safety: provenance rules, injection scan, secret redaction, PII flags, memory-folder doctor.

Where each check runs:

- connectors: :func:`redact_secrets` on every free-text field (``ReadContext.clean``);
  :func:`sanitize_untrusted` is available for item text (NFKC, invisible characters stripped).
- pipeline: :func:`gate` on every proposal (secrets → dangerous steps → injection/tripwires →
  provenance → PII).
- writers: :func:`check_entry` on every entry they are about to write (Hermes-equivalent set,
  invisible characters, delimiter/frontmatter/import safety) — raises ``BlockedContent``.
- ``memseed doctor``: :func:`run_doctor` audits an existing memory folder.
"""

from __future__ import annotations

from .dangerous import DangerFinding, find_dangerous
from .gate import GateResult, Quarantined, gate
from .injection import ThreatFinding, check_entry, scan_text
from .pii import pii_flags
from .provenance import facts_only, instruction_reasons
from .secrets import find_secrets, redact_secrets
from .text import sanitize_untrusted

__all__ = [
    "DangerFinding",
    "Finding",
    "GateResult",
    "Quarantined",
    "ThreatFinding",
    "check_entry",
    "facts_only",
    "find_dangerous",
    "find_secrets",
    "gate",
    "instruction_reasons",
    "pii_flags",
    "redact_secrets",
    "run_doctor",
    "sanitize_untrusted",
    "scan_text",
]


def __getattr__(name: str) -> object:
    # The doctor pulls in frontmatter/yaml and the harness registry: load it only when asked for.
    if name in ("run_doctor", "Finding"):
        from . import doctor

        return getattr(doctor, name)
    raise AttributeError(name)
