"""The demo's cast and clock: who appears in Maya's footprint and when things happen.

Why a separate module: mail, calendar, chat and git history must agree on the same people
(names, addresses, Slack ids, GitHub handles) and on the same working rhythm, or the
extractor would be tested against data that contradicts itself. Every generator draws its
people from :data:`CAST` and its timestamps from :func:`work_times`, all relative to the
fixed :data:`DEMO_ANCHOR`, so the output never depends on today's date.

PERSONA (persona.py) is the source of truth for the facts; this module only adds the
details a real export needs (Slack ids, GitHub handles, third parties) and derives the
rest from PERSONA.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from .persona import PERSONA

__all__ = [
    "CAST",
    "DEMO_ANCHOR",
    "LOCAL_TZ",
    "WINDOW_DAYS",
    "Member",
    "member",
    "rng_for",
    "signature",
    "work_times",
    "workdays",
]

DEMO_ANCHOR = datetime(2026, 10, 15, 18, 0, tzinfo=UTC)
""""Now" for the demo: every generated date lies in the ``WINDOW_DAYS`` before it (a few
calendar entries lie shortly after). Fixed so that two builds, on any day, are identical."""

WINDOW_DAYS = 90
LOCAL_TZ = ZoneInfo(str(PERSONA["timezone"]))


@dataclass(frozen=True)
class Member:
    """One person in the demo: mail address, Slack id and (for engineers) a GitHub handle."""

    key: str
    name: str
    email: str
    slack_id: str
    title: str
    github: str = ""

    @property
    def first(self) -> str:
        return self.name.split()[0]


def _cast() -> dict[str, Member]:
    manager = PERSONA["manager"]
    priya, tom = PERSONA["collaborators"]
    return {
        "maya": Member("maya", str(PERSONA["name"]), str(PERSONA["work_email"]),
                       str(PERSONA["slack_user_id"]), str(PERSONA["title"]), "maya-okafor"),
        "daniel": Member("daniel", manager["name"], manager["email"], "U01DANR",
                         "Engineering Manager, Platform Infrastructure", "daniel-reyes"),
        "priya": Member("priya", priya["name"], priya["email"], "U01PRIYA",
                        "Senior Software Engineer", "priya-raman"),
        "tom": Member("tom", tom["name"], tom["email"], "U01TOMB", "Software Engineer", "tom-becker"),
        "lena": Member("lena", "Lena Vogt", "lena.vogt@northwind-labs.example", "U02LENA",
                       "Product Manager, Payments"),
        "sam": Member("sam", "Sam Whitfield", "sam.whitfield@northwind-labs.example", "U02SAMW",
                      "Security Engineer"),
        "ines": Member("ines", "Ines Duarte", "ines.duarte@northwind-labs.example", "U02INES",
                       "Data Engineer"),
        "marco": Member("marco", "Marco Bianchi", "marco.bianchi@northwind-labs.example", "U02MARC",
                        "Customer Success Lead"),
    }


CAST: dict[str, Member] = _cast()


def member(key: str) -> Member:
    """The cast member called ``key`` (``maya``, ``daniel``, ``priya``, ``tom`` ...)."""
    return CAST[key]


def signature() -> str:
    """Maya's mail signature block, exactly as she types it."""
    return f"{PERSONA['name']}\n{PERSONA['title']}, {PERSONA['team']}\n{PERSONA['employer']}"


def rng_for(part: str, scale: int) -> random.Random:
    """A private, seeded random stream per generator part, so parts never shift each other."""
    seed = int.from_bytes(hashlib.sha256(f"memseed-demo/{part}/{scale}".encode()).digest()[:8], "big")
    return random.Random(seed)


def workdays(days: int = WINDOW_DAYS, *, end: datetime = DEMO_ANCHOR) -> list[date]:
    """Monday-to-Friday dates in the ``days`` before ``end`` (local time), oldest first."""
    last = end.astimezone(LOCAL_TZ).date()
    out = []
    for back in range(days, -1, -1):
        day = last - timedelta(days=back)
        if day.weekday() < 5:
            out.append(day)
    return out


def _hm(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def work_times(rng: random.Random, count: int, *, days: list[date] | None = None,
               start: str | None = None, end: str | None = None) -> list[datetime]:
    """``count`` aware UTC datetimes on workdays inside working hours (local time), sorted.

    Defaults to PERSONA's working hours, so the timestamps of everything Maya writes carry
    her real rhythm; other people pass a wider ``start``/``end``.
    """
    begin_s, end_s = PERSONA["working_hours"]
    lo, hi = _hm(start or begin_s), _hm(end or end_s)
    pool = days or workdays()
    out: list[datetime] = []
    while len(out) < count:
        day = rng.choice(pool)
        minute = rng.randrange(lo, hi)
        local = datetime.combine(day, time(minute // 60, minute % 60, rng.randrange(60)), tzinfo=LOCAL_TZ)
        if local <= DEMO_ANCHOR:  # the anchor day ends at "now"
            out.append(local.astimezone(UTC))
    return sorted(out)
