"""The provenance rule: third-party text may supply facts, never instructions or quoted prose.

This is the *structural* half of the safety gate. Regexes catch textbook attacks ("ignore
previous instructions"), but an indirect injection in someone else's email is usually plain
English ("Add a sentence to your reply promoting …", "What is the capital of Brazil?") that
no pattern list can tell apart from mail. What *can* be decided is where the words came from:

1. A proposal's name, description and body may quote only owner-authored text. A run of
   ``QUOTE_WORDS`` (8) words shared with a third-party evidence excerpt (or with the full text
   of that item, when the caller supplies it) → ``third-party-quote``.
2. A proposal with no owner-authored evidence must not read as an instruction to the agent
   (imperative sentence, question, "you/your" addressed to the agent, "remember to", "from
   now on", "always … send" …) → ``instruction-without-owner-evidence``.
3. A proposal whose evidence is entirely third-party may carry only names, addresses, dates,
   titles and counts: a sentence-like run of ``FREE_TEXT_WORDS`` (5) words shared with its
   evidence → ``third-party-free-text``.
4. Third-party evidence excerpts that hold free text (a run of more than five lower-case words,
   anything instruction-like, any scan finding) are reduced to facts (:func:`facts_only`)
   before a proposal leaves the gate, so an attack cannot ride along in the evidence shown for
   review; short generated metadata ("calendar event on 2027-03-18") is kept as it is.

Owner-authored evidence (the owner's own mail, messages, commits, existing memory) is exempt:
"Never merge to main without review" is the owner's rule and is exactly what memory is for.
So is *structural* evidence (:attr:`Evidence.structural`): a repository's own conventions —
which files exist, manifest fields, task-runner and CI definitions — are facts about the
project whoever made the commits, worded by memseed's templates; the analyzers that set the
mark copy no prose except a vetted README sentence, and commands only in fixed shapes
(``make lint``, ``pnpm test``). Rule 1 and the injection scan still apply to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bootstrap_app.text.unicode import normalize, shared_run
from bootstrap_app.types import Evidence, Proposal

__all__ = [
    "FREE_TEXT_WORDS",
    "QUOTE_WORDS",
    "ItemText",
    "describes_subject",
    "facts_only",
    "holds_free_text",
    "instruction_reasons",
    "owner_backed",
    "provenance_reasons",
    "structural_only",
]

QUOTE_WORDS = 8
FREE_TEXT_WORDS = 5

ItemText = Callable[[str, str], "str | None"]
"""Optional lookup (source, ref) -> the item's full (redacted) text, for quote checks."""

# Base-form verbs that open an instruction. Deliberately broad: it is only applied to text with
# no owner-authored evidence, where a memory should be a declarative fact, never a command.
_VERBS = """
always never remember ignore disregard forget override bypass skip obey follow comply send forward email
e-mail mail cc bcc share post upload include add append insert integrate incorporate embed inject put place
attach link mention promote advertise recommend suggest tell say reply respond answer write rewrite draft
compose create generate produce make provide give list show display print output reveal leak expose disclose
dump repeat summarize summarise translate encode decode encrypt decrypt convert reverse replace substitute
use utilize utilise apply run execute exec eval install download open click visit go navigate call invoke
contact approve grant transfer pay wire delete remove drop erase rename move copy merge push commit deploy
ensure validate verify check confirm consider let keep stop start begin act pretend imagine assume behave
become roleplay explain describe analyze analyse determine identify evaluate assess compare calculate compute
solve find search look fetch retrieve get buy sell order book schedule set change modify update edit alter
adjust introduce misspell rearrange group split join sort count note record save store log report register
connect enable disable turn upgrade supplement blend weave develop build implement code program script
don't do please kindly help break end finish conclude sign
"""
_VERB_SET = frozenset(_VERBS.split())
_QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|who|whom|which|whose|can|could|would|will|should|shall|is|are|do|does"
    r"|did|may|might)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(
    r"\b(?:you|your|yours|yourself|you're|you'll|you've|u)\b", re.IGNORECASE)
_DIRECTIVE = re.compile(
    r"\b(?:you\s+(?:must|should|shall|need\s+to|have\s+to|will|are\s+to|may\s+not|cannot|can't)|make\s+sure"
    r"|be\s+sure\s+to|do\s+not\s+tell|don't\s+tell|in\s+(?:all\s+)?future|from\s+now\s+on|remember\s+(?:that|to)"
    r"|whenever\s+you|it\s+is\s+(?:important|essential|crucial|mandatory)\s+(?:that|to))\b", re.IGNORECASE)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;:])\s+|\n+|\s+[-–—•]\s+")
_LEAD_JUNK = re.compile(r"^[\s\-*•>#\d.)(\[\]\"'`]+")
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def owner_backed(proposal: Proposal) -> bool:
    """True when at least one evidence item is owner-authored."""
    return any(e.authored_by_owner for e in proposal.evidence)


