"""The fast paths of the text parsers find exactly what the plain line-by-line reading finds.

Why: the signature, contact-block and working-rule parsers run on every message the owner
wrote, so they pass over what cannot match before their costly patterns (a line that neither
is nor follows a name line; a line starting in lower case; a text with no rule word). Each
skip rests on a claim about the patterns; these tests check the claim by running the plain
reading (:mod:`.textfacts_reference`, the code as it was) beside the fast one on real mail
(the Enron and notmuch corpora, clean skip when absent) and on generated awkward text:
leading separators, honorifics, the long s that IGNORECASE reads as an ``s``, lower-case
names, rule words split by tabs and line ends.
"""

from __future__ import annotations

import mailbox
import random
from collections.abc import Iterator

from bootstrap_app.signals import contact_blocks as cb
from bootstrap_app.signals import signature, textfacts
from bootstrap_app.text.mail import own_text
from tests.conftest import realdata_file

from . import textfacts_reference as ref

_HINTS = ("", "tidewater", "enron", "halvard")

_FRAGMENTS = (
    "Maya Okafor", "Dr. Theo Marrow", "ſir Ada Quist", "mr. Ben Ortiz", "maya okafor", "Élodie Durand",
    "Mr Theodore J. Marrow", "Ada", "Staff Engineer", "Managing Director", "Teamleiterin", "vp",
    "Senior Data Engineer", "product owner", "Halvard Corp.", "Tidewater Analytics", "Inc", "Research Group",
    "Payments", "Platform Team", "EDGAR Online", "tel: +1 555 0100", "www.example.com", "12 Quay Street",
    "notes review deploy", "Thanks", "we never push to main", "Please squash commits.", "NO force pushes",
    "do\tnot merge on Fridays", "you muſt rebase first", "no\nCI today", "Don't skip tests?", "no  merges",
    "Prof. Ada Quist", "MS Ada Quist", "dame Ada Quist", "mrs.Ada Quist", "Maya okafor", "Maya|Okafor Smith",
    "Drew Carey", "sir", "always run the tests!", "no\tforce-pushes", "nobody knows", "Hi John", "a@b.example",
    # a rule word across a sentence end, a letter whose lower case is longer (positions move), odd spaces
    "do\nnot push", "do.  not merge", "never.!? push to main", "always!\t\nmerge", "must?\u2028rebase",
    "İlker: never push to main", "İ" * 40, "no\u2028force pushes", "must.\n\nrebase",
)
_SEPARATORS = (" | ", ", ", " · ", "•", " - ", ",", ";", "|", " ", "\n", "\n\n", ". ")
_LEADS = ("", "", "", ",", "; ", "| ", "· ", "• ", "  ", "ſ", "- ")


def _awkward_texts(n: int = 3000) -> Iterator[str]:
    rng = random.Random(23)
    for _ in range(n):
        lines = []
        for _ in range(rng.randint(1, 12)):
            parts = rng.choices(_FRAGMENTS, k=rng.randint(1, 4))
            line = rng.choice(_LEADS) + rng.choice(_SEPARATORS).join(parts)
            lines.append(line.lower() if rng.random() < 0.1 else line)
        yield "\n".join(lines)


def _real_texts() -> Iterator[str]:
    """Every text/plain part of the real mailboxes, whole and cut to what its sender wrote."""
    paths = [realdata_file("email", "enron", "enron-kaminski-v-inbox.mbox"),
             realdata_file("email", "enron", "enron-germany-c-inbox.mbox"),
             realdata_file("email", "notmuch", "notmuch-list-2009-default-corpus.mbox"),
             realdata_file("email", "notmuch", "notmuch-lkml-corpus.mbox")]
    for path in paths:
        for message in mailbox.mbox(path):
            for part in message.walk():
                if part.get_content_type() == "text/plain":
                    raw = part.get_payload(decode=True)
                    if isinstance(raw, bytes):
                        text = raw.decode("utf-8", "replace")
                        yield text
                        yield own_text(text)


def _compare(texts: Iterator[str]) -> dict[str, int]:
    """Run both readings on every text; the number of non-empty answers per parser (so a test
    knows its inputs reached the matching paths, not just the skips)."""
    hits = {"block": 0, "contact": 0, "rule": 0, "name": 0}
    for text in texts:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        for line in lines:
            assert signature._is_name(line) == ref.is_name(line), line
            hits["name"] += ref.is_name(line)
        for hint in _HINTS:
            block = ref.find_block(lines, hint)
            assert signature._find_block(lines, hint) == block, (text, hint)
            blocks = ref.contact_blocks(text, hint)
            assert cb.contact_blocks(text, hint) == blocks, (text, hint)
            hits["block"] += block is not None
            hits["contact"] += bool(blocks)
        rules = ref.find_rules(text)
        assert textfacts.find_rules(text) == rules, text
        hits["rule"] += bool(rules)
    return hits


def test_fast_paths_equal_the_plain_reading_on_awkward_text() -> None:
    hits = _compare(_awkward_texts())
    assert min(hits.values()) > 100, hits  # the generated text reaches every matching path


def test_fast_paths_equal_the_plain_reading_on_real_mail() -> None:
    hits = _compare(_real_texts())
    assert hits["block"] > 20 and hits["contact"] > 20 and hits["name"] > 100, hits


def test_fast_path_claims_on_single_lines() -> None:
    # the long s starts an honorific under IGNORECASE, so its line may still hold a name
    assert cb.contact_blocks("ſir Ada Quist\nStaff Engineer\nHalvard Corp.") == \
        ref.contact_blocks("ſir Ada Quist\nStaff Engineer\nHalvard Corp.")
    assert textfacts.find_rules("You muſt rebase before merging.") == ["You muſt rebase before merging."]
    assert textfacts.find_rules("Do\tnot push to main") == ["Do not push to main"]
    # a name after a leading separator still leads its line
    assert signature._find_block(["| Maya Okafor | Staff Engineer"], "") == (0, "Maya Okafor", "Staff Engineer")
