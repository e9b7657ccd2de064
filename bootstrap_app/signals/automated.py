"""Automated senders recognised by the *shape* of what they send: templated subjects.

Why: the header conventions (``List-*``, ``Precedence``, ``Auto-Submitted``,
``X-Auto-Response-Suppress``; see ``connectors/local/mailparse.is_bulk``) catch most machines,
but an in-house approval or ticket system often sends plain mail with none of them. What gives it
away is the subject: one skeleton ("Approval is overdue: access request for <address>",
"Ticket #<n> updated") filled with a different number, id or address each time, and never a
reply. A person writing to the owner repeats a subject only inside a thread ("Re: ..."), and
varies it in words, not in slots. So a sender is *templated* when most of their mail fills
skeletons whose slots took at least two different values, and none of it answers anything.
The caller adds the last condition: the owner never wrote to them.

Only skeletons, counts and a short hash per subject are kept (never the subject text).
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["SubjectShapes", "subject_skeleton"]

_PREFIX = re.compile(r"^(?:\s*(?:re|fw|fwd|aw|wg|sv|vs|tr|rv)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
_SLOTS = (
    (re.compile(r"\S+@\S+"), "<address>", re.compile("@")),
    (re.compile(r"https?://\S+"), "<url>", re.compile("://")),
    (re.compile(r"\b[0-9a-f]{8,}\b", re.I), "<id>", None),
    (re.compile(r"\S*\d\S*"), "<n>", re.compile(r"\d")),
)
"""(slot, its token, what every match holds): a subject without it is not rewritten. Most
subjects hold no address, link or digit, and the digit slot's pattern is the costly one (it
backtracks through every word)."""
_MIN_MAIL = 4
_SHARE = 0.5
_MAX_SHAPES = 64
"""Distinct skeletons kept per sender: a person's subjects are all different, and past this many
the sender is plainly not a template, so memory stays bounded on any mailbox."""


@lru_cache(maxsize=4096)
def subject_skeleton(subject: str) -> tuple[str, bool]:
    """(skeleton, whether a slot was filled): ``"Re: Ticket #4411 updated"`` -> ("ticket <n> updated", True).

    Memoized (a pure function of the text): a mailbox repeats its subjects (a thread's messages,
    a report sent every week), and each costs up to five regex passes."""
    text = _PREFIX.sub("", subject or "").strip().lower()
    slotted = False
    for pattern, token, needed in _SLOTS:
        if needed is None or needed.search(text):
            text, n = pattern.subn(token, text)
            slotted = slotted or n > 0
    return " ".join(text.split()), slotted


@dataclass
class _Shapes:
    mails: int = 0
    replies: int = 0
    skeletons: Counter[str] = field(default_factory=Counter)
    fills: dict[str, set[int]] = field(default_factory=dict)


@dataclass
class SubjectShapes:
    """Per sender: how their subjects are shaped, to tell a template from a person."""

    by_sender: dict[str, _Shapes] = field(default_factory=dict)

    def add(self, sender: str, subject: str, is_reply: bool) -> None:
        shapes = self.by_sender.get(sender)
        if shapes is None:  # not setdefault: that would build a _Shapes (and its two containers) per mail
            shapes = self.by_sender[sender] = _Shapes()
        shapes.mails += 1
        if is_reply:
            shapes.replies += 1
            return
        skeleton, slotted = subject_skeleton(subject)
        if not slotted:
            return
        if skeleton not in shapes.skeletons and len(shapes.skeletons) >= _MAX_SHAPES:
            return
        shapes.skeletons[skeleton] += 1
        fills = shapes.fills.setdefault(skeleton, set())
        if len(fills) < 3:
            fills.add(zlib.crc32(subject.encode("utf-8", "replace")))

    def templated(self, sender: str) -> str:
        """Why ``sender`` looks automated (``""`` when it does not): the evidence, with counts."""
        shapes = self.by_sender.get(sender)
        if shapes is None or shapes.mails < _MIN_MAIL or shapes.replies:
            return ""
        templated = sum(n for s, n in shapes.skeletons.items() if len(shapes.fills.get(s, ())) >= 2)
        if templated < _SHARE * shapes.mails:
            return ""
        return f"{templated} of {shapes.mails} subjects fill one template, none is a reply"
