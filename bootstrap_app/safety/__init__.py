"""Safety: provenance rules, injection scan, PII flags, the gate; redaction re-exported from text.

The text rules themselves (secrets, invisible characters, NFKC) live in :mod:`bootstrap_app.text`,
below this package, so connectors can redact without importing the safety checks.

Where each check runs:

- connectors: :func:`redact_secrets` on every free-text field (``ReadContext.clean``);
  :func:`sanitize_untrusted` is available for item text (NFKC, invisible characters stripped).
- pipeline: :func:`gate` on every proposal (secrets → dangerous steps → injection/tripwires →
  provenance → PII).
- writers: :func:`check_entry` on every entry they are about to write (Hermes-equivalent set,
  invisible characters, delimiter/frontmatter/import safety) — raises ``BlockedContent``.
- ``memseed doctor``: the shape checks in ``doctor`` / ``doctor_checks``; each harness class runs
  them with its own caps and ``bootstrap_app.harnesses.doctor.run_doctor`` picks the harness, so
  safety never imports a harness.
"""

from __future__ import annotations

from bootstrap_app.text.secrets import find_secrets, redact_secrets
from bootstrap_app.text.unicode import sanitize_untrusted

from .dangerous import DangerFinding, find_dangerous
from .gate import GateResult, Quarantined, gate
from .injection import ThreatFinding, check_entry, scan_text
from .pii import pii_flags
from .provenance import facts_only, instruction_reasons

__all__ = [
    "DangerFinding",
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
    "sanitize_untrusted",
    "scan_text",
]

