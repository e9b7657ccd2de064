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


def tnef_reason(content_type: str, body: bytes, text: str) -> str:
    """The skip reason for a message carrying a winmail.dat, or ``""`` when it carries none."""
    kind = content_type.lower()
    if "ms-tnef" not in kind and not ("multipart" in kind and _TNEF.search(body[:_SCAN])):
        return ""
    if text.strip():
        return "winmail.dat (Outlook TNEF) attachment ignored; the message's text was read"
    return "winmail.dat (Outlook TNEF) attachment ignored; the message has no other text, only its headers were read"
