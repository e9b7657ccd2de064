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
                         r"engineering|unit|squad|lab|office|practice|abteilung|bereich|gruppe|équipe|equipe|"
                         r"equipo|afdeling|dipartimento|département|departamento|servizio|direction)\b", re.I)
_ORG_WORDS = re.compile(r"\b(?:inc|labs?|llc|ltd|gmbh|corp|corporation|company|co|ag|plc|sa|university|"
                        r"institute|bank|group|e\.v|kg|se|sas|sarl|s\.l|s\.a|b\.v|n\.v|oy|ab|s\.p\.a|spa|ltda|"
                        r"pty|universität|université|universidad|università|hochschule|stiftung|gesellschaft)\b\.?",
                        re.I)
_SKIP_LINE = re.compile(r"(?:\+?\d[\d ()./-]{6,}|@|https?://|www\.|^(?:tel|phone|mobile|fax|cell|t|m|f|e|"
                        r"telefon|tél|tel\.|handy|mobil|móvil)\b\.?\s*:?)", re.I)
_ADDRESS_LINE = re.compile(r"^\d{1,5}\s+\w|\b\d{4,5}\s+[A-ZÀ-Þ]|\b(?:street|st\.|road|avenue|ave\.|suite|floor|"
                           r"straße|strasse|str\.|platz|weg|rue|calle|via|plaza)\b", re.I)
_SPLIT = re.compile(r"\s+[|·•—–-]\s+|,\s+|\s*\|\s*|\s*[·•]\s*")
_TAIL = 25
"""Closing lines looked at: an Outlook block (name, title, org, phone, fax, address, disclaimer
lines) fits; a 200-line block costs no more than 25 lines."""
_AFTER = 4
"""Lines after the title line that may still name team and organisation (noise lines skipped)."""
MANAGER_MENTION = re.compile(
    r"(?:\bmy (?:new )?(?:manager|boss|line manager|supervisor)\b[,:]?\s+(?:is\s+)?(?P<a>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2})"
    r"|(?P<b>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2}),?\s+(?:\(|is\s+)?my (?:new )?(?:manager|boss|supervisor)"
    r"|\breports? (?:directly )?to\s+(?P<c>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2})"
    r"|\b(?:your |reporting |line )?(?:manager|supervisor)\s*[:=]\s*(?P<d>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2}))")
_NAME_LINE = re.compile(r"^(?:[^\W\d_][\w'’.-]*)(?:\s+[^\W\d_][\w'’.-]*){1,3}$")


def _is_name(text: str) -> bool:
    """A person's name line: two to four capitalised words, no title, team or company word, no digits."""
    if not text[:1].isupper():
        return False  # (the name pattern starts at the first character)
    words = text.split()
    # the word count and capitals first: they reject almost every line of prose at no regex's cost
    return 2 <= len(words) <= 4 and all(w[0].isupper() for w in words) and bool(_NAME_LINE.match(text)) \
        and not ROLE_WORDS.search(text) and not _TEAM_WORDS.search(text) and not _ORG_WORDS.search(text)


def _is_org(part: str, hint: str) -> bool:
    # a form's field ("Name of Company: ____") or a label is no organisation
    return len(part.split()) <= 6 and not re.search(r"[:_]", part) and not ROLE_WORDS.search(part) and bool(
        _ORG_WORDS.search(part) or (hint and re.search(rf"\b{re.escape(hint)}\b", part, re.I)))


def _is_team(part: str) -> bool:
    return len(part.split()) <= 5 and bool(_TEAM_WORDS.search(part)) and not _ORG_WORDS.search(part)


_DIGITS = re.compile(r"\d{3}")
_TEAM_SUFFIX = re.compile(r"\s+(?:team|department|dept\.?)$", re.I)
_FORM_ONLY = re.compile(r"^(?:inc|llc|ltd|corp|co|gmbh|ag|plc|sa|s\.a|sas|bv|b\.v|nv|n\.v|oy|ab|kg|se|pty)\.?$", re.I)


def _parts(line: str) -> list[str]:
    """A line cut at its separators; a bare company form rejoins its name ("EDGAR Online, Inc.")."""
    parts: list[str] = []
    for p in _SPLIT.split(line):
        p = p.strip(" ,;")
        if p and parts and _FORM_ONLY.match(p):
            parts[-1] += f", {p}"
        elif p:
            parts.append(p)
    return parts


def _title_in(parts: list[str]) -> str:
    # a run of digits is a year, a room or a phone: "Director, Energy Summit 2001" names an event
    return next((p for p in parts if len(p.split()) <= 6 and ROLE_WORDS.search(p) and not _DIGITS.search(p)), "")


_LEADS = ",;|·•"
"""What may stand before the first part of a line (:func:`_parts` cuts and strips it away)."""


