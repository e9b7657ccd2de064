"""Names and the addresses built from them: normalising "Marrow, Theo J", matching local parts.

Used by identity to *suggest* aliases (never to prove one) and by the signal analyzers to merge
people shown by name only. Kept apart from :mod:`bootstrap_app.identity.resolve` so the rules of proof
read on their own.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["FREE_MAIL", "local_part_matches", "name_key", "name_tokens", "normal_name", "respell", "written_address"]

FREE_MAIL = frozenset({"gmail.com", "googlemail.com", "aol.com", "yahoo.com", "hotmail.com",
                       "outlook.com", "live.com", "icloud.com", "me.com", "gmx.de", "gmx.net",
                       "web.de", "proton.me", "protonmail.com", "fastmail.com", "msn.com"})
"""Providers where anyone can register any free local part (an address there proves nothing)."""


_SPELLED_AT = re.compile(r"(?<![\w.+'\[\]-])([\w.+'\[\]-]+?)(?:\s+at\s+|\s*[(\[{]at[)\]}]\s*)"
                         r"([\w-]+(?:(?:\.|\s+dot\s+|\s*[(\[{]dot[)\]}]\s*)[\w-]+)+)", re.IGNORECASE)
"""``user at host``, ``user (at) host``, ``user [at] host dot org``: how list archives (Pipermail,
MHonArc) and people spell an address so harvesters miss it."""
_SPELLED_DOT = re.compile(r"\s+dot\s+|\s*[(\[{]dot[)\]}]\s*", re.IGNORECASE)


def respell(text: str) -> str:
    """``text`` with every spelled-out address written as one (``jdoe at example.com`` ->
    ``jdoe@example.com``); text holding an ``@`` already is returned as it is (it writes its
    addresses plainly, and ``look at example.com`` in a display name must stay words)."""
    if "@" in text or not _SPELLED_AT.search(text):
        return text
    return _SPELLED_AT.sub(lambda m: f"{m.group(1)}@{_SPELLED_DOT.sub('.', m.group(2))}", text)


def written_address(text: str) -> str:
    """The address ``text`` writes, lower-cased, whatever its written form; ``""`` when it is none.

    One reading for everything that turns written text into an address (the mail readers, via
    :func:`respell`, and ``--owner``), so a form a reader accepts is a form the owner check
    accepts: ``a@b.org``, ``<a@b.org>``, ``Name <a@b.org>``, ``mailto:a@b.org``, ``a at b.org``,
    ``a (at) b dot org``.
    """
    value = respell(" ".join(text.split()))
    if "<" in value and value.endswith(">"):
        value = value[value.rindex("<") + 1:-1].strip()
    value = value.strip("<> \"'")
    if value.lower().startswith("mailto:"):
        value = value[7:]
    local, at, host = value.partition("@")
    if not at or not local or "." not in host or " " in value:
        return ""
    return value.lower()


@lru_cache(maxsize=65536)
def normal_name(raw: str) -> str:
    """``"Marrow, Theo J"`` -> ``"Theo J Marrow"``; strips quotes and ``(...)`` notes (memoized: a
    mailbox repeats a few thousand display names hundreds of thousands of times)."""
    text = re.sub(r"\(.*?\)|<.*?>|[\"']", " ", raw or "")
    text = " ".join(text.split()).strip(" ,;")
    if text.count(",") == 1 and "@" not in text:
        last, first = (part.strip() for part in text.split(","))
        if last and first and len(last.split()) <= 2:
            text = f"{first} {last}"
    return text


def name_tokens(raw: str) -> tuple[str, ...]:
    """Lower-case alphabetic tokens of a normalised name.

    Accents are folded first (``Zoë Müller`` -> ``zoe``, ``muller``): without it the name splits at
    every accented letter and two different people collide on the fragments. Letters of other
    scripts are not folded, so a Cyrillic lookalike of the owner's name does not become her name.
    """
    folded = "".join(c for c in unicodedata.normalize("NFKD", normal_name(raw).lower())
                     if not unicodedata.combining(c))
    return tuple(t for t in re.split(r"[^a-z]+", folded) if t)


@lru_cache(maxsize=65536)
def name_key(raw: str) -> str:
    """Order-free key of a person's name (first and last token), used to merge name-only people."""
    toks = [t for t in name_tokens(raw) if len(t) > 1]
    if len(toks) < 2:
        return ""
    return " ".join(sorted({toks[0], toks[-1]}))


def local_part_matches(local: str, toks: tuple[str, ...]) -> bool:
    """``tmarrow``, ``theo.j.marrow``, ``marrow`` match Theo J Marrow; ``wmarrow`` not."""
    if len(toks) < 2 or len(toks[-1]) < 3:
        return False
    last, others = toks[-1], toks[:-1]
    flat = re.sub(r"[^a-z]", "", local.lower())
    pieces = {*others, *(t[:1] for t in others)}

    def made_of_name(rest: str) -> bool:
        return rest == "" or any(rest.startswith(p) and made_of_name(rest[len(p):]) for p in pieces)

    for cut in range(len(last), min(len(last), 6) - 1, -1):
        stem = last[:cut]
        if flat.endswith(stem) or flat.startswith(stem):
            rest = flat[: len(flat) - cut] if flat.endswith(stem) else flat[cut:]
            if made_of_name(rest):
                return True
    return False
