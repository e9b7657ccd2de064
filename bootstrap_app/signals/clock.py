"""The owner's clock: timezone and weekday working hours from *when* people write.

Why a module of its own: this is the one part of the profile that works on times alone. Per
author it keeps activity timestamps (a uniform reservoir sample, with the sender's Date-header
offset when the mail said) and how often each offset occurs; at the end it decides, for the
keys that turned out to be the owner's, the usual mail offset, whether a named zone fits it,
the timezone (calendar, then Slack, then the mail offset) and the working-hours window. It
knows nothing of signatures, titles or employers: :mod:`.profile` feeds it and asks it.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

from .base import RECEIVED_SUFFIX
from .rhythms import offset_name, zone

__all__ = ["ActivityClock", "WorkingHours"]

_MAX_STAMPS = 4000
_NEVER = float("-inf")
_MIN_PER_DAY = 3
"""Activities a weekday needs before the hours may name it."""
_MIN_DATES = 3
"""... seen on this many different dates (one busy Sunday is not a working Sunday)."""
_DAY_SHARE = 0.25
"""... and its share of the busiest day's activity (a stray weekend mail names no weekend)."""
_CENTRAL = 0.8
"""The share of activity the core of the window holds (see :func:`_central_window`)."""
_EDGE = 90
"""How far the window's edges may reach past the core, towards the outer 2% / 98% of activity."""
_MAX_SPAN = 12 * 60
"""A core wider than this is no working day: the person was simply seen at every hour."""


