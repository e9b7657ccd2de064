"""Secret scanning asks a detect-secrets plugin only about lines that hold what its patterns need
(``text/secret_gates.py``, ``_PLUGIN_NEEDS``); the secrets found must be exactly those found by asking
every plugin about every line (the plain reading, ``_find(text, every_plugin=True)``).

Why: the gates made secret scanning several times cheaper on real mail (issue 32), and a gate
that is one character too strict would let a secret through silently. So: the same spans on
every text corpus in the real data and on a generated set of secret-shaped lines, and, per
plugin, every line on which that plugin reports a value passes its gate.
"""

from __future__ import annotations

import json
import mailbox
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bootstrap_app.text import secret_gates, secrets
from tests.safety.test_secrets_pii import PLANTED

_TEXT_SUFFIXES = {".md", ".json", ".jsonl", ".ics", ".txt", ".tsv", ".csv", ".rst", ".html", ".eml"}

# Pieces secret-shaped lines are built from: keywords, the plugins' prefixes and literals, runs.
_PREFIXES = ["AKIA", "ASIA", "A3TX", "AKC", "AP1", "APF", "ghp_", "gho_", "glpat-", "GR1348941", "glcbt-ab_",
             "xoxb-1-", "xoxp-12-34-", "eyJ", "sk_live_", "rk_live_", "SG.", "sq0csp-", "pypi-AgEIcHlwaS5vcmc",
             "sk-", "AC", "SK", "M", "N", "O", "AccountKey=", "T3BlbkFJ", "https://hooks.slack.com/services/T",
             "-----BEGIN RSA PRIVATE KEY-----", "PuTTY-User-Key-File-2", "//registry.npmjs.org/:_authToken=",
             "https://user:", "cloudant_password = ", "ibm_cloud_iam_api_key: ", "softlayer_api_key=",
             "cos_hmac_secret_access_key = ", "aws_secret_key = '", "password: ", "secret=", "api_key = \"",
             "db_pass:", "Contraseña: ", "token ", "the password is ", "12345678:", ""]
