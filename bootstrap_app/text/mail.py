"""The owner's own words of a mail: three cuts of one body, for three uses, in one place.

Why three, and why together: a mail body holds the sender's words, then often a signature,
then quoted replies and forwards that are somebody else's words. Each consumer needs a
different cut, and if the rules lived with their consumers they would drift apart (they did):

- :func:`trim_quoted` — the connector's cut (what ``Message.body`` keeps): everything up to the
  first quoted block or "Original Message" marker. Conservative: signatures stay, because the
  analyzers read them.
- :func:`own_text` — the analyzers' cut (profile, rules): up to the first line that starts a
  quote, a forward or a separator rule; the signature stays (the profile parses it).
- :func:`strip_quoted` — the cut for text that may leave the machine (the LLM digest): also
  drops the signature, Outlook/Lotus headers of embedded messages and ``>`` lines anywhere.
  :func:`is_forward` tells that a subject is the original sender's, not the owner's.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["is_forward", "own_text", "strip_quoted", "trim_quoted"]

_REPLY_START = re.compile(
    r"^(?:>|-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}|_{10,}\s*$"
    r"|On .{4,200} wrote:\s*$|Am .{4,200} schrieb .{0,120}:\s*$)", re.IGNORECASE)

_OWN_TEXT_END = re.compile(
    r"^(?:-{2,}\s*(?:original|forwarded) message|-{5,}|_{5,}|>|on .{4,80} wrote:|am .{4,80} schrieb|"
    r"from:\s|sent:\s|-+\s*forwarded by)", re.I)

_HEADERS = ("Return-Path|Received|Message-ID|From|Sent|Date|To|Subject|Subj|cc|bcc|Reply-To|MIME-Version"
            "|Content-Type|Content-Transfer-Encoding")
_QUOTE_CUTS = [
    re.compile(r"^On\b[^\n]{0,300}(?:\n[^\n]{0,300})?\bwrote:[ \t]*$", re.M),
    re.compile(r"^-{2,}\s*Original Message\s*-{2,}", re.M | re.I),
    re.compile(r"^-{2,}\s*Forwarded message\s*-{2,}", re.M | re.I),
    re.compile(r"^Begin forwarded message:", re.M | re.I),
    re.compile(r"^_{10,}\s*$\n^From:", re.M),
    re.compile(r"^From:[^\n]*\n(?:[^\n]*\n)?Sent:", re.M),
    re.compile(r"^--[ \t]?$", re.M),  # signature separator (RFC 3676 "-- ", often trimmed to "--")
    re.compile(r"^[ \t]*-{3,}[ \t]*Forwarded by\b", re.M | re.I),  # Lotus Notes forwards
    re.compile(r"^[^\n]{1,200}\bon \d{1,2}/\d{1,2}/\d{2,4}[^\n]*\n[ \t]*To:", re.M),  # Lotus Notes replies
    # an embedded message: two header lines within four lines (raw forwards, Outlook/Lotus headers)
    re.compile(rf"^(?:{_HEADERS})[ \t]*:[^\n]*\n(?:[^\n]*\n){{0,3}}?(?:{_HEADERS})[ \t]*:", re.M | re.I),
]
_FORWARD_SUBJECT = re.compile(r"^\s*(?:fwd?|fw)\s*:", re.I)


def trim_quoted(text: str) -> str:
    """Keep the body up to the first quoted block or "Original Message" marker."""
    lines = text.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if _REPLY_START.match(line.lstrip() if not line.startswith(">") else line):
            return "\n".join(lines[:i]).rstrip()
    return text.rstrip()


@lru_cache(maxsize=64)
def own_text(body: str) -> str:
    """The part of a mail body its sender wrote: everything before quoted/forwarded text
    (memoized for the few bodies in flight: the profile and the working rules cut the same one)."""
    lines: list[str] = []
    for line in body.splitlines():
        if _OWN_TEXT_END.match(line.strip()):
            break
        lines.append(line.rstrip())
    return "\n".join(lines).strip()


def is_forward(subject: str) -> bool:
    """A forwarded mail's subject is the original sender's words, not the owner's."""
    return bool(_FORWARD_SUBJECT.match(subject))


def strip_quoted(body: str) -> str:
    """The owner's own words of a sent mail: quoted replies, forwards and the signature removed.

    Quoted text is third-party content even inside the owner's sent mail.
    """
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    cut = len(body)
    for pattern in _QUOTE_CUTS:
        match = pattern.search(body)
        if match:
            cut = min(cut, match.start())
    lines = [line for line in body[:cut].splitlines() if not line.lstrip().startswith(">")]
    return "\n".join(lines).strip()