@dataclass
class ActivityClock:
    """Activity times per author key, and the timezone / working-hours decisions over them."""

    stamps: defaultdict[str, list[tuple[float, int | None]]] = field(default_factory=lambda: defaultdict(list))
    """Per author: (UTC timestamp, the sender's UTC offset in minutes when the mail said)."""
    seen: Counter[str] = field(default_factory=Counter)
    offset_counts: defaultdict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    """Per sender: how often each Date-header offset occurs (the owner's is decided late)."""
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    latest: dict[str, float] = field(default_factory=dict)
    """Per author: the newest mail/chat timestamp (the reservoir of ``stamps`` may miss it)."""
    kinds: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Per author: how many activities of each kind ("sent mail", "chat messages") were seen."""
    no_hours: str = ""
    """Why the last :meth:`hours` call found no working hours (for the proposal to say)."""

    def stamp(self, key: str, when: datetime | None, offset: int | None = None, kind: str = "sent mails") -> None:
        """One activity time of ``key``; ``offset`` is the sender's clock (mail Date header)."""
        if key and when is not None:
            self.stamp_at(key, when.timestamp(), offset, kind)

    def stamp_at(self, key: str, value: float, offset: int | None = None, kind: str = "sent mails") -> None:
        """:meth:`stamp` for a caller that has the POSIX time already (``key`` not empty): the
        profile needs it too, and this runs once per message of a mailbox."""
        seen = self.seen[key] + 1
        self.seen[key] = seen
        self.kinds[key][kind] += 1
        if value > self.latest.get(key, _NEVER):
            self.latest[key] = value
        bucket = self.stamps[key]
        if len(bucket) < _MAX_STAMPS:
            bucket.append((value, offset))
        else:  # reservoir sampling keeps the sample uniform without holding everything
            j = self.rng.randrange(seen)
            if j < _MAX_STAMPS:
                bucket[j] = (value, offset)
        if offset is not None:
            self.note_offset(key, offset)

    def note_offset(self, key: str, offset: int) -> None:
        """A Date-header offset on ``key``'s mail that is not counted as activity (a newsletter):
        it still tells which clocks the archive carries (see :meth:`mail_offset`)."""
        self.offset_counts[key][offset] += 1

    def last_activity(self, keys: list[str]) -> datetime | None:
        """When any of ``keys`` last sent mail or posted in chat (None when never seen)."""
        values = [self.latest[k] for k in keys if k in self.latest]
        return datetime.fromtimestamp(max(values), UTC) if values else None

    def mail_offset(self, keys: list[str]) -> tuple[int | None, str]:
        """The owner's usual Date-header offset, or (None, why not).

        Never an IANA zone: an offset says "UTC-06:00", not Chicago versus Mexico City. And an
        offset counts only when it tells the owner apart from everyone else: when at least 97%
        of the mail from 8 or more other domains carries the very offsets the owner's mail
        does, the archive rewrote every Date header into one zone (the Enron corpus did, to US
        Pacific time) and the offsets say nothing about where the owner is.
        """
        mine: Counter[int] = Counter()
        for k in keys:
            mine.update(self.offset_counts.get(k, Counter()))
        total = sum(mine.values())
        if total < 5:
            return None, "too few sent mails with a dated offset"
        if all(off == 0 for off in mine):
            return None, "sent mail is stamped +0000 (servers do that)"
        own = set(keys)
        others = [(k, c) for k, c in self.offset_counts.items() if k not in own]
        everyone: Counter[int] = Counter()
        for _, c in others:
            everyone.update(c)
        # one clock for the whole archive: its most common offset, plus the one an hour away
        # when that is next (the same zone in summer / winter time)
        top = [off for off, _ in everyone.most_common(2)]
        clock = {top[0]} | ({top[1]} if len(top) > 1 and abs(top[0] - top[1]) == 60 else set()) if top else set()
        domains = {k.removesuffix(RECEIVED_SUFFIX).rpartition("@")[2] for k, _ in others if "@" in k}
        n_others = sum(everyone.values())
        same = sum(n for off, n in everyone.items() if off in clock)
        usual = {off for off, n in mine.items() if n >= 0.05 * total}
        if len(domains) >= 8 and n_others >= 30 and same >= 0.97 * n_others and usual <= clock:
            return None, (f"{same} of {n_others} mails from {len(domains)} other domains carry the same "
                          "offsets: the archive rewrote the Date headers")
        return mine.most_common(1)[0][0], "Date headers of sent mail"

    def zone_matches_mail(self, keys: list[str], tz_name: str) -> bool:
        """True when ``tz_name`` gives the offset of at least 80% of the owner's dated mails."""
        tz = zone(tz_name)
        samples = [(ts, off) for k in keys for ts, off in self.stamps.get(k, []) if off is not None]
        if tz is None or not samples:
            return False
        hits = 0
        for ts, off in samples:
            delta = datetime.fromtimestamp(ts, tz).utcoffset()
            hits += int(delta is not None and int(delta.total_seconds() // 60) == off)
        return hits >= 0.8 * len(samples)

    def resolve_timezone(self, keys: list[str], tz_calendar: str, tz_slack: str = "") -> tuple[str, str, str]:
        """(timezone, where from, why none).

        The zone of the calendar events the owner organised first (Slack agreeing is noted).
        When the owner's Slack profile names another zone, that is one question, answered by
        the evidence: the zone the owner's sent mail's Date headers fit wins; when the mail
        does not tell, the profile the person typed beats the calendar (self-stated beats
        inferred), and the "where from" says what the calendar said instead. Without a
        calendar zone: the owner's Slack zone when their sent mail's offsets match it, or when
        no mail offset says anything; the mail offset alone (``UTC-06:00``) when Slack names no
        zone. When Slack and the mail offsets disagree nothing is proposed: one of them is stale
        and we cannot tell which.
        """
        if tz_calendar:
            if not (tz_slack and zone(tz_slack) and zone(tz_calendar)):
                return tz_calendar, "calendar", ""
            if tz_slack == tz_calendar:
                return tz_calendar, "calendar, matching the Slack profile", ""
            cal_fits, slack_fits = self.zone_matches_mail(keys, tz_calendar), self.zone_matches_mail(keys, tz_slack)
            if cal_fits and not slack_fits:
                return tz_calendar, (f"calendar, whose zone the Date headers of sent mail fit; the Slack profile "
                                     f"says {tz_slack}"), ""
            why = "whose zone the Date headers of sent mail fit" if slack_fits else "as the person typed it"
            return tz_slack, f"Slack profile, {why}; the calendar's events are in {tz_calendar}", ""
        offset, why = self.mail_offset(keys)
        if tz_slack:
            if offset is None:
                return tz_slack, "Slack profile", ""
            if self.zone_matches_mail(keys, tz_slack):
                return tz_slack, "Slack profile, matching the Date headers of sent mail", ""
            return "", "", (f"sent mail is written at {offset_name(offset)}, which does not fit the Slack "
                            f"profile's {tz_slack}")
        if offset is None:
            return "", "", why
        return offset_name(offset), why, ""

    def working_hours(self, keys: list[str], tz_name: str) -> tuple[tuple[str, str] | None, int]:
        """(start, end) of the usual working window in ``tz_name`` and the samples it rests on."""
        hours = self.hours(keys, tz_name)
        return (hours.window if hours else None), (hours.samples if hours else 0)

    def hours(self, keys: list[str], tz_name: str) -> WorkingHours | None:
        """The owner's working window, the days it holds on and the sources it comes from.

        A weekday is named only when it has at least ``_MIN_PER_DAY`` activities on at least
        ``_MIN_DATES`` different dates and a fair share of the busiest day's (a stray Sunday
        mail names no Sunday; chat on many weekends does). Fewer than two days named: no hours.
        The window is read on the clock face (a night owl's 22:00-02:00 is a window, not
        02:00-22:00; see :func:`_central_window`). A core wider than ``_MAX_SPAN`` minutes is
        no working day ("00:30-23:30" only says the person was seen at every hour), so no hours
        are proposed. For a mail offset (``UTC+02:00``) each mail's own offset is used, so a
        summer-time switch inside the data does not shift the hours.
        """
        tz = zone(tz_name) or UTC
        own_clock = tz_name.startswith("UTC") and tz_name != "UTC"
        by_day: defaultdict[int, list[int]] = defaultdict(list)
        dates: defaultdict[int, set[int]] = defaultdict(set)
        kinds: Counter[str] = Counter()
        for k in keys:
            kinds.update(self.kinds.get(k, Counter()))
            for ts, off in self.stamps.get(k, []):
                local = datetime.fromtimestamp(ts, timezone(timedelta(minutes=off)) if own_clock and off is not None
                                               else tz)
                by_day[local.weekday()].append(local.hour * 60 + local.minute)
                dates[local.weekday()].add(local.toordinal())
        total = sum(len(v) for v in by_day.values())
        self.no_hours = f"only {total} dated activities" if total < 12 else ""
        if total < 12:
            return None
        busiest = max(len(v) for v in by_day.values())
        days = tuple(d for d in range(7) if len(by_day[d]) >= max(_MIN_PER_DAY, _DAY_SHARE * busiest)
                     and len(dates[d]) >= _MIN_DATES)
        minutes = sorted(m for d in days for m in by_day[d])
        if len(days) < 2 or len(minutes) < 12:
            self.no_hours = (f"{total} activities, but fewer than two weekdays were seen on {_MIN_DATES} or more "
                             f"different dates with {_MIN_PER_DAY} or more activities")
            return None
        lo, hi, core = _central_window(minutes)
        if core > _MAX_SPAN:
            self.no_hours = (f"the middle {round(_CENTRAL * 100)}% of {len(minutes)} activities spans "
                             f"{core // 60} hours: no working day shows")
            return None
        least = min(len(by_day[d]) for d in days)
        weeks = min(len(dates[d]) for d in days)
        return WorkingHours((_fmt(lo), _fmt(hi)), days, len(minutes), least, tuple(kinds.most_common()), weeks)


def _central_window(minutes: list[int]) -> tuple[int, int, int]:
    """(start, end, span of the core) of sorted minutes-of-day, on the clock face.

    The core is the central ``_CENTRAL`` share, read either plainly or with the day starting at
    noon (activity that wraps midnight), whichever is narrower. Mail and chat bunch up mid-day,
    so the core alone cuts off the first and last hour of an ordinary day: each edge is widened
    towards the outer 2% / 98% points, by at most ``_EDGE`` minutes (a stray late mail moves it
    by no more than that).
    """
    n = len(minutes) - 1
    cut = (1 - _CENTRAL) / 2
    options = []
    for shift in (0, 12 * 60):
        moved = sorted((m - shift) % (24 * 60) for m in minutes)
        lo, hi = moved[round(cut * n)], moved[round((1 - cut) * n)]
        start = max(moved[round(0.02 * n)], lo - _EDGE)
        end = min(moved[round(0.98 * n)], hi + _EDGE)
        options.append((hi - lo, (start + shift) % (24 * 60), (end + shift) % (24 * 60)))
    span, start, end = min(options)
    return start, end, span


def _fmt(m: int) -> str:
    m = int(round(m / 30.0) * 30) % (24 * 60)
    return f"{m // 60:02d}:{m % 60:02d}"


_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class WorkingHours:
    """A working window, the weekdays it holds on, and how much evidence each rests on."""

    window: tuple[str, str]
    days: tuple[int, ...]
    """Weekday numbers (Monday 0) with enough activity to be named."""
    samples: int
    least_per_day: int
    """The fewest activities on any day named (what "enough evidence per day" was)."""
    sources: tuple[tuple[str, int], ...] = ()
    """(kind of activity, count), most first: ``("chat messages", 38)``."""
    least_dates: int = 0
    """The fewest different dates any day named was seen on (one busy Sunday is not Sundays)."""

    @property
    def days_text(self) -> str:
        """"Monday to Friday", "every day", or the days named one by one."""
        if len(self.days) == 7:
            return "every day"
        if len(self.days) >= 3 and self.days == tuple(range(self.days[0], self.days[-1] + 1)):
            return f"{_DAY_NAMES[self.days[0]]} to {_DAY_NAMES[self.days[-1]]}"
        names = [_DAY_NAMES[d] for d in self.days]
        return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]

    @property
    def evidence(self) -> str:
        """``from 38 chat messages and 12 sent mails; each day named has at least 5 of them, on 2 or
        more different dates``."""
        parts = [f"{n} {kind}" for kind, n in self.sources if n]
        said = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
        return (f"from {said or f'{self.samples} activities'}; each day named has at least {self.least_per_day} "
                f"of them, on {self.least_dates} or more different dates")
