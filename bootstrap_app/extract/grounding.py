"""Is a model's fact supported by the evidence it cites? Checked against the cited text itself.

Why: a valid evidence id proves nothing. A model that invents "Maya moved to Lisbon in 2024"
and cites ``E1`` (her mail about test runners) passes every schema check; only the text of
``E1`` can say it is made up. So a kept fact must stand on what it cites:

- its **names, numbers, dates and code** (capitalised words inside a sentence, anything with a
  digit, code spans, URLs, addresses) each appear in the cited items, and
- at least half of its **key terms** (the content words of its ``key`` and ``description``,
  compared by a light stem) appear there too.

What counts as "the cited items" is their text as the digest showed it, their header line
(kind, source, date, repository), and the digest's signals block: memseed's own aggregates
(the owner's name, their correspondents, meeting titles), which a fact may name while it cites
the item that shows the fact itself. An instruction is held to more (owner-authored evidence,
its key text word for word; :func:`ground_evidence`), as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bootstrap_app.safety.dangerous import find_dangerous
from bootstrap_app.safety.injection import scan_text
from bootstrap_app.text.unicode import shared_run, word_list

from .digest import Digest

__all__ = ["DROP_CATEGORIES", "drop_category", "ground_evidence", "key_texts", "support_gaps",
           "ungrounded_instruction"]

DROP_CATEGORIES = (
    ("off-schema", "off-schema"),
    ("cites no evidence", "cite no evidence"),
    ("cites evidence the digest does not hold", "cite evidence that was not sent"),
    ("not supported by the cited text", "not supported by the cited text"),
    ("ungrounded", "instruction not grounded in the owner's words"),
    ("reads as an instruction", "instruction not grounded in the owner's words"),
    ("empty after cleaning", "empty after cleaning"),
)
"""(reason prefix, the category a summary counts it under); every drop reason starts with one."""


def drop_category(reason: str) -> str:
    """The summary category of a drop reason (``other`` for one this table does not know)."""
    return next((cat for prefix, cat in DROP_CATEGORIES if reason.startswith(prefix)), "other")


_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
_URL = re.compile(r"\b(?:https?|ftp)://[^\s`'\"<>)]+", re.I)
_ADDRESS = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def key_texts(text: str) -> list[str]:
    """What an instruction stands or falls on: its code spans, URLs and e-mail addresses."""
    keys = [m.group(1) for m in _CODE_SPAN.finditer(text)]
    keys += [m.group(0).rstrip(".,;:") for m in _URL.finditer(text)]
    keys += [m.group(0) for m in _ADDRESS.finditer(text)]
    return list(dict.fromkeys(k for k in (_norm(k) for k in keys) if k))


_WORD = re.compile(r"[^\W_]+(?:[-'.][^\W_]+)*", re.U)
_SENTENCE_END = re.compile(r"[.!?:;](?=\s|$)|\n|\*\*")
_NUMBERISH = re.compile(r"\d")
_STOP_WORDS = """a about above after again against all also always an and any are as at be because been
before being below between both but by can could did do does doing down during each every few for from
further had has have having he her here hers him his how i if in into is it its itself just me more most
my no nor not now of off on once only or other our ours out over own same she should so some such than
that the their theirs them then there these they this those through to too under until up use used uses
using very via was we were what when where which while who whom why will with would you your yours
owner owners user users prefer prefers preferred works work working project projects team"""
_STOP = frozenset(_STOP_WORDS.split())


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(unicodedata.normalize("NFKC", text))]


_PLACEHOLDER = re.compile(r"\[REDACTED:[^\]]*\]|\[(?:PHONE|CARD|EMAIL)[^\]]*\]")


def _names_and_numbers(text: str) -> list[str]:
    """Words that name something (capitalised inside a sentence) or carry a digit."""
    found: list[str] = []
    text = _PLACEHOLDER.sub(" ", _CODE_SPAN.sub(" ", _URL.sub(" ", text)))  # redaction marks are memseed's
    for sentence in _SENTENCE_END.split(text):
        for position, word in enumerate(_words(sentence)):
            if word.lower().startswith("i'"):  # I'll, I'm, I've: the pronoun, not a name
                continue
            if _NUMBERISH.search(word) or (position > 0 and word[:1].isupper() and word.lower() not in _STOP):
                found.append(word)
    return list(dict.fromkeys(found))


def _key_terms(text: str) -> dict[str, str]:
    """Stem -> the word as written, for the content words of ``text``."""
    terms: dict[str, str] = {}
    for word in _words(text):
        if len(word) >= 3 and word.lower() not in _STOP and not _NUMBERISH.search(word):
            terms.setdefault(_stem(word), word)
    return terms


def _signals_text(digest: Digest) -> str:
    start, end = digest.text.find("<<<BEGIN DATA SIGNALS>>>"), digest.text.find("<<<END DATA SIGNALS>>>")
    return digest.text[start:end] if 0 <= start < end else ""


def support_gaps(values: dict[str, str], ids: Sequence[str], digest: Digest) -> list[str]:
    """What of the fact its cited items do not show (empty: supported). See the module docstring."""
    support = "\n".join([*(digest.heads.get(i, "") + "\n" + digest.texts.get(i, "") for i in ids),
                         _signals_text(digest)])
    plain = _norm(support)
    stems = {_stem(w) for w in _words(plain)}
    stated = "\n".join(values[k] for k in ("description", "body", "key"))
    gaps = [k for k in key_texts(stated) if k not in plain]
    for word in _names_and_numbers(stated):
        if _norm(word) not in plain and _stem(word) not in stems:
            gaps.append(word)
    terms = _key_terms(f"{values['key']}\n{values['description']}")
    missing = [word for stem, word in terms.items() if stem not in stems and stem not in plain]
    if terms and len(missing) * 2 > len(terms):
        gaps += [w for w in missing if w.lower() not in {g.lower() for g in gaps}]
    return list(dict.fromkeys(gaps))


def ungrounded_instruction(values: dict[str, str], ids: Sequence[str], digest: Digest) -> str | None:
    """The first poisoning/exfiltration phrase in a fact that its cited owner blocks do not contain.

    Why here and not only in the gate: the gate applies its scan-time tripwires only when some
    evidence is third-party, and trusts instruction-like text resting on owner-authored evidence,
    because the owner's own rules are legitimate. For a model's output that trust is misplaced:
    citing an owner block proves nothing about the sentence the model wrote. So when every cited
    block is the owner's, a phrase that trips the tripwires must appear word for word in those
    blocks, or the fact is dropped.
    """
    text = "\n".join(values[k] for k in ("name", "description", "body", "key"))
    owner_text = [digest.texts.get(i, "") for i in ids if digest.evidence[i].authored_by_owner]
    for finding in scan_text(text, tripwires=True, structure=False):
        if finding.category == "invisible":
            continue  # already stripped by clean_text
        size = len(word_list(finding.excerpt))
        if size == 0 or not owner_text or shared_run(finding.excerpt, owner_text, size) is None:
            return finding.excerpt
    return None


def _is_instruction(fact_type: str, values: dict[str, str]) -> bool:
    text = "\n".join(values[k] for k in ("description", "body"))
    return fact_type == "feedback" or bool(find_dangerous(text))


def ground_evidence(fact_type: str, values: dict[str, str], ids: Sequence[str],
                    digest: Digest) -> tuple[list[str], str]:
    """(the cited ids an instruction may rest on, why none may); other facts keep every id.

    An instruction may cite only owner-authored blocks (authorship proven by identity, never by a
    From header), and only those holding its key text word for word: a model that cites the
    owner's mail for a command the mail never mentions is not grounded, however trusted the mail.
    """
    if not _is_instruction(fact_type, values):
        return list(ids), ""
    owned = [i for i in ids if digest.evidence[i].authored_by_owner]
    if not owned:
        return [], "an instruction citing no owner-authored evidence"
    keys = key_texts("\n".join(values[k] for k in ("description", "body", "key")))
    if not keys:
        return owned, ""
    grounded = [i for i in owned if all(k in _norm(digest.texts.get(i, "")) for k in keys)]
    if not grounded:
        return [], f"no cited owner block contains {keys[0]!r}"
    return grounded, ""
