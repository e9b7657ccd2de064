"""Who works where, as mail states it: contact blocks, and organisations from mail domains.

A person's employer and title are best taken from what is *written* about them — their own
signature first, then a contact block in someone else's mail ("Theodore J. Marrow / Managing
Director and Head of Research / Halvard Corp." in an assistant's mail, the address block of a letter
to them) — and only last from the mail domain, which gives the registrable name
("tidewater") and not the organisation ("Tidewater Analytics"). The registrable part of a
domain is found with the Public Suffix List (the ``publicsuffixlist`` package ships its own
copy and never fetches), so ``mail.tidewater.co.uk`` gives ``tidewater``, not ``co``.

Contact blocks contribute only names, titles and organisation names — facts a third party may
supply — never the text around them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache

from publicsuffixlist import PublicSuffixList

from bootstrap_app.identity import name_key

from .base import Ref

__all__ = ["FREE_MAIL", "ROLE_WORDS", "contact_blocks", "domain_label", "org_from_domain", "same_person",
           "stated_by_two"]

FREE_MAIL = frozenset({"gmail", "googlemail", "aol", "yahoo", "hotmail", "outlook", "live", "icloud", "me",
                       "gmx", "web", "proton", "protonmail", "fastmail", "msn", "mail", "mac", "ymail", "zoho",
                       "yandex", "qq", "163", "126", "comcast", "verizon", "att", "earthlink", "mindspring"})
"""Mailbox providers: their domain names the provider, never the person's employer."""

ROLE_WORDS = re.compile(
    r"\b(?:engineer|developer|manager|director|scientist|analyst|designer|lead|head|vp|vice president|"
    r"president|officer|architect|consultant|researcher|professor|specialist|administrator|assistant|"
    r"coordinator|founder|cto|ceo|cfo|intern|programmer|product owner|sre|devops|editor|associate|"
    r"partner|principal|advisor|economist|trader|counsel|recruiter)\b", re.I)
"""Words that make a line a job title (signatures, contact blocks, chat profiles): one list for all."""
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
    prefix of it (``marrow theo`` / ``marrow theodore``, ``roe nadia`` / ``roe nadine`` is not one)."""
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
    if not words or len(words) > 6 or _NOISE.search(part) or ROLE_WORDS.search(part):
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
        if len(parts) >= 2 and _NAME.match(_clean_name(parts[0])) and not ROLE_WORDS.search(parts[0]):
            title = parts[1] if ROLE_WORDS.search(parts[1]) and len(parts[1].split()) <= 7 and not _NOISE.search(parts[1]) \
                else ""
            if title:
                org = next((p for p in parts[2:] if _org_part(p, hint)), "")
                if key := name_key(_clean_name(parts[0])):
                    out.append((key, title, org))
                continue
        name = _clean_name(line)
        if not _NAME.match(name) or ROLE_WORDS.search(name) or _ORG.search(name) or i + 1 >= len(lines):
            continue
        title = lines[i + 1]
        if not title or len(title.split()) > 8 or not ROLE_WORDS.search(title) or _NOISE.search(title):
            continue
        org = next((ln for ln in lines[i + 2:i + 4] if ln and _org_part(ln, hint)), "")
        if key := name_key(name):
            out.append((key, title.rstrip(" ,."), org.rstrip(" ,")))
    return out


def stated_by_two(directory: Mapping[str, Counter[tuple[str, str]]],
                  senders: Mapping[tuple[str, str, str], set[str]], refs: Mapping[str, list[Ref]],
                  names: set[str]) -> tuple[str, str, list[Ref]]:
    """(title, organisation, refs) the contact blocks most often state for one of ``names``
    (nicknames included), each only when two different senders state it: one outside mail
    could write anything about the owner."""
    titles: Counter[str] = Counter()
    orgs: Counter[str] = Counter()
    said: defaultdict[str, set[str]] = defaultdict(set)
    cited: list[Ref] = []
    for who, facts in directory.items():
        if any(same_person(who, n) for n in names if n):
            for (title, org), n in facts.items():
                by = senders.get((who, title, org), set())
                titles[title] += n
                said[f"t:{title}"] |= by
                if org:
                    orgs[org] += n
                    said[f"o:{org}"] |= by
            cited.extend(refs.get(who, []))
    title = next((t for t, _ in titles.most_common() if len(said[f"t:{t}"]) >= 2), "")
    org = next((o for o, _ in orgs.most_common() if len(said[f"o:{o}"]) >= 2), "")
    return title, org, cited[:3]
