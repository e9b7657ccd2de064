"""Secret redaction: hand regexes for known token shapes + detect-secrets plugins, in memory.

Typed placeholders (``[REDACTED:aws-key]``) keep the text readable for a reviewer while the
value itself never reaches the store, the UI, an LLM or a memory file. Connectors call
:func:`redact_secrets` on every free-text field (``ReadContext.clean``); the gate calls it again
on every proposal and blocks one that still holds a secret afterwards.

How, and why this way (reference/safety.md §3):

- Hand regexes first: cloud keys, provider tokens, PEM blocks, JWTs, connection strings,
  passwords in assignments *and* in prose ("the password is hunter22", "pw: …").
- Then detect-secrets 1.5.0 (pinned: the plugin iteration below is internal API) plugin by
  plugin with ``analyze_line`` on in-memory lines — never ``scan_line`` (eager entropy with no
  threshold flags plain English) and never a temp file (the secret would touch disk).
  Entropy plugins run eagerly but only values over the plugin's own entropy limit and at least
  20 characters count, with URLs masked first (document ids in links look random).
- Not every line, nor every plugin, is asked: :mod:`.secret_gates` picks the lines that can
  hold a secret and, per line, the plugins that can report a value on it; the verdicts are
  unchanged (``tests/safety/test_secret_gates.py`` compares with every plugin asked on every
  line).
- The two keyword patterns run over a whole text only where one of their keywords'
  stems stands (:func:`_finditer_near`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_gates import (
    ENTROPY_PLUGINS,
    KEYWORDS,
    RUN,
    candidate_lines,
    gates,
    lines_worth_scanning,
    varied_enough,
    worth_scanning,
)

__all__ = ["SECRET_PATTERNS", "find_secrets", "load_detectors", "redact_secrets", "secret_spans"]

_I = re.IGNORECASE

SECRET_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("private-key", re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\Z)")),
    ("gcp-private-key-id", re.compile(r"\"private_key_id\"\s*:\s*\"([0-9a-f]{40})\"")),
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|A3T[A-Z0-9])[0-9A-Z]{16}\b")),
    ("aws-secret", re.compile(
        r"(?i:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])")),
    ("azure-storage-key", re.compile(r"(?i:AccountKey)\s*=\s*([A-Za-z0-9+/]{80,90}={0,2})")),
    ("azure-sas-token", re.compile(r"\bsig=([A-Za-z0-9%+/]{40,}={0,2}|[A-Za-z0-9%]{40,}(?:%3D){0,2})")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}")),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}")),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}")),
    ("stripe-key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b|\bwhsec_[0-9A-Za-z]{24,}\b")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("google-oauth-token", re.compile(r"\bya29\.[0-9A-Za-z_-]{20,}")),
    ("google-refresh-token", re.compile(r"(?<![\w/])1//0[0-9A-Za-z_-]{20,}")),
    ("google-client-secret", re.compile(r"\bGOCSPX-[0-9A-Za-z_-]{20,}")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("pypi-token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}")),
    ("sendgrid-key", re.compile(r"\bSG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("connection-string", re.compile(
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:([^\s@/]{3,128})@[^\s]+", _I)),
    ("bearer-token", re.compile(r"\b(?i:bearer)\s+([A-Za-z0-9._~+/-]{16,}=*)")),
    ("basic-auth", re.compile(r"\b(?i:authorization)\s*:\s*(?i:basic)\s+([A-Za-z0-9+/]{12,}={0,2})")),
]

# Literal hints (lower-case substrings) without which a pattern cannot match: skips most regexes on prose.
_HINTS: dict[str, tuple[str, ...]] = {
    "private-key": ("private key",), "gcp-private-key-id": ("private_key_id",),
    "aws-key": ("akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa", "a3t"),
    "aws-secret": ("secret",), "azure-storage-key": ("accountkey",), "azure-sas-token": ("sig=",),
    "github-token": ("gh", "github_pat_"), "gitlab-token": ("glpat-",), "slack-token": ("xox", "xapp-"),
    "slack-webhook": ("hooks.slack.com",), "anthropic-key": ("sk-ant-",), "openai-key": ("sk-",),
    "stripe-key": ("_live_", "_test_", "whsec_"), "google-api-key": ("aiza",), "google-oauth-token": ("ya29.",),
    "google-refresh-token": ("1//0",), "google-client-secret": ("gocspx-",), "npm-token": ("npm_",),
    "pypi-token": ("pypi-",), "sendgrid-key": ("sg.",), "jwt": ("eyj",), "connection-string": ("://",),
    "bearer-token": ("bearer",), "basic-auth": ("authorization",),
}

_ASSIGNMENT = re.compile(
    r"(?i)(?:(?<=[_-])|\b)((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token"
    r"|secret(?:[_-]?key)?|client[_-]?secret|private[_-]?key|password|passwd|passphrase|pwd|token|pass))\b"
    r"[\"']?\s*(?:[:=]|=>|->)\s*[\"'`]?([^\s\"'`,;<>]{6,})")  # a value never starts a ``` fence
_PROSE_PASSWORD = re.compile(
    r"(?i)\b(?:password|passwd|passphrase|passcode|pwd|pw|pin\s+code|wifi\s+key|the\s+key|secret)\b"
    r"(?:\s+(?:for|to|of|on)\s+(?:the\s+)?[\w.@-]{1,40})?\s*(?:(?:is|was|are|will\s+be|reads)\b|=|:|->)\s*[\"'`“]?"
    r"([^\s\"'`”,;]{4,})")
_NOT_A_VALUE = frozenset("""required needed missing wrong incorrect correct expired the a an in stored set not too
case valid invalid same different changed reset empty blank optional mandatory secure insecure weak strong
long short unknown none null true false yes no here there below above attached enclosed protected hidden
encrypted hashed rotated sent shared saved generated provided available unavailable ok okay fine good bad
important sensitive private public new old current default disabled enabled locked unlocked managed
configured kept located written taken used handled your my his her their our only also still now
then just currently always never""".split())  # noqa: SIM905
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_SEGMENTS = re.compile(r"[-_/.+]")
_EXCHANGE = re.compile(r"IMCEA|(?:\+[0-9A-F]{2}.*){2}")


def _looks_like_words(value: str) -> bool:
    """Paths and slugs (``docs/rollout-summary_2026.md``) are high-entropy but not secrets."""
    parts = [p for p in _SEGMENTS.split(value) if p]
    if len(parts) < 3:
        return False
    wordy = sum(1 for p in parts if (p.isalpha() and len(p) >= 3) or p.isdigit())
    return wordy / len(parts) >= 0.6

_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+", _I)

_DS_KIND = {
    "AWS Access Key": "aws-key", "Azure Storage Account access key": "azure-storage-key",
    "Basic Auth Credentials": "connection-string", "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token", "Base64 High Entropy String": "high-entropy",
    "Hex High Entropy String": "high-entropy", "JSON Web Token": "jwt", "Secret Keyword": "secret",
    "NPM tokens": "npm-token", "OpenAI Token": "openai-key", "Private Key": "private-key",
    "PyPI Token": "pypi-token", "Slack Token": "slack-token", "Stripe Access Key": "stripe-key",
}
_GENERIC = {"high-entropy", "secret"}  # lose to a specific kind when spans overlap



def load_detectors() -> None:
    """Load detect-secrets and build its plugins now rather than on the first line that needs them.

    Why: a process that forks workers (:mod:`connectors.local.mboxpool`) calls this first, so
    the workers share what it loaded instead of each importing and building it again (a tenth
    of a CPU-second per worker, on a scan of a few seconds)."""
    gates()
    from detect_secrets.filters import heuristic  # noqa: F401  (:func:`_filtered` imports it on first use)


def _filtered(value: str, line: str) -> bool:
    """detect-secrets' own heuristic filters (the scan pipeline applies them; analyze_line does not)."""
    from detect_secrets.filters import heuristic as h

    if value.startswith("[REDACTED") or value.lower() in _NOT_A_VALUE or _ENV_NAME.fullmatch(value):
        return True
    if _looks_like_words(value) or _EXCHANGE.search(value):
        return True
    return bool(h.is_sequential_string(value) or h.is_potential_uuid(value)
                or h.is_templated_secret(value) or h.is_prefixed_with_dollar_sign(value)
                or (h.is_indirect_reference(line) and "=" not in value))


