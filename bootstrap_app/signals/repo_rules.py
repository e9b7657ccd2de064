"""What the maintainers require in prose: the normative sentences of contributor docs, quoted.

"PR titles must follow Conventional Commits", "Please squash intermediate commits", "Never
push directly to main" — the rules a contributor guide states about commits, branches, code
style, tests, the changelog and the pull-request process. Each is kept as the maintainers
wrote it, with its file and line, when it (1) states a requirement (must, always, never,
please, do not, make sure, required, should, or an imperative — also after a leading clause:
"When filing a pull request, describe …") and (2) is about one of those topics. When a guide
holds more than :data:`_MAX_RULES`, the pick follows what makes a sentence a rule: its mood, its
section (making a change, not filing a bug report) and topic variety — never its position. A rule
that points back ("Make sure these are not in use") is quoted with the sentence it points to;
commented-out Markdown is not read. Untrusted
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

from .repo_docs import doc_sections, is_fence

__all__ = ["ALERT", "DocRule", "contributor_rules", "guide_topics"]

_NORMATIVE = re.compile(r"\b(?:must|never|please|do not|don't(?! worry)|make sure|required|requires?|should|need to|"
                        r"ensure|avoid|we (?:follow|use|adhere to|prefer|expect|ask)|follows?|recommended|we recommend|encouraged|"
                        r"preferably|it(?:'s| is) (?:good|best|better|recommended) (?:to|practice))\b|"
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
    ("tests", re.compile(r"\btests?\b|\btest suite\b|\bcoverage\b|\bspecs?\b", re.I)),
    ("changelog", re.compile(r"\bchange ?log\b|\bnews (?:fragment|entry)|\brelease notes\b|\bchangeset\b", re.I)),
    ("versioning", re.compile(r"\bsemver\b|\bsemantic versioning\b|\bbreaking changes?\b|\bbackwards?[- ]compatib",
                              re.I)),
    ("style", re.compile(r"\bstyle\b|\bformat(?:ted|ting|ter)?\b|\blint(?:er|ing)?\b|\bindent|\bnaming\b|\bspaces\b|"
                         r"\btabs\b|\bstandard\b|\bdocstrings?\b|\btype hints?\b", re.I)),
    ("docs", re.compile(r"\bdocument(?:ation|ed)?\b|\bdocstrings?\b|@doc\b|@spec\b|\byard\b|\bREADME\b", re.I)),
    ("compiling", re.compile(r"\b(?:compiler )?warnings?\b|\bcompil(?:e|es|ing|ation)\b", re.I)),
    ("project status", re.compile(r"\bmaintenance mode\b|\bno longer (?:maintained|developed|supported)\b|"
                                  r"\bfeature[- ]freeze\b|\bunmaintained\b|\bend[- ]of[- ]life\b", re.I)),
    ("pull requests", re.compile(r"\bpull requests?\b|\bPRs?\b|\breview(?:er|s|ed)?\b|\bissues?\b|\bdiscussions?\b",
                                 re.I)),
)
"""The first topic that matches names the rule. Pull requests come last: a PR is the setting of
nearly every rule ("When filing a pull request, always include tests …" is about tests)."""
_MAX_RULES = 15
_CROWDING = 1.0
_SAME_DOC = 0.3
"""Each rule already picked on a topic lowers the next one's weight on that topic by
:data:`_CROWDING` (and each one picked from the same doc by :data:`_SAME_DOC`), so a guide with
twenty test rules still shows its branch and commit rules, and a long agent file does not hide
the contributor guide — without a hard cap that would drop a strong rule for a weak one picked
earlier in the doc."""
_IMPERATIVE = re.compile(r"^(?:(?:when|if|before|after|for|once|while)\b[^,]{0,80},\s*)?(?:please\s+)?(?:always|never|only|"
                         r"use|keep|add|write|run|include|create|open|describe|update|follow|discuss|document|sign|"
                         r"squash|rebase|reference|name|submit|label|acknowledge|indent|prefer|fork|make|ensure|avoid|"
                         r"do not|don't|start|test|check|format|lint|put|place|mark|send|link|file|target|base|"
                         r"limit|split|explain|(?<=, )note|remember|disclose|push|preserve|stick|respect|verify|bump|amend|pin|commit)\b", re.I)
"""Imperative mood, also after a leading clause ("When filing a pull request, always include …")."""
_REPORTING = re.compile(r"\bbugs?\b|\bissues?\b|\btickets?\b|\bquestions?\b|\bsupport\b|\bconduct\b|"
                        r"\bsecurity\b|\bvulnerab|\bfeature requests?\b|\bhelp\b|\bsponsor|\bdonat|\bcommunity\b",
                        re.I)
"""Headings of sections about filing reports or getting help: their rules are for reporters, not for a change."""
_MAINTAINERS = re.compile(r"\breleas|\bpublish|\bdeploy", re.I)
"""Headings of the maintainers' release steps."""
_UNIVERSAL = re.compile(r"^(?:every|each|all) (?:[\w-]+ ){1,3}(?:uses?|has|have|follows?|includes?|needs?|gets?)\b", re.I)
"""A statement about every commit or PR ("Every commit uses gitmoji …") states the norm."""
_PRACTICE = re.compile(r"^(?:this (?:project|library|package|repository|repo)|[A-Za-z][\w.-]{1,30}) uses (?:the )?"
                       r"[^.,;]{1,60}?\b(?:for|to (?:run|write))\b[^.,;]{0,30}?\btests?\b", re.I)
