"""Text hygiene for anything that may leave the machine: NFKC, invisible characters, secrets,
phone and card numbers, and delimiter look-alikes (quoted replies: :mod:`.mail`).

Why separate from :mod:`.digest`: the same cleaning runs on the way in (digest blocks, signals)
and on the way out (every field of an LLM proposal), so it must be one function with one
definition of "clean", testable on its own.
"""

from __future__ import annotations

import re
import unicodedata

from bootstrap_app.text.numbers import card_spans, phone_spans
from bootstrap_app.text.secrets import redact_secrets
from bootstrap_app.text.unicode import strip_invisible

__all__ = ["card_spans", "clean_text", "neutralise"]

_BLANKS = re.compile(r"\n{3,}")
_FORGED_ID = re.compile(r"\[(E\d+)\]")


def clean_text(text: str) -> str:
    """NFKC, drop invisible/format/unassigned characters and stray controls, redact secrets, phone and
    card numbers, tidy blank lines.

    Invisible characters are removed both before and after NFKC, because folding can turn one
    form into another, by :func:`~bootstrap_app.text.unicode.strip_invisible`'s strict rule (the
    Hermes list, tags, Cf, Co, Cn, controls, plus surrogates and variation selectors): text that
    may leave the machine is held to the stricter rule.
    """
    text = strip_invisible((text or "").replace("\r\n", "\n").replace("\r", "\n"), strict=True)
    text = strip_invisible(unicodedata.normalize("NFKC", text), strict=True)  # judged before and after folding
    text = _redact_personal(redact_secrets(text))
    return _BLANKS.sub("\n\n", text).strip()


def _redact_personal(text: str) -> str:
    """Phone and card numbers (:mod:`.numbers`: valid, standing on their own, written like one)
    -> typed placeholders.

    Personal data is not needed to learn how someone works, and the digest may leave the machine;
    the timestamps, decimals, versions and ids around them are, so they are left alone.
    """
    if sum(ch.isdigit() for ch in text) < 7:
        return text
    spans = [(start, end, "[REDACTED:card]") for start, end in card_spans(text)]
    spans += [(start, end, "[REDACTED:phone]") for start, end in phone_spans(text)]
    out, pos = [], 0
    for start, end, placeholder in sorted(spans):
        if start < pos:
            continue
        out += [text[pos:start], placeholder]
        pos = end
    return "".join(out) + text[pos:]


def neutralise(text: str) -> str:
    """Make sure data cannot forge a delimiter or an evidence header."""
    return _FORGED_ID.sub(r"(\1)", text.replace("<<<", "‹‹‹").replace(">>>", "›››"))
