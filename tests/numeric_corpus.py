"""Two corpora for the phone/card redaction, built at test time and never stored in the repository.

- :func:`real_numbers`: numeric strings that are *not* phone or card numbers, cut from real chat
  (the Slack exports), real calendar files and two real repositories (git bundles) in the shared
  real-data folder. A string qualifies by its shape alone: a number glued to a decimal point,
  a time colon, a version dot, a letter or an id character (``#``, ``/``, ``=``), or a bare run
  of seven or more digits; the line must carry no ``+`` before a digit and no phone word, so a
  real phone number written in the data is never taken. The snippet is the number with up to 40
  characters either side, as it would reach the redactor.
- :func:`phone_numbers`: real-format phone numbers of every region ``phonenumbers`` knows, from its
  own example numbers (fixed line and mobile), in international, E.164 and RFC 3966 forms, and
  national form for the regions the redactor tries, each in a few sentence contexts.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import phonenumbers

from bootstrap_app.text.numbers import PHONE_REGIONS

__all__ = ["phone_numbers", "real_numbers"]

_TOKEN = re.compile(r"[-+]?\d[\d.,:/_-]*\d|\d")
_PHONE_WORDS = re.compile(r"(?i)\b(?:tel|phone|mobile|cell|fax|call|sms|whatsapp|contact|dial)\w*|\+\s?\d|[☎📞📱]")
_REPO_BUNDLES = ("fmt", "htop")
_TEXT_SUFFIXES = {".c", ".h", ".cc", ".cpp", ".md", ".txt", ".rst", ".py", ".json", ".yml", ".yaml", ".cmake",
                  ".in", ".am", ".ac", ".sh", ""}


def _non_phone_shape(text: str, start: int, end: int) -> bool:
    token = text[start:end].lstrip("+-")
    digits = sum(ch.isdigit() for ch in token)
    if digits < 7:
        return False
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    glued = before.isalnum() or before in "#/=_.:" or after.isalnum() or after in "_"
    decimal = re.fullmatch(r"\d+\.\d+", token) is not None
    timed = ":" in token
    dotted = token.count(".") >= 2 and not re.fullmatch(r"\d{2,4}(?:\.\d{2,4}){2,3}", token)
    bare = token.isdigit()
    return glued or decimal or timed or dotted or bare


def _snippets(text: str) -> Iterator[tuple[str, str]]:
    for line in text.splitlines():
        if len(line) > 4000 or _PHONE_WORDS.search(line):
            continue
        for m in _TOKEN.finditer(line):
            if _non_phone_shape(line, m.start(), m.end()):
                yield m.group(0), line[max(0, m.start() - 40):m.end() + 40]


def _slack_texts(root: Path) -> Iterator[str]:
    for path in sorted(root.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for message in data if isinstance(data, list) else []:
            if isinstance(message, dict) and isinstance(message.get("text"), str):
                yield message["text"]


def _repo_texts(bundle: Path, workdir: Path) -> Iterator[str]:
    checkout = workdir / bundle.stem
    if not checkout.exists():
        subprocess.run(["git", "clone", "-q", str(bundle), str(checkout)], check=True, capture_output=True)
    for path in sorted(checkout.rglob("*")):
        if ".git" in path.parts or not path.is_file() or path.suffix.lower() not in _TEXT_SUFFIXES:
            continue
        if path.stat().st_size > 2_000_000:
            continue
        yield path.read_text(encoding="utf-8", errors="replace")


def real_numbers(realdata: Path, workdir: Path) -> dict[str, list[str]]:
    """{origin: [snippet, ...]}: one snippet per distinct number, per origin (chat, calendar, repos)."""
    origins: dict[str, Iterator[str]] = {
        "chat": _slack_texts(realdata / "slack"),
        "calendar": (p.read_text(encoding="utf-8", errors="replace") for p in sorted((realdata / "ics").rglob("*.ics"))),
        "repos": (t for name in _REPO_BUNDLES for t in _repo_texts(realdata / "repos" / f"{name}.bundle", workdir)),
    }
    out: dict[str, list[str]] = {}
    for origin, texts in origins.items():
        seen: dict[str, str] = {}
        for text in texts:
            for token, snippet in _snippets(text):
                seen.setdefault(token, snippet)
        out[origin] = list(seen.values())
    return out


def phone_numbers() -> list[tuple[str, str, str]]:
    """(region, written form, sentence) for every example number, form and context."""
    out = []
    kinds = (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE)
    forms = {"international": phonenumbers.PhoneNumberFormat.INTERNATIONAL,
             "e164": phonenumbers.PhoneNumberFormat.E164, "rfc3966": phonenumbers.PhoneNumberFormat.RFC3966,
             "national": phonenumbers.PhoneNumberFormat.NATIONAL}
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in kinds:
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None or not phonenumbers.is_valid_number(number):
                continue
            for form, code in forms.items():
                if form == "national" and region not in PHONE_REGIONS:
                    continue  # a national number is only a number in a known region
                written = phonenumbers.format_number(number, code)
                for sentence in (f"Call me on {written} after six.", f"Tel: {written}", f"mobile {written}",
                                 f"You can reach the office at {written}."):
                    out.append((region, written, sentence))
    return out