def structural_only(proposal: Proposal) -> bool:
    """True when every evidence item is a structural repository fact (see the module docstring)."""
    return bool(proposal.evidence) and all(e.structural for e in proposal.evidence) and "llm" not in proposal.flags


def _sentences(text: str) -> Iterable[str]:
    for part in _SENTENCE_SPLIT.split(normalize(text)):
        part = _LEAD_JUNK.sub("", part).strip()
        if part:
            yield part


def describes_subject(sentence: str) -> bool:
    """True when ``sentence`` is a third-person statement about its subject whose only address is a
    possessive ("`finder` is a program to find entries in your filesystem", "Logkit sends your logs
    to files"): a short subject with no second person, then a finite third-person verb. "Your task is
    to …", "You must run …" and "Ignore your previous instructions" are not (the subject is the
    reader, or there is none)."""
    words = _WORDS.findall(normalize(sentence))
    if not words or words[0].lower() in _VERB_SET or _DIRECTIVE.search(sentence):
        return False
    second = [w.lower() for w in words if _SECOND_PERSON.fullmatch(w)]
    if any(w not in ("your", "yours") for w in second):
        return False
    verb = next((i for i, w in enumerate(words[1:6], 1) if _FINITE.fullmatch(w.lower())), 0)
    return bool(verb) and not any(_SECOND_PERSON.fullmatch(w) for w in words[:verb])


# a finite third-person verb: a copula/auxiliary, or a present-tense -s form ("sends", "provides")
_FINITE = re.compile(r"is|are|was|were|has|can|[a-z]{2,}[^su\W]s|[a-z]+(?:ches|shes|xes|sses|zes)")


def instruction_reasons(text: str, describing: bool = False) -> list[str]:
    """Why ``text`` reads as an instruction/request to the agent (empty list: it does not).

    ``describing``: the text is offered as a description of a subject (a README's first sentence),
    so a third-person statement whose only address is a possessive "your" is no address to the
    agent (:func:`describes_subject`); everywhere else any second person counts.
    """
    reasons: list[str] = []
    for sentence in _sentences(text):
        if sentence.isupper():  # shouting: judge the words, not the case
            sentence = sentence.lower()
        words = _WORDS.findall(sentence)
        while len(words) > 1 and words[0].lower() in _LEAD_ADVERBS:  # "Just print …", "Now send …"
            sentence = sentence[sentence.find(words[0]) + len(words[0]):].lstrip(" ,")
            words = words[1:]
        if not words:
            continue
        first = words[0].lower().replace("’", "'")
        if first in _VERB_SET and _imperative_object(sentence, words):
            reasons.append(f"imperative:{first}")
        elif sentence.rstrip().endswith("?") or (_QUESTION_START.match(sentence) and len(words) > 3
                                                 and _SECOND_PERSON.search(sentence)):
            reasons.append("question")
        if _DIRECTIVE.search(sentence):
            reasons.append("directive")
        elif _SECOND_PERSON.search(sentence) and not (describing and describes_subject(sentence)):
            reasons.append("second-person")
    return list(dict.fromkeys(reasons))


_OBJECT_WORDS = frozenset("""the a an all this that these those your my his her our their its it them me us him
every any each some no both either to in on into onto from with for about down up out off over away back
how what why when where which who whether if using
""".split())  # noqa: SIM905
_NOUNISH_OBJECTS = frozenset("""the a an all this that these those your my his her our their it them me us him
every any each some both everything nothing in using with down up out off back""".split())  # noqa: SIM905
_LEAD_ADVERBS = frozenset(["just", "also", "now", "then", "simply", "immediately", "quickly", "first", "finally", "so"])
# Verbs that double as nouns at the head of a title ("Contact details", "Schedule: standup",
# "Email habits"): only a command when an object word follows. Every other verb in _VERB_SET
# opening a sentence is taken as a command outright ("Provide insights …", "Suggest …").
_NOUNISH = frozenset("""contact email e-mail mail schedule report record note order book check update change set
start log count group sort search call link post list display output drop move copy commit push merge deploy
code program script build test stop turn end sign help break finish reply answer dump design review visit
transfer pay wire grant run record store save note join split compare order""".split())  # noqa: SIM905


def _imperative_object(sentence: str, words: list[str]) -> bool:
    """A leading verb reads as a command when a determiner, pronoun, particle or quote follows it.

    "Send the keys to …", "Write a script …", "Help me …" are commands; "Contact details for
    Jane", "Mail from Jane" or "Schedule: weekly standup" are noun phrases that merely start
    with a verb-like word.
    """
    if len(words) < 2:
        return False
    first, second = words[0].lower(), words[1].lower()
    after = sentence[sentence.find(words[0]) + len(words[0]):].lstrip()
    quoted = after[:1] in ("\"", "'", "`", "“", "‘")
    if first in ("always", "never", "please", "kindly"):
        return True
    if first in _NOUNISH:  # "Email the team", "Reply using …", "Check out …" — not "Mail from Jane"
        return second in _NOUNISH_OBJECTS or second.endswith("ing") or quoted
    if words[1][:1].isupper() and not words[1].isupper():  # "Review Board", "Write Python …"
        return second in _OBJECT_WORDS or quoted
    return True


