"""Dangerous instructions: steps an agent must never pick up from memory, whoever wrote them.

Why regardless of the author: a memory entry is replayed to an agent that runs commands. "Pipe
this download into a shell" is an attack when a lookalike sender wrote it and a liability when
the owner did (a one-off workaround, a phished owner, an owner quoting an attacker). memseed
never *proposes* such a step; the gate quarantines it with the class below, and a person who
really wants it in memory can still write it by hand.

Classes (the quarantine reason is ``dangerous:<class>``):

``pipe-to-shell``       a download piped or substituted into an interpreter (``curl … | sh``)
``remote-code``         running or installing code fetched from a URL (``pip install https://…``)
``package-registry``    adding a package index / registry / proxy (``--extra-index-url``)
``disable-verification`` turning off TLS or host-key checks (``http.sslVerify false``, ``-k``)
``disable-checks``      skipping hooks, tests, linting, type checks or signing (``--no-verify``, "skip
                        the tests"); a skip that names its test(s) *and* says when ("skip the flaky
                        test `test_x` in CI only when the mock is down") is a maintained exception
                        and passes, unless "all"/"every"/"globally" widens it (``_narrow_skip``)
``exfiltration``        sending credentials or data somewhere (".env to ops@…", ``curl -d @~/.ssh``)
``weaken-permissions``  loosening permissions (``chmod 777``, ``NOPASSWD``, ``setenforce 0``)

Prohibitions are what memory is for, so a clause that *forbids* the step ("never push with
``--no-verify``", "don't skip the tests") is not flagged; "never forget to …" is not a
prohibition, and neither is "never push *without* running …" (a word like without / before /
until between the negation and the step makes the step required). Matching is on NFKC text, case-insensitive, with bounded fillers (no backtracking).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.text.unicode import normalize, strip_invisible

__all__ = ["DANGER_CLASSES", "DangerFinding", "find_dangerous"]

_W = r"(?:[^\s]+\s+){0,6}?"  # bounded filler: up to 6 words
_FETCH = r"(?:curl|wget|fetch|iwr|invoke-webrequest|invoke-restmethod|irm|http(?:ie)?|aria2c)\b"
_RUNNER = r"(?:(?:sudo|env|xargs|nohup)\s+(?:-\S+\s+)*|/(?:usr/)?(?:local/)?bin/)*"
"""What may stand before the interpreter: ``| sudo -E bash``, ``| env bash``, ``| /bin/sh``."""
_SHELL = (rf"{_RUNNER}(?:(?:ba|z|k|da|fi)?sh\b|python[0-9.]*\b|perl\b|ruby\b|node\b|iex\b|invoke-expression\b"
          r"|php\b)")
_SECRETS = (r"(?:credentials?|passwords?|passphrases?|tokens?|secrets?|(?:api|ssh|private|access|deploy|signing)"
            r"[\s_-]+keys?|\.env\b|env(?:ironment)?\s+(?:file|variables)|\.aws|\.ssh|\.netrc|\.npmrc|\.pypirc"
            r"|id_rsa|id_ed25519|keychain|cookies?|session\s+ids?|database\s+dumps?|customer\s+data"
            r"|source\s+code|(?:the\s+)?(?:logs?|backups?)\b)")

_RULES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (cls, need, re.compile(rx, re.IGNORECASE)) for cls, need, rx in (
    ("pipe-to-shell", ("|",), rf"{_FETCH}[^\n]{{0,300}}?\|\s*(?:{_SHELL})"),
    ("pipe-to-shell", ("iex", "invoke-expression", "scriptblock"), rf"(?:\biex|\binvoke-expression|\[scriptblock\]::create)[\s(]{{0,6}}(?:{_FETCH}|new-object\s+(?:system\.)?net\.webclient)"),
    ("pipe-to-shell", ("base64",), rf"\bbase64\s+(?:-\w*d\w*|--decode)\b[^\n]{{0,80}}?\|\s*(?:{_SHELL})"),
    ("pipe-to-shell", ("$(", "<("), rf"(?:{_SHELL})\s+(?:-c\s+)?[\"']?(?:<\(|\$\()\s*{_FETCH}"),
    ("pipe-to-shell", ("$(", "<("), rf"(?:eval|source|\.)\s+[\"']?(?:<\(|\$\()\s*{_FETCH}"),
    ("remote-code", ("$(",), rf"(?:{_SHELL})\s+(?:-c\s+)?[\"']?\$\(\s*{_FETCH}"),
    ("remote-code", ("http", "git+"), r"\b(?:pip3?|uv\s+pip|pipx|npm|pnpm|yarn|gem|go)\s+(?:install|add|get|i)\b[^\n]{0,80}?"
                    r"(?:https?://|git\+)"),
    ("remote-code", ("http",), rf"{_FETCH}[^\n]{{0,200}}?https?://[^\n]{{0,200}}?(?:&&|;|\|\|)\s*(?:sudo\s+)?(?:(?:ba|z)?sh\s+\S|chmod\s+\+x|\./)"),
    ("remote-code", ("exec", "eval"), r"\b(?:exec|eval)\s*\([^\n]{0,80}?(?:urlopen|urllib|requests\.get|httpx\.get|fetch\s*\()"),
    ("remote-code", ("npx",), r"\bnpx\s+(?:-y\s+)?(?:https?://|github:)"),
    ("remote-code", ("download", "fetch", "grab"), rf"\b(?:download|fetch|grab)\s+{_W}(?:and|then)\s+(?:run|execute|exec|source|install)\b"),
    ("remote-code", ("http",), r"\b(?:run|execute|exec|source|eval)\s+(?:the\s+)?(?:script|installer|binary|file|code)?\s*"
                    r"(?:at|from)\s+https?://"),
    ("package-registry", ("index-url", "trusted-host", "index_url", "_registry"), r"--(?:extra-)?index-url\b|\bindex-url\s*=|--trusted-host\b|\bextra-index-url\b"
                         r"|\b(?:pip|uv)_(?:extra_)?index_url\s*=|\bpip_trusted_host\s*=|\bnpm_config_registry\s*="),
    ("package-registry", ("registry",), r"\b(?:npm|pnpm|yarn)\s+(?:config\s+)?set\s+[\w:@/-]*registry\b|--registry[\s=]+https?://"
                         r"|(?:(?m:^)|[\s\"'])@?[\w-]*:?registry\s*=\s*https?://"),
    ("package-registry", ("insteadof",), r"\burl\.\S+\.insteadof\b"),
    ("package-registry", ("goproxy", "gem sources", "conda config", "config set", "source add"), r"\bGOPROXY\s*=|\bgem\s+sources\s+(?:-a|--add)\b|\bconda\s+config\s+--add\s+channels\b"
                         r"|\b(?:pip|poetry|uv)\s+(?:config\s+set|source\s+add)\b"),
    ("package-registry", ("http",), rf"\badd\s+{_W}(?:package\s+)?(?:registry|index|mirror|feed|source)\s+{_W}https?://"),
    ("disable-verification", ("ssl", "verify", "tls", "insecure", "certificate", "hostkey", "curl", "knownhosts"), r"\bssl_?verify\s*[=:]?\s*(?:false|0|no)\b|\bhttp\.sslverify\b[^\n]{0,10}false"
                             r"|\bverify\s*=\s*false\b|\bnode_tls_reject_unauthorized\s*=\s*0"
                             r"|\bpythonhttpsverify\s*=\s*0|\bgit_ssl_no_verify\b|--no-check-certificate\b"
                             r"|\bstrict-ssl\s+false\b|\bstricthostkeychecking\s*=?\s*no\b|--insecure\b|\buserknownhostsfile\s*=?\s*/dev/null"
                             r"|\bcurl\s+(?:-\w*k\w*\s|--insecure)"),
    ("disable-verification", ("ssl", "tls", "https", "cert", "host", "signature", "checksum", "integrity"), rf"\b(?:disable|turn\s+off|skip|bypass|ignore)\s+{_W}(?:ssl|tls|https|certificate"
                             r"|cert|host[\s-]?key|signature|checksum|integrity)\s+(?:verification|checks?|validation"
                             r"|errors?|warnings?)\b"),
    ("disable-checks", ("no-verify", "hookspath", "commit", "husky", "gpg", "skiptests", "skip_tests"), r"--no-verify(?![-\w])|\bcore\.hookspath\s*[=\s]\s*(?:/dev/null|nul\b|[\"']{2}|/tmp/)"
                       r"|\bgit\s+commit(?:\s+-[a-z]+)*?\s+-[a-z]*n[a-z]*\b|(?m:^)\s*(?:export\s+)?skip\s*=\s*[\w,-]+\s+(?:git\s+)?commit|\bhusky\s*=\s*0\b|--no-gpg-sign\b"
                       r"|\bcommit\.gpgsign\s*=?\s*false\b|-dskiptests\b|\bskip_?tests\s*=\s*(?:1|true|yes)\b"),
    ("disable-checks", ("test", "hook", "check", "lint", "sign", "review"), rf"\b(?:skip(?:ping)?|disabl(?:e|ing)|bypass(?:ing)?|turn(?:ing)?\s+off|comment(?:ing)?\s+out"
                       rf"|remov(?:e|ing)|delet(?:e|ing))\s+{_W}(?:the\s+)?"
                       r"(?:pre-commit\s+|git\s+|commit\s+)?(?:tests?|test\s+suite|hooks?|ci\s+checks?|checks|linters?"
                       r"|linting|type[\s-]?check(?:s|ing|er)?|signing|signatures?|code\s+review)\b"),
    ("exfiltration", ("send", "mail", "forward", "post", "upload", "paste", "share", "copy", "transfer", "sync", "push", "leak"), rf"\b(?:send|e-?mail|mail|forward|post|upload|paste|share|copy|transfer|sync|push|leak)\w*"
                     rf"\s+{_W}[~/\w.-]*?{_SECRETS}[^\n]{{0,80}}?\b(?:to|into|at|on)\s+(?:https?://|[\w.+-]+@|[\w-]+\.[\w.-]+)"),
    ("exfiltration", ("@",), r"\b(?:curl|wget|http)\b[^\n]{0,120}?(?:-d|--data(?:-binary)?|-F|--form|-T|--upload-file)"
                     r"\s+['\"]?[\w-]*=?@"),
    ("exfiltration", ("|",), rf"{_SECRETS}[^\n|]{{0,80}}\|\s*(?:curl|wget|nc|ncat|netcat|ssh|mail|sendmail|socat)\b"),
    ("exfiltration", ("scp", "rsync", "nc", "netcat"), r"\b(?:scp|rsync|nc|ncat|netcat)\b[^\n]{0,120}?(?:\.ssh|\.aws|\.env\b|id_rsa|credentials)"),
    ("weaken-permissions", ("chmod", "nopasswd", "setenforce", "ufw", "privileged", "dangerously", "bypasspermissions", "icacls"), r"\bchmod\s+(?:-\w+\s+)*(?:[0-7]{2,3}[2367]\b|[ugo]*[oa][ugo]*\+[rxX]*w)|\bnopasswd\b"
                           r"|\bsetenforce\s+0\b|\bufw\s+disable\b|--privileged\b|--dangerously-skip-permissions\b"
                           r"|\bbypasspermissions\b|\bicacls\b[^\n]{0,60}everyone:\(?f"),
    ("weaken-permissions", ("selinux", "apparmor", "firewall", "defender", "antivirus", "2fa", "mfa", "two-factor"), rf"\b(?:disable|turn\s+off|stop)\s+{_W}(?:selinux|apparmor|the\s+firewall|firewall"
                           r"|defender|antivirus|2fa|mfa|two-factor)\b"),
))
"""(class, trigger substrings — the rule runs only when one occurs in the lower-cased text —, regex)."""
DANGER_CLASSES = tuple(dict.fromkeys(cls for cls, _need, _rx in _RULES))

# A narrow skip names what it skips: a test function, class, file or parametrized case
# (test_x, TestUploader.test_retry, tests/test_api.py::test_y, test_x[py3]), bare or quoted —
# never an English word ("suite", "flaky"), a folder, or a pattern (`tests/*`, `-k ''`).
_TOKEN = re.compile(r"`[^`\n]+`|\"[^\"\n]+\"|'[^'\n]+'|[^\s,;]+")
_IDENT = re.compile(r"[A-Za-z_][\w.:-]*(?:\[[^\]\s]*\])?")
_WHOLESALE = re.compile(r"\b(?:all|every|entire|whole|any|globally|everywhere)\b", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:when|whenever|if|unless|while|until|only|as\s+long\s+as)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[;!?\n]|\.(?:\s|$)|,\s*(?:and|but|then|also)\b")
_CLAUSE_START = re.compile(r"[;!?\n]|\.\s")

_NEGATION = re.compile(r"\b(?:never|don'?t|do\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot"
                       r"|can'?t|no\s+one|nobody|avoid|stop|refuse|forbid(?:den)?|prohibited|not\s+allowed)\b"
                       r"(?!\s+(?:forget|fail|hesitate|miss|wait|mind|worry|panic|bother|be\s+afraid))", re.IGNORECASE)
_REQUIRES = re.compile(r"\b(?:before|until|unless|without|first|after|then|instead|except|but|and|so|just|now)\b", re.IGNORECASE)
"""Words that turn a prohibition into a requirement: "never push *without* running curl | sh",
"stop the service *and* run curl | sh"."""
_CLAUSE = re.compile(r"[.!?;:\n]", re.IGNORECASE)

@dataclass(frozen=True, slots=True)
class DangerFinding:
    """One dangerous step: its class (the reason id) and the matching text (at most 120 chars)."""

    cls: str
    excerpt: str

    @property
    def reason(self) -> str:
        return f"dangerous:{self.cls}"


def _forbidden(text: str, start: int) -> bool:
    """True when the clause holding ``start`` forbids the step ("never push with --no-verify"):
    a negation at most six words before it, with nothing between that makes the step required."""
    clause = _CLAUSE.split(text[max(0, start - 160):start])[-1]
    negations = list(_NEGATION.finditer(clause))
    if not negations:
        return False
    between = clause[negations[-1].end():]
    return len(between.split()) <= 6 and not _REQUIRES.search(between)


def _test_name(token: str) -> bool:
    """Whether ``token`` names one test (or one test file), not a word, a folder or a pattern."""
    name = token.strip("`'\"").rstrip(".,:;)")
    if not 2 <= len(name) <= 120 or any(c in name for c in "*?"):
        return False
    if "/" in name or "\\" in name:  # a path: a test file, or a test inside one
        return "::" in name or bool(re.search(r"\.\w+$", name))
    return bool(_IDENT.fullmatch(name)) and bool(re.search(r"[_.:]|[a-z][A-Z]", name))


def _names_after(rest: str) -> bool:
    """``rest`` (the text after "test"/"tests") begins with one or more test names."""
    tokens = _TOKEN.findall(rest)
    if tokens and tokens[0].lower() in ("named", "called"):
        tokens = tokens[1:]
    return bool(tokens) and _test_name(tokens[0])


def _narrow_skip(text: str, m: re.Match[str]) -> bool:
    """True when the skip ``m`` matched is one named test (or a few) under a stated condition:
    "skip the flaky test `test_upload_retry` in CI only when the S3 mock is down". That is an
    owner's maintained exception, not verification turned off; "skip the tests on release
    branches", "skip all tests when …", an unconditional "skip test_x", and any skip of hooks,
    linting, type checks or signing stay dangerous."""
    words = m.group(0).split()
    if not words[-1].lower().startswith("test"):
        return False
    filler = " ".join(words[1:-1])
    end = _CLAUSE_END.search(text, m.end())
    rest = text[m.end():end.start() if end else len(text)]
    before = _CLAUSE_START.split(text[max(0, m.start() - 160):m.start()])[-1]
    if re.match(r"[_:./]\w", rest):  # the object word is the head of a path/identifier (tests/x.py::y)
        head = words[-1] + rest.split()[0]
        named = _test_name(head)
        rest = rest[len(head) - len(words[-1]):]
    else:
        named = any(_test_name(t) for t in _TOKEN.findall(filler)) or _names_after(rest)
    # what widens the skip ("all", "every") counts outside the condition, not inside it ("when
    # any runner is busy" is when, not what)
    cond_after, cond_before = _CONDITION.search(rest), _CONDITION.search(before)
    scope = f"{'' if cond_before else before} {filler} {rest[:cond_after.start()] if cond_after else rest}"
    return named and bool(cond_after or cond_before) and not _WHOLESALE.search(scope)


def find_dangerous(text: str) -> list[DangerFinding]:
    """Every dangerous step in ``text`` that the sentence does not forbid, one per class."""
    # invisible characters out first: "cu\u200brl … | s\u00adh" reads as curl | sh, and the gate
    # strips them from an owner-backed proposal *after* this check
    norm = normalize(strip_invisible(text))
    low = norm.lower()
    found: dict[str, DangerFinding] = {}
    for cls, need, rx in _RULES:
        if cls in found or not any(t in low for t in need):
            continue
        for m in rx.finditer(norm):
            if cls == "disable-checks" and _narrow_skip(norm, m):
                continue
            if not _forbidden(norm, m.start()):
                found[cls] = DangerFinding(cls, " ".join(m.group(0).split())[:120])
                break
    return list(found.values())