def _ds_spans(text: str, offset: int, every_plugin: bool = False) -> list[tuple[str, int, int]]:
    spans: list[tuple[str, int, int]] = []
    masked: str | None = None
    runs = [r for r in RUN.findall(text) if len(r) >= 11]  # the shortest run a plugin needs
    longest = max(map(len, runs), default=0)
    for plugin, name, run, literal in gates():
        if not every_plugin:  # :func:`_passes`, inline: it runs for every plugin on every candidate line
            if run > longest:
                continue
            if name in ENTROPY_PLUGINS:
                if not varied_enough(plugin, runs):
                    continue
            elif literal is not None and literal.search(text) is None:
                continue
        if name in ENTROPY_PLUGINS:
            if masked is None:
                masked = _URL.sub(lambda m: " " * len(m.group(0)), text)
            if name == "HexHighEntropyString":
                found = plugin.analyze_line(filename="memseed.yaml", line=masked, line_number=1)
            else:
                found = plugin.analyze_line(filename="memseed.yaml", line=masked, line_number=1,
                                            enable_eager_search=True)
            values = [s.secret_value for s in found
                      if s.secret_value and len(s.secret_value) >= 20
                      and plugin.calculate_shannon_entropy(s.secret_value) > plugin.entropy_limit]
            source = masked
        else:
            found = plugin.analyze_line(filename="memseed.yaml", line=text, line_number=1)
            values = [s.secret_value for s in found if s.secret_value]
            source = text
        for value in values:
            if _filtered(value, text):
                continue
            kind = _DS_KIND.get(next(iter(found)).type, "secret") if found else "secret"
            for s in found:
                if s.secret_value == value:
                    kind = _DS_KIND.get(s.type, "secret")
            start = source.find(value)
            while start >= 0:
                spans.append((kind, offset + start, offset + start + len(value)))
                start = source.find(value, start + len(value))
    return spans


