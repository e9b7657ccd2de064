"""What a person's own words state about their role: signature blocks, Slack titles, "my manager".

Why apart from :mod:`.profile`: these are pure text parsers (a mail's closing lines in, a
signer / title / team / organisation out), testable on one string and with no notion of who the
owner is. :mod:`.profile` holds the accumulator that feeds them mail and chat while items stream
and decides at the end which author is the owner; contact blocks about *other* people live in
:mod:`.contact_blocks`, which also owns ``ROLE_WORDS``, the one list of title words both use.
"""

from __future__ import annotations

import re

from .contact_blocks import ROLE_WORDS

__all__ = ["MANAGER_MENTION", "parse_signature", "parse_slack_title"]

_TEAM_WORDS = re.compile(r"\b(?:team|group|department|dept|division|infrastructure|platform|research|"
                         r"engineering|unit|squad|lab)\b", re.I)
_ORG_WORDS = re.compile(r"\b(?:inc|labs?|llc|ltd|gmbh|corp|corporation|company|co|ag|plc|sa|university|"
                        r"institute|bank|group)\b\.?", re.I)
_SKIP_LINE = re.compile(r"(?:\+?\d[\d ()./-]{6,}|@|https?://|www\.|^(?:tel|phone|mobile|fax|cell)\b)", re.I)
MANAGER_MENTION = re.compile(
    r"(?:\bmy (?:new )?(?:manager|boss|line manager|supervisor)\b[,:]?\s+(?:is\s+)?(?P<a>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2})"
    r"|(?P<b>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2}),?\s+(?:\(|is\s+)?my (?:new )?(?:manager|boss|supervisor)"
    r"|\breports? (?:directly )?to\s+(?P<c>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2})"
    r"|\b(?:your |reporting |line )?(?:manager|supervisor)\s*[:=]\s*(?P<d>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2}))")
_NAME_LINE = re.compile(r"^[A-Z][\w'.-]+(?:\s+[A-Z][\w'.-]*){1,3}$")


def parse_signature(text: str, hint: str = "") -> dict[str, str]:
    """Signer / title / team / org of the signature block closing ``text`` (else empty).

    A block counts only when a name line (``Maya Okafor``) directly precedes the title line, and
    the last such block in the closing lines is the signature (an introduction of someone above
    the sign-off is a contact block, not the sender's signature);
    the caller then keeps it only if that name is the owner's, so a colleague's signature in a
    forwarded mail never becomes the owner's title. ``hint`` is the sender's domain label: a
    part naming it is the organisation even without "Inc" or "Labs" ("Tidewater Analytics").
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    tail = lines[-8:]
    found: dict[str, str] = {}
    for i, line in enumerate(tail):
        if len(line) > 90 or _SKIP_LINE.search(line):
            continue
        parts = [p.strip() for p in re.split(r"\s+[|·•—–-]\s+|,\s+|\s*\|\s*", line) if p.strip()]
        title = next((p for p in parts if ROLE_WORDS.search(p) and len(p.split()) <= 6), "")
        signer = tail[i - 1] if i else ""
        if title and _NAME_LINE.match(signer) and not ROLE_WORDS.search(signer):
            # a later name + title pair starts the block again: the *closing* block is the last
            # one ("please meet Ada Quist, CDO … thanks, Ben Ortiz, Head of Sales" is Ben's)
            found = {"signer": signer, "title": title}
            parts = [p for p in parts if p != title]
        elif "title" not in found:
            continue
        for part in parts:
            if "team" not in found and _TEAM_WORDS.search(part) and not _ORG_WORDS.search(part) \
                    and len(part.split()) <= 5:
                found["team"] = re.sub(r"\s+team$", "", part, flags=re.I)
            elif "org" not in found and len(part.split()) <= 5 and not ROLE_WORDS.search(part) and (
                    _ORG_WORDS.search(part) or (hint and re.search(rf"\b{re.escape(hint)}\b", part, re.I))):
                found["org"] = part
    return found if "title" in found else {}


def parse_slack_title(text: str) -> tuple[str, str]:
    """("SRE", "Julia Computing") from "SRE at Julia Computing"; ("", "") when the free-text
    Slack title names no role ("The Viking", "Eat Monkeys")."""
    parts = re.split(r"\s+(?:at|@)\s+", text.strip(), maxsplit=1)
    role = parts[0].strip(" ,.;")
    org = parts[1].strip(" ,.;") if len(parts) > 1 else ""
    if not role or not ROLE_WORDS.search(role) or len(role.split()) > 6:
        return "", ""
    return role, org if org and len(org.split()) <= 5 else ""
