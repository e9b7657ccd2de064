"""File names as text: what to do with names that are not valid UTF-8.

Why: on POSIX a file name is bytes. Python hands a name that is not valid UTF-8 to us as a
``str`` with lone surrogates (``'bad\\udcff.md'``), which works for ``open()`` but raises
``UnicodeEncodeError: surrogates not allowed`` the moment it is written to SQLite, JSON or the
terminal. One such file used to fail a whole document folder. Every place a path becomes text
for someone else (item refs, skip reasons, source ids, store rows, JSON output) either checks
:func:`is_text` and skips the item, or shows :func:`printable` (the bad bytes as ``\\xff``).
"""

from __future__ import annotations

import os

__all__ = ["is_text", "printable"]


def is_text(value: str) -> bool:
    """True when ``value`` can be written as UTF-8 (no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(value: str | os.PathLike[str]) -> str:
    """``value`` with undecodable bytes shown as ``\\xNN`` escapes; always valid UTF-8."""
    text = os.fspath(value)
    if is_text(text):
        return text
    try:  # surrogate-escaped bytes from the file system: show the original bytes
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # other lone surrogates: escape the code points themselves
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
