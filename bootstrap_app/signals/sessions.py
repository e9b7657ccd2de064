"""What the person's own turns to their agents show: preferences, projects, tools, languages, hours.

Only :attr:`AgentTurn.own_words` turns are read for words: a person turn with a mark (a pasted
log, a slash command and its output, harness text in the person's name, a compaction summary,
a sub-agent's prompt) is not what the person said, and the agent's text and tool output never
reach this module at all (the readers yield tool calls by name only). So a sentence planted in
a tool result or in the assistant's reply ("the user prefers …") cannot become a preference.

A preference is a group of rule-, preference- or correction-shaped sentences
(:func:`~.session_words.statements`) that share their content words, across sessions. It
counts when it was said in two sessions or more, or stated as a rule once ("always …",
"never …", "from now on …"). Its scope is the project it was said in when every session that
says it ran in that one project, else global. When a later session says the opposite of an
earlier one ("use npm, not pnpm" after "use pnpm, not npm"; "always …" after "never …") the
later wording is the rule and the earlier one is kept as what it replaces.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import AgentTurn, Item

from .analyzer import Analyzer
from .base import Ref
from .session_words import Statement, about_self, guess_language, statements, topic_tokens

__all__ = ["Preference", "ProjectUse", "SessionSignal", "SessionsAccumulator"]

_MAX_GROUPS = 5000
"""Groups of statements kept (bounded: a year of sessions must not grow memory without end)."""
_SAME = 0.6
"""Share of the shorter statement's content words the other must share to be one preference."""
_PAIR = re.compile(
    r"(?:use|prefer|utilise|usa|use|verwende|benutze|используй)?\s*`?([\w.@/+-]+)`?\s*,?\s*(?:not|instead of|rather than|"
    r"statt|anstatt|au lieu de|plut[ôo]t que|en lugar de|en vez de|em vez de|invece di|in plaats van|вместо)\s+`?([\w.@/+-]+)",
    re.IGNORECASE)


@dataclass(frozen=True)
class Said:
    """One statement, where and when it was said."""

    statement: Statement
    ref: Ref
    session: str
    project: str


@dataclass(frozen=True)
class Preference:
    """A preference the person stated, grouped across sessions (see the module docstring)."""

    text: str
    """The rule in the person's latest wording."""
    kind: str
    scope: str
    """``global`` or the project (repository path) every session that says it ran in."""
    sessions: int
    refs: tuple[Ref, ...]
    """One per session: where it was said first in that session."""
    replaces: str = ""
    """An earlier wording the latest one contradicts (the rule was changed)."""
    kinds: tuple[str, ...] = ()
    topic: str = ""
    """What the preference is about, stable while its wording changes: the two things a "use X,
    not Y" weighs, else the content words of its first statement (a proposal's subject)."""


@dataclass(frozen=True)
class ProjectUse:
    project: str
    sessions: int
    turns: int
    first: datetime | None
    last: datetime | None
    refs: tuple[Ref, ...] = ()


@dataclass(frozen=True)
class SessionSignal:
    """The signal: empty when no agent session was read."""

    sessions: int = 0
    turns: int = 0
    """The person's own turns."""
    marked: int = 0
    """Person-role turns that were not the person's words (commands, pastes, meta …)."""
    statements: int = 0
    preferences: tuple[Preference, ...] = ()
    projects: tuple[ProjectUse, ...] = ()
    tools: tuple[tuple[str, int], ...] = ()
    languages: tuple[tuple[str, int], ...] = ()
    hours: tuple[int, ...] = ()
    """Own turns per UTC hour of the day (24 counts)."""
    harnesses: tuple[tuple[str, int], ...] = ()
    refs: tuple[Ref, ...] = ()
    """A few own turns, for evidence of the profile-level facts (languages, hours)."""
    setup: tuple[tuple[str, Ref], ...] = ()
    """What the person said about their own setup ("Ubuntu 22.04"), where they said it."""
    days: int = 0
    """Distinct (UTC) days with own turns: hours seen on one or two days are no working pattern."""


@dataclass
class _Group:
    tokens: frozenset[str]
    said: list[Said] = field(default_factory=list)
    pair: frozenset[str] = frozenset()
    """The two things a "use X, not Y" statement weighs (either way round: a reversal is the same
    preference, changed)."""


def _pair(text: str) -> tuple[str, str] | None:
    found = _PAIR.search(text)
    if not found:
        return None
    return found.group(1).lower().strip(".,;:!?"), found.group(2).lower().strip(".,;:!?")


def _contradicts(later: Statement, earlier: Statement) -> bool:
    a, b = _pair(later.text), _pair(earlier.text)
    if a and b:
        return a == (b[1], b[0])
    return later.negative != earlier.negative and later.kind == earlier.kind == "rule"


