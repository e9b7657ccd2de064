"""Which lines of a text, and which detect-secrets plugins, :mod:`.secrets` asks: the gates.

Why a module of its own: the verdicts (what counts as a secret, its kind, where it stands) live
in :mod:`.secrets`; what lives here only decides where asking is pointless, and each gate is
proved against asking everywhere (``tests/safety/test_secret_gates.py``). Two gates:

- Lines. A cheap prefilter (:func:`worth_scanning`) passes a text or line holding a secret-ish
  keyword, ``://`` with an ``@``, or a long token mixing letters and digits; ordinary prose costs
  one regex search per line. On a text of several lines those lines are picked with a few passes
  over the whole text (:func:`candidate_lines`), not line by line (:func:`lines_worth_scanning`,
  the plain reading).
- Plugins. On a line that passes, a plugin is asked only when the line holds what every one of
  its patterns needs (:data:`_PLUGIN_NEEDS`): a run of token characters as long as the shortest
  value it can report, and a literal (a prefix, a keyword). Real mail has many such lines
  (``Author:``, long ids) and asking all 25 plugins about each was most of a worker's time.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from itertools import accumulate
from typing import Any

__all__ = ["ENTROPY_PLUGINS", "KEYWORDS", "RUN", "candidate_lines", "gates", "lines_worth_scanning", "may_report",
           "plugins", "varied_enough", "worth_scanning"]

_I = re.IGNORECASE

KEYWORDS = ("pass", "pwd", "pw", "secret", "token", "key", "auth", "cred", "bearer", "-----begin", "pin",
             "sig=")
_LONG = re.compile(r"[A-Za-z0-9+/=_.\-]{20,}")
_HAS_DIGIT = re.compile(r"\d")
_HAS_ALPHA = re.compile(r"[A-Za-z]")


def worth_scanning(text: str) -> bool:
    """Cheap prefilter: a secret-ish keyword, or a long token mixing letters and digits."""
    if any(map(text.lower().__contains__, KEYWORDS)) or ("://" in text and "@" in text):
        return True  # map over a bound method: the keyword loop runs in C (every subject and body asks)
    if _LONG.search(text) is None:  # most text (every short subject) has no long token at all
        return False
    return any(_HAS_DIGIT.search(m.group(0)) and _HAS_ALPHA.search(m.group(0)) for m in _LONG.finditer(text))


_SKIP_PLUGINS = {"IPPublicDetector"}  # public IPs are facts, not secrets
ENTROPY_PLUGINS = {"Base64HighEntropyString", "HexHighEntropyString"}
"""The entropy plugins: a value counts from 20 characters over the plugin's entropy limit."""


@lru_cache(maxsize=1)
def plugins() -> tuple[Any, ...]:
    """The detect-secrets 1.5.0 default plugin instances (built once)."""
    from detect_secrets.settings import default_settings, get_plugins

    with default_settings():
        return tuple(p for p in get_plugins() if type(p).__name__ not in _SKIP_PLUGINS)


# What every pattern of a plugin needs before it can report a value we keep: a run of at least
# N token characters (``\w`` is Unicode, so it also holds what an IGNORECASE ``[a-z]`` or a
# ``\d`` matches beyond ASCII) and a literal (its prefix, its keyword, under the pattern's own
# case rule). Read off detect-secrets 1.5.0's patterns; the entropy plugins' 20 is ours
# (shorter values are dropped in :func:`.secrets._ds_spans`). A plugin not in the table is always asked.
RUN = re.compile(r"[\w+/=-]+")
_PLUGIN_NEEDS: dict[str, tuple[int, re.Pattern[str] | None]] = {
    "ArtifactoryDetector": (11, re.compile("AKC|AP")),
    "AWSKeyDetector": (20, re.compile("A3T|ABIA|ACCA|AKIA|ASIA|(?i:aws)")),
    "AzureStorageKeyDetector": (20, re.compile("AccountKey=")),
    "BasicAuthDetector": (0, re.compile("://")),
    "CloudantDetector": (20, re.compile("cl", _I)),
    "DiscordBotTokenDetector": (20, re.compile(r"\.")),
    "GitHubTokenDetector": (20, re.compile("gh[pousr]_")),
    "GitLabTokenDetector": (20, re.compile("gl|GR1348941")),
    "Base64HighEntropyString": (20, None), "HexHighEntropyString": (20, None),
    "IbmCloudIamDetector": (20, re.compile("key|pwd|pass|token", _I)),
    "IbmCosHmacDetector": (20, re.compile("secret", _I)),
    "JwtTokenDetector": (0, re.compile("eyJ")),
    "MailchimpDetector": (20, re.compile("-us")),
    "NpmDetector": (0, re.compile("/:_authToken=")),
    "OpenAIDetector": (20, re.compile("T3BlbkFJ")),
    "PrivateKeyDetector": (0, re.compile("PRIVATE KEY|PuTTY-User-Key-File-2")),
    "PypiTokenDetector": (20, re.compile("pypi-")),
    "SendGridDetector": (20, re.compile(r"SG\.")),
    "SlackDetector": (0, re.compile(r"xox|hooks\.slack\.com", _I)),
    "SoftlayerDetector": (20, re.compile("key|pwd|pass|token|softlayer", _I)),
    "SquareOAuthDetector": (20, re.compile("sq0csp-")),
    "StripeDetector": (20, re.compile("k_live_")),
    "TelegramBotTokenDetector": (20, re.compile(":")),
    "TwilioKeyDetector": (20, re.compile("AC|SK")),
}


