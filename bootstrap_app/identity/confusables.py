"""Does an address imitate one of the owner's? Hyphen, digit, homoglyph and punycode lookalikes.

Why: suggested aliases are confirmed by a person, and a person skimming a list will happily
confirm ``priya.raman@tidewater-io.example`` next to ``priya.raman@tidewater.io``. So a suggestion
that *imitates* a proven address carries a warning. The test is a skeleton comparison in the
spirit of Unicode TR#39: punycode labels decoded, NFKC, common Cyrillic/Greek homoglyphs and
digit-for-letter swaps folded, ``rn`` read as ``m``, hyphens and dots dropped; two domains imitate
each other when their skeletons are equal or one edit apart, two local parts at the same domain
when their skeletons are equal (one edit apart is how ordinary aliases differ: ``marrow``,
``t.marrow``). A free-mail domain never imitates anything (``gmail.com`` is not a copy of ``acme.com``).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["imitates", "skeleton"]

_FOLD = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "l", "ј": "j", "ѕ": "s",
    "ԁ": "d", "һ": "h", "ӏ": "l", "ɡ": "g", "ο": "o", "ν": "v", "α": "a", "ι": "l", "κ": "k", "ρ": "p",
    "τ": "t", "υ": "u", "ε": "e", "0": "o", "1": "l", "3": "e", "5": "s", "7": "t", "|": "l", "i": "l",
})
"""Each character once to its skeleton letter (``i``, ``1``, Cyrillic ``і`` all read as ``l``)."""


def _decode(label: str) -> str:
    if label.startswith("xn--"):
        try:
            return label.encode("ascii").decode("idna")
        except (UnicodeError, ValueError):
            return label
    return label


def skeleton(text: str) -> str:
    """The form two visually confusable strings share (``tidewatеr`` and ``t1dewater`` -> same)."""
    text = ".".join(_decode(part) for part in text.lower().split("."))
    text = unicodedata.normalize("NFKC", text).lower()
    # accents dropped: ``tidéwater`` reads as ``tidewater`` (an IDN lookalike one edit would miss
    # when a second trick is stacked on it)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = text.translate(_FOLD)
    return text.replace("rn", "m").replace("vv", "w").replace("-", "").replace(".", "").replace("_", "")


def _near(a: str, b: str) -> bool:
    """Equal, or one insertion / deletion / substitution apart (strings of 5+ characters)."""
    if a == b:
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i:] == b[i + 1:] or a[i + 1:] == b[i:]


def _embeds(domain: str, own_name: str) -> bool:
    """``own_name`` (5+ skeleton characters) stands as whole labels or hyphen-parts inside
    ``domain``: ``tidewater.io.evil.example``, ``tidewater-support.com``, ``sso-tidewater.net``
    (combosquatting and subdomain tricks, which no one-edit rule sees); ``pineapple.com`` does
    not embed ``apple``."""
    target = skeleton(own_name)
    if len(target) < 5:
        return False
    parts = [p for p in re.split(r"[.-]", domain) if p]
    for i in range(len(parts)):
        for j in range(i + 1, len(parts) + 1):
            if skeleton("".join(parts[i:j])) == target:
                return True
    return False


def imitates(address: str, owned: set[str] | frozenset[str], free_mail: frozenset[str] = frozenset()) -> str:
    """The owner address ``address`` imitates, or "" (it is one of them, or nothing alike)."""
    local, _, domain = address.lower().partition("@")
    if not domain or address.lower() in owned or domain in free_mail:
        return ""
    for own in sorted(owned):
        own_local, _, own_domain = own.partition("@")
        if not own_domain:
            continue
        if domain == own_domain:
            # the same skeleton only: "marrow" next to "t.marrow" is an ordinary alias
            if local != own_local and skeleton(local) == skeleton(own_local):
                return own
            continue
        if domain.endswith("." + own_domain):
            continue  # a host of the owner's own domain (mail.tidewater.io)
        name, own_name = domain.rsplit(".", 1)[0], own_domain.rsplit(".", 1)[0]
        if _near(skeleton(name), skeleton(own_name)) or _near(skeleton(name), skeleton(own_domain)) \
                or _near(skeleton(domain), skeleton(own_domain)) or _embeds(domain, own_name):
            return own
    return ""
