"""Phone and card numbers in free text: what the redaction hides and the PII flag marks.

Why a rule of its own: text that may leave the machine is full of numbers that are *not*
personal — log timestamps (``01:24:35.123456 exec.cpp:134]``), decimals and coordinates
(``-15.1666667``), benchmark figures, versions, issue and message ids. A validity check alone
(``phonenumbers``' VALID leniency, the Luhn sum) accepts about one digit run in ten, so a
redactor that trusts it eats the digits a reader needs. A number is personal only when it
*stands on its own* (no digit, letter, decimal point, time colon, path or id character glued to
either end) and, for a phone, when it is *written like one*: a leading ``+`` or ``(``, digit
groups split by spaces, dashes, dots or brackets, or a phone word just before it ("tel",
"mobile", "call me on", …). A card must pass Luhn, have a card length (13–19 digits), start with
a card network's digit (2–6: Mastercard, Visa, Amex, Discover, JCB, UnionPay, Maestro) and be
written as one run or in the printed groups of four (Amex/Diners 4-6-5 / 4-6-4).
"""

from __future__ import annotations

import re

__all__ = ["PHONE_REGIONS", "card_spans", "phone_spans"]

PHONE_REGIONS = ("US", "GB", "DE")
"""Regions a number without a ``+`` prefix is tried in (a ``+`` number carries its own)."""

_CARD = re.compile(r"\d{13,19}|\d{4}(?P<sep>[ -])\d{4,6}(?:(?P=sep)\d{4,5}){1,2}(?:(?P=sep)\d{1,4})?")
_GLUE = frozenset(".,:/-+")
"""Characters that join a number to a neighbouring digit run: a decimal, a time, a date, a range."""
_ID_MARK = frozenset("#@/\\=_$%&[")
"""Characters that make the number part of an identifier, a path, a handle or a parameter."""
_PHONE_WORD = re.compile(
    r"(?i)(?:\b(?:tel|tél|telephone|téléphone|telefon|teléfono|telefone|telefono|phone|ph|mobile|mob|cell"
    r"|cellphone|fax|call|ring|text|sms|whatsapp|signal|handy|mobil|portable|móvil|celular|cellulare"
    r"|contact|reach|dial|number|nr|no|numéro|nummer|hotline|direct|office|home|work)\b\.?|[☎📞📱✆])"
    r"[^\d\n]{0,24}$")
_SEPARATED = re.compile(r"\d[\s().\-/]+\d")


def _alone(text: str, start: int, end: int) -> bool:
    """No digit run, word, sign, decimal point, time colon or id character glued to either end."""
    if start > 0:
        before = text[start - 1]
        if before.isalnum() or before in _ID_MARK or before in "-+":
            return False
        if before in _GLUE and start > 1 and text[start - 2].isdigit():
            return False
    if end < len(text):
        after = text[end]
        if after.isalnum() or after in "_@":
            return False
        if after in _GLUE and end + 1 < len(text) and text[end + 1].isalnum():
            return False
    return True


def _written_like_a_phone(text: str, start: int, raw: str) -> bool:
    """A ``+`` or ``(`` prefix, separated digit groups (not one decimal point), or a phone word before."""
    raw = raw.strip()
    if re.fullmatch(r"\d+[.,]\d+", raw.strip("[](){}+- ")):
        return False  # a decimal or a coordinate, whatever brackets or sign it stands in
    if raw.startswith(("+", "(")) or text[max(0, start - 4):start].lower().endswith("tel:"):
        return True
    if _SEPARATED.search(raw):
        return True
    return bool(_PHONE_WORD.search(text[max(0, start - 60):start]))


def phone_spans(text: str, regions: tuple[str, ...] = PHONE_REGIONS) -> list[tuple[int, int]]:
    """(start, end) of every phone number: valid for ``phonenumbers`` (its own ``+`` region, else
    one of ``regions``), standing on its own, and written like a phone number."""
    if sum(ch.isdigit() for ch in text) < 7:
        return []
    import phonenumbers  # here, not at the top: ~20 ms of start-up that only digit-rich text needs

    spans: set[tuple[int, int]] = set()
    for region in regions:
        for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            if sum(ch.isdigit() for ch in m.raw_string) < 7:
                continue
            if _alone(text, m.start, m.end) and _written_like_a_phone(text, m.start, m.raw_string):
                spans.add((m.start, m.end))
    return sorted(spans)


def _luhn(digits: list[int]) -> bool:
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d * 2 > 9 else d * 2) for i, d in enumerate(reversed(digits)))
    return total % 10 == 0


def card_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every card number in ``text``: 13 to 19 digits in one run or in printed
    groups, standing on their own, starting with a card network's digit, passing Luhn and not
    one digit repeated. The gate's PII flag and the redaction both use this one rule."""
    spans = []
    for match in _CARD.finditer(text):
        digits = [int(d) for d in match.group() if d.isdigit()]
        if not 13 <= len(digits) <= 19 or len(set(digits)) == 1 or not 2 <= digits[0] <= 6:
            continue
        if _alone(text, match.start(), match.end()) and _luhn(digits):
            spans.append((match.start(), match.end()))
    return spans
