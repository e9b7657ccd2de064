"""Checks the doctor runs on memory text: threats, secrets, invisible characters, stale references.

Kept apart from the folder logic in ``doctor.py`` so each function reads one piece of text
and returns findings with line numbers — easy to test on a string. Severity policy:

- ``error``: content an agent should not load (injection, hidden markup, exfiltration, C2
  vocabulary, a live secret, invisible characters) or a file the harness cannot parse.
- ``warning``: harness-specific trouble (caps, dangling index links, duplicates) and the
  Hermes patterns that fire on everyday notes (``persistence``/``secret`` categories such as
  "edit AGENTS.md", ``~/.ssh``): an error for the Hermes target, where the entry *will* be
  replaced by ``[BLOCKED]``, a warning elsewhere.
- ``info``: paths that no longer exist, commands not on ``PATH`` — hints that the memory aged.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bootstrap_app.text.secrets import secret_spans
from bootstrap_app.text.unicode import find_invisible, word_list

from .injection import scan_text
from .pii import pii_kinds

__all__ = ["Finding", "near_duplicates", "reference_findings", "text_findings"]


@dataclass(frozen=True, order=True)
class Finding:
    """One problem found in a memory folder (``line`` is 1-based; 0 when it concerns the file)."""

    file: str
    line: int
    severity: str
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity} {self.code}: {self.message}"


_SOFT = {"persistence", "secret"}  # Hermes categories that fire on ordinary notes


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, max(0, offset)) + 1


def text_findings(text: str, file: str, *, first_line: int = 1, hermes: bool = False) -> list[Finding]:
    """Threat, secret and invisible-character findings for one file or one entry."""
    out: list[Finding] = []
    seen: set[tuple[int, str]] = set()
    for offset, ch in find_invisible(text):
        line = first_line + _line_of(text, offset) - 1
        if (line, f"{ord(ch):04X}") in seen:
            continue
        seen.add((line, f"{ord(ch):04X}"))
        out.append(Finding(file, line, "error", "invisible-unicode",
                           f"invisible character U+{ord(ch):04X} (hidden text; Hermes blocks the entry)"))
    for f in scan_text(text, tripwires=False, structure=False, hermes=hermes):
        if f.category == "invisible":
            continue
        severity = "error" if hermes or f.category not in _SOFT else "warning"
        note = "" if severity == "error" else " (Hermes would block this entry)"
        out.append(Finding(file, first_line + _line_of(text, f.start) - 1, severity, f"injection:{f.id}",
                           f"matches threat pattern {f.id}: {f.excerpt[:60]!r}{note}"))
    for kind, start, _end in secret_spans(text):
        severity = "warning" if kind == "high-entropy" and not hermes else "error"
        out.append(Finding(file, first_line + _line_of(text, start) - 1, severity, "secret",
                           f"looks like a {kind} (value not shown); move it to a secret store"))
    kinds = pii_kinds(text)
    if kinds:
        out.append(Finding(file, first_line, "info", "sensitive",
                           f"mentions personal data ({', '.join(sorted(kinds))}); the agent loads it every session"))
    return out


_BACKTICK = re.compile(r"`([^`\n]{1,300})`|(?<![\w`/~.])(~/[^\s`'\"),;:]+)")
_PATHLIKE = re.compile(r"^(?:~|/)[^\s*?<>|\"']*$")
_COMMAND = re.compile(r"^([a-z][a-z0-9_.+-]{1,40})\s+\S")
_NOT_COMMANDS = frozenset("""a an the to of in on at for and or is are if then else fi do done for while import from
def class return true false null none yes no not see e.g i.e vs via use""".split())  # noqa: SIM905


def reference_findings(text: str, file: str, *, first_line: int = 1, check_commands: bool = True) -> list[Finding]:
    """Backticked absolute/``~`` paths that no longer exist and commands not on ``PATH`` (info)."""
    out: list[Finding] = []
    seen: set[str] = set()
    for m in _BACKTICK.finditer(text):
        span = m.group(1).strip() if m.group(1) else m.group(2).rstrip(".,;:。，")
        line = first_line + _line_of(text, m.start()) - 1
        if _PATHLIKE.match(span) and len(span) > 1 and span not in seen:
            seen.add(span)
            path = Path(os.path.expanduser(span.rstrip("/.,:;。，")))
            if not path.exists():
                out.append(Finding(file, line, "info", "stale-path", f"path {span} does not exist on this machine"))
            continue
        cm = _COMMAND.match(span) if check_commands else None
        if cm:
            word = cm.group(1)
            if word in _NOT_COMMANDS or word in seen or ("." in word and not word.endswith((".sh", ".py"))):
                continue
            seen.add(word)
            if shutil.which(word) is None:
                out.append(Finding(file, line, "info", "unknown-command",
                                   f"command {word!r} (from `{span[:40]}`) is not on PATH here"))
    return out


def near_duplicates(bodies: dict[str, str], threshold: float = 0.9) -> list[tuple[str, str, float]]:
    """Pairs of keys whose bodies are identical or near-identical (word-set Jaccard ≥ threshold)."""
    sets = {k: frozenset(word_list(v)) for k, v in bodies.items()}
    keys = [k for k in bodies if len(sets[k]) >= 4]
    pairs: list[tuple[str, str, float]] = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            sa, sb = sets[a], sets[b]
            small, large = sorted((len(sa), len(sb)))
            if small / large < threshold:
                continue
            score = len(sa & sb) / len(sa | sb)
            if score >= threshold:
                pairs.append((a, b, score))
    return pairs
