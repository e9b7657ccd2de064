"""What the analyzers read in one message's text, worked out once and where the message is made.

Why: the profile (signature, contact blocks, "my manager is …") and the working rules read the
text of every message the owner wrote — on a large mailbox that was a third of the scanning
process's time, while the worker processes that parse the mailbox (``--jobs``, see
:mod:`connectors.local.mboxpool`) sat waiting for it. :func:`mail_text` computes the whole of
it from the message alone (its body, its sender's domain), so it can run in the worker that
made the message: :data:`PREPARE` is handed to the readers as ``ReadContext.prepare``; the
result travels back with the item (it is kept in the item's ``__dict__``, which pickles with
it) and the analyzers in the scanning process find it ready. On one process nothing changes
but the place: the analyzers call :func:`mail_text` and it computes on first use.

The facts are a pure function of the message, so a scan gives the same proposals whichever
process computed them. Only what the analyzers need is kept (never the text itself), so the
record is small to pickle.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from bootstrap_app.text.mail import own_text
from bootstrap_app.types import Item, Message

from .contact_blocks import FREE_MAIL, _psl, contact_blocks, domain_label
from .signature import MANAGER_MENTION, parse_signature

__all__ = ["PREPARE", "MailText", "MailTextPrep", "find_rules", "mail_text"]

_KEY = "_mail_text"
_MENTION_WORDS = ("manager", "boss", "supervisor", "report")
"""Every branch of :data:`~.signature.MANAGER_MENTION` holds one of these words (it is case-sensitive):
a text without any is not searched."""

# Sentences end at . ! ? followed by a space or the end, so "1.0", "v2.3" and "setup.py" stay
# whole; a rule keyword must sit within a few words of the action it governs ("we never rebase",
# "no force pushes"), so "we don't really know whether they have CI configured" is not a rule.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_SENTENCE_STOP = re.compile(r"[.!?](\s+)|\n+")
"""Where :data:`_SENTENCE_END` splits, as group 1 or the whole match: the same breaks (the mark
its look-behind reads is taken into the match instead, and is never whitespace), but with a
first character the regex engine can skip to, where the look-behind was tried at every
character of a long mail (``test_textfacts_fastpaths`` compares with the plain split)."""
_ACTION = (r"(?:push(?:es|ed|ing)?|force-push(?:es|ing)?|merg(?:e|es|ed|ing)|rebas(?:e|es|ed|ing)|squash(?:es|ed)?"
           r"|commit(?: messages?)?|pull requests?|PRs?|code review|reviews?|main|master|trunk|tests?|CI)")
_RULE = re.compile(
    rf"\b(?:never|always|don't|do not|please|must)\b(?:\W+\w+){{0,4}}?\W+{_ACTION}\b"
    rf"|\bno\s+(?:[\w-]+\s+){{0,2}}{_ACTION}\b", re.I)


_RULE_WORD = re.compile(r"never|alway[sſ]|don't|do\s+not|plea[sſ]e|mu[sſ]t|no\s")
"""A word every :data:`_RULE` match holds, searched in the lower-cased text (and sentence): one
plain pass instead of splitting prose that states no rule into sentences, and instead of the
costly rule pattern on each sentence. (``ſ``: IGNORECASE reads the long s as an ``s``;
``str.lower`` keeps it.)"""


def find_rules(text: str) -> list[str]:
    """Rule-like sentences about how changes are made, from text the owner wrote."""
    lowered = text.lower()
    if not _RULE_WORD.search(lowered):
        return []
    if len(lowered) != len(text):  # lower-casing moved the positions (``İ``): every sentence is read
        return _rules_in(_SENTENCE_END.split(text))
    return _rules_in(_worded_sentences(text, lowered))


def _worded_sentences(text: str, lowered: str) -> list[str]:
    """The sentences (:data:`_SENTENCE_END` parts, cut at :data:`_SENTENCE_STOP`) of ``text`` that a rule word touches.

    Why: a long mail is hundreds of sentences and nearly all hold no rule word; collapsing and
    lower-casing each to find out was most of :func:`find_rules`. A rule word a sentence holds
    (its whitespace collapsed: ``\\s`` and ``str.split`` agree on what is whitespace) is a match
    in the whole lower-cased text, or lies inside a match that began before it; so every part a
    match of the whole text touches, from its first character to its last, is a candidate, and
    :func:`_rules_in` asks each as before."""
    breaks = [m.span(m.lastindex or 0) for m in _SENTENCE_STOP.finditer(text)]
    stops = [*map(itemgetter(0), breaks), len(text)]
    starts = [0, *map(itemgetter(1), breaks)]
    touched: set[int] = set()
    for m in _RULE_WORD.finditer(lowered):
        first, last = bisect_right(starts, m.start()) - 1, bisect_right(starts, m.end() - 1) - 1
        touched.update(range(first, last + 1))
    return [text[starts[i]:stops[i]] for i in sorted(touched)]


def _rules_in(parts: list[str]) -> list[str]:
    out = []
    for part in parts:
        sentence = " ".join(part.split())
        if 8 <= len(sentence) <= 200 and not sentence.endswith("?") and _RULE_WORD.search(sentence.lower()) \
                and _RULE.search(sentence):
            out.append(sentence)
    return out


@dataclass(frozen=True, slots=True)
class MailText:
    """What one message's own text (above any quoted reply) states."""

    signature: dict[str, str]
    """:func:`~.signature.parse_signature` of the text: signer, title, team, org (empty: none)."""
    blocks: list[tuple[str, str, str]]
    """:func:`~.contact_blocks.contact_blocks`: (name key, title, organisation) per block."""
    managers: tuple[str, ...]
    """Names "my manager is …" mentions, in text order."""
    rules: tuple[str, ...]
    """:func:`find_rules`: rule-like sentences, in text order."""

    def __reduce__(self) -> tuple[type[MailText], tuple[Any, ...]]:
        """Pickled as its four values (it travels back from the worker with its message)."""
        return MailText, (self.signature, self.blocks, self.managers, self.rules)


def _compute(item: Message) -> MailText:
    text = own_text(item.body)
    hint = domain_label(item.sender.address) if item.sender.address else ""
    hint = "" if hint in FREE_MAIL else hint
    managers = tuple(next(g for g in m.groups() if g) for m in MANAGER_MENTION.finditer(text)
                     ) if any(word in text for word in _MENTION_WORDS) else ()
    return MailText(parse_signature(text, hint), contact_blocks(text, hint), managers, tuple(find_rules(text)))


def mail_text(item: Message) -> MailText:
    """The facts of ``item``'s text: the ones computed where it was read, else computed now (and kept)."""
    state = item.__dict__
    facts = state.get(_KEY)
    if not isinstance(facts, MailText):
        facts = state[_KEY] = _compute(item)  # the item is frozen; its memo is not one of its fields
    return facts


class MailTextPrep:
    """``ReadContext.prepare`` for mail: a picklable callable a reader runs on the items whose
    text the scan will read (the owner's own mail: not judged received), in its worker."""

    def setup(self) -> None:
        """Before workers start: load the public-suffix list once, so forked workers share it."""
        _psl()

    def __call__(self, item: Item) -> None:
        if isinstance(item, Message) and not item.is_bulk:
            mail_text(item)


PREPARE = MailTextPrep()
