"""The text parsers as they were before their fast paths: the reference the fast paths must equal.

Why a copy: :mod:`bootstrap_app.signals.signature`, ``.contact_blocks`` and ``.textfacts`` now
pass over lines and texts that cannot hold a match before running their costly patterns
(``test_textfacts_fastpaths``). The only proof that nothing was lost is to run the plain
line-by-line reading beside them on real and awkward text and get the same answer. These are the
plain readings, unchanged; they share the modules' patterns and helpers, which the fast paths
did not touch.
"""

from __future__ import annotations

import re

from bootstrap_app.identity import name_key
from bootstrap_app.signals.contact_blocks import _NAME, _NOISE, _ORG, ROLE_WORDS, _clean_name, _org_part
from bootstrap_app.signals.signature import (
    _NAME_LINE,
    _ORG_WORDS,
    _SKIP_LINE,
    _TEAM_WORDS,
    _is_org,
    _is_team,
    _parts,
    _title_in,
)
from bootstrap_app.signals.textfacts import _RULE, _SENTENCE_END


def is_name(text: str) -> bool:
    words = text.split()
    return bool(_NAME_LINE.match(text)) and all(w[0].isupper() for w in words) and not ROLE_WORDS.search(text) \
        and not _TEAM_WORDS.search(text) and not _ORG_WORDS.search(text)


def find_block(lines: list[str], hint: str) -> tuple[int, str, str] | None:
    found = None
    bare = None
    for i, line in enumerate(lines):
        if len(line) > 120 or _SKIP_LINE.search(line):
            continue
        parts = _parts(line)
        if len(parts) >= 2 and is_name(parts[0]) and (title := _title_in(parts[1:])):
            found = (i, parts[0], title)
        elif (title := _title_in(parts)) and i and is_name(lines[i - 1]):
            found = (i, lines[i - 1], title)
        elif i and is_name(lines[i - 1]) and any(_is_org(p, hint) or _is_team(p) for p in parts):
            bare = (i, lines[i - 1], "")
    return found or bare


def contact_blocks(text: str, hint: str = "") -> list[tuple[str, str, str]]:
    lines = [ln.strip() for ln in text.splitlines()]
    out: list[tuple[str, str, str]] = []
    for i, line in enumerate(lines):
        if not line or len(line) > 100:
            continue
        parts = [p.strip() for p in re.split(r"\s*,\s*|\s+[|·•]\s+", line) if p.strip()]
        if len(parts) >= 2 and _NAME.match(_clean_name(parts[0])) and not ROLE_WORDS.search(parts[0]):
            title = parts[1] if ROLE_WORDS.search(parts[1]) and len(parts[1].split()) <= 7 and not _NOISE.search(parts[1]) \
                else ""
            if title:
                org = next((p for p in parts[2:] if _org_part(p, hint)), "")
                if key := name_key(_clean_name(parts[0])):
                    out.append((key, title, org))
                continue
        name = _clean_name(line)
        if not _NAME.match(name) or ROLE_WORDS.search(name) or _ORG.search(name) or i + 1 >= len(lines):
            continue
        title = lines[i + 1]
        if not title or len(title.split()) > 8 or not ROLE_WORDS.search(title) or _NOISE.search(title):
            continue
        org = next((ln for ln in lines[i + 2:i + 4] if ln and _org_part(ln, hint)), "")
        if key := name_key(name):
            out.append((key, title.rstrip(" ,."), org.rstrip(" ,")))
    return out


def find_rules(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text):
        sentence = " ".join(part.split())
        if 8 <= len(sentence) <= 200 and _RULE.search(sentence) and not sentence.endswith("?"):
            out.append(sentence)
    return out
