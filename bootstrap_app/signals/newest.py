"""Which mail bodies an analysis reads: every message not judged received, and each received
sender's newest few.

Why a module of its own: two places must agree on it exactly. The profile
(:class:`~bootstrap_app.signals.profile.ProfileAccumulator`) reads those bodies; the item cache
(:mod:`bootstrap_app.cache.snapshots`) keeps them as text so that a re-analysis after an identity
correction opens no mailbox. Each kept its own copy of "a sender's newest" (a heap per sender,
bounded in senders, ordered by time and then arrival) — two copies that could drift apart and make
the cache keep the wrong bodies. Both now ask :func:`body_demand` and hold a :class:`NewestPerSender`.
"""

from __future__ import annotations

import heapq
from typing import Generic, TypeVar

from bootstrap_app.types import Message

from .base import person_key

__all__ = ["BODY_ALWAYS", "BODY_NEVER", "BODY_NEWEST", "MAX_DEFERRED_SENDERS", "NEWEST_PER_SENDER",
           "NewestPerSender", "body_demand"]

T = TypeVar("T")

NEWEST_PER_SENDER = 5
"""Received messages per sender whose text (signature, contact blocks) is read."""
MAX_DEFERRED_SENDERS = 5_000
"""Senders of received mail whose newest messages are held at most; a later sender's are read at once."""

BODY_NEVER, BODY_NEWEST, BODY_ALWAYS = 0, 1, 2


def body_demand(item: Message) -> int:
    """Whether any analysis, whoever the owner turns out to be, can read ``item``'s body.

    :data:`BODY_ALWAYS`: a message not judged received — the profile reads it (not bulk), the
    working rules read it when its sender is the owner, which any correction of who the owner is
    can make true, and so does the LLM sample. :data:`BODY_NEWEST`: received mail from someone,
    not bulk — read when among its sender's :data:`NEWEST_PER_SENDER` newest (:class:`NewestPerSender`).
    :data:`BODY_NEVER`: received bulk mail, or mail from nobody. None of it depends on the owner:
    headers decide, so the item cache (:mod:`bootstrap_app.cache.snapshots`) keeps exactly the
    bodies a re-analysis after an identity correction can ask for, and opens no mailbox for them.
    """
    if not item.third_party_reason:
        return BODY_ALWAYS
    if item.is_bulk or not person_key(item.sender):
        return BODY_NEVER
    return BODY_NEWEST


class NewestPerSender(Generic[T]):
    """Each sender's :data:`NEWEST_PER_SENDER` newest values (by time, then by arrival: an undated
    one, time ``-inf``, is the oldest), for at most :data:`MAX_DEFERRED_SENDERS` senders."""

    def __init__(self) -> None:
        self.kept: dict[str, list[tuple[float, int, T]]] = {}
        self._seq = 0

    def offer(self, sender: str, when: float, value: T) -> tuple[bool, T | None]:
        """(held, dropped). ``held`` False: too many senders are held already, so ``value`` is not
        (the caller reads it at once). ``dropped``: the value that is no longer among its sender's
        newest — an older one, or ``value`` itself when it is older than all of them — else None."""
        kept = self.kept.get(sender)
        if kept is None:
            if len(self.kept) >= MAX_DEFERRED_SENDERS:
                return False, None
            kept = self.kept[sender] = []
        self._seq += 1
        entry = (when, self._seq, value)
        if len(kept) < NEWEST_PER_SENDER:
            heapq.heappush(kept, entry)
            return True, None
        return True, heapq.heappushpop(kept, entry)[2]

    def take(self) -> list[T]:
        """Every value held, in the order offered; none is held after."""
        entries = sorted((e for kept in self.kept.values() for e in kept), key=lambda e: e[1])
        self.kept.clear()
        return [e[2] for e in entries]
