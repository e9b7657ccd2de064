"""Personal-data flags: phone, home address, health, finance, family, government ids.

Why flags and not redaction: for a memory tool, personal facts are the payload. The design
(§6) is that a proposal touching such data is marked ``sensitive`` and left *unselected* in
review, so the person opts in rather than out. Detection is offline and checksum-backed where a
checksum exists (IBAN mod-97, card Luhn, US SSN validity rules), because a flag on every
number would teach people to ignore the flag. Phone and card numbers follow the redaction's
rule (:mod:`bootstrap_app.text.numbers`: valid, standing on their own, written like one), phone
numbers tried in US/GB/DE/FR when they carry no ``+`` prefix.
"""

from __future__ import annotations

import re

from bootstrap_app.text import card_spans, normalize
from bootstrap_app.text.numbers import phone_spans

__all__ = ["PII_KINDS", "pii_flags", "pii_kinds"]

PII_KINDS = ("phone", "address", "health", "finance", "family", "government-id")

_REGIONS = ("US", "GB", "DE", "FR")

_STREET_TYPES = (r"street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|place|pl|way"
                 r"|terrace|crescent|close|square|sq|parkway|pkwy|highway|hwy|circle|cir|strasse|straße|str"
                 r"|weg|gasse|allee|platz|rue|chemin|via|calle")
_ADDRESS = re.compile(
    rf"\b\d{{1,5}}[a-z]?\s+(?:[A-Z][\w'.-]*\s+){{1,4}}(?i:{_STREET_TYPES})\b\.?"
    r"|\b[A-Z][\w'.-]*(?:strasse|straße|str\.|weg|gasse|allee|platz)\s+\d{1,4}[a-z]?\b"
    r"|\b(?i:apt|apartment|flat)\.?\s*#?\s*\d+[a-z]?\b|\bSuite\s+#?\d+\b"
    r"|\bP\.?\s?O\.?\s+Box\s+\d+"
    r"|\b(?i:home|postal|mailing|street)\s+(?i:address)\b"
    r"|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b")                      # UK postcode
_US_ZIP_LINE = re.compile(r"\b[A-Z][a-z]+,?\s+(?:[A-Z]{2})\s+\d{5}(?:-\d{4})?\b")

_HEALTH = re.compile(
    r"\b(?:diagnos(?:is|ed|es)|illness|disease|cancer|tumou?r|chemo(?:therapy)?|diabet(?:es|ic)|asthma"
    r"|depress(?:ion|ed)|anxiety|adhd|autis(?:m|tic)|bipolar|ptsd|therap(?:y|ist)|psychiatri(?:st|c)"
    r"|medication|prescription|surgery|hospital(?:i[sz]ed)?|sick\s+leave|medical\s+leave|doctor'?s?\s+appointment"
    r"|pregnan(?:t|cy)|miscarriage|disabilit(?:y|ies)|hiv|covid(?:-19)?\s+positive|rehab|burn-?out"
    r"|mental\s+health|health\s+(?:issue|condition|problem)s?|allerg(?:y|ies|ic))\b", re.IGNORECASE)
_FINANCE = re.compile(
    r"\b(?:salary|salaries|wage|payroll|compensation|bonus|debt|loan|mortgage|overdraft|bankrupt(?:cy)?"
    r"|credit\s+score|net\s+worth|tax\s+return|income|owe[sd]?|in\s+arrears|account\s+number|routing\s+number"
    r"|sort\s+code|iban|bank\s+account|credit\s+card|pay\s*slip|stock\s+options|equity\s+grant)\b", re.IGNORECASE)
_FAMILY = re.compile(
    r"\b(?:wife|husband|spouse|girlfriend|boyfriend|fianc[eé]e?|divorc(?:e|ed|ing)|separat(?:ed|ion)"
    r"|custody|kids|daughters?|toddler|(?:my|our|his|her|their)\s+(?:kid|children|child|son|baby|newborn)"
    r"|pregnan(?:t|cy)|maternity|paternity"
    r"|parental\s+leave|my\s+(?:mom|mum|dad|mother|father|parents|sister|brother|grandmother|grandfather)"
    r"|funeral|passed\s+away|bereavement|wedding|marri(?:age|ed))\b", re.IGNORECASE)
_SSN = re.compile(r"\b(\d{3})[- ](\d{2})[- ](\d{4})\b")
_SSN_CONTEXT = re.compile(r"\b(?:ssn|social\s+security)\b[^\d\n]{0,20}(\d{9})\b", re.IGNORECASE)
_GOV_ID = re.compile(
    r"\b(?:passport|national\s+id|id\s+card|identity\s+card|driver'?s?\s+licen[cs]e|tax\s+id|tin|"
    r"nino|national\s+insurance|personalausweis|steuer-?id)\s*(?:no\.?|number|#|nr\.?)?\s*[:#]?\s*"
    r"[A-Z0-9][A-Z0-9 -]{5,}\b", re.IGNORECASE)
_UK_NINO = re.compile(r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")


def _iban_ok(raw: str) -> bool:
    s = raw.replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return int(digits) % 97 == 1


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    a = int(area)
    return not (a == 0 or a == 666 or a >= 900 or int(group) == 0 or int(serial) == 0)


_PHONE_HINT = re.compile(r"\+?\(?\d[\d\s().\-/]{5,}\d")


def _has_phone(text: str) -> bool:
    """A phone number by the redaction's own rule (:func:`~bootstrap_app.text.numbers.phone_spans`),
    tried in a few more regions; a cheap digit-run prefilter first."""
    if not any(sum(ch.isdigit() for ch in m.group(0)) >= 7 for m in _PHONE_HINT.finditer(text)):
        return False
    return bool(phone_spans(text, _REGIONS))


def pii_kinds(text: str) -> set[str]:
    """The kinds of personal data found in ``text`` (subset of :data:`PII_KINDS`)."""
    if not text:
        return set()
    norm = normalize(text)
    kinds: set[str] = set()
    if _has_phone(norm):
        kinds.add("phone")
    if _ADDRESS.search(norm) or _US_ZIP_LINE.search(norm):
        kinds.add("address")
    if _HEALTH.search(norm):
        kinds.add("health")
    if _FINANCE.search(norm) or any(_iban_ok(m.group(0)) for m in _IBAN.finditer(norm)) \
            or card_spans(norm):
        kinds.add("finance")
    if _FAMILY.search(norm):
        kinds.add("family")
    if (any(_ssn_ok(*m.groups()) for m in _SSN.finditer(norm))
            or any(_ssn_ok(v[:3], v[3:5], v[5:]) for v in (m.group(1) for m in _SSN_CONTEXT.finditer(norm)))
            or _GOV_ID.search(norm) or _UK_NINO.search(norm)):
        kinds.add("government-id")
    return kinds


def pii_flags(text: str) -> set[str]:
    """``{"sensitive", "sensitive:<kind>", ...}`` for every kind found; empty when none."""
    kinds = pii_kinds(text)
    if not kinds:
        return set()
    return {"sensitive", *(f"sensitive:{k}" for k in sorted(kinds))}
