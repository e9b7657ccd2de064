"""Who works where, as mail states it: contact blocks, and organisations from mail domains.

A person's employer and title are best taken from what is *written* about them — their own
signature first, then a contact block in someone else's mail ("Theodore J. Marrow / Managing
Director and Head of Research / Halvard Corp." in an assistant's mail, the address block of a letter
to them) — and only last from the mail domain, which gives the registrable name
("tidewater") and not the organisation ("Tidewater Analytics"). The registrable part of a
domain is found with the Public Suffix List (the ``publicsuffixlist`` package ships its own
copy and never fetches), so ``mail.tidewater.co.uk`` gives ``tidewater``, not ``co``.

Contact blocks contribute only names, titles and organisation names — facts a third party may
supply — never the text around them — and only what two *vouched* senders state
(:class:`ContactDirectory`: people the owner writes to, her own organisation's internal mail).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from publicsuffixlist import PublicSuffixList

from bootstrap_app.identity.confusables import imitates
from bootstrap_app.identity.names import FREE_MAIL as FREE_MAIL_DOMAINS
from bootstrap_app.identity.resolve import name_key
from bootstrap_app.types import Message

from .base import Ref, person_key

__all__ = ["FREE_MAIL", "ROLE_WORDS", "ContactDirectory", "contact_blocks", "domain_label", "org_from_domain",
           "registrable", "same_person"]

FREE_MAIL = frozenset({"gmail", "googlemail", "aol", "yahoo", "hotmail", "outlook", "live", "icloud", "me",
                       "gmx", "web", "proton", "protonmail", "fastmail", "msn", "mail", "mac", "ymail", "zoho",
                       "yandex", "qq", "163", "126", "comcast", "verizon", "att", "earthlink", "mindspring"})
"""Mailbox providers: their domain names the provider, never the person's employer."""

ROLE_WORDS = re.compile(
    r"\b(?:engineer|developer|manager|director|scientist|analyst|designer|lead|head|vp|vice president|"
    r"president|officer|architect|consultant|researcher|professor|specialist|administrator|assistant|"
    r"coordinator|founder|cto|ceo|cfo|intern|programmer|product owner|sre|devops|editor|associate|"
    r"partner|principal|advisor|economist|trader|counsel|recruiter|representative|secretary|accountant|"
    r"attorney|supervisor|lecturer|technician|chairman|chairwoman)\b"
    # German compounds (Teamleiterin, Softwareentwickler) and other languages' titles
    r"|(?:leiter|entwickler|ingenieur|berater|referent|architekt|beauftragte)(?:in|r)?\b"
    r"|\b(?:geschäftsführer(?:in)?|vorstand|inhaber(?:in)?|mitarbeiter(?:in)?|professor(?:in)?|directeur|"
    r"directrice|ingénieure?|responsable|développeu(?:r|se)|cheffe? de|chargée? de|gerente|directora?|"
    r"ingenier[oa]|jef[ea] de|desarrollador(?:a)?|direttore|direttrice|sviluppatore|ingegnere|ontwikkelaar|"
    r"adviseur|teamleider|diretora?|engenheir[oa]|desenvolvedora?|analista|consultora?)\b", re.I)
"""Words that make a line a job title (signatures, contact blocks, chat profiles): one list for all,
in English and the common European languages."""
_ORG = re.compile(r"\b(?:inc|labs?|llc|ltd|gmbh|corp|corporation|company|co|ag|plc|sa|university|institute|bank|"
                  r"group|n\.a|holdings|partners|associates|foundation|systems|technologies|analytics)\b\.?", re.I)
_HONORIFIC = re.compile(r"^(?:mr|mrs|ms|miss|dr|prof|sir|dame)\.?\s+", re.I)
_NAME = re.compile(r"^[A-Z][\w'’-]+\.?(?:\s+[A-Z][\w'’.-]*){1,3}$")
_MAX_KEYS = 20_000
_MAX_SENDERS = 16
_MAX_RECIPIENTS = 5_000
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


def registrable(address_or_domain: str) -> str:
    """The registrable domain of an address (``a@mail.tidewater.co.uk`` -> ``tidewater.co.uk``)."""
    domain = address_or_domain.rpartition("@")[2].strip(".").lower()
    return (_psl().privatesuffix(domain) or "") if "." in domain else ""


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


_PARTS = re.compile(r"\s*,\s*|\s+[|·•]\s+")
_HONORIFIC_INITIALS = frozenset("mdps\u017f")
"""First letters of the honorifics, lower-cased (``ſ``: IGNORECASE takes the long s for an ``s``)."""


def _may_start_name(line: str) -> bool:
    """False when neither shape can read a name in ``line`` (stripped, non-empty): the name
    starts the line, or follows a leading comma or an honorific (such lines are read in full),
    and its first two words start with a capital A-Z (:data:`_NAME`). Prose lines (one capital,
    then lower case) are passed over without splitting them."""
    first = line[0]
    if first == "," or (first.lower() in _HONORIFIC_INITIALS and _HONORIFIC.match(line)):
        return True
    if not "A" <= first <= "Z":
        return False
    words = line.split(None, 2)
    return len(words) >= 2 and "A" <= words[1][0] <= "Z"


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
        if not line or len(line) > 100 or not _may_start_name(line):
            continue
        parts = [p.strip() for p in _PARTS.split(line) if p.strip()]
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


@dataclass
class _Said:
    """One sender's statement of a contact block: how well its delivery vouched for the sender."""

    ref: Ref
    authentic: bool
    """No failed or unverified sender authentication (``Message.auth_failure`` empty) and no
    ``Sender`` of somebody else: the From address is not a known forgery."""
    internal: bool
    """Authentic and not delivered from outside: mail inside the mailbox owner's organisation."""
    n: int = 1
    """How often this sender stated it (only vouched senders' counts rank the titles)."""