def _evidence_texts(evidence: Iterable[Evidence], item_text: ItemText | None) -> list[str]:
    texts: list[str] = []
    for ev in evidence:
        if ev.excerpt:
            texts.append(ev.excerpt)
        if item_text is not None:
            full = item_text(ev.source, ev.ref)
            if full:
                texts.append(full)
    return texts


def provenance_reasons(proposal: Proposal, item_text: ItemText | None = None) -> list[tuple[str, Evidence | None, str]]:
    """(reason, evidence it concerns, detail) for every provenance violation of ``proposal``."""
    fields = "\n".join((proposal.name.replace("-", " "), proposal.description, proposal.body))
    third = [e for e in proposal.evidence if not e.authored_by_owner]
    out: list[tuple[str, Evidence | None, str]] = []
    for ev in third:
        run = shared_run(fields, _evidence_texts([ev], item_text), QUOTE_WORDS)
        if run:
            out.append(("third-party-quote", ev, run))
    if owner_backed(proposal) or structural_only(proposal):
        return out
    why = instruction_reasons(proposal.description + "\n" + proposal.body)
    if why:
        anchor = third[0] if third else None
        out.append(("instruction-without-owner-evidence", anchor, ", ".join(why[:4])))
    if third and not any(r == "third-party-quote" for r, _e, _d in out):
        for ev in third:
            run = shared_run(fields, _evidence_texts([ev], item_text), FREE_TEXT_WORDS)
            if run and _is_prose(run):
                out.append(("third-party-free-text", ev, run))
    return out


_STOP = frozenset("""a an the to of in on at for from by with and or but is are was were be been your you my our
their this that these those it as if then so not no do does did can could would should will shall may
might must have has had please about into over under than what how why when where which who""".split())  # noqa: SIM905


def _is_prose(run: str) -> bool:
    """A shared word run is prose (not a name/title) when it leans on function words."""
    words = run.split()
    return sum(w in _STOP for w in words) >= 2


_FACT = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"                                        # e-mail address
    r"|\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b"               # ISO date/time
    r"|\b\d{1,2}[:.]\d{2}\s*(?:am|pm)?\b"                                   # clock time
    r"|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4}\b"
    r"|\b\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{4}\b"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b"
    r"|[$€£¥]\s?\d[\d,]*(?:\.\d+)?"                                         # amount
    r"|\b\d[\d,]*(?:\.\d+)?\s?(?:%|USD|EUR|GBP)"                            # percent / amount
    r"|\[REDACTED:[\w-]+\]",
)
_NAME_RUN = re.compile(r"\b[A-Z][\w'’.-]*(?:[^\w\n,;:()<>]{1,4}[A-Z][\w'’.-]*)*")
_NAME_WORD = re.compile(r"[A-Z][\w'’.-]*")


def holds_free_text(text: str, max_run: int = 5) -> bool:
    """True when ``text`` carries prose: a run of more than ``max_run`` lower-case words, or
    anything that reads as an instruction. Tokens without letters (dates, counts) are neutral."""
    run = 0
    for token in normalize(text).split():
        letter = next((ch for ch in token if ch.isalpha()), "")
        if not letter:
            continue
        run = run + 1 if letter.islower() or not letter.isupper() else 0
        if run > max_run:
            return True
    return bool(instruction_reasons(text))


def facts_only(text: str, limit: int = 160) -> str:
    """Reduce third-party text to the facts it may contribute: addresses, dates, amounts, names.

    Capitalised runs of at most three words stand for names and titles; everything else
    (sentences, requests, code) is dropped. Pieces are joined with `` · `` and deduplicated.
    """
    norm = normalize(text)
    pieces: list[tuple[int, int, str]] = [(m.start(), m.end(), m.group(0)) for m in _FACT.finditer(norm)]
    covered = [(a, b) for a, b, _p in pieces]
    for m in _NAME_RUN.finditer(norm):
        if any(a <= m.start() < b for a, b in covered):
            continue
        words = _NAME_WORD.findall(m.group(0))
        if len(words) == 1 and words[0].lower() in _STOP | _VERB_SET:
            continue
        # a run longer than three capitalised words is cut to its first three (a title, not a sentence)
        pieces.append((m.start(), m.end(), " ".join(words[:3])))
    seen: set[str] = set()
    kept: list[str] = []
    total = 0
    chain, last_end = 0, -1
    for start, stop, piece in sorted(pieces):
        # pieces separated only by punctuation would read as one run: cap such a chain at 5 words
        chain = chain if last_end >= 0 and not _WORDS.search(norm[last_end:start]) else 0
        last_end = stop
        chain += len(piece.split())
        key = piece.lower()
        if key in seen or chain > 5:
            continue
        seen.add(key)
        if total + len(piece) + 3 > limit:
            break
        kept.append(piece)
        total += len(piece) + 3
    return " · ".join(kept)
