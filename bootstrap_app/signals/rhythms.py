"""Recurring rituals from the calendar, and the calendar's timezone.

A ritual is a series (``Event.series_uid``) with at least three occurrences that is still
running. Its day(s) of week and time are computed in the *owner's* timezone from each
occurrence's UTC start, so a 09:30 Berlin standup stays 09:30 across the DST switch even
though its UTC time moves. Only titles, attendee names, days, times and durations are kept.

One meeting is often written as several series (one RRULE per weekday, each with its own UID,
or a series re-created each term): series sharing an informative title, organizer and local
start time are joined into one ritual that names all its days.

Derivation is the evidence (issue 30): a series is a ritual of the owner only when the owner is
on it — organised it, is on its attendee list, or it is a bare event (no organizer, no
attendees) in the calendar of the owner's own account. A published feed, a colleague's export
or a family calendar, where the owner is on no event, gives no ritual. The calendar's timezone
is voted only by events the owner *organised* (or bare events of their own account): an event
the owner merely attends carries its organizer's zone. Both are decided after the stream, when
the owner is known, from per-person counters; the zone's evidence is those very events.

A title says nothing when it is a convention for "no title" (Exchange's free/busy labels, an
empty or untitled event) *or* when one title labels most of the calendar: an export whose
titles were replaced by one placeholder, or a published availability feed, carries no topic
whatever that placeholder's word is (``_PLACEHOLDER_SHARE``), so no such word is listed here.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from statistics import median
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.identity.resolve import normal_name
from bootstrap_app.types import Event, Item

from .analyzer import Analyzer
from .base import Ref, is_owner_key, person_key, prefer_past

__all__ = ["DAYS", "RhythmSignal", "RhythmsAccumulator", "Ritual", "offset_name", "zone"]

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_KEEP_STARTS = 300
_KINDS = (
    ("standup", re.compile(r"stand[- ]?up|daily|scrum", re.I)),
    ("1:1", re.compile(r"\b1\s*[:/-]\s*1\b|one[- ]on[- ]one|1on1|\b1-1\b", re.I)),
    ("planning", re.compile(r"planning|sprint|kick-?off", re.I)),
    ("review", re.compile(r"review|demo|retro|post-?mortem", re.I)),
    ("sync", re.compile(r"sync|check-?in|catch-?up|weekly|staff|team meeting|all[- ]hands", re.I)),
)
_UNINFORMATIVE = re.compile(r"^(?:busy|free|tentative|away|event|meeting|untitled|\(no title\)|"
                            r"out of office|ooo)?$", re.I)
_PLACEHOLDER_SHARE = 0.4
"""A title shared by at least this share of a calendar's series and one-off events (and by at
least ``_PLACEHOLDER_MIN`` of them) is a placeholder, not a topic."""
_PLACEHOLDER_MIN = 10
_ZONE_REFS = 6
"""Events kept per person as the evidence of the zone they set."""


_OFFSET_NAME = re.compile(r"^UTC([+-])(\d{2}):(\d{2})$")


def zone(name: str) -> tzinfo | None:
    """An IANA zone, or a fixed offset written ``UTC-06:00`` (what mail Date headers give)."""
    m = _OFFSET_NAME.match(name or "")
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3))
        return timezone(timedelta(minutes=-minutes if m.group(1) == "-" else minutes))
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def offset_name(minutes: int) -> str:
    """-360 -> ``UTC-06:00``; the name :func:`zone` reads back."""
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


@dataclass(frozen=True)
class Ritual:
    series_uid: str
    title: str
    kind: str
    days: tuple[str, ...]
    time: str
    minutes: int
    cadence: str
    occurrences: int
    attendees: tuple[tuple[str, str], ...]
    """(key, name) of the other people, owner excluded."""
    organizer: str
    first: datetime | None
    last: datetime | None
    informative: bool
    refs: tuple[Ref, ...] = ()
    planned: bool = False
    """No occurrence yet on or before the owner's last activity / now: the series is a plan."""

    @property
    def when(self) -> str:
        """``weekdays 09:30``, ``Thu 10:00``, ``Mon 14:00 every two weeks``."""
        days = "weekdays" if self.days == DAYS[:5] else ", ".join(self.days)
        extra = "" if self.cadence in ("weekly", "every weekday") else f" {self.cadence}"
        return f"{days} {self.time}{extra}"


