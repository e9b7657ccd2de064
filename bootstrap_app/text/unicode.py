"""Text normalisation shared by every safety check: NFKC, invisible characters, word windows.

Why a module of its own: the injection scan, the provenance rule, the gate and the doctor must
agree on what "the same words" and "an invisible character" mean, or an attacker slips through
the gap between two definitions. Rules:

- Invisible characters are judged on the *raw* text, because NFKC folds some of them away
  (a check after normalisation would never see them).
- Patterns are matched on NFKC text, so full-width look-alikes (``ｉｇｎｏｒｅ``) fold to ASCII.
- Word windows compare lower-cased ``\\w+`` runs, so punctuation, quoting and line breaks
  cannot hide a copied sentence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "HERMES_INVISIBLE",
    "find_invisible",
    "normalize",
    "sanitize_untrusted",
    "shared_run",
    "strip_invisible",
    "word_list",
    "word_windows",
]

HERMES_INVISIBLE: frozenset[str] = frozenset(
    [chr(c) for c in (0x200B, 0x200C, 0x200D, 0x2060, 0x2062, 0x2063, 0x2064, 0xFEFF)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)
"""The invisible characters Hermes blocks (zero-width, word joiner, invisible operators, BOM, bidi)."""

_ALLOWED_CONTROL = frozenset("\n\r\t")

_WORD = re.compile(r"\w+", re.UNICODE)


def _is_invisible(ch: str) -> bool:
    if ch in HERMES_INVISIBLE:
        return True
    code = ord(ch)
    if 0xE0000 <= code <= 0xE007F:  # Unicode tag characters (ASCII smuggling)
        return True
    cat = unicodedata.category(ch)
    if cat == "Cf":  # every other format character (soft hyphen, Mongolian vowel separator, ...)
        return True
    if cat in ("Co", "Cn"):  # private use and unassigned code points
        return True
    return cat == "Cc" and ch not in _ALLOWED_CONTROL


_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def find_invisible(text: str) -> list[tuple[int, str]]:
    """(offset, character) of every invisible or format character in the raw ``text``.

    Judged per distinct character (``set(text)`` runs in C), then located: fast on long mail.
    """
    found = [(m.start(), m.group(0)) for m in _ASCII_CONTROL.finditer(text)]
    if not text.isascii():
        bad = [ch for ch in set(text) if ord(ch) > 127 and _is_invisible(ch)]
        for ch in bad:
            pos = text.find(ch)
            while pos >= 0:
                found.append((pos, ch))
                pos = text.find(ch, pos + 1)
        found.sort()
    return found


def normalize(text: str) -> str:
    """NFKC-normalised text (the form every pattern is matched against)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


_STRICT_EXTRA = re.compile("[\r\u180e\ufe00-\ufe0f\U000e0100-\U000e01ef\ud800-\udfff]")
"""What the strict rule drops besides :func:`_is_invisible`: carriage returns, variation selectors
(plain and supplementary) and lone surrogates, none of which a reader needs."""


def strip_invisible(text: str, *, strict: bool = False) -> str:
    """``text`` without invisible, format, private-use, unassigned and control characters.

    ``strict`` is the rule for text that may leave the machine (the LLM digest): it also drops
    carriage returns, variation selectors and lone surrogates, which the form untrusted text is
    kept in (:func:`sanitize_untrusted`) leaves alone.
    """
    if text.isascii():
        keep = "\n\t" if strict else _ALLOWED_CONTROL
        return "".join(ch for ch in text if ch in keep or 32 <= ord(ch) != 127)
    cleaned = "".join(ch for ch in text if not _is_invisible(ch))
    return _STRICT_EXTRA.sub("", cleaned) if strict else cleaned


def sanitize_untrusted(text: str) -> str:
    """NFKC and strip invisible/format characters: the form untrusted text is kept in.

    Connectors and the pipeline may call this on item text so that hidden characters never
    reach a proposal; the writer-side check still refuses them should any slip through.
    """
    if not text:
        return text
    cleaned = strip_invisible(text)
    return cleaned if cleaned.isascii() else unicodedata.normalize("NFKC", cleaned)


def word_list(text: str) -> list[str]:
    """Lower-cased ``\\w+`` words of the NFKC form of ``text``."""
    return _WORD.findall(normalize(text).lower())


def word_windows(text: str, size: int) -> set[tuple[str, ...]]:
    """Every run of ``size`` consecutive words in ``text``."""
    words = word_list(text)
    return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}


def shared_run(text: str, others: Iterable[str], size: int) -> str | None:
    """The first run of ``size`` words of ``text`` that also occurs in one of ``others``."""
    mine = word_list(text)
    if len(mine) < size:
        return None
    theirs: set[tuple[str, ...]] = set()
    for other in others:
        theirs |= word_windows(other, size)
    if not theirs:
        return None
    for i in range(len(mine) - size + 1):
        window = tuple(mine[i:i + size])
        if window in theirs:
            return " ".join(window)
    return None
