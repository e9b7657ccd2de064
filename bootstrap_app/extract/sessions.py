"""The session signal -> proposals: feedback per preference, one user entry, one entry per main project.

Every proposal cites the session file and line its evidence rests on (``path:line``; a chat
export's ``file#conversation/message``), and every piece of evidence is a turn the person typed:
the signal is built from nothing else (:mod:`bootstrap_app.signals.sessions`). Feedback
entries quote the person's words as the rule and say why (how often, in which sessions, as a
correction or a rule) and how to apply it (where: the project it was said in, or everywhere).

Deduplication against memory the agent already holds and the update of an approved rule by a
later, contradicting one are the pipeline's (``dedup_against_memory``, ``link_updates``): a
preference's subject rests on its topic words, not its wording, so the changed rule is the same
subject with a new key — an update of the approved entry, not a second one.
"""

from __future__ import annotations

from bootstrap_app.signals.session_words import topic_tokens
from bootstrap_app.signals.sessions import Preference, ProjectUse, SessionSignal
from bootstrap_app.types import Evidence, MemoryType, Proposal, slugify

__all__ = ["session_proposals"]

_PROJECTS = 5
_FEEDBACK = 20
_EVIDENCE = 5
_DAYS = 3
"""Days with turns before the hours are stated as a working pattern."""
_LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
                   "it": "Italian", "nl": "Dutch", "ru": "Russian", "zh": "Chinese", "ja": "Japanese",
                   "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "el": "Greek", "hi": "Hindi", "th": "Thai"}
_KIND_WORDS = {"rule": "stated as a rule", "correction": "as a correction of the agent's work",
               "preference": "as a preference"}


def _evidence(refs: tuple[object, ...] | list[object]) -> tuple[Evidence, ...]:
    out = []
    for ref in refs[:_EVIDENCE]:
        out.append(Evidence(source=ref.source, ref=ref.ref, date=ref.date,  # type: ignore[attr-defined]
                            authored_by_owner=True, excerpt=ref.note[:200]))  # type: ignore[attr-defined]
    return tuple(out)


def _where(scope: str) -> str:
    return "everywhere" if scope == "global" else f"when working in `{scope}`"


def _feedback(p: Preference) -> Proposal:
    topic = p.topic or " ".join(sorted(topic_tokens(p.text)))
    how = ", ".join(_KIND_WORDS[k] for k in p.kinds if k in _KIND_WORDS)
    lines = [f"\"{p.text}\" (the user's own words to an agent)."]
    why = (f"**Why:** the user said this in {p.sessions} session{'s' if p.sessions != 1 else ''}"
           f" ({how}); each session is cited as evidence.")
    if p.replaces:
        why += f" It replaces what they said earlier: \"{p.replaces}\"."
    lines += [why, f"**How to apply:** follow it {_where(p.scope)} without being reminded."]
    words = p.text if len(p.text) <= 150 else p.text[:149].rstrip() + "…"
    return Proposal(type=MemoryType.FEEDBACK, name=slugify(f"agent-{p.text}", 60), description=words,
                    body="\n".join(lines), subject=f"session-pref:{slugify(topic, 80)}",
                    key=p.text.lower(), scope=p.scope,
                    confidence=min(0.85, 0.5 + 0.1 * p.sessions + (0.1 if p.kind == "rule" else 0.0)),
                    evidence=_evidence(list(p.refs)))


def _hours_window(hours: tuple[int, ...], share: float = 0.8, longest: int = 12) -> tuple[int, int] | None:
    """(first hour, length) of the shortest run of hours, across midnight too, holding ``share``
    of the turns; None when the turns are spread wider than ``longest`` hours (no pattern to state)."""
    total = sum(hours)
    if not total or len(hours) != 24:
        return None
    for length in range(1, longest + 1):
        best = max(range(24), key=lambda h: sum(hours[(h + i) % 24] for i in range(length)))
        if sum(hours[(best + i) % 24] for i in range(length)) >= share * total:
            return best, length
    return None


def _user(s: SessionSignal) -> Proposal | None:
    if s.turns < 5:
        return None
    lines: list[str] = []
    total = sum(n for _, n in s.languages)
    languages = [(code, n) for code, n in s.languages if total and n / total >= 0.2]
    if languages:
        names = " and ".join(_LANGUAGE_NAMES.get(c, c) for c, _ in languages)
        lines.append(f"Writes to coding agents in {names} "
                     f"({', '.join(f'{round(100 * n / total)}%' for _, n in languages)} of the {total} messages "
                     f"long enough to tell); answer in the language of the message.")
    window = _hours_window(s.hours)
    if window is not None and s.turns >= 10 and s.days >= _DAYS:
        start, length = window
        peak = max(range(24), key=lambda h: s.hours[h])
        lines.append(f"Works with agents mostly between {start:02d}:00 and {(start + length) % 24:02d}:00 UTC "
                     f"(busiest hour {peak:02d}:00 UTC; {s.turns} messages in {s.sessions} sessions).")
    if s.tools:
        lines.append("Tools the agents used most for them: " + ", ".join(f"{n} ({c})" for n, c in s.tools[:6]) + ".")
    if not lines:
        return None
    return Proposal(type=MemoryType.USER, name="working-with-agents",
                    description="How the user works with coding agents: language, hours, tools", body="\n".join(lines),
                    subject="session:user", key=" | ".join(lines[:2]), confidence=0.6,
                    evidence=_evidence(list(s.refs)))


def _setup(s: SessionSignal) -> Proposal | None:
    """What the person told an agent about their own setup, once is enough: it is a statement of
    fact about themselves, not a preference that needs repeating."""
    if not s.setup:
        return None
    lines = ["What the user told their agents about their setup (assume it; do not ask again):"]
    lines += [f"- {named}" for named, _ in s.setup[:8]]
    return Proposal(type=MemoryType.USER, name="agent-setup", description="The user's setup: "
                    + ", ".join(named for named, _ in s.setup[:4]), body="\n".join(lines), subject="session:setup",
                    key=" | ".join(sorted(named.lower() for named, _ in s.setup[:8])), confidence=0.55,
                    evidence=_evidence([ref for _, ref in s.setup[:_EVIDENCE]]))


def _project(u: ProjectUse) -> Proposal | None:
    if not u.refs or (u.sessions < 2 and u.turns < 5):  # one passing request is not "a project they work on"
        return None
    span = ""
    if u.first and u.last:
        span = f" between {u.first.date().isoformat()} and {u.last.date().isoformat()}"
    name = u.project.rstrip("/").rsplit("/", 1)[-1] or u.project
    body = (f"The user works on `{u.project}` with coding agents: {u.turns} messages in {u.sessions} "
            f"session{'s' if u.sessions != 1 else ''}{span}.")
    return Proposal(type=MemoryType.PROJECT, name=slugify(f"agent-work-{name}", 60),
                    description=f"{name}: a project the user works on with agents ({u.sessions} sessions)",
                    body=body, subject=f"session-project:{u.project}", key=str(u.sessions), scope=u.project,
                    confidence=0.55, evidence=_evidence(list(u.refs)))


def session_proposals(signal: SessionSignal | None) -> list[Proposal]:
    """Every proposal the person's sessions support (none for an empty signal)."""
    if signal is None or not signal.turns:
        return []
    found = [_feedback(p) for p in signal.preferences[:_FEEDBACK]]
    found += [p for p in (_user(signal), _setup(signal)) if p is not None]
    found += [p for p in (_project(u) for u in signal.projects[:_PROJECTS]) if p is not None]
    return [p for p in found if p.evidence]
