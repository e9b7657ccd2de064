"""What a project's own config files declare about its code and its tests, each cited ``file:line``.

Two readers of files a newcomer would otherwise have to open themselves:

* :func:`code_styles` — a linter config's *chosen* style for a rule (RuboCop's ``EnforcedStyle:
  single_quotes`` under ``Style/StringLiterals``): the project picked one of the rule's styles, so
  every change must follow it. Only the linter's own key is read; comments and prose are not.
* :func:`suite_dependencies` — the packages only the test suite depends on (a ``.cabal``
  ``test-suite`` stanza's ``build-depends`` less the library's own and the package itself; mix
  deps marked ``only: :test``): by the manifest's own structure these are what the tests are
  written with (hedgehog, doctest, mox), not the project's runtime dependencies.

Names and styles are kept only in the identifier shapes each format allows, so nothing from a
file reaches a memory except a fixed ``name: value (file:line)`` sentence.
"""

from __future__ import annotations

import re

from bootstrap_app.ecosystems.base import load_yaml

__all__ = ["code_styles", "suite_dependencies"]

_COP = re.compile(r"^[A-Z][A-Za-z0-9]*/[A-Za-z0-9]+$")
_STYLE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_PACKAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,49}$")


def _line_of(text: str, pattern: str, start: int = 0) -> tuple[int, int]:
    """(1-based line, offset) of the first match of ``pattern`` at or after ``start``, else (0, start)."""
    m = re.compile(pattern, re.M).search(text, start)
    return (text.count("\n", 0, m.start()) + 1, m.end()) if m else (0, start)


def code_styles(files: dict[str, str]) -> tuple[str, ...]:
    """``Style/StringLiterals: single_quotes (.rubocop.yml:21)`` for each cop whose ``EnforcedStyle``
    ``.rubocop.yml`` sets."""
    text = files.get(".rubocop.yml", "")
    data = load_yaml(text) if text else None
    out: list[str] = []
    for cop, conf in (data.items() if isinstance(data, dict) else ()):
        style = conf.get("EnforcedStyle") if isinstance(conf, dict) else None
        if not (isinstance(cop, str) and _COP.match(cop) and isinstance(style, str) and _STYLE.match(style)):
            continue
        _, at = _line_of(text, rf"^{re.escape(cop)}\s*:")
        line, _ = _line_of(text, r"^\s+EnforcedStyle\s*:", at)
        if line:
            out.append(f"{cop}: {style} (.rubocop.yml:{line})")
    return tuple(out[:6])


def _stanzas(text: str) -> list[tuple[str, int, str]]:
    """(kind, first line, body) of each top-level cabal stanza (``library``, ``test-suite NAME``…)."""
    out: list[tuple[str, int, str]] = []
    heads = list(re.finditer(r"^([A-Za-z][\w-]*)(?:[ \t]+[^\n]*)?$", text, re.M))
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((m.group(1).lower(), text.count("\n", 0, m.start()) + 1, text[m.end():end]))
    return out


def _depends(body: str) -> list[tuple[str, int]]:
    """(package, offset in body) of each entry of a stanza's ``build-depends`` field (continued lines too)."""
    m = re.search(r"^[ \t]+build-depends[ \t]*:(.*(?:\n[ \t]+(?![\w-]+[ \t]*:)[^\n]*)*)", body, re.M | re.I)
    if not m:
        return []
    out = []
    for part in re.finditer(r"[^,\n]+", m.group(1)):
        name = part.group(0).split()[0] if part.group(0).split() else ""
        if _PACKAGE.match(name):
            out.append((name, m.start(1) + part.start()))
    return out


def _cabal(path: str, text: str) -> list[str]:
    own = re.search(r"^name\s*:\s*(\S+)", text, re.M | re.I)
    stanzas = _stanzas(text)
    library = {n for kind, _, body in stanzas if kind in ("library", "common") for n, _ in _depends(body)}
    out: list[str] = []
    for kind, first, body in stanzas:
        if kind != "test-suite":
            continue
        for name, offset in _depends(body):
            if name in library or (own and name == own.group(1)) or any(o.startswith(f"{name} ") for o in out):
                continue
            out.append(f"{name} ({path}:{first + body.count(chr(10), 0, offset)})")
    return out


def _mix(text: str) -> list[str]:
    out = []
    for m in re.finditer(r"\{\s*:(\w+)\s*,[^{}\n]*\bonly:\s*:test\b(?!\w)[^{}\n\[]*\}", text):
        if _PACKAGE.match(m.group(1)):
            out.append(f"{m.group(1)} (mix.exs:{text.count(chr(10), 0, m.start()) + 1})")
    return out


def suite_dependencies(files: dict[str, str]) -> tuple[str, ...]:
    """``hedgehog (toolkit.cabal:70)``: the packages only the test suite depends on, at most six."""
    out: list[str] = []
    for path in sorted(p for p in files if p.endswith(".cabal") and "/" not in p):
        out += _cabal(path, files[path])
    if "mix.exs" in files:
        out += _mix(files["mix.exs"])
    return tuple(dict.fromkeys(out))[:6]
