"""An independent reading of a real mailbox, to judge what memseed found in it.

Why: the real-data tests must not type the corpus's people into the repository (their names and
addresses are personal data, and a test that names them only holds on that corpus). So every
expected value is worked out at test time from the same file with the standard library
(:mod:`mailbox`, :mod:`email.utils`) by plain counting, sharing no code or word list with memseed:

- the owner's address is the most frequent To/Cc recipient of the mailbox;
- the owner's name is the display name on the owner's own mail (``X-From``/``From``), else
  the one on mail addressed to the owner alone (``X-To``); ``Last, First M`` is turned round;
- namesakes are addresses at the owner's domain whose local part holds the owner's surname;
- the owner's own addresses are the ones the owner's full name is written beside;
- a contact block is the two lines under a short line naming the owner in other people's mail;
- collaborators are people who wrote to the owner personally (the owner among at most five
  visible recipients) or were written to by the owner; broadcasters never did either.
"""

from __future__ import annotations

import mailbox
import re
from collections import Counter
from email.utils import getaddresses
from pathlib import Path

__all__ = ["HELD_OUT_INBOX", "TUNING_INBOX", "MailOracle"]

TUNING_INBOX = "4aaeb7c5"
"""sha256 prefix (real-data MANIFEST.tsv) of the tuning Enron inbox (see test_realdata)."""
HELD_OUT_INBOX = "c09c75a1"
"""sha256 prefix of the held-out Enron inbox."""

_BRACKETS = re.compile(r"<[^<>]*>|\([^()]*\)|\"")
_WORD = re.compile(r"[a-z]+")


def _name_words(display: str) -> tuple[str, ...]:
    """``Marrow, Theo J </O=…>`` -> ("theo", "j", "marrow"): first names first."""
    text = _BRACKETS.sub(" ", display).strip()
    if "@" in text:
        return ()
    last, comma, first = text.partition(",")
    ordered = f"{first} {last}" if comma else text
    return tuple(_WORD.findall(ordered.lower()))


def _addresses(msg: mailbox.mboxMessage, *headers: str) -> list[str]:
    values = [str(v) for h in headers for v in msg.get_all(h, [])]
    return [a.lower() for _, a in getaddresses(values) if "@" in a]


class MailOracle:
    """Owner, namesakes, correspondents and broadcasters of one mbox (see the module docstring)."""

    def __init__(self, path: Path, owner: set[str] | None = None) -> None:
        messages = list(mailbox.mbox(str(path)))
        recipients: Counter[str] = Counter(a for m in messages for a in _addresses(m, "To", "Cc"))
        self.address = recipients.most_common(1)[0][0]
        self.domain = self.address.partition("@")[2]
        self.owner = set(owner or {self.address})
        names: Counter[tuple[str, ...]] = Counter()
        beside: dict[str, Counter[tuple[str, ...]]] = {}
        self.volume: Counter[str] = Counter()
        self.personal: Counter[str] = Counter()
        self.written_to: Counter[str] = Counter()
        self.everyone: set[str] = set()
        for m in messages:
            sender = (_addresses(m, "From") or [""])[0]
            rcpts = _addresses(m, "To", "Cc")
            self.everyone.update([sender, *rcpts])
            pairs = [(sender, _name_words(str(m.get("X-From") or m.get("From") or "")))]
            if len(rcpts) == 1:
                pairs.append((rcpts[0], _name_words(str(m.get("X-To") or ""))))
            for address, words in pairs:
                if words:
                    beside.setdefault(address, Counter())[words] += 1
                    if address == self.address:
                        names[words] += 1
            self.volume[sender] += 1
            if sender in self.owner:
                self.written_to.update(a for a in rcpts if a not in self.owner)
            elif any(a in self.owner for a in rcpts) and len(rcpts) <= 5:
                self.personal[sender] += 1
        self.name_words = names.most_common(1)[0][0] if names else ()
        self.surname = self.name_words[-1] if self.name_words else ""
        first = self.name_words[0] if self.name_words else ""
        self.own_addresses = {a for a, seen in beside.items() if a != self.address and first and self.surname
                              and any({first, self.surname} <= set(words) for words in seen)}

    def block_lines(self, path: Path) -> Counter[str]:
        """Lines that follow the owner's name in other people's mail (a contact block's title and
        organisation: ``Mr. T. Name`` / ``Managing Director`` / ``Org Corp.``), counted."""
        first = self.name_words[0][:4] if self.name_words else ""
        found: Counter[str] = Counter()
        for m in mailbox.mbox(str(path)):
            if (_addresses(m, "From") or [""])[0] in self.owner or m.is_multipart():
                continue
            lines = [line.strip() for line in str(m.get_payload(decode=True).decode("latin-1")).splitlines()
                     if line.strip()]
            for i, line in enumerate(lines[:-2]):
                words = _WORD.findall(line.lower())
                if len(words) <= 6 and self.surname in words and any(w.startswith(first) for w in words):
                    found.update(lines[i + 1:i + 3])
        return found

    def namesakes(self) -> set[str]:
        """Addresses at the owner's domain (other than the owner's) whose local part holds the surname."""
        return {a for a in self.everyone if a != self.address and a.endswith("@" + self.domain)
                and self.surname and self.surname in re.sub(r"[^a-z]", "", a.partition("@")[0])}

    def correspondents(self, top: int) -> list[str]:
        """The ``top`` people with the most personal mail both ways (ties by address)."""
        both = Counter({a: self.personal[a] + self.written_to[a] for a in set(self.personal) | set(self.written_to)
                        if a not in self.owner})
        return [a for a, _ in sorted(both.items(), key=lambda t: (-t[1], t[0]))[:top]]

    def broadcasters(self, top: int) -> list[str]:
        """The ``top`` highest-volume senders who never wrote to the owner personally."""
        never = [(n, a) for a, n in self.volume.items()
                 if a not in self.owner and not self.personal[a] and not self.written_to[a]]
        return [a for _, a in sorted(never, key=lambda t: (-t[0], t[1]))[:top]]

    def corresponded(self, address: str) -> bool:
        return bool(self.personal[address] or self.written_to[address])
