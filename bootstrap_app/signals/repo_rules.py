"""What the maintainers require in prose: the normative sentences of contributor docs, quoted.

"PR titles must follow Conventional Commits", "Please squash intermediate commits", "Never
push directly to main" — the rules a contributor guide states about commits, branches, code
style, tests, the changelog and the pull-request process. Each is kept as the maintainers
wrote it, with its file and line, when it (1) states a requirement (must, always, never,
please, do not, make sure, required, should) and (2) is about one of those topics. Untrusted
text stays data: a sentence the dangerous-step gate or the injection scan flags (a planted
``curl … | sh``, "from now on …") is dropped here, before any proposal is built, and the
proposal still passes the full safety gate afterwards.

:func:`guide_topics` says which doc covers what, from its headings, so an agent knows where
to look for the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.safety.dangerous import find_dangerous
from bootstrap_app.safety.injection import scan_text

from .repo_docs import doc_sections

__all__ = ["DocRule", "contributor_rules", "guide_topics"]

_NORMATIVE = re.compile(r"\b(?:must|never|please|do not|don't(?! worry)|make sure|required|requires?|should|need to|"
                        r"ensure|avoid|we (?:follow|use|adhere to|prefer|expect|ask)|follows?)\b|"
                        r"^(?:always|only|use|keep|add|write|run|also|start|note|"
                        r"create|open|describe|include|update|follow|discuss|document|sign|squash|rebase|reference|"
                        r"name|submit|label|acknowledge|indent|prefer|fork|attempt|try|make)\b", re.I)
"""A requirement: a modal or a prohibition anywhere, or an imperative opening ("Always rebase …").
("… are always carefully considered" describes; it does not require.)"""
_STRONG = re.compile(r"\b(?:must|never|required|do not|don't)\b", re.I)
_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("commits", re.compile(r"\bcommit(?:s|ted)?\b|\bsubject line|\bsquash|\bsign(?:ed)?[- ]off|\bconventional commits?\b",
                           re.I)),
    ("branches", re.compile(r"\bbranch(?:es)?\b|\brebase|\bmerge commits?\b|\bfork\b|"
                            r"\b(?:on|to|into|from|against) `?(?:main|master|trunk)\b", re.I)),
    ("pull requests", re.compile(r"\bpull requests?\b|\bPRs?\b|\breview(?:er|s)?\b|\bissue\b", re.I)),
    ("tests", re.compile(r"\btests?\b|\btest suite\b|\bcoverage\b|\bspecs?\b", re.I)),
    ("changelog", re.compile(r"\bchange ?log\b|\bnews (?:fragment|entry)|\brelease notes\b|\bchangeset\b", re.I)),
    ("versioning", re.compile(r"\bsemver\b|\bsemantic versioning\b|\bbreaking changes?\b|\bbackwards?[- ]compatib",
                              re.I)),
    ("docs", re.compile(r"\bdocument(?:ation|ed)?\b|\bdocstrings?\b|@doc\b|@spec\b|\byard\b|\bREADME\b", re.I)),
    ("style", re.compile(r"\bstyle\b|\bformat(?:ted|ting|ter)?\b|\blint(?:er|ing)?\b|\bindent|\bnaming\b|\bspaces\b|"
                         r"\btabs\b|\bstandard\b|\bdocstrings?\b|\btype hints?\b", re.I)),
)
_MAX_RULES = 12
_PER_TOPIC = 3
"""At most three rules per topic, so a guide with twenty test rules still shows its branch and commit rules."""
_TALKS_TO_A_MODEL = re.compile(
    r"\b(?:I|me|my|mine)\b|\b(?:answer|answers|respond|response|responses|reply|replies|question|prompt|persona|"
    r"pretend|role-?play|act as|jailbr\w*|DAN|AI|assistant|chat ?bot|language model|GPT|ChatGPT|OpenAI|output)\b")
"""A maintainer's rule is about the project's work and says "we"; a sentence that speaks to a model in the
first person ("When I ask you a question, answer …") is an injection, whatever its topic word."""
_ABOUT_THE_DOC = re.compile(r"\b(?:this (?:document|guide|file|page)|refer to|for more information|read (?:the|this))\b", re.I)


@dataclass(frozen=True)
class DocRule:
    """One requirement in the maintainers' words, where it is written, and what it is about."""

    text: str
    where: str
    topic: str


def _prose(text: str) -> list[tuple[int, str]]:
    """(line, sentence) of the doc's prose: paragraphs and list items, never code, headings or tables."""
    heads = {line for line, _ in doc_sections(text)}
    out: list[tuple[int, str]] = []
    para: list[tuple[int, str]] = []
    fence = False

    def flush() -> None:
        if para:
            joined = " ".join(t for _, t in para)
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'`*])", joined):
                head = sentence.strip()[:24]
                line = next((n for n, t in para if head in t), para[0][0])  # the line the sentence starts on
                out.append((line, sentence.strip()))
            para.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            fence = not fence
            flush()
            continue
        if fence or n in heads or not line or line.startswith(("|", "<", ">", "..", "#")) or (raw.startswith("    ") \
                and not para) or re.fullmatch(r"[-=~^*]{3,}", line):
            flush()
            continue
        if re.match(r"^(?:[-*+]|\d+[.)])\s+", line):  # a list item starts a new paragraph
            flush()
            line = re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", line)
        para.append((n, line))
    flush()
    return out


def _clean(sentence: str) -> str:
    s = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", sentence)
    s = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", s)
    s = re.sub(r"\*\*|__", "", s)
    return " ".join(s.split())


def contributor_rules(docs: list[tuple[str, str]]) -> tuple[DocRule, ...]:
    """The normative sentences about commits, branches, PRs, tests, changelog and style, doc order kept."""
    out: list[DocRule] = []
    seen: set[str] = set()
    for path, text in docs:
        if scan_text(text, tripwires=False):
            continue  # a guide that carries an injection is not quoted at all (a planted step only loses its sentence)
        for line, raw in _prose(text):
            sentence = _clean(raw)
            if not (20 <= len(sentence) <= 300) or not _NORMATIVE.search(sentence) or re.search(r"https?://|www\.", sentence) \
                    or (sentence.endswith(":") and not _STRONG.search(sentence)):
                continue  # "Make sure the tests pass:" introduces a block; the block is the rule
            topic = next((name for name, rx in _TOPICS if rx.search(sentence)), "")
            key = sentence.lower()
            if not topic or key in seen or _ABOUT_THE_DOC.search(sentence) or _TALKS_TO_A_MODEL.search(sentence) \
                    or sum(r.topic == topic for r in out) >= _PER_TOPIC or find_dangerous(sentence) or scan_text(sentence):
                continue
            seen.add(key)
            out.append(DocRule(sentence, f"{path}:{line}", topic))
    return tuple(out[:_MAX_RULES])


def guide_topics(docs: list[tuple[str, str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(doc path, its section headings) for each contributor doc: what each one covers."""
    out = []
    for path, text in docs:
        heads = [re.sub(r"[*_`]|\[([^\]]+)\]\([^)]*\)", r"\1", h).strip() for _, h in doc_sections(text)]
        heads = [h for h in dict.fromkeys(heads) if 2 <= len(h) <= 60 and not scan_text(h) and not find_dangerous(h)]
        if heads:
            out.append((path, tuple(heads[:8])))
    return tuple(out)
