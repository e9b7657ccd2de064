"""Safety: provenance rules, injection scan, secret redaction, PII flags, path checks."""

from __future__ import annotations

from .secrets import redact_secrets

__all__ = ["redact_secrets"]
