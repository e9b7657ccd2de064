"""Who works where, as mail states it: contact blocks, and organisations from mail domains.

A person's employer and title are best taken from what is *written* about them — their own
signature first, then a contact block in someone else's mail ("Vincent J. Kaminski / Managing
Director and Head of Research / Enron Corp." in an assistant's mail, the address block of a letter
to them) — and only last from the mail domain, which gives the registrable name
("tidewater") and not the organisation ("Tidewater Analytics"). The registrable part of a
domain is found with the Public Suffix List (the ``publicsuffixlist`` package ships its own
copy and never fetches), so ``mail.tidewater.co.uk`` gives ``tidewater``, not ``co``.

Contact blocks contribute only names, titles and organisation names — facts a third party may
supply — never the text around them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from publicsuffixlist import PublicSuffixList

from bootstrap_app.identity import name_key

__all__ = ["FREE_MAIL", "contact_blocks", "domain_label", "org_from_domain", "same_person"]

FREE_MAIL = frozenset({"gmail", "googlemail", "aol", "yahoo", "hotmail", "outlook", "live", "icloud", "me",
                       "gmx", "web", "proton", "protonmail", "fastmail", "msn", "mail", "mac", "ymail", "zoho",
                       "yandex", "qq", "163", "126", "comcast", "verizon", "att", "earthlink", "mindspring"})
"""Mailbox providers: their domain names the provider, never the person's employer."""

_ROLE = re.compile(
    r"\b(?:engineer|developer|manager|director|scientist|analyst|designer|lead|head|vp|vice president|"
    r"president|officer|architect|consultant|researcher|professor|specialist|administrator|assistant|"
    r"coordinator|founder|cto|ceo|cfo|intern|programmer|product owner|sre|devops|editor|associate|"
    r"partner|principal|advisor|economist|trader|counsel|recruiter)\b", re.I)
_ORG = re.compile(r"\b(?:inc|labs?|llc|ltd|gmbh|corp|corporation|company|co|ag|plc|sa|university|institute|bank|"
                  r"group|n\.a|holdings|partners|associates|foundation|systems|technologies|analytics)\b\.?", re.I)
_HONORIFIC = re.compile(r"^(?:mr|mrs|ms|miss|dr|prof|sir|dame)\.?\s+", re.I)
_NAME = re.compile(r"^[A-Z][\w'’-]+\.?(?:\s+[A-Z][\w'’.-]*){1,3}$")
_NOISE = re.compile(r"\d{3}|@|https?://|www\.|^(?:tel|phone|mobile|fax|cell|email|e-mail)\b|[:;!?]", re.I)


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList()  # the bundled list: no download, ever


@lru_cache(maxsize=4096)
def domain_label(address_or_domain: str) -> str:
    """The registrable label of a mail domain (``a@mail.tidewater.co.uk`` -> ``tidewater``)."""
    domain = address_or_domain.rpartition("@")[2].strip(".").lower()
    if "." not in domain:
        return ""
    private = _psl().privatesuffix(domain) or ""
    return private.split(".")[0] if private else ""


def org_from_domain(address: str) -> str:
    """``maya@northwind-labs.example`` -> ``Northwind Labs``; mailbox providers give ``""``."""
    label = domain_label(address)
    if not label or label in FREE_MAIL:
        return ""
    return " ".join(w.capitalize() for w in re.split(r"[-_]", label) if w)


def same_person(a: str, b: str) -> bool:
    """Two name keys (:func:`name_key`) of one person: one token equal, the other a nickname
    prefix of it (``kaminski vince`` / ``kaminski vincent``, ``chris germany`` / ``christopher germany``)."""
    if not a or not b:
        return False
    if a == b:
        return True
    ta, tb = a.split(), b.split()
    if len(ta) != 2 or len(tb) != 2:
        return False
    for x in ta:
        if x in tb:
            ra, rb = [t for t in ta if t != x] or [x], [t for t in tb if t != x] or [x]
            short, long_ = sorted((ra[0], rb[0]), key=len)
            return len(short) >= 3 and long_.startswith(short)
    return False


def _clean_name(line: str) -> str:
    return " ".join(_HONORIFIC.sub("", line.strip()).split())


def _org_part(part: str, hint: str) -> bool:
    words = part.split()
    if not words or len(words) > 6 or _NOISE.search(part) or _ROLE.search(part):
        return False
    return bool(_ORG.search(part)) or bool(hint and re.search(rf"\b{re.escape(hint)}\b", part, re.I))


def contact_blocks(text: str, hint: str = "") -> list[tuple[str, str, str]]:
    """(name key, title, organisation) for every contact block in ``text``.

    Two shapes: a name line directly followed by a title line and, optionally, an organisation
    line (signatures, address blocks of letters, "here are his details" mails); or one line
    "Name, Title[, Team], Organisation". ``hint`` is the sender's domain label: a line holding it
    is an organisation even without "Inc"/"Corp" ("Tidewater Analytics").
    """
    lines = [ln.strip() for ln in text.splitlines()]
    out: list[tuple[str, str, str]] = []
    for i, line in enumerate(lines):
        if not line or len(line) > 100:
            continue
        parts = [p.strip() for p in re.split(r"\s*,\s*|\s+[|·•]\s+", line) if p.strip()]
        if len(parts) >= 2 and _NAME.match(_clean_name(parts[0])) and not _ROLE.search(parts[0]):
            title = parts[1] if _ROLE.search(parts[1]) and len(parts[1].split()) <= 7 and not _NOISE.search(parts[1]) \
                else ""
            if title:
                org = next((p for p in parts[2:] if _org_part(p, hint)), "")
                if key := name_key(_clean_name(parts[0])):
                    out.append((key, title, org))
                continue
        name = _clean_name(line)
        if not _NAME.match(name) or _ROLE.search(name) or _ORG.search(name) or i + 1 >= len(lines):
            continue
        title = lines[i + 1]
        if not title or len(title.split()) > 8 or not _ROLE.search(title) or _NOISE.search(title):
            continue
        org = next((ln for ln in lines[i + 2:i + 4] if ln and _org_part(ln, hint)), "")
        if key := name_key(name):
            out.append((key, title.rstrip(" ,."), org.rstrip(" ,")))
    return out
