"""The text parsers as they were before their fast paths: the reference the fast paths must equal.

Why a copy: :mod:`bootstrap_app.signals.signature`, ``.contact_blocks`` and ``.textfacts`` now
pass over lines and texts that cannot hold a match before running their costly patterns
(``test_textfacts_fastpaths``). The only proof that nothing was lost is to run the plain
line-by-line reading beside them on real and awkward text and get the same answer. These are the
plain readings, unchanged; they share the modules' patterns and helpers, which the fast paths
did not touch. Where a fast path is only a prefilter before the module's own loop, the reference is
that loop with the prefilter switched off rather than a second copy of it.
"""

from __future__ import annotations

from bootstrap_app.signals import contact_blocks as cb
from bootstrap_app.signals.contact_blocks import ROLE_WORDS
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
    """The module's own reading with its prefilter (``_may_start_name``) answering yes for every
    line: the plain reading, without a second copy of the code that the prefilter guards."""
    saved = cb._may_start_name
    cb._may_start_name = lambda line: True
    try:
        return cb.contact_blocks(text, hint)
    finally:
        cb._may_start_name = saved


def find_rules(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text):
        sentence = " ".join(part.split())
        if 8 <= len(sentence) <= 200 and _RULE.search(sentence) and not sentence.endswith("?"):
            out.append(sentence)
    return out
