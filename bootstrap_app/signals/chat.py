"""Chat channels the owner is active in, versus channels where the owner only reads.

Per channel the analyzer counts messages per user (keys only) and keeps one pointer to the
newest message of each user; the owner's share is decided at the end. A channel is *active*
when the owner wrote at least 5 messages there and at least 5% of the channel's messages (or
a tenth of all the owner's chat); a channel where the owner wrote at most one message is
*lurked*.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import ChatMessage, Item

from .analyzer import Analyzer
from .base import Ref, person_key

__all__ = ["ChannelFacts", "ChatAccumulator", "ChatSignal"]

_SYSTEM_SUBTYPES = {"channel_join", "channel_leave", "bot_message", "channel_topic", "channel_purpose",
                    "channel_name", "pinned_item", "tombstone"}


@dataclass(frozen=True)
class ChannelFacts:
    workspace: str
    channel: str
    total: int
    owner: int
    share: float
    people: int
    refs: tuple[Ref, ...] = ()


@dataclass(frozen=True)
class ChatSignal:
    active: tuple[ChannelFacts, ...] = ()
    lurking: tuple[ChannelFacts, ...] = ()
    owner_messages: int = 0


@dataclass
class ChatAccumulator(Analyzer):
    signal = "chat"
    consumes = frozenset({"chatmessage"})

    counts: defaultdict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    latest: dict[tuple[str, str, str], Ref] = field(default_factory=dict)

    def observe(self, item: Item) -> None:
        if not isinstance(item, ChatMessage) or item.subtype in _SYSTEM_SUBTYPES:
            return
        key = person_key(item.user)
        if not key or not item.channel:
            return
        chan = (item.workspace, item.channel)
        self.counts[chan][key] += 1
        slot = (*chan, key)
        prev = self.latest.get(slot)
        if prev is None or (item.timestamp and (prev.date is None or item.timestamp > prev.date)):
            when = item.timestamp.date().isoformat() if item.timestamp else "undated"
            self.latest[slot] = Ref(item.source, item.ref, item.timestamp, key,
                                    f"message in #{item.channel}, {when}")

    def result(self, owner: OwnerIdentity) -> ChatSignal:
        facts: list[ChannelFacts] = []
        owner_total = 0
        for (ws, chan), users in self.counts.items():
            mine_keys = [k for k in users if owner.is_owner_address(k)]
            mine = sum(users[k] for k in mine_keys)
            owner_total += mine
            total = sum(users.values())
            refs = tuple(self.latest[(ws, chan, k)] for k in mine_keys if (ws, chan, k) in self.latest)
            facts.append(ChannelFacts(ws, chan, total, mine, mine / total if total else 0.0, len(users), refs))
        active = [f for f in facts if f.owner >= 5 and (f.share >= 0.05 or f.owner >= 0.1 * max(owner_total, 1))]
        active.sort(key=lambda f: (-f.owner, f.channel))
        lurking = sorted((f for f in facts if f.owner <= 1 and f.total >= 5), key=lambda f: (-f.total, f.channel))
        return ChatSignal(tuple(active), tuple(lurking), owner_total)
