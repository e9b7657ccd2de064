"""Secret redaction at the connector boundary (placeholder set; the safety gate extends it).

Typed placeholders (``[REDACTED:aws-key]``) keep the text readable for a reviewer while the
value itself never reaches the store, the UI, an LLM or a memory file.
"""

from __future__ import annotations

import re

__all__ = ["SECRET_PATTERNS", "find_secrets", "redact_secrets"]

SECRET_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("private-key", re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|\Z)")),
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("google-oauth-token", re.compile(r"\bya29\.[0-9A-Za-z_-]{20,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("connection-string", re.compile(
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:[^\s@/]{3,128}@[^\s]+", re.IGNORECASE)),
    ("bearer-token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*")),
]

_ASSIGNMENT = re.compile(
    r"(?i)\b((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret(?:[_-]?key)?|client[_-]?secret"
    r"|password|passwd|pwd|token)\b[\"']?\s*(?:[:=]|\bis\b)\s*[\"']?)([^\s\"',;]{6,})")


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every secret-looking span in ``text``."""
    spans: list[tuple[str, int, int]] = []
    for kind, pattern in SECRET_PATTERNS:
        spans.extend((kind, m.start(), m.end()) for m in pattern.finditer(text))
    for m in _ASSIGNMENT.finditer(text):
        value = m.group(2)
        if value.startswith("[REDACTED"):
            continue
        spans.append(("password" if "pass" in m.group(1).lower() or "pwd" in m.group(1).lower()
                      else "secret", m.start(2), m.end(2)))
    return spans


def redact_secrets(text: str) -> str:
    """Replace every secret-looking span with ``[REDACTED:<kind>]``."""
    if not text:
        return text
    spans = sorted(find_secrets(text), key=lambda s: (s[1], -s[2]))
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for kind, start, end in spans:
        if start < pos:
            continue
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)
