"""What a person's turn to an agent says about how they want the agent to work, in any language.

Why cue words per language and not a model: the statements that matter have a small, stable
shape in every language — a rule word ("always", "never", "immer", "jamais", "siempre",
"总是"), an instruction to prefer one thing to another ("X instead of Y", "statt", "au lieu
de", "而不是"), or a correction ("that's wrong", "you broke", "das ist falsch", "c'est faux").
The lists below cover the languages people most often write to agents in; a sentence in any
other language still counts when it is repeated across sessions with a shared imperative shape
(the grouping in :mod:`.sessions` works on tokens, not words it knows).

What is never a preference: a question, a short acknowledgement ("ok", "continue", "yes
please", "weiter", "d'accord"), a line of pasted output. Only sentences are looked at, one by
one, so a long task description gives only its rule-shaped sentences.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Statement", "about_self", "guess_language", "is_acknowledgement", "statements", "topic_tokens"]


@dataclass(frozen=True)
class Statement:
    """One sentence of a person's turn that states how they want things done."""

    text: str
    kind: str
    """``rule`` (stated as always/never/from now on), ``preference`` or ``correction``."""
    negative: bool
    """True when it asks the agent *not* to do something (used to spot a later contradiction)."""


def _words(*items: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(" + "|".join(items) + r")(?![\w])", re.IGNORECASE)


_RULE = _words(
    r"always", r"never", r"from now on", r"every time", r"each time", r"whenever", r"as a rule", r"as each",
    r"in general", r"do not ever", r"don'?t ever", r"at all times",
    r"immer", r"niemals", r"nie", r"ab jetzt", r"jedes mal", r"grunds[äa]tzlich",
    r"toujours", r"jamais", r"d[ée]sormais", r"[àa] partir de maintenant", r"chaque fois",
    r"siempre", r"nunca", r"jam[áa]s", r"a partir de ahora", r"cada vez",
    r"sempre", r"a partir de agora", r"d'ora in poi", r"mai", r"ogni volta",
    r"altijd", r"nooit", r"vanaf nu", r"elke keer",
    r"всегда", r"никогда", r"с этого момента", r"каждый раз",
    r"zawsze", r"nigdy", r"her zaman", r"asla",
)
_RULE_CJK = re.compile(r"(总是|永远|始终|每次|以后|今后|絶対|常に|いつも|今後|毎回|항상|절대|앞으로)")
_PREFER = _words(
    r"instead of", r"rather than", r"i prefer", r"i'?d prefer", r"i want you to", r"i'?d like you to",
    r"please use", r"please don'?t", r"please do not", r"do not", r"don'?t", r"stop \w+ing", r"make sure",
    r"be sure to", r"remember to", r"you should", r"you must", r"you need to", r"no more", r"prefer",
    r"use \S+,? not", r"only use", r"avoid",
    r"statt", r"anstatt", r"lieber", r"bitte kein\w*", r"bitte nicht", r"nicht mehr", r"achte darauf",
    r"denk daran", r"ich m[öo]chte", r"verwende", r"benutze", r"du sollst", r"du musst",
    r"au lieu de", r"plut[ôo]t que", r"je pr[ée]f[èe]re", r"n'utilise pas", r"ne fais pas", r"utilise \S+ (?:et )?pas",
    r"assure-toi", r"n'oublie pas", r"il faut",
    r"en lugar de", r"en vez de", r"prefiero", r"no uses", r"aseg[úu]rate", r"no olvides",
    r"em vez de", r"prefiro", r"n[ãa]o use", r"certifique-se",
    r"invece di", r"preferisco", r"non usare", r"assicurati",
    r"in plaats van", r"liever", r"gebruik",
    r"вместо", r"предпочитаю", r"не используй", r"используй", r"не надо", r"пожалуйста,? не",
)
_PREFER_CJK = re.compile(r"(而不是|不要|别再|请用|请使用|更喜欢|ではなく|代わりに|使って|しないで|使わないで|대신|하지 마)")
_CORRECTION = _words(
    r"that'?s wrong", r"that is wrong", r"that'?s not", r"you broke", r"you didn'?t", r"you did not",
    r"you are not", r"you'?re not", r"i told you", r"i said", r"not what i asked", r"wrong", r"nope",
    r"you should know", r"you forgot", r"still failing", r"again\?", r"why did you",
    r"das ist falsch", r"falsch", r"du hast .{0,20}vergessen", r"nicht das,? was ich",
    r"c'est faux", r"ce n'est pas", r"tu as oubli[ée]", r"je t'ai dit",
    r"eso est[áa] mal", r"no es lo que", r"te dije", r"olvidaste",
    r"est[áa] errado", r"eu disse", r"[èe] sbagliato", r"ti ho detto",
    r"неправильно", r"я же сказал", r"ты сломал",
)
_CORRECTION_CJK = re.compile(r"(不对|错了|我说过|間違|違う|言ったでしょ|틀렸)")
_NEGATIVE = _words(
    r"never", r"don'?t", r"do not", r"stop", r"no more", r"avoid", r"not", r"nie", r"niemals", r"nicht", r"kein\w*",
    r"jamais", r"ne", r"n'\w+", r"nunca", r"no", r"n[ãa]o", r"mai", r"non", r"nooit", r"niet", r"никогда", r"не",
)
_NEGATIVE_CJK = re.compile(r"(不要|别|永远不|しないで|ないで|하지 마)")

_ACK = re.compile(
    r"^(ok(ay)?|k|yes|yep|yeah|sure|y|no|continue|go on|go ahead|proceed|next|done|thanks?( you)?|thx|"
    r"agreed?|good|great|perfect|nice|cool|lgtm|retry|try again|do it|yes,? please|please do|sounds good|"
    r"yes to all|weiter|ja|gut|danke|passt|mach weiter|oui|d'accord|vas-y|continue|merci|s[íi]|vale|"
    r"contin[úu]a|gracias|sim|pode|prosseguir|grazie|va bene|prosegui|ja graag|doorgaan|да|дальше|"
    r"продолжай|хорошо|好的?|继续|はい|続けて|네|계속)$", re.IGNORECASE)

_NARRATED = re.compile(r"(?<![\w])(i|we|ich|wir|je|nous|yo|eu|io)\s+(\w+\s+)?(never|always|nie|niemals|immer|jamais|"
                       r"toujours|nunca|siempre|sempre|mai)(?![\w])", re.IGNORECASE)
"""A rule word the person says of themselves ("I never saw the window open"): a report, not a rule,
unless the sentence also asks something of the agent ("I always want you to …")."""
_FRAMING_LINES = 3
"""How many lines of a long turn (over :data:`_LONG_TURN` lines) are the person's framing: the
rest is a pasted document, answer or list that the person is quoting, not saying."""
_LONG_TURN = 12
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*|[\u3040-\u30ff\u4e00-\u9fff]", re.UNICODE)
_STOP = frozenset(["a", "an", "the", "to", "of", "in", "on", "for", "and", "or", "but", "is", "are", "be", "it", "this", "that", "these", "those", "i", "you", "we", "me", "my", "your", "our", "with", "as", "at", "by", "from", "it's", "its", "please", "just", "so", "then", "than", "also", "all", "any", "some", "can", "could", "would", "should", "will", "do", "does", "did", "not", "no", "don't", "dont", "never", "always", "ever", "make", "sure", "use", "using", "be", "have", "has", "had", "was", "were", "into", "about", "when", "der", "die", "das", "und", "oder", "ist", "sind", "ein", "eine", "zu", "mit", "von", "den", "dem", "des", "bitte", "nicht", "kein", "keine", "immer", "nie", "le", "la", "les", "un", "une", "de", "du", "des", "et", "ou", "est", "sont", "pas", "ne", "toujours", "jamais", "el", "los", "las", "y", "o", "es", "son", "que", "no", "siempre", "nunca", "por", "para", "con"])


def is_acknowledgement(text: str) -> bool:
    """A short reply that only agrees, thanks or asks to go on ("continue", "ok", "yes please")."""
    bare = " ".join(re.sub(r"[^\w\s',]", " ", text.lower()).split()).strip(" ,")
    return not bare or bool(_ACK.match(bare)) or (len(bare.split()) <= 2 and not _rule_shape(bare))


def _rule_shape(sentence: str) -> bool:
    return bool(_RULE.search(sentence) or _RULE_CJK.search(sentence) or _PREFER.search(sentence)
                or _PREFER_CJK.search(sentence))


def statements(text: str) -> list[Statement]:
    """The sentences of a person's own turn that state a rule, a preference or a correction.

    Questions, acknowledgements, pasted lines (paths, tracebacks, log lines) and sentences of
    over 300 characters (a task description, not a rule) are left out."""
    if is_acknowledgement(text):
        return []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > _LONG_TURN:
        text = "\n".join(lines[:_FRAMING_LINES])
    found: list[Statement] = []
    for raw in _SENTENCE.split(text):
        sentence = " ".join(raw.split()).strip(" -*•>")
        if len(sentence) < 8 or len(sentence) > 300 or sentence.endswith(("?", "？")) or _code_line(sentence):
            continue
        prefers = bool(_PREFER.search(sentence) or _PREFER_CJK.search(sentence))
        if (_RULE.search(sentence) or _RULE_CJK.search(sentence)) and (prefers or not _NARRATED.search(sentence)):
            kind = "rule"
        elif _CORRECTION.search(sentence) or _CORRECTION_CJK.search(sentence):
            kind = "correction"
        elif prefers:
            kind = "preference"
        else:
            continue
        negative = bool(_NEGATIVE.search(sentence) or _NEGATIVE_CJK.search(sentence))
        found.append(Statement(sentence, kind, negative))
    return found


_ABOUT = re.compile(
    r"(?<![\w])(?:I'?m|I am|we'?re|we are) (?:on|using|running|working on|developing on)\s+"
    r"|(?<![\w])(?:ich bin auf|ich nutze|ich verwende|ich arbeite (?:mit|auf|unter)|wir nutzen)\s+"
    r"|(?<![\w])(?:je suis sous|j'utilise|je travaille sous)\s+"
    r"|(?<![\w])(?:estoy en|uso|trabajo en|estou no|uso o)\s+"
    r"|(?<![\w])my (?:os|machine|laptop|editor|shell|setup|system) is\s+", re.IGNORECASE)
_NAMED = re.compile(r"([A-Z][\w+#-]*(?:\.[\w+#-]+)*(?: [A-Z0-9][\w+#-]*(?:\.[\w+#-]+)*){0,2})")
"""Up to three words, each starting with a capital or digit; a dot only inside a word (``22.04``)."""


def about_self(text: str) -> list[str]:
    """What the person says about their own setup ("I'm on Ubuntu 22.04", "ich nutze Arch"):
    the named thing only (it must start with a capital letter or digit, so "I'm on it" is not
    one), at most three words."""
    found: list[str] = []
    for match in _ABOUT.finditer(text[:4000]):
        named = _NAMED.match(text, match.end())
        if named:
            value = named.group(1).rstrip(".,;:")
            if value and value not in found:
                found.append(value)
    return found


def _code_line(sentence: str) -> bool:
    """A line of output or code rather than prose: few letters, or the shape of a log line."""
    letters = sum(ch.isalpha() for ch in sentence)
    return letters < len(sentence) * 0.5 or bool(re.match(r"^\s*(\[\w+\]|[\w./-]+:\d+|Traceback|File \")", sentence))


_PLACEHOLDER = re.compile(r"\[REDACTED[^\]]*\]")
"""What secret redaction left in a sentence: not a word the person used."""


def topic_tokens(sentence: str) -> frozenset[str]:
    """The content words of a sentence (lower case, stop words and negations dropped): what two
    statements in different sessions must share to be the same preference."""
    words = [w.lower() for w in _TOKEN.findall(_PLACEHOLDER.sub(" ", sentence))]
    return frozenset(w[:6] if len(w) > 6 and w.isascii() else w for w in words
                     if w not in _STOP and not _NEGATIVE.fullmatch(w) and (len(w) > 2 or not w.isascii()))


_SCRIPTS = (("zh", "CJK UNIFIED"), ("ja", "HIRAGANA"), ("ja", "KATAKANA"), ("ko", "HANGUL"), ("ru", "CYRILLIC"),
            ("ar", "ARABIC"), ("he", "HEBREW"), ("el", "GREEK"), ("hi", "DEVANAGARI"), ("th", "THAI"))
_LATIN = {
    "en": "the and you to is it that this of for with not please we use can are what be in",
    "de": "der die das und ist nicht ich du bitte mit ein eine auch wir zu auf für den es",
    "fr": "le la les et est pas je tu vous une des pour avec que ce il nous sur dans",
    "es": "el la los las y es no que por para con una un se lo del como pero esto",
    "pt": "o a os as e não que para com um uma do da em por se isso você",
    "it": "il la e non che per con una un di del della sono questo anche",
    "nl": "de het een en is niet ik je dat van voor met op zijn wij",
}
_LATIN_SETS = {lang: frozenset(words.split()) for lang, words in _LATIN.items()}


def guess_language(text: str) -> str:
    """The language of a turn (ISO 639-1), from its script and, for Latin script, its commonest
    words; "" when the turn is too short to tell."""
    counts: dict[str, int] = {}
    letters = 0
    for ch in text[:2000]:
        if not ch.isalpha():
            continue
        letters += 1
        if ch.isascii():
            continue
        name = unicodedata.name(ch, "")
        for lang, script in _SCRIPTS:
            if script in name:
                counts[lang] = counts.get(lang, 0) + 1
                break
    if counts:
        lang, count = max(counts.items(), key=lambda kv: kv[1])
        if count >= max(2, letters * 0.3):
            return "ja" if lang == "zh" and counts.get("ja") else lang
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", text[:2000])]
    if len(words) < 4:
        return ""
    scores = {lang: sum(w in vocab for w in words) for lang, vocab in _LATIN_SETS.items()}
    lang, best = max(scores.items(), key=lambda kv: kv[1])
    return lang if best >= 2 else ""