_ALPHABETS = ["abcdef0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "abcdefghijklmnopqrstuvwxyz",
              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "ABCDEF0123456789",
              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=_-", "aſKbcz٣٤٥0189"]
_TAILS = ["", " ", "\"", "'", "@db.example.com:5432/x", ".", ".abcdEF_-12.", " here", "\";", ":"]


def _generated(count: int = 2500, seed: int = 32) -> list[str]:
    """Secret-shaped lines, many just at a gate's edge (runs of 8 to 100 characters)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        parts = [rng.choice(["", "fyi ", "  ", "x=", "\"", "see: "])]
        for _ in range(rng.randint(1, 3)):
            run = "".join(rng.choices(rng.choice(_ALPHABETS), k=rng.choice([8, 10, 11, 12, 19, 20, 21, 24, 32, 35,
                                                                              36, 40, 43, 44, 48, 64, 88, 100])))
            parts += [rng.choice(_PREFIXES), run, rng.choice(_TAILS)]
        lines.append("".join(parts))
    return lines + _shaped(rng)


def _shaped(rng: random.Random) -> list[str]:
    """Lines in the exact shape of the plugins whose patterns a random line rarely meets."""
    def run(alphabet: str, k: int) -> str:
        return "".join(rng.choices(alphabet, k=k))

    alnum, hexa, lower = _ALPHABETS[3], _ALPHABETS[0], _ALPHABETS[2]
    lines = []
    for _ in range(20):
        lines += [f"bot {rng.choice('MNO')}{run(alnum, 23)}.{run(alnum, 6)}.{run(alnum, 27)} ok",
                  f"mc {run(hexa + lower, 32)}-us{rng.randint(1, 20)}",
                  f"key sk-{run(alnum, 20)}T3BlbkFJ{run(alnum, 20)}",
                  f"SG.{run(alnum, 22)}.{run(alnum, 43)}",
                  f"cloudant_password = '{run(hexa, 64)}'", f"cloudant_pw: {run(lower, 24)}",
                  f"cos_hmac_secret_access_key = {run(hexa, 48)}",
                  f"//registry.npmjs.org/:_authToken=npm_{run(alnum, 36)}",
                  f"ibm_iam_pwd = {run(alnum, 44)}", f"iam-TOKEN: {run(alnum, 44)}",
                  f"softlayer_pwd: {run(hexa, 64)}", f"sl_token={run(hexa, 64)}",
                  f"https://api.softlayer.com/soap/v3/{run(hexa, 64)}", f"aws_pwd = '{run(alnum, 40)}'",
                  f"https://u:{run(hexa, 64)}@acct.cloudant.com", f"x AKC{run(alnum, 12)} y",
                  f"AccountKey={run(alnum, 88)}", f"ABIA{run(_ALPHABETS[1], 16)}"]
    return lines


def test_every_plugin_that_reports_passes_its_gate() -> None:
    """The gate of each plugin is sound: no line on which the plugin reports a value is kept from it."""
    reported: dict[str, int] = {}
    for line in _generated() + [text for text, _value in PLANTED.values()]:
        runs = [r for r in secret_gates.RUN.findall(line) if len(r) >= 11]
        for plugin in secret_gates.plugins():
            name = type(plugin).__name__
            if name in secret_gates.ENTROPY_PLUGINS:  # a value counts from 20 characters over the limit (_ds_spans)
                found = [s for s in plugin.analyze_line(filename="memseed.yaml", line=line, line_number=1,
                                                        enable_eager_search=True)
                         if s.secret_value and len(s.secret_value) >= 20
                         and plugin.calculate_shannon_entropy(s.secret_value) > plugin.entropy_limit]
            else:
                found = list(plugin.analyze_line(filename="memseed.yaml", line=line, line_number=1))
            if found:
                reported[name] = reported.get(name, 0) + 1
                assert secret_gates.may_report(plugin, line, runs), (name, line)
    # the set reaches the plugins: a gate that is never tested proves nothing
    quiet = {type(p).__name__ for p in secret_gates.plugins()} - set(reported)
    assert not quiet, (quiet, reported)


def test_keyword_gate_is_in_every_keyword_pattern() -> None:
    """KeywordDetector's gate is its keyword alternation; every pattern it uses for our lines holds it."""
    from detect_secrets.plugins import keyword
    from detect_secrets.util.filetype import determine_file_type

    patterns = keyword.REGEX_BY_FILETYPE[determine_file_type("memseed.yaml")]
    alternation = "|".join(keyword.DENYLIST)
    assert patterns and all(alternation in p.pattern for p in patterns)


def test_generated_secret_set_same_spans() -> None:
    lines = _generated()
    texts = lines + ["\n".join(lines[i:i + 7]) for i in range(0, len(lines), 7)]
    texts += [text for text, _value in PLANTED.values()]
    found = 0
    for text in texts:
        plain = secrets._find(text, every_plugin=True)
        assert secrets.find_secrets(text) == plain, text
        found += bool(plain)
    assert found > len(texts) // 4  # the set is secret-shaped: most texts hold something


def _mail_texts(path: Path) -> Iterator[str]:
    messages = mailbox.mbox(path, create=False) if path.suffix == ".mbox" else [mailbox.mboxMessage(path.read_bytes())]
    for message in messages:
        for part in message.walk():
            if part.get_content_maintype() == "text":
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    yield payload.decode(part.get_content_charset() or "utf-8", "replace")
        yield str(message.get("subject", ""))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _corpus_texts(root: Path) -> Iterator[tuple[Path, str]]:
    """Every text the real data holds as memseed reads it: each mail's text parts and subject,
    each JSON string, every other text file whole (the repositories' git bundles are binary)."""
    for path in sorted(root.rglob("*")):
        if not path.is_file() or (path.suffix not in _TEXT_SUFFIXES | {".mbox"} and path.suffix):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix in (".mbox", ".eml"):
            for body in _mail_texts(path):
                yield path, body
        elif path.suffix not in (".json", ".jsonl"):
            yield path, text
        else:
            rows = [text] if path.suffix == ".json" else text.splitlines()
            for row in rows:
                try:
                    value = json.loads(row)
                except ValueError:
                    yield path, row  # a file that is not JSON after all is read as text
                    continue
                for s in _strings(value):
                    if len(s) >= 12:
                        yield path, s


def test_real_corpora_same_spans(realdata: Path) -> None:
    root = realdata
    texts = files = with_secrets = 0
    seen: set[Path] = set()
    for path, text in _corpus_texts(root):
        plain = secrets._find(text, every_plugin=True)
        assert secrets.find_secrets(text) == plain, f"{path}: {text[:200]!r}"
        texts += 1
        with_secrets += bool(plain)
        if path not in seen:
            seen.add(path)
            files += 1
    assert files > 400 and texts > 10_000, (files, texts)
    assert with_secrets > 0  # real text reaches the detectors (ids, tokens in sessions and repos' docs)


def test_folds_are_every_letter_ignorecase_reads_as_ascii() -> None:
    """``_folded`` must fold each character an IGNORECASE pattern matches to an ASCII letter, or
    the keyword search near stems would miss a keyword written with it."""
    letter = re.compile("[a-z]", re.IGNORECASE)
    odd = {chr(c) for c in range(128, sys.maxunicode + 1) if letter.match(chr(c))}
    handled = set(secrets._FOLDS) | {c for c in odd if c.lower().isascii() or len(c.lower()) != 1}
    assert odd and odd <= handled, odd - handled
    for c in odd:  # each folds to the letter the pattern reads it as, or the text takes the plain search
        folded = secrets._folded(f"x{c}y", f"x{c}y".lower())
        assert folded is None or re.fullmatch(folded[1], c, re.IGNORECASE), c


@pytest.mark.parametrize("text", [
    "the   key is hunter22x", "THE\n\tKEY: hunter22x", "refresh_token=abcdef123", "ſecret: tr0ub4dor&3",
    "paſsword is hunter22", "İ password = hunter22x", "wifi  key -> abc12345", "Kelvin pwd=zzzz1234",
    "x_password: abcdef12 and api-key = q1w2e3r4t5", "passpass password: abcdefgh1",
    "use key q7Xk2MfP9sLw4ZrT8bNc3Vh now",  # 23 distinct characters: just over base64's 4.5 bits
    'key = "0a1b2c3d4e5f6a7b8c9d0e1f"', 'auth "9f8e7d6c5b4a39281706"',  # hex: 16 and just 10 distinct
    "AP1abcdefgh tail", "x AKC0123456789 y", "a://u:p@h", "eyJa.eyJb.c", "xoxa-1-a", "//r/:_authToken=npm_x",
    "-----BEGIN PRIVATE KEY-----", "passwd: Zx81!kQ0pLm2", "ſecret = ſſſſſſſſſſſſſſſſſſſſſſſſſſ",
])
def test_gate_edges(text: str) -> None:
    """Lines just at a gate's edge (the shortest run, a literal alone, a folded letter)."""
    assert secrets.find_secrets(text) == secrets._find(text, every_plugin=True)


_AWKWARD_LINES = [
    "short\n", "token\n", "a key here, and more\n", "see https://example.org/x and mail me@example.org\n",
    "https://example.org/only-a-link-here\n", "@ at sign alone on a longer line\n",
    "abc123def456ghi789jkl0\r\n", "abcdefghijklmnopqrstuvwxyz\n", "0123456789012345678901\n",
    "İstanbul password: hunter22x\n", "İ" * 30 + "\n", "ends with a keyword: pass", "\x0bform\x0cfeed secret\x1cgroup\x1dsep\n",
    "next\x85line token=abcdef1234567890abcd\u2028para\u2029sep key\n", "\n", "\r\n", "\r", "  \t  \n",
    "-----BEGIN PRIVATE KEY-----\n", "x" * 11 + "\n", "y" * 12, "PASS in capitals on a long line\n",
    "a://b on one line\n", "and the @ on the next line\n", "ſecret with a long s here\n",
    "mixed run split at a break abcdefghij\n0123456789 more text\n",
]


def _awkward_texts(seed: int = 32) -> list[str]:
    """Texts of the awkward lines above in random orders and sizes, with and without ``İ``."""
    rng = random.Random(seed)
    texts = ["".join(_AWKWARD_LINES), "".join(line for line in _AWKWARD_LINES if "İ" not in line)]
    for _ in range(400):
        texts.append("".join(rng.choices(_AWKWARD_LINES, k=rng.randint(1, 12))))
    return texts


def test_candidate_lines_are_the_lines_worth_scanning(realdata: Path) -> None:
    """The lines picked with passes over the whole text (``secret_gates.candidate_lines``) are exactly those
    picked one line at a time (the plain reading), on awkward and on every real text."""
    texts = [text for _path, text in _corpus_texts(realdata)]
    checked = 0
    for text in _awkward_texts() + _generated() + texts:
        if secret_gates.worth_scanning(text):
            assert list(secret_gates.candidate_lines(text)) == list(secret_gates.lines_worth_scanning(text)), text[:300]
            checked += 1
    assert checked > 5_000  # the real data reaches the shortcut, not only its fallback
    many = [t for t in texts if t.count("\n") >= 4 and len(t.lower()) == len(t) and secret_gates.worth_scanning(t)]
    assert len(many) > 1_000  # ... including its whole-text passes (texts of several lines)
