"""Outlook's ``winmail.dat`` (TNEF) attachments: noticed and left out, with a reason.

Why: Outlook sometimes sends a message's formatting, and occasionally its whole body, inside
a ``winmail.dat`` attachment (MIME type ``application/ms-tnef``) that other programs cannot
show. memseed reads the message's text parts and ignores that attachment; when the message
has no other text, the person should know why it reads empty rather than wonder.
"""

from __future__ import annotations

import re

__all__ = ["TNEF_SCAN_BYTES", "tnef_reason"]

_TNEF = re.compile(rb"application/(?:vnd\.)?ms-tnef|winmail\.dat", re.IGNORECASE)
_SCAN = 2 * 1024 * 1024
TNEF_SCAN_BYTES = _SCAN
"""How much of a multipart body is searched for a winmail.dat part (a reader may keep just that)."""


def _carries_tnef(head: bytes) -> bool:
    """Whether ``head`` names a TNEF part; the case-blind regex runs only when a plain search
    of the lower-cased bytes finds one of its two words (most multipart mail has neither)."""
    low = head.lower()
    return (b"ms-tnef" in low or b"winmail.dat" in low) and _TNEF.search(head) is not None


def tnef_reason(content_type: str, body: bytes, text: str) -> str:
    """The skip reason for a message carrying a winmail.dat, or ``""`` when it carries none."""
    kind = content_type.lower()
    if "ms-tnef" not in kind and not ("multipart" in kind and _carries_tnef(body[:_SCAN])):
        return ""
    if text.strip():
        return "winmail.dat (Outlook TNEF) attachment ignored; the message's text was read"
    return "winmail.dat (Outlook TNEF) attachment ignored; the message has no other text, only its headers were read"
