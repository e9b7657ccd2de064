"""Text hygiene for anything that may leave the machine: NFKC, invisible characters, secrets,
phone and card numbers, quoted replies, and delimiter look-alikes.

Why separate from :mod:`.digest`: the same cleaning runs on the way in (digest blocks, signals)
and on the way out (every field of an LLM proposal), so it must be one function with one
definition of "clean", testable on its own.
"""

from __future__ import annotations

import re
import unicodedata

import phonenumbers

from bootstrap_app.text.secrets import redact_secrets

__all__ = ["clean_text", "is_forward", "neutralise", "strip_quoted"]

_INVISIBLE_EXTRA = re.compile("[\u180e\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
_PHONE_REGIONS = ("US", "GB", "DE")
_HIDDEN_CATEGORIES = frozenset(("Cf", "Cc", "Co", "Cs", "Cn"))
_BLANKS = re.compile(r"\n{3,}")
_FORGED_ID = re.compile(r"\[(E\d+)\]")
_HEADERS = ("Return-Path|Received|Message-ID|From|Sent|Date|To|Subject|Subj|cc|bcc|Reply-To|MIME-Version"
            "|Content-Type|Content-Transfer-Encoding")
_QUOTE_CUTS = [
    re.compile(r"^On\b[^\n]{0,300}(?:\n[^\n]{0,300})?\bwrote:[ \t]*$", re.M),
    re.compile(r"^-{2,}\s*Original Message\s*-{2,}", re.M | re.I),
    re.compile(r"^-{2,}\s*Forwarded message\s*-{2,}", re.M | re.I),
    re.compile(r"^Begin forwarded message:", re.M | re.I),
    re.compile(r"^_{10,}\s*$\n^From:", re.M),
    re.compile(r"^From:[^\n]*\n(?:[^\n]*\n)?Sent:", re.M),
    re.compile(r"^--[ \t]?$", re.M),  # signature separator (RFC 3676 "-- ", often trimmed to "--")
    re.compile(r"^[ \t]*-{3,}[ \t]*Forwarded by\b", re.M | re.I),  # Lotus Notes forwards
    re.compile(r"^[^\n]{1,200}\bon \d{1,2}/\d{1,2}/\d{2,4}[^\n]*\n[ \t]*To:", re.M),  # Lotus Notes replies
    # an embedded message: two header lines within four lines (raw forwards, Outlook/Lotus headers)
    re.compile(rf"^(?:{_HEADERS})[ \t]*:[^\n]*\n(?:[^\n]*\n){{0,3}}?(?:{_HEADERS})[ \t]*:", re.M | re.I),
]
_FORWARD_SUBJECT = re.compile(r"^\s*(?:fwd?|fw)\s*:", re.I)


def is_forward(subject: str) -> bool:
    """A forwarded mail's subject is the original sender's words, not the owner's."""
    return bool(_FORWARD_SUBJECT.match(subject))


def clean_text(text: str) -> str:
    """NFKC, drop invisible/format/unassigned characters and stray controls, redact secrets, phone and
    card numbers, tidy blank lines.

    Invisible characters are removed both before and after NFKC, because folding can turn one
    form into another. The set is that of ``bootstrap_app.text.unicode`` (Hermes list, tags, Cf, Co,
    Cn, controls) plus surrogates and variation selectors, which ``sanitize_untrusted`` keeps: text
    that may leave the machine is held to the stricter rule, so that function is not called here.
    """
    text = _strip_invisible((text or "").replace("\r\n", "\n").replace("\r", "\n"))
    text = _strip_invisible(unicodedata.normalize("NFKC", text))  # judged before and after folding
    text = _redact_personal(redact_secrets(text))
    return _BLANKS.sub("\n\n", text).strip()


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _redact_personal(text: str) -> str:
    """Phone numbers (libphonenumber, valid numbers only) and card numbers (Luhn) -> typed placeholders.

    Personal data is not needed to learn how someone works, and the digest may leave the machine.
    """
    if sum(ch.isdigit() for ch in text) < 7:
        return text
    spans: list[tuple[int, int, str]] = []
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            spans.append((match.start(), match.end(), "[REDACTED:card]"))
    for region in _PHONE_REGIONS:
        for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            spans.append((m.start, m.end, "[REDACTED:phone]"))
    out, pos = [], 0
    for start, end, placeholder in sorted(spans):
        if start < pos:
            continue
        out += [text[pos:start], placeholder]
        pos = end
    return "".join(out) + text[pos:]


def _strip_invisible(text: str) -> str:
    if text.isascii():
        return "".join(ch for ch in text if ch in "\n\t" or 32 <= ord(ch) != 127)
    text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in _HIDDEN_CATEGORIES)
    return _INVISIBLE_EXTRA.sub("", text)


def neutralise(text: str) -> str:
    """Make sure data cannot forge a delimiter or an evidence header."""
    return _FORGED_ID.sub(r"(\1)", text.replace("<<<", "‹‹‹").replace(">>>", "›››"))


def strip_quoted(body: str) -> str:
    """The owner's own words of a sent mail: quoted replies, forwards and the signature removed.

    Quoted text is third-party content even inside the owner's sent mail.
    """
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    cut = len(body)
    for pattern in _QUOTE_CUTS:
        match = pattern.search(body)
        if match:
            cut = min(cut, match.start())
    lines = [line for line in body[:cut].splitlines() if not line.lstrip().startswith(">")]
    return "\n".join(lines).strip()