@lru_cache(maxsize=1)
def _keyword_gate() -> re.Pattern[str]:
    """KeywordDetector's own keyword alternation: each of its patterns contains it, so a line it
    does not match cannot give that plugin a value."""
    from detect_secrets.plugins.keyword import DENYLIST

    return re.compile("|".join(DENYLIST), _I)


def varied_enough(plugin: Any, runs: list[str]) -> bool:
    """Whether an entropy plugin can find a value of 20 characters over its entropy limit among
    ``runs``. A value's Shannon entropy is at most log2 of how many distinct characters it
    holds, and a value lies inside one run; so a run needs more than 2**limit distinct
    characters of the plugin's charset ("-----Original Message-----" has 12: never asked)."""
    need = int(2 ** plugin.entropy_limit) + 1
    charset = _charset(plugin.charset)
    return any(len(r) >= 20 and len(charset.intersection(r)) >= need for r in runs)


@lru_cache(maxsize=4)
def _charset(chars: str) -> frozenset[str]:
    return frozenset(chars)


@lru_cache(maxsize=1)
def gates() -> tuple[tuple[Any, str, int, re.Pattern[str] | None], ...]:
    """Each plugin with its gate, worked out once: (plugin, name, shortest run, literal).

    Why a table: asking 25 small gate functions per candidate line cost more than the plugins
    they spared (a tenth of secret scanning on list mail); read off a table, a plugin whose
    run is longer than the line's longest costs one comparison. An entropy plugin's run is the
    20 characters a value needs (:func:`.secrets._ds_spans`), its literal none (:func:`varied_enough`
    decides); KeywordDetector's literal is its keyword alternation; a plugin not in
    :data:`_PLUGIN_NEEDS` has neither and is always asked."""
    table: list[tuple[Any, str, int, re.Pattern[str] | None]] = []
    for plugin in plugins():
        name = type(plugin).__name__
        if name in ENTROPY_PLUGINS:
            table.append((plugin, name, 20, None))
        elif name == "KeywordDetector":
            table.append((plugin, name, 0, _keyword_gate()))
        else:
            run, literal = _PLUGIN_NEEDS.get(name, (0, None))
            table.append((plugin, name, run, literal))
    return tuple(table)


def may_report(plugin: Any, line: str, runs: list[str]) -> bool:
    """Whether ``plugin`` can report a value on ``line``, whose token runs are ``runs`` (the runs of
    at least 11 characters): the gate :func:`.secrets._ds_spans` applies, one plugin at a time."""
    gate = next(g for g in gates() if g[0] is plugin)
    return _passes(gate, line, runs, max(map(len, runs), default=0))


def _passes(gate: tuple[Any, str, int, re.Pattern[str] | None], line: str, runs: list[str], longest: int) -> bool:
    plugin, name, run, literal = gate
    if run > longest:
        return False
    if name in ENTROPY_PLUGINS:
        return varied_enough(plugin, runs)
    return literal is None or literal.search(line) is not None


def lines_worth_scanning(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) of each line of ``text`` the plugins are asked about, line by line."""
    offset = 0
    for line in text.splitlines(keepends=True):
        if len(line) >= 12 and worth_scanning(line):
            yield offset, line
        offset += len(line)


_KEYWORD_RX = re.compile("|".join(map(re.escape, KEYWORDS)))


def candidate_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines :func:`lines_worth_scanning` gives, found with a few passes over the whole text.

    Why: a long mail is a hundred lines, and asking :func:`worth_scanning` about each (lower-case
    it, a dozen keyword tests, a token search) was a quarter of secret scanning on list mail.
    What makes a line worth scanning lies inside the line — a keyword, ``://`` with an ``@``, a
    run of :data:`_LONG` token characters mixing letters and digits — and none of it holds a
    line break, so a match in the whole text lies in one line and names it. Lower-casing the
    whole text instead of each line is the same, character for character, unless it changes the
    length (``İ``): that text is read line by line."""
    lowered = text.lower()
    lines = text.splitlines(keepends=True)
    if len(lowered) != len(text) or len(lines) < 4:
        yield from lines_worth_scanning(text)
        return
    ends = list(accumulate(map(len, lines)))
    hits = {bisect_right(ends, m.start()) for m in _KEYWORD_RX.finditer(lowered)}
    for m in _LONG.finditer(text):
        if _HAS_DIGIT.search(m.group(0)) and _HAS_ALPHA.search(m.group(0)):
            hits.add(bisect_right(ends, m.start()))
    at = text.find("://")
    while at >= 0:
        index = bisect_right(ends, at)
        if "@" in lines[index]:
            hits.add(index)
        at = text.find("://", ends[index])  # the next line's, if any: this one is decided
    for index in sorted(hits):
        line = lines[index]
        if len(line) >= 12:
            yield ends[index] - len(line), line