@dataclass(frozen=True)
class RhythmSignal:
    timezone: str = ""
    timezone_votes: int = 0
    rituals: tuple[Ritual, ...] = ()
    events: int = 0
    calendar_refs: tuple[Ref, ...] = ()
    """Events the owner organised (or bare events of their own account) that voted for
    ``timezone``: the zone's evidence, and nothing else."""


@dataclass
class _Series:
    titles: Counter[str] = field(default_factory=Counter)
    starts: list[datetime] = field(default_factory=list)
    minutes: Counter[int] = field(default_factory=Counter)
    people: Counter[str] = field(default_factory=Counter)
    names: dict[str, str] = field(default_factory=dict)
    organizers: Counter[str] = field(default_factory=Counter)
    count: int = 0
    refs: list[Ref] = field(default_factory=list)
    first_ref: Ref | None = None
    first: datetime | None = None
    """The earliest start ever seen (``starts`` keeps only the newest when a series is long)."""
    hosts: Counter[str] = field(default_factory=Counter)
    """Accounts of the calendars holding bare occurrences (no organizer, no attendees)."""


@dataclass
class RhythmsAccumulator(Analyzer):
    signal = "rhythms"
    consumes = frozenset({"event"})

    zones: dict[str, Counter[str]] = field(default_factory=dict)
    """Per person key: the zones (TZID) of the events they organised, or of the bare events of
    their calendar account (see the module docstring)."""
    zone_refs: dict[str, list[Ref]] = field(default_factory=dict)
    """Per person key: a few of those events (the zone's evidence), newest kept."""
    series: dict[str, _Series] = field(default_factory=dict)
    events: int = 0
    _now: datetime = field(default_factory=lambda: datetime.now(UTC), repr=False)
    """When the scan began: a zone is cited from events that already happened."""
    unit_titles: Counter[str] = field(default_factory=Counter)
    """Titles counted once per series and once per one-off event (see :meth:`placeholders`)."""

    def observe(self, item: Item) -> None:
        if not isinstance(item, Event):
            return
        self.events += 1
        if not item.series_uid or item.series_uid not in self.series:
            self.unit_titles[" ".join(item.summary.split())[:80].casefold()] += 1
        if item.published:  # a public feed (or a calendar marked shared): nobody's own meeting
            return
        organizer = person_key(item.organizer) if item.organizer else ""
        host = item.calendar_owner.lower() if not organizer and not item.attendees else ""
        if item.tzid and item.tzid.upper() not in ("UTC", "Z", "GMT", "ETC/UTC") and zone(item.tzid) \
                and (organizer or host):
            self._vote(organizer or host, item)
        if not item.series_uid or item.all_day or item.start is None or item.status.lower() == "cancelled":
            return
        s = self.series.setdefault(item.series_uid, _Series())
        s.count += 1
        s.titles[" ".join(item.summary.split())[:80]] += 1
        start = item.start if item.start.tzinfo else item.start.replace(tzinfo=UTC)
        s.starts.append(start)
        if len(s.starts) > 2 * _KEEP_STARTS:
            s.starts.sort()
            del s.starts[:-_KEEP_STARTS]
        if s.first is None or start < s.first:
            s.first = start
        if item.end is not None:
            end = item.end if item.end.tzinfo else item.end.replace(tzinfo=UTC)
            s.minutes[max(0, int((end - start).total_seconds() // 60))] += 1
        for p in item.attendees:
            if p.address and p.address in item.declined:
                continue  # on the list, not at the meeting
            if key := person_key(p):
                s.people[key] += 1
                if p.name:
                    s.names[key] = normal_name(p.name)
        if host:
            s.hosts[host] += 1
        if organizer:
            s.organizers[organizer] += 1
            if item.organizer and item.organizer.name:
                s.names.setdefault(organizer, normal_name(item.organizer.name))
        note = f"calendar event on {start.date().isoformat()}"
        ref = Ref(item.source, item.ref, start, organizer, note)
        # every occurrence's pointer is kept (bounded like ``starts``): which ones to cite is
        # decided at the end, against the owner's last activity, so a meeting months ahead of
        # the data is never cited while past ones exist
        if s.first_ref is None or (s.first_ref.date and start < s.first_ref.date):
            s.first_ref = ref
        s.refs.append(ref)
        if len(s.refs) > 2 * _KEEP_STARTS:
            s.refs.sort(key=lambda r: r.date.timestamp() if r.date else 0.0)
            del s.refs[:-_KEEP_STARTS]

    def _vote(self, key: str, item: Event) -> None:
        """``key`` set ``item``'s zone: count it, and keep the event if it is among the key's
        newest few that already happened (or, while none has, the earliest planned)."""
        counts = self.zones.get(key)
        if counts is None:
            counts = self.zones[key] = Counter()
        counts[item.tzid] += 1
        when = item.start or item.timestamp
        ref = Ref(item.source, item.ref, when, key, f"calendar event on {when.date().isoformat() if when else '?'}"
                  f" in {item.tzid}")
        refs = self.zone_refs.setdefault(key, [])
        refs.append(ref)
        if len(refs) > 2 * _ZONE_REFS:  # bounded: keep the newest past ones, then the earliest ahead
            refs[:] = prefer_past(refs, (self._now,))[:_ZONE_REFS]

    def placeholders(self) -> set[str]:
        """Titles (casefolded) that label so much of the calendar that they name nothing."""
        units = sum(self.unit_titles.values())
        return {t for t, n in self.unit_titles.items()
                if n >= _PLACEHOLDER_MIN and n >= _PLACEHOLDER_SHARE * units}

    def calendar_timezone(self, owner: OwnerIdentity) -> tuple[str, int, tuple[Ref, ...]]:
        """(zone, votes, evidence) of the events the owner organised or keeps bare in their own
        account's calendar; ``("", 0, ())`` when the owner set no event's zone."""
        votes: Counter[str] = Counter()
        refs: list[Ref] = []
        for key, counts in self.zones.items():
            if is_owner_key(key, owner):
                votes.update(counts)
                refs += self.zone_refs.get(key, [])
        if not votes:
            return "", 0, ()
        name, n = votes.most_common(1)[0]
        return name, n, tuple(r for r in refs if r.note.endswith(f" in {name}"))

    def result(self, owner: OwnerIdentity, tz_name: str = "", now: datetime | None = None,
               active_until: datetime | None = None) -> RhythmSignal:
        """``active_until``: the owner's last mail/chat activity; occurrences after it (and
        after ``now``) are plans, counted and cited only when a series has nothing else."""
        tz: tzinfo = zone(tz_name) or UTC
        lasts = [max(s.starts) for s in self.series.values() if s.starts]
        now = now or datetime.now(UTC)
        as_of = min(now, max(lasts)) if lasts else now
        cutoff = min(now, active_until) if active_until else now
        placeholders = self.placeholders()
        rituals = [r for uid, s in _join_split_series(self.series, tz, placeholders).items()
                   if (r := self._ritual(uid, s, owner, tz, as_of, (cutoff, now)))]
        rituals = [replace(r, informative=False) if r.title.casefold() in placeholders else r for r in rituals]
        rituals.sort(key=lambda r: (not r.informative, r.kind == "other", -r.occurrences, r.title))
        tz_calendar, votes, refs = self.calendar_timezone(owner)
        return RhythmSignal(tz_calendar, votes, tuple(rituals), self.events, refs)

    @staticmethod
    def _ritual(uid: str, s: _Series, owner: OwnerIdentity, tz: tzinfo,
                as_of: datetime, cutoffs: tuple[datetime, datetime]) -> Ritual | None:
        if s.count < 3 or len(s.starts) < 3:
            return None
        if not any(is_owner_key(k, owner) for k in (*s.organizers, *s.people, *s.hosts)):
            return None  # the owner is on no occurrence: someone else's meeting, or a feed's
        every = sorted(set(s.starts))
        if every[-1] < as_of - timedelta(days=60):
            return None  # a series that ended is history, not a ritual
        # what happened weighs: day, time and cadence come from past occurrences when there
        # are enough of them; a series that exists only ahead of the data is a plan
        past: list[datetime] = []
        for cut in cutoffs:
            past = [d for d in every if d <= cut]
            if len(past) >= 3:
                break
        starts = past if len(past) >= 3 else every
        local = [d.astimezone(tz) for d in starts]
        day_counts = Counter(d.weekday() for d in local)
        top = max(day_counts.values())
        days = tuple(DAYS[i] for i in sorted(day_counts) if day_counts[i] >= 0.3 * top)
        time = Counter(d.strftime("%H:%M") for d in local).most_common(1)[0][0]
        minutes = s.minutes.most_common(1)[0][0] if s.minutes else 0
        dates = sorted({d.date() for d in local})
        gaps = [(b - a).days for a, b in itertools.pairwise(dates)]
        gap = median(gaps) if gaps else 0
        per_week = len(days)
        if per_week >= 5 and gap <= 1.5:
            cadence = "every weekday" if days == DAYS[:5] else "daily"
        elif gap <= 8:
            cadence = "weekly"
        elif gap <= 16:
            cadence = "every two weeks"
        elif gap <= 35:
            cadence = "monthly"
        else:
            return None  # yearly reminders and birthdays are dates, not rituals
        title = s.titles.most_common(1)[0][0]
        kind = next((k for k, rx in _KINDS if rx.search(title)), "other")
        others = [(k, s.names.get(k, "")) for k, _ in s.people.most_common() if not is_owner_key(k, owner)]
        if kind == "other" and len(s.people) == 2 and len(others) == 1 and cadence in ("weekly", "every two weeks"):
            kind = "1:1"
        organizer = s.organizers.most_common(1)[0][0] if s.organizers else ""
        refs = prefer_past(s.refs, cutoffs)[:2]
        if not past and s.first_ref is not None:
            refs = [s.first_ref]  # a plan: cite where it starts
        first = min(s.first or every[0], every[0])
        return Ritual(uid, title, kind, days, time, minutes, cadence, len(past) if past else len(every),
                      tuple(others[:12]), organizer, first, every[-1], not _UNINFORMATIVE.match(title.strip()),
                      tuple(refs), planned=not past)


def _split_key(s: _Series, tz: tzinfo, placeholders: set[str]) -> tuple[str, str, str] | None:
    """(title, organizer, local time) of a recurring series with a title that names something."""
    if s.count < 2 or not s.starts or not s.titles:
        return None
    title = s.titles.most_common(1)[0][0]
    if _UNINFORMATIVE.match(title.strip()) or title.casefold() in placeholders:
        return None
    time = Counter(d.astimezone(tz).strftime("%H:%M") for d in s.starts).most_common(1)[0][0]
    organizer = s.organizers.most_common(1)[0][0] if s.organizers else ""
    return title.casefold(), organizer, time


def _join_split_series(series: dict[str, _Series], tz: tzinfo, placeholders: set[str]) -> dict[str, _Series]:
    """One meeting written as several series (one RRULE per weekday, a series re-created each
    term) becomes one: series with the same informative title, organizer and local start time
    are joined, so the ritual names all its days instead of appearing once per weekday."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for uid, s in series.items():
        if split := _split_key(s, tz, placeholders):
            groups.setdefault(split, []).append(uid)
    out = dict(series)
    for uids in groups.values():
        if len(uids) < 2:
            continue
        joined = _Series()
        for uid in sorted(uids):
            part = out.pop(uid)
            joined.titles.update(part.titles)
            joined.starts += part.starts
            joined.minutes.update(part.minutes)
            joined.people.update(part.people)
            joined.organizers.update(part.organizers)
            joined.hosts.update(part.hosts)
            joined.count += part.count
            joined.refs += part.refs
            for key, name in part.names.items():
                joined.names.setdefault(key, name)
            if part.first is not None and (joined.first is None or part.first < joined.first):
                joined.first = part.first
            if part.first_ref is not None and (joined.first_ref is None or (
                    part.first_ref.date and joined.first_ref.date and part.first_ref.date < joined.first_ref.date)):
                joined.first_ref = part.first_ref
        joined.refs.sort(key=lambda r: r.date.timestamp() if r.date else 0.0)
        out[sorted(uids)[0]] = joined
    return out