# Where a match of the two keyword patterns can start: each of their keywords holds one of these
# stems (lower-case), at most ``reach`` characters after the match's start ("refresh_token": 8).
# ``the\s+key`` reaches back over its spaces (:func:`_reach`).
_STEMS: dict[re.Pattern[str], tuple[tuple[str, ...], int]] = {
    _ASSIGNMENT: (("key", "token", "secret", "pass", "pwd"), 8),
    _PROSE_PASSWORD: (("pass", "pw", "pin", "wifi", "key", "secret"), 0),
}
# The characters besides A-Z that an IGNORECASE pattern matches to an ASCII letter, and what
# str.lower() leaves them as (K, U+212A, lowers to "k"; U+0130 lowers to two characters, so a
# text holding it takes the plain search). ``test_secret_gates`` checks this against ``re``.
_FOLDS = {"\u0131": "i", "\u017f": "s"}


def _folded(text: str, lowered: str) -> str | None:
    """``text`` lower-cased with every letter an IGNORECASE pattern reads as ASCII folded to it,
    position for position; None when lower-casing changes the length."""
    if len(lowered) != len(text):
        return None
    if not lowered.isascii():
        for char, ascii_letter in _FOLDS.items():
            lowered = lowered.replace(char, ascii_letter)
    return lowered


def _reach(rx: re.Pattern[str], text: str, at: int, stem: str, floor: int) -> int:
    """The earliest start of a match of ``rx`` whose keyword holds ``stem`` at ``at``."""
    reach = _STEMS[rx][1]
    if rx is _PROSE_PASSWORD and stem == "key":  # "the   key": back over the spaces, then "the"
        start = at
        while start > floor and text[start - 1].isspace():
            start -= 1
        return max(floor, start - 3)
    return max(floor, at - reach)


