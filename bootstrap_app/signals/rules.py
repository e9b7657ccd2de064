"""Working rules the owner states in their own words ("never push to main", "please squash").

Only text the owner wrote is looked at: items a connector already marked as the owner's (a
Takeout "Sent" label) or sent from an address given with ``--owner``. Third-party mail is not
read here at all, so no third-party sentence is ever held. The sentences kept are short (at
most 200 characters), about how code changes are made, and quoted verbatim as the owner's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bootstrap_app.identity import SENT_LABELS, OwnerIdentity
from bootstrap_app.text import own_text
from bootstrap_app.types import ChatMessage, Item, Message

from .analyzer import Analyzer
from .base import Ref, person_key

__all__ = ["Rule", "RulesAccumulator", "find_rules"]

_MAX = 12
# Sentences end at . ! ? followed by a space or the end, so "1.0", "v2.3" and "setup.py" stay
# whole; a rule keyword must sit within a few words of the action it governs ("we never rebase",
# "no force pushes"), so "we don't really know whether they have CI configured" is not a rule.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_ACTION = (r"(?:push(?:es|ed|ing)?|force-push(?:es|ing)?|merg(?:e|es|ed|ing)|rebas(?:e|es|ed|ing)|squash(?:es|ed)?"
           r"|commit(?: messages?)?|pull requests?|PRs?|code review|reviews?|main|master|trunk|tests?|CI)")
_RULE = re.compile(
    rf"\b(?:never|always|don't|do not|please|must)\b(?:\W+\w+){{0,4}}?\W+{_ACTION}\b"
    rf"|\bno\s+(?:[\w-]+\s+){{0,2}}{_ACTION}\b", re.I)


@dataclass(frozen=True)
class Rule:
    text: str
    ref: Ref


def find_rules(text: str) -> list[str]:
    """Rule-like sentences about how changes are made, from text the owner wrote."""
    out = []
    for part in _SENTENCE_END.split(text):
        sentence = " ".join(part.split())
        if 8 <= len(sentence) <= 200 and _RULE.search(sentence) and not sentence.endswith("?"):
            out.append(sentence)
    return out


@dataclass
class RulesAccumulator(Analyzer):
    signal = "rules"
    consumes = frozenset({"message", "chatmessage"})

    found: dict[str, tuple[str, Ref]] = field(default_factory=dict)

    def observe(self, item: Item) -> None:
        if len(self.found) >= _MAX:
            return
        if isinstance(item, Message):
            if item.subject.lower().startswith(("fw", "fwd")):
                return  # a forward carries someone else's words
            key, text, where = person_key(item.sender), own_text(item.body), "mail"
        elif isinstance(item, ChatMessage):
            key, text, where = person_key(item.user), item.text, f"#{item.channel}"
        else:
            return
        sent = isinstance(item, Message) and any(lab.strip().lower() in SENT_LABELS for lab in item.labels)
        if not (item.authored_by_owner is True or sent or key in self.known_owners):
            return
        for sentence in find_rules(text):
            norm = sentence.lower().rstrip(".!")
            if norm not in self.found and len(self.found) < _MAX:
                when = item.timestamp.date().isoformat() if item.timestamp else "undated"
                self.found[norm] = (sentence, Ref(item.source, item.ref, item.timestamp, key,
                                                  f"{where}, {when}: {sentence}"[:200]))

    def result(self, owner: OwnerIdentity) -> tuple[Rule, ...]:
        return tuple(Rule(text, ref) for text, ref in self.found.values() if owner.is_owner_address(ref.author))
