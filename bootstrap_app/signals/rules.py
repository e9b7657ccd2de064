"""Working rules the owner states in their own words ("never push to main", "please squash").

Only text the owner wrote is looked at: items a connector already marked as the owner's (a
Takeout "Sent" label) or sent from an address given with ``--owner`` — and never a message that
arrived from outside, failed authentication or sits in the inbox, whatever its From says
(``Message.third_party_reason``). A rule that is a dangerous step (``curl … | sh``, ``--no-verify``
…, see :mod:`bootstrap_app.safety.dangerous`) is held back even when the owner wrote it, so the
owner's other rules still reach the person instead of being quarantined along with it; the LLM
path and the gate quarantine such a step on their own. Third-party mail is not
read here at all, so no third-party sentence is ever held. The sentences kept are short (at
most 200 characters), about how code changes are made, and quoted verbatim as the owner's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.safety.dangerous import find_dangerous
from bootstrap_app.safety.gate import Quarantined
from bootstrap_app.types import ChatMessage, Item, Message

from .analyzer import Analyzer
from .base import Ref, person_key
from .textfacts import find_rules, mail_text

__all__ = ["Rule", "RulesAccumulator", "find_rules"]

_MAX = 12


@dataclass(frozen=True)
class Rule:
    text: str
    ref: Ref


@dataclass
class RulesAccumulator(Analyzer):
    signal = "rules"
    consumes = frozenset({"message", "chatmessage"})

    found: dict[str, tuple[str, Ref]] = field(default_factory=dict)
    held_back: list[tuple[str, str, Ref]] = field(default_factory=list)
    """(dangerous class, sentence, where) of rules never proposed (see the module docstring)."""

    def observe(self, item: Item) -> None:
        if len(self.found) >= _MAX:
            return
        if isinstance(item, Message):
            if item.third_party_reason or item.subject.lower().startswith(("fw", "fwd")):
                return  # a forward carries someone else's words; a received copy is not the owner's
            key, where = person_key(item.sender), "mail"
        elif isinstance(item, ChatMessage):
            key, where = person_key(item.user), f"#{item.channel}"
        else:
            return
        sent = isinstance(item, Message) and item.in_sent
        # the owner may be given as a Slack id, handle or name while chat keys people by e-mail:
        # every form a chat message carries of its author counts (the same result for each form)
        forms = {key} if isinstance(item, Message) else {key, item.user.name.lower(),
                                                         *(p.address for p in item.people)}
        if not (item.authored_by_owner is True or sent or forms & self.known_owners):
            return
        # the body only now: a mail reader may decode it on first use (connectors.local.lazybody)
        # (mail: worked out where the message was read, see .textfacts)
        found = mail_text(item).rules if isinstance(item, Message) else find_rules(cast(ChatMessage, item).text)
        for sentence in found:
            norm = sentence.lower().rstrip(".!")
            if norm not in self.found and len(self.found) < _MAX:
                when = item.timestamp.date().isoformat() if item.timestamp else "undated"
                ref = Ref(item.source, item.ref, item.timestamp, key, f"{where}, {when}: {sentence}"[:200])
                danger = find_dangerous(sentence)
                if danger:
                    if len(self.held_back) < _MAX:
                        self.held_back.append((danger[0].cls, sentence, ref))
                    continue
                self.found[norm] = (sentence, ref)

    def held_back_records(self, owner: OwnerIdentity) -> list[Quarantined]:
        """Quarantine records (``dangerous:<class>``) for the owner's rules that were held back."""
        return [Quarantined(f"dangerous:{cls}", ref.source, ref.ref, sentence[:200], "working-rules")
                for cls, sentence, ref in self.held_back if owner.is_owner_address(ref.author)]

    def result(self, owner: OwnerIdentity) -> tuple[Rule, ...]:
        return tuple(Rule(text, ref) for text, ref in self.found.values() if owner.is_owner_address(ref.author))
