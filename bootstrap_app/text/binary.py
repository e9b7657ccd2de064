"""Binary input wearing a text format's name: say so, and never echo its bytes.

Why: a binary file named ``.ics`` (a download gone wrong, a compressed export renamed) used to
get the parser's error, with the raw bytes (NUL, escape sequences) echoed into the summary and
the terminal. The structure of the bytes tells binary from text without knowing the format:
NUL bytes, or more than one in twenty characters a control character, in the file's head.
"""

from __future__ import annotations

import re

__all__ = ["binary_reason", "visible"]

_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")
_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def binary_reason(data: bytes, meant: str) -> str | None:
    """``"binary file, not a calendar"`` (``meant`` names the format) when ``data``'s head is not
    text; None when it is (UTF-16 with its byte-order mark counts as text: its parser says more)."""
    head = data[:8192]
    if not head or head.startswith(_UTF16_BOMS):
        return None
    if b"\x00" in head or len(_CONTROL.findall(head)) * 20 > len(head):
        return f"binary file, not {meant}"
    return None


def visible(text: str, limit: int = 200) -> str:
    """``text`` (a parser's error that may quote the input) with control characters shown as
    ``\\xNN`` and cut to ``limit`` characters: safe to print on a terminal or in a summary."""
    out = _CONTROL_TEXT.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return out if len(out) <= limit else out[:limit - 1] + "…"