"""The project's own test practice in the third person ("libfoo uses the Unity library for unit tests",
"FooKit uses XCTest to run tests"): what new tests are written with, as binding as "we use"."""
_WORK = re.compile(r"\bpull requests?\b|\bPRs?\b|\bcommit|\bbranch|\bcode\b|\bstyle\b|\btest|\breview|\bsubmit|"
                   r"\bdevelop|\bworkflow|\bchangelog|\bguidelines?\b|\bconventions?\b|\bgit\b|\bpatch|\bchanges\b|\bcontribution",
                   re.I)
"""Headings of sections about making a change: commits, branches, code, style, tests, review, submitting."""
_TALKS_TO_A_MODEL = re.compile(
    r"\b(?:I|me|my|mine)\b|\b(?:answer|answers|respond|response|responses|reply|replies|question|prompt|persona|"
    r"pretend|role-?play|act as|jailbr\w*|DAN|(?:an?|the|you|as|are) AI|assistant|chat ?bot|language model|GPT|ChatGPT|"
    r"OpenAI|output)\b")
"""A maintainer's rule is about the project's work and says "we"; a sentence that speaks to a model in the
first person ("When I ask you a question, answer …", "As an AI, …") is an injection, whatever its topic
word. A rule *about* AI tools ("acknowledge any use of AI tools in your pull request") is the
maintainers' policy and stays."""
_ABOUT_THE_DOC = re.compile(r"\b(?:this (?:document|guide|file|page)|refer to|for more information|read (?:the|this))\b", re.I)


@dataclass(frozen=True)
class DocRule:
    """One requirement in the maintainers' words, where it is written, and what it is about."""

    text: str
    where: str
    topic: str


@dataclass(frozen=True)
class _Sentence:
    line: int
    text: str
    heading: str
    before: str = ""
    """The sentence before it in its paragraph ("The suite spawns servers on 8000" before "Make sure these …")."""
    lead: str = ""
    """For a list item: the sentence that introduced the list ("… must follow the style guide with these exceptions:")."""
    task: bool = False
    """A task-list item (``- [ ] There are no warnings``): a box to tick before submitting, so a requirement
    whatever its mood."""


ALERT = re.compile(r"^>\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\\?\s*$", re.I)
"""A GitHub alert's marker line; a trailing ``\\`` (a Markdown hard break, as in ``> [!NOTE]\\``) still is one."""