@dataclass
class ContactDirectory:
    """What contact blocks in mail state about people, who stated it, and whom each sender wrote to.

    Why a statement needs *vouched* senders and not just two of them: anybody can send mail, and an
    attacker with two lookalike domains (each passing its own DKIM) is two senders. A sender
    vouches only when the owner's own mail went to them and their mail was not a forgery (the
    owner chose to correspond with them), or when their mail is their organisation's internal
    mail and that organisation is the owner's (a stranger cannot deliver inside it). A footprint
    with no mail of the owner's at all (an inbox-only export) cannot tell correspondents apart;
    there a sender counts when its delivery is not a known forgery and its address imitates none
    of the owner's (:func:`~bootstrap_app.identity.confusables.imitates`: lookalike domains are out). Which
    sender is the owner is decided late, so recipients are kept for every sender whose mail
    was not judged received (``Message.third_party_reason``), bounded.
    """

    facts: defaultdict[str, Counter[tuple[str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    """Per name key: (title, organisation) as contact blocks state them."""
    said: defaultdict[tuple[str, str, str], dict[str, _Said]] = field(default_factory=lambda: defaultdict(dict))
    """Per (name key, title, organisation): the senders who stated it."""
    wrote_to: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Per sender key of mail not judged received: the addresses it was sent to."""

    def mail(self, item: Message, key: str, blocks: list[tuple[str, str, str]], closing: str) -> None:
        """One message of sender ``key``: whom it went to (when it may be the owner's), and the
        contact blocks in it except its own closing signature (``closing``, the signer's name
        key: the sender's claim about themselves, never a statement about someone else)."""
        if not item.third_party_reason:
            self.recipients(key, (person_key(p) for p in (*item.to, *item.cc)), sent=item.in_sent)
        authentic = not item.auth_failure and not item.on_behalf_of
        sender = person_key(item.sender)
        for who, title, org in blocks:
            if who != closing:
                note = f"contact block: {title}" + (f", {org}" if org else "")
                self.add(who, title, org, sender, Ref(item.source, item.ref, item.timestamp, key, note),
                         authentic=authentic, internal=authentic and not item.delivered_from)

    def recipients(self, sender: str, addresses: Iterable[str], *, sent: bool = False) -> None:
        """``sender`` wrote (as far as this message shows) to ``addresses``; ``sent``: the mail
        is filed as sent, so its sender is kept even past the bound on senders."""
        if sender not in self.wrote_to and len(self.wrote_to) >= _MAX_KEYS and not sent:
            return
        mine = self.wrote_to[sender]
        for a in addresses:
            if len(mine) >= _MAX_RECIPIENTS:
                break
            if a:
                mine.add(a)

    def add(self, who: str, title: str, org: str, sender: str, ref: Ref, *, authentic: bool,
            internal: bool) -> None:
        """``sender``'s mail (``ref``) states that ``who`` is ``title`` at ``org``."""
        if who not in self.facts and len(self.facts) >= _MAX_KEYS:
            return
        self.facts[who][(title, org)] += 1
        senders = self.said[(who, title, org)]
        prev = senders.get(sender)
        if prev is None and len(senders) < _MAX_SENDERS:
            senders[sender] = _Said(ref, authentic, internal)
        elif prev is not None:  # any authentic statement of the sender's own counts, and is cited
            if (authentic, internal) > (prev.authentic, prev.internal):
                prev.ref = ref
            prev.authentic |= authentic
            prev.internal |= internal
            prev.n += 1

    def entry(self, names: set[str], owner_keys: Iterable[str], owner_addresses: Iterable[str]
              ) -> tuple[str, str, list[Ref]]:
        """(title, organisation, refs) the contact blocks most often state for one of ``names``
        (nicknames included), each only when two different vouched senders state it."""
        wrote: set[str] = set()
        for k in owner_keys:
            wrote |= self.wrote_to.get(k, set())
        owned = frozenset(owner_addresses)
        orgs_own = {registrable(a) for a in owned if domain_label(a) not in FREE_MAIL} - {""}

        def vouched(sender: str, s: _Said) -> bool:
            if s.authentic and sender in wrote:
                return True  # she writes to them
            if s.internal and registrable(sender) in orgs_own:
                return True  # her own organisation, delivered inside it
            # no mail of hers to tell correspondents by (an inbox-only export): a sender whose
            # delivery is not a known forgery and whose address imitates none of hers
            return not wrote and s.authentic and not imitates(sender, owned, FREE_MAIL_DOMAINS)

        titles: Counter[str] = Counter()
        orgs: Counter[str] = Counter()
        by: defaultdict[str, dict[str, Ref]] = defaultdict(dict)
        for who, facts in self.facts.items():
            if not any(same_person(who, n) for n in names if n):
                continue
            for title, org in facts:
                stated = [(s, said) for s, said in self.said.get((who, title, org), {}).items() if vouched(s, said)]
                n = sum(said.n for _, said in stated)  # a stranger's volume does not rank
                titles[title] += n
                by[f"t:{title}"] |= {s: said.ref for s, said in stated}
                if org:
                    orgs[org] += n
                    by[f"o:{org}"] |= {s: said.ref for s, said in stated}
        title = next((t for t, _ in titles.most_common() if len(by[f"t:{t}"]) >= 2), "")
        org = next((o for o, _ in orgs.most_common() if len(by[f"o:{o}"]) >= 2), "")
        cited = [*by[f"t:{title}"].values(), *by[f"o:{org}"].values()] if title or org else []
        return title, org, list(dict.fromkeys(cited))[:3]
