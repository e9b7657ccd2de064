"""How a review card reads: its body as safe markdown, and a legend for every flag it carries.

Why here and not in the view: a card is a person's basis for trusting a proposal, and the rules
are easy to get wrong in both directions. Shown raw, ``**Why:**`` is noise; rendered as
ordinary markdown, text quoted from someone else's mail could pull a remote image (tracking) or
draw a fake link. :func:`card_markdown` renders exactly the three things memseed's own bodies
use — ``**bold**``, inline ``code`` and ``- `` bullets — and shows everything else literally.
:func:`flag_notes` says what each flag means *and* which line of the body it is about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.types import Evidence, Proposal

__all__ = ["FLAG_LEGEND", "FlagNote", "card_markdown", "evidence_markdown", "flag_notes"]

FLAG_LEGEND: dict[str, str] = {
    "sensitive": "mentions personal data (health, money, a government id …): never approved in bulk",
    "unverified-path": "a command taken from the repository's files that its CI does not run: check it "
                       "still works before the agent relies on it",
    "update": "replaces an entry memseed wrote earlier (the old text is shown below)",
    "stale": "something the entry names no longer exists (a path or a command)",
    "remove": "the entry it replaces no longer holds: approving deletes it",
    "llm": "worded by the language model from a digest of your items, not by memseed's own rules",
    "redacted": "a secret or personal detail was blanked out of the text",
    "third-party-evidence": "rests partly on what other people wrote (not your own words)",
}
"""Every flag a proposal can carry, in words; an unknown flag is shown with a generic note."""

_ESCAPE = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
_SPAN = re.compile(r"(\*\*[^*\n]{1,200}\*\*|`[^`\n]{1,300}`)")
_CI_MARKS = ("(runs in CI)", "CI runs", " → ")
_PLACE = re.compile(r"^[\w.@+/-]+:\d+$")


def _literal(text: str) -> str:
    return _ESCAPE.sub(r"\\\1", text)


def _line(line: str) -> str:
    bullet = line.startswith("- ")
    body = line[2:] if bullet else line
    parts = []
    for piece in _SPAN.split(body):
        if piece.startswith("**") and piece.endswith("**") and len(piece) > 4:
            parts.append(f"**{_literal(piece[2:-2])}**")
        elif piece.startswith("`") and piece.endswith("`") and len(piece) > 2:
            parts.append(piece)  # a code span shows its text literally: no link, no image
        else:
            parts.append(_literal(piece))
    return ("- " if bullet else "") + "".join(parts)


def card_markdown(text: str) -> str:
    """``text`` as markdown in which only bold, inline code and ``- `` bullets take effect."""
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        rendered = _line(line)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        # a hard break keeps the body's lines as lines, except where a list starts or goes on
        hard = rendered and not rendered.startswith("- ") and nxt and not nxt.startswith("- ")
        out.append(rendered + ("  " if hard else ""))
        if rendered and not rendered.startswith("- ") and nxt.startswith("- "):
            out.append("")  # markdown needs a blank line before a list
        elif rendered.startswith("- ") and nxt and not nxt.startswith("- "):
            out.append("")
    return "\n".join(out)


@dataclass(frozen=True)
class FlagNote:
    flag: str
    meaning: str
    lines: tuple[str, ...] = ()
    """The body lines the flag is about (empty: it is about the whole entry)."""


def _unverified_lines(p: Proposal) -> tuple[str, ...]:
    """The command lines of a repository entry that no CI run vouches for (repo_text's shape:
    ``- Label: `cmd` (where)``, marked ``(runs in CI)`` / ``CI runs`` / ``→`` when vouched for)."""
    return tuple(line for line in p.body.split("\n")
                 if line.startswith("- ") and "`" in line and not any(m in line for m in _CI_MARKS)
                 and re.search(r"\((?!runs in CI)[^()]+\)\s*$", line))


def flag_notes(p: Proposal) -> list[FlagNote]:
    """One note per flag of ``p``: what it means, and the lines it is about where that is known."""
    out = []
    for flag in p.flags:
        meaning = FLAG_LEGEND.get(flag, "a marker memseed set on this proposal")
        lines = _unverified_lines(p) if flag == "unverified-path" else ()
        out.append(FlagNote(flag, meaning, lines))
    return out


def evidence_markdown(ev: Evidence) -> str:
    """One evidence record as a card's bullet: where it is (``pyproject.toml:12`` when it names a file
    and line), when, whose words, and its excerpt — all shown literally (the excerpt may be anyone's)."""
    who = "you" if ev.authored_by_owner else "third party"
    when = ev.date.date().isoformat() if ev.date else "undated"
    place = f" · `{ev.ref}`" if _PLACE.match(ev.ref) and "`" not in ev.ref else ""
    note = ev.excerpt.removeprefix(f"{ev.ref}: ") if place else ev.excerpt
    excerpt = _literal(" ".join(note.split())) if note else "_(no excerpt)_"
    return f"- {_literal(ev.source)}{place} · {when} · **{who}**  \n  {excerpt}"