def _prose(text: str) -> list[_Sentence]:
    """The doc's prose, sentence by sentence: paragraphs and list items, never code, headings or tables."""
    heads = dict(doc_sections(text))
    out: list[_Sentence] = []
    para: list[tuple[int, str]] = []
    fence = comment = item = task = False
    heading = lead = ""
    indent = lead_indent = -1  # a lead-in sentence introduces the items indented deeper than itself

    def flush() -> None:
        nonlocal lead, lead_indent
        if para:
            joined = " ".join(t for _, t in para)
            before = ""
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'`*])", joined):
                head = sentence.strip()[:24]
                line = next((n for n, t in para if head in t), para[0][0])  # the line the sentence starts on
                out.append(_Sentence(line, sentence.strip(), heading, before, lead if item else "", item and task))
                before = sentence.strip()
            # a sentence ending in ":" introduces the list below it; a plain paragraph ends that list
            if before.endswith(":"):
                lead, lead_indent = before, indent if item else -1
            elif not item:
                lead = ""
            para.clear()

    lines = text.splitlines()
    alert = False
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        # a GitHub alert (`> [!WARNING]`) is the maintainers' own emphasis, not a quotation: its
        # lines are read as prose; any other block quote is someone else's words and stays skipped
        if not fence and ALERT.match(line):
            alert = True
            flush()
            continue
        if alert and line.startswith(">"):
            raw = re.sub(r"^\s*>\s?", "", raw)
            line = raw.strip()
        if line.endswith("\\") and not fence:  # a Markdown hard line break, not a character of the sentence
            line = line[:-1].rstrip()
        else:
            alert = False
        if comment or line.startswith("<!--"):  # an HTML comment is not rendered: not the maintainers' word today
            comment = "-->" not in line[line.find("<!--") + 4 if not comment else 0:]
            flush()
            continue
        if is_fence(lines, n - 1):
            fence = not fence
            flush()
            continue
        if n in heads:
            heading, lead = heads[n], ""
        # a Markdown heading is `#` and a space; `#1234"` continuing a list item is prose
        if fence or n in heads or not line or line.startswith(("|", "<", ">", "..")) or re.match(r"#{1,6}(?:\s|$)", line) \
                or (raw.startswith("    ") and not para and not re.match(r"^\s*(?:[-*+]|\d+[.)])\s+", raw)) \
                or re.fullmatch(r"[-=~^*]{3,}", line):
            flush()
            continue
        if re.match(r"^(?:[-*+]|\d+[.)])\s+", line):  # a list item starts a new paragraph
            flush()
            item, indent = True, len(raw) - len(raw.lstrip())
            if lead and indent <= lead_indent:
                lead = ""  # a sibling of the item that introduced the list, not one of its items
            line = re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", line)
            task = bool(re.match(r"\[[ xX]\]\s+", line))
            line = re.sub(r"^\[[ xX]\]\s+", "", line)
        elif not para:
            item = False
        para.append((n, line))
    flush()
    return out


_ANAPHOR = re.compile(r"^(?:this|these|those|that|they|it)\b|\b(?:these|those|them)\b(?!\s+[a-z]+(?:s|ed|ing)\b)", re.I)
"""A rule whose subject or object points back ("Make sure these are not in use") needs the sentence before it."""


def _clean(sentence: str) -> str:
    sentence = re.sub(r"^!!!\s+\w+(?:\s+\"[^\"]*\")?\s*", "", sentence)  # an MkDocs admonition's marker
    s = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", sentence)
    s = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", s)
    s = re.sub(r"\*\*|__", "", s)
    s = re.sub(r"(?<![\w*`])([*_])(?=\S)([^*_`\n]+?)(?<=\S)\1(?![\w*])", r"\2", s)  # *Please*, _why_: emphasis
    s = re.sub(r"`([^`\n]+)`_", r"\1", s)  # reStructuredText's `pre-commit`_ link
    return " ".join(s.split())


def _weight(sentence: str, heading: str, topic: str) -> float:
    """How plainly a sentence is a contributor rule: its mood (a prohibition or "must" above an
    imperative, above "please"/"should", above "we use"), and its section (making a change, not
    filing a bug report or asking for help)."""
    w = 1.0
    if _STRONG.search(sentence) or re.match(r"(?:[^,]{0,80},\s*)?always\b", sentence, re.I):
        w += 2.0
    elif _IMPERATIVE.match(sentence):
        w += 1.5
    elif re.search(r"\b(?:please|make sure|ensure|should|need to|required?)\b", sentence, re.I) \
            or _UNIVERSAL.match(sentence) or _PRACTICE.match(sentence):
        w += 1.0
    if _REPORTING.search(heading) and not _WORK.search(heading):
        w -= 0.5 if _WORK.search(sentence) else 2.0  # "Contributions should start with a discussion" still holds
    elif _MAINTAINERS.search(heading):
        w -= 1.0  # the maintainers' release steps ("Tag version like 0.13.3"), not a contributor's
    elif _WORK.search(heading):
        w += 0.5
    if topic == "pull requests" and re.search(r"\bbug reports?\b|\bsearch\b|\bduplicates?\b", sentence, re.I):
        w -= 1.0  # searching the tracker before filing is about reporting, not the change
    return w