def _finditer_near(rx: re.Pattern[str], text: str, folded: str) -> Iterator[re.Match[str]]:
    """The matches ``rx.finditer(text)`` gives, trying ``rx`` only near its keywords' stems.

    Why: the keyword patterns begin with a word-boundary test and a dozen alternatives, so the
    regex engine tries them at every character of a long mail (a fifth of secret scanning's time
    on real mail); ``str.find`` skips to the few places a keyword can start. ``match`` at a
    position reads the characters before it as ``search`` does (``\b``, look-behind)."""
    stems = _STEMS[rx][0]
    pos = 0
    ahead = {stem: folded.find(stem) for stem in stems}  # each stem's next place; found again once passed
    while True:
        hits = []
        for stem in stems:
            at = ahead[stem]
            if 0 <= at < pos:
                at = ahead[stem] = folded.find(stem, pos)
            if at >= 0:
                hits.append((at, stem))
        if not hits:
            return
        at, stem = min(hits)
        for start in range(_reach(rx, text, at, stem, pos), at + 1):
            m = rx.match(text, start)
            if m is not None:
                yield m
                pos = m.end()
                break
        else:
            pos = at + 1


def _regex_spans(text: str, every_plugin: bool = False) -> list[tuple[str, int, int]]:
    spans: list[tuple[str, int, int]] = []
    lowered = text.lower()
    holds = lowered.__contains__
    for kind, pattern in SECRET_PATTERNS:
        if not any(map(holds, _HINTS.get(kind, ("",)))):  # in C: a generator here cost a third of this
            continue
        for m in pattern.finditer(text):
            group = 1 if pattern.groups and m.group(1) and kind not in ("private-key",) else 0
            if m.group(group).startswith("[REDACTED"):
                continue
            spans.append((kind, m.start(group), m.end(group)))
    folded = _folded(text, lowered)
    for rx in (_ASSIGNMENT, _PROSE_PASSWORD):
        if not any(k in lowered for k in KEYWORDS):
            break
        for m in (rx.finditer(text) if folded is None or every_plugin else _finditer_near(rx, text, folded)):
            value = m.group(m.lastindex or 1)
            if _filtered(value.rstrip(".),"), m.group(0)):
                continue
            label = m.group(0).lower()
            kind = "password" if ("pass" in label or "pw" in label or "pin" in label) else "secret"
            end = m.end(m.lastindex or 1)
            while end > m.start(m.lastindex or 1) and text[end - 1] in ".),":
                end -= 1
            spans.append((kind, m.start(m.lastindex or 1), end))
    return spans


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every secret-looking span in ``text``."""
    return _find(text, every_plugin=False)


def _find(text: str, every_plugin: bool) -> list[tuple[str, int, int]]:
    """``every_plugin=True`` asks every plugin on every candidate line, and picks the candidate
    lines one by one: the plain reading, kept as the reference the gated one is tested against."""
    if not text or not worth_scanning(text):
        return []
    spans = _regex_spans(text, every_plugin)
    for offset, line in (lines_worth_scanning if every_plugin else candidate_lines)(text):
        spans.extend(_ds_spans(line.rstrip("\r\n"), offset, every_plugin))
    return spans


def secret_spans(text: str) -> list[tuple[str, int, int]]:
    """Non-overlapping (kind, start, end) spans, a specific kind winning over a generic one."""
    found = find_secrets(text)
    if not found:
        return []
    specific = [s for s in found if s[0] not in _GENERIC]
    generic = [s for s in found if s[0] in _GENERIC
               and not any(a < s[2] and s[1] < b for _k, a, b in specific)]
    merged: list[tuple[str, int, int]] = []
    for kind, start, end in sorted(specific + generic, key=lambda s: (s[1], -s[2])):
        if merged and start < merged[-1][2]:
            last = merged[-1]
            if end > last[2]:  # an overlapping span reaching further extends the one before
                merged[-1] = (last[0], last[1], end)
            continue
        merged.append((kind, start, end))
    return merged


def redact_secrets(text: str) -> str:
    """Replace every secret-looking span with ``[REDACTED:<kind>]``."""
    if not text:
        return text
    spans = secret_spans(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for kind, start, end in spans:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)