def _may_lead_with_name(line: str) -> bool:
    """False when the first part of ``line`` (stripped, non-empty) cannot be a name: a name's
    first two words are capitalised, and only separators may stand before it. (A part ends at a
    separator, so the part's first two words start where the line's do; most prose lines start
    with one capital only.)"""
    if line[0] in _LEADS:
        return True
    if not line[0].isupper():
        return False
    words = line.split(None, 2)
    return len(words) >= 2 and words[0][0].isupper() and words[1][0].isupper()


def _find_block(lines: list[str], hint: str) -> tuple[int, str, str] | None:
    """(index of the title line, signer, title) of the *last* name + title pair in ``lines``:
    a name line directly above a title line, or ``Name | Title`` on one line. With no title
    anywhere, a name line directly above an organisation or team line ("Research Group") is a
    block too, with an empty title (index: the line under the name).

    Every shape needs a name, on the line above or leading this one, so a line with neither is
    passed over before its (costly) skip, split and title tests: the same blocks are found."""
    found = None
    bare = None
    named = False  # lines[i - 1] is a name line
    for i, line in enumerate(lines):
        above, named = named, _is_name(line)
        leads = _may_lead_with_name(line)
        if not (above or leads) or len(line) > 120 or _SKIP_LINE.search(line):
            continue
        parts = _parts(line)
        if leads and len(parts) >= 2 and _is_name(parts[0]) and (title := _title_in(parts[1:])):
            found = (i, parts[0], title)  # Name | Title (Outlook's one-line layout)
        elif above and (title := _title_in(parts)):
            found = (i, lines[i - 1], title)
        elif above and any(_is_org(p, hint) or _is_team(p) for p in parts):
            bare = (i, lines[i - 1], "")
    return found or bare


def parse_signature(text: str, hint: str = "") -> dict[str, str]:
    """Signer / title / team / org of the signature block closing ``text`` (else empty).

    A block counts only when a name directly precedes its title (``Maya Okafor`` on the line
    above, or ``Maya Okafor | Staff Engineer`` on one line), and the last such block in the
    closing lines is the signature (an introduction of someone above the sign-off is a contact
    block, not the sender's signature); the caller then keeps it only if that name is the
    owner's, so a colleague's signature in a forwarded mail never becomes the owner's title.

    The layouts read: ``Title, Team``; ``Title · Team · Org`` / ``Title | Org``; the team and the
    organisation on the lines below; Outlook blocks whose phone, fax, e-mail, web and postal
    address lines sit between them (skipped); titles, teams and company forms in German, French,
    Spanish, Italian, Dutch and Portuguese; a block with no title at all (``Name`` over
    ``Research Group``) gives its team and organisation. A part naming an organisation (a company form or
    ``hint``, the sender's domain label: "Tidewater Analytics") is the org; a part with a team
    word is the team, and so is an unmarked part standing just before the org
    (``Staff Engineer · Payments · Contoso Ltd``).
    """
    lines = [ln.strip() for ln in text.splitlines()[-4 * _TAIL:] if ln.strip()][-_TAIL:]
    block = _find_block(lines, hint)
    if block is None:
        return {}
    i, signer, title = block
    found = {"signer": signer, "title": title} if title else {"signer": signer}
    rest = [p for p in _parts(lines[i]) if p not in (signer, title)]
    for line in lines[i + 1:i + 1 + _AFTER]:
        if _SKIP_LINE.search(line) or _ADDRESS_LINE.search(line) or len(line) > 90:
            continue
        if _is_name(line) and not _is_org(line, hint):
            break  # the next person's block
        rest.extend(_parts(line))
    for k, part in enumerate(rest):
        if "org" not in found and _is_org(part, hint):
            found["org"] = part
            if "team" not in found and k and not _is_org(rest[k - 1], hint) and len(rest[k - 1].split()) <= 4 \
                    and not re.search(r"\d", rest[k - 1]):
                found["team"] = _TEAM_SUFFIX.sub("", rest[k - 1])
        elif "team" not in found and _is_team(part):
            found["team"] = _TEAM_SUFFIX.sub("", part)
    return found if len(found) > 1 else {}


def parse_slack_title(text: str) -> tuple[str, str]:
    """("SRE", "Julia Computing") from "SRE at Julia Computing"; ("", "") when the free-text
    Slack title names no role ("The Viking", "Eat Monkeys"). A title that names no role but
    says where the person works ("Tech at Leuko") gives ("", "Leuko"): where they work, in
    their own words, beats a guess from their mail domain (issue 30)."""
    parts = re.split(r"\s+(?:at|@)\s+", text.strip(), maxsplit=1)
    role = parts[0].strip(" ,.;")
    org = parts[1].strip(" ,.;") if len(parts) > 1 else ""
    org = org if org and len(org.split()) <= 5 else ""
    if not role or not ROLE_WORDS.search(role) or len(role.split()) > 6:
        return "", org if role and len(role.split()) <= 6 else ""
    return role, org