@dataclass
class SessionsAccumulator(Analyzer):
    signal = "sessions"
    consumes = frozenset({"agentturn"})

    groups: list[_Group] = field(default_factory=list)
    sessions: set[tuple[str, str]] = field(default_factory=set)
    turns: int = 0
    marked: int = 0
    said: int = 0
    projects: dict[str, dict[str, object]] = field(default_factory=dict)
    tools: Counter[str] = field(default_factory=Counter)
    languages: Counter[str] = field(default_factory=Counter)
    hours: list[int] = field(default_factory=lambda: [0] * 24)
    harnesses: Counter[str] = field(default_factory=Counter)
    samples: list[Ref] = field(default_factory=list)
    setup: dict[str, tuple[str, Ref]] = field(default_factory=dict)
    days: set[str] = field(default_factory=set)

    def observe(self, item: Item) -> None:
        turn = cast(AgentTurn, item)
        self.sessions.add((turn.harness, turn.session))
        if turn.role == "tool":
            if turn.tool:
                self.tools[turn.tool] += 1
            return
        if turn.role != "person":
            return
        if not turn.own_words:
            self.marked += 1
            return
        self.turns += 1
        self.harnesses[turn.harness] += 1
        when = turn.timestamp
        if when is not None:
            self.hours[when.hour] += 1
            if len(self.days) < 10_000:
                self.days.add(when.date().isoformat())
        language = guess_language(turn.text)
        if language:
            self.languages[language] += 1
        ref = Ref(turn.source, turn.ref, when, note=" ".join(turn.text.split())[:200], owner=True)
        if len(self.samples) < 5:
            self.samples.append(ref)
        if turn.project:
            use = self.projects.setdefault(turn.project, {"sessions": set(), "turns": 0, "first": when,
                                                          "last": when, "refs": []})
            cast(set[str], use["sessions"]).add(turn.session)
            use["turns"] = cast(int, use["turns"]) + 1
            if when is not None:
                first, last = cast(datetime | None, use["first"]), cast(datetime | None, use["last"])
                use["first"] = when if first is None or when < first else first
                use["last"] = when if last is None or when > last else last
            refs = cast(list[Ref], use["refs"])
            if len(refs) < 3:
                refs.append(ref)
        for named in about_self(turn.text):
            if named.lower() not in self.setup and len(self.setup) < 20:
                self.setup[named.lower()] = (named, Ref(turn.source, turn.ref, when, note=named, owner=True))
        for statement in statements(turn.text):
            self.said += 1
            self._add(Said(statement, Ref(turn.source, turn.ref, when, note=statement.text[:200], owner=True),
                           turn.session, turn.project))

    def _add(self, said: Said) -> None:
        tokens = topic_tokens(said.statement.text)
        if not tokens:
            return
        found = _pair(said.statement.text)
        pair = frozenset(found) if found else frozenset()
        for group in self.groups:
            if pair and group.pair:
                if pair == group.pair:
                    group.said.append(said)
                    return
                continue
            shared = len(tokens & group.tokens)
            if shared >= min(2, len(tokens)) and shared / min(len(tokens), len(group.tokens)) >= _SAME:
                group.said.append(said)
                return
        if len(self.groups) < _MAX_GROUPS:
            self.groups.append(_Group(tokens, [said], pair))

    def result(self, owner: OwnerIdentity) -> SessionSignal:
        preferences = [p for p in (self._preference(g) for g in self.groups) if p is not None]
        preferences.sort(key=lambda p: (-p.sessions, p.kind != "rule", p.text))
        projects = [ProjectUse(name, len(cast(set[str], u["sessions"])), cast(int, u["turns"]),
                               cast(datetime | None, u["first"]), cast(datetime | None, u["last"]),
                               tuple(cast(list[Ref], u["refs"])))
                    for name, u in self.projects.items()]
        projects.sort(key=lambda u: (-u.turns, u.project))
        return SessionSignal(
            sessions=len(self.sessions), turns=self.turns, marked=self.marked, statements=self.said,
            preferences=tuple(preferences), projects=tuple(projects), tools=tuple(self.tools.most_common(10)),
            languages=tuple(self.languages.most_common()), hours=tuple(self.hours) if self.turns else (),
            harnesses=tuple(self.harnesses.most_common()), refs=tuple(self.samples),
            setup=tuple(self.setup.values()), days=len(self.days))

    @staticmethod
    def _preference(group: _Group) -> Preference | None:
        said = sorted(group.said, key=lambda s: (s.ref.date is None, s.ref.date or datetime.min))
        sessions = list(dict.fromkeys(s.session for s in said))
        if len(sessions) < 2 and not any(s.statement.kind == "rule" for s in said):
            return None
        latest = said[-1]
        replaces = next((s.statement.text for s in reversed(said[:-1])
                         if s.session != latest.session and _contradicts(latest.statement, s.statement)), "")
        firsts: dict[str, Ref] = {}
        for s in said:
            firsts.setdefault(s.session, s.ref)
        projects = {s.project for s in said}
        scope = projects.pop() if len(projects) == 1 and "" not in projects else "global"
        kinds = tuple(dict.fromkeys(s.statement.kind for s in said))
        kind = "rule" if "rule" in kinds else latest.statement.kind
        topic = " ".join(sorted(group.pair or group.tokens))
        return Preference(latest.statement.text, kind, scope, len(sessions), tuple(firsts.values()),
                          replaces, kinds, topic)
