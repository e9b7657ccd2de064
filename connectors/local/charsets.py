"""Text of mail parts whose charset is legacy, missing or wrong.

Why: the declared charset of real mail is often a lie. Old clients label UTF-8 as
``iso-8859-1`` (and the text then reads ``FrÃ¼hstÃ¼ck``), send 8-bit text with no charset at
all, or name a charset Python does not know. Decoding strictly with the declared charset
first keeps well-labelled mail exact and fast; only when that fails, or the label is a
single-byte Western one over bytes that are valid UTF-8, does ``charset-normalizer`` (a
maintained detector) pick the encoding. The last resort is cp1252 with replacement, which
never fails.
"""

from __future__ import annotations

import codecs

__all__ = ["decode_text"]

_ASCII_ALIASES = frozenset({"us-ascii", "ascii", "unknown-8bit", "x-unknown", "default", "unknown", ""})
_SINGLE_BYTE_WESTERN = frozenset({"iso8859-1", "latin-1", "cp1252", "iso8859-15", "ascii"})
_DETECT_CAP = 64 * 1024
_MAIL_CHARSETS = ("cp1252", "iso8859_15", "iso8859_2", "cp1250", "cp1251", "koi8_r", "koi8_u", "iso8859_5",
                  "iso8859_7", "cp1253", "iso8859_9", "cp1254", "iso8859_8", "cp1255", "cp1256", "cp1257",
                  "gb18030", "big5", "shift_jis", "euc_jp", "iso2022_jp", "euc_kr", "cp949", "cp874", "cp1258")
"""Where detection looks: the legacy charsets mail is written in. Left open, the detector
names rare code pages (``shift_jis_2004`` for Russian KOI8-R) on short texts."""


def _codec(label: str) -> str:
    """Python's codec name for a charset label, or ``""`` when unknown or not a text charset.

    The label is untrusted: ``base64``, ``zlib`` or ``rot13`` are Python codecs but not text
    encodings (``bytes.decode`` raises LookupError), and ``undefined`` raises on every input."""
    try:
        name = codecs.lookup(label).name
        "x".encode(name).decode(name)  # bytes <-> str both ways: a text encoding that works
    except (LookupError, ValueError, UnicodeError, TypeError):
        return ""
    return name


def _guess(data: bytes) -> str:
    """The encoding charset-normalizer finds most plausible, or ``""``."""
    from charset_normalizer import from_bytes  # here: ~12 ms of start-up only mislabelled mail needs

    try:
        best = from_bytes(data[:_DETECT_CAP], cp_isolation=list(_MAIL_CHARSETS)).best()
    except Exception:  # the detector must never break a read
        return ""
    return best.encoding if best is not None else ""


def decode_text(data: bytes, declared: str | None) -> str:
    """``data`` as text, honouring ``declared`` when it fits the bytes."""
    label = (declared or "").strip().strip('"').strip("'").lower()
    codec = "" if label in _ASCII_ALIASES else _codec(label)
    if codec and codec not in _SINGLE_BYTE_WESTERN:
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            pass
    try:  # UTF-8 is self-checking: bytes that decode are almost surely UTF-8, whatever the label
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if codec in _SINGLE_BYTE_WESTERN:
        return data.decode("cp1252" if codec in ("iso8859-1", "latin-1", "ascii") else codec, errors="replace")
    guess = _guess(data)
    if guess:
        try:
            return data.decode(guess)
        except (UnicodeDecodeError, LookupError):
            pass
    return data.decode(codec or "cp1252", errors="replace")