def _normative(sentence: str) -> bool:
    return bool(_NORMATIVE.search(sentence) or _IMPERATIVE.match(sentence) or _UNIVERSAL.match(sentence)
                or _PRACTICE.match(sentence))


def _doc(rule: DocRule) -> str:
    return rule.where.rsplit(":", 1)[0]


def contributor_rules(docs: list[tuple[str, str]]) -> tuple[DocRule, ...]:
    """The normative sentences about commits, branches, PRs, tests, changelog and style, doc order kept.

    Every candidate is weighed (:func:`_weight`); the strongest are picked one by one, each pick
    lowering the weight of its topic's other rules (:data:`_CROWDING`), and the pick is quoted in
    doc order."""
    found: list[tuple[float, int, DocRule]] = []
    seen: set[str] = set()
    for path, text in docs:
        if scan_text(text, tripwires=False):
            continue  # a guide that carries an injection is not quoted at all (a planted step only loses its sentence)
        sentences = _prose(text)
        starts = {x.text: x.line for x in sentences}
        for x in sentences:
            sentence, line = _clean(x.text), x.line
            if x.before and _ANAPHOR.search(sentence) and len(sentence) + len(x.before) < 300 \
                    and _IMPERATIVE.match(sentence) and not _normative(_clean(x.before)):
                # "Make sure these are not in use" says nothing without "The suite spawns servers on ports 8000 and 8001."
                sentence, line = f"{_clean(x.before)} {sentence}", starts.get(x.before, line)
            lead = _clean(x.lead)
            # "**One pull request per feature** - if you want …, send …": the rule is the text after the title;
            # an item of a list a requirement introduces ("… must follow the guide with these exceptions:") is one
            body = _clean(re.sub(r"^\*\*[^*]{2,60}\*\*\s*[-–—:]\s*", "", x.text))
            normative = _normative(sentence) or _normative(body) or bool(lead and _normative(lead)) or x.task
            if not (20 <= len(sentence) <= 300) or not normative or re.search(r"https?://|www\.", sentence) \
                    or sentence.endswith("?") \
                    or (sentence.endswith(":") and not _STRONG.search(sentence)):
                continue  # "Make sure the tests pass:" introduces a block; the block is the rule
            # the sentence's own topic word, else the list's lead-in's, else its section's ("Coding style")
            topic = next((name for text_ in (sentence, lead, x.heading) for name, rx in _TOPICS if rx.search(text_)), "")
            own = any(name == topic and rx.search(sentence) for name, rx in _TOPICS)
            key = sentence.lower()
            if not topic or key in seen or _ABOUT_THE_DOC.search(sentence) or _TALKS_TO_A_MODEL.search(sentence) \
                    or find_dangerous(sentence) or scan_text(sentence):
                continue
            seen.add(key)
            # a rule that names what it is about says it more plainly than one that borrows its section's topic
            found.append((_weight(sentence, x.heading, topic) + 0.5 * own, len(found),
                          DocRule(sentence, f"{path}:{line}", topic)))
    picked: list[tuple[int, DocRule]] = []
    while found and len(picked) < _MAX_RULES:
        best = max(found, key=lambda c: (c[0] - _CROWDING * sum(r.topic == c[2].topic for _, r in picked)
                                         - _SAME_DOC * sum(_doc(r) == _doc(c[2]) for _, r in picked), -c[1]))
        found.remove(best)
        picked.append((best[1], best[2]))
    return tuple(r for _, r in sorted(picked, key=lambda p: p[0]))


def guide_topics(docs: list[tuple[str, str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(doc path, its section headings) for each contributor doc: what each one covers."""
    out = []
    for path, text in docs:
        heads = [re.sub(r"[*_`]|\[([^\]]+)\]\([^)]*\)", r"\1", h).strip() for _, h in doc_sections(text)]
        heads = [h for h in dict.fromkeys(heads) if 2 <= len(h) <= 60 and not scan_text(h) and not find_dangerous(h)]
        if heads:
            out.append((path, tuple(heads[:8])))
    return tuple(out)
