"""Maya's primary calendar as Google Takeout writes it, built with the icalendar library.

Why these quirks: Google names the primary calendar ``<address>.ics``, sets
``X-WR-CALNAME`` to the address and ``X-WR-TIMEZONE`` to the owner's zone, and writes no
VTIMEZONE; recurring series carry ``TZID=Europe/Berlin`` while one-off events are in UTC.
A reader must cope with all of it, so the demo has all of it: the three rituals of PERSONA
as RRULE series (with the right organizer and attendees), one moved standup
(RECURRENCE-ID), one-off meetings, all-day entries and a declined invitation.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from icalendar import Calendar, Event, vCalAddress, vRecur

from .cast import CAST, DEMO_ANCHOR, LOCAL_TZ, Member, rng_for, work_times, workdays
from .persona import PERSONA

__all__ = ["ONE_OFF_MEETINGS", "RITUAL_PEOPLE", "SERIES_START", "write_calendar"]

SERIES_START = date(2026, 3, 2)
"""The Monday the rituals began (well before the 90-day window, as real rituals do)."""

RITUAL_PEOPLE: dict[str, tuple[str, tuple[str, ...]]] = {
    # summary -> (organizer, attendees including the organizer)
    "Platform standup": ("maya", ("maya", "priya", "tom", "daniel")),
    "1:1 Maya / Daniel": ("daniel", ("daniel", "maya")),
    "Sprint planning": ("daniel", ("daniel", "maya", "priya", "tom")),
}

ONE_OFF_MEETINGS: list[tuple[str, str, tuple[str, ...], int]] = [
    # (summary, organizer, other attendees, minutes)
    ("RFC-012 review", "maya", ("priya", "tom"), 60),
    ("Incident review: ledger-api latency", "maya", ("daniel", "priya", "tom"), 45),
    ("Deploy console design review", "maya", ("tom", "lena"), 60),
    ("Coffee with Ines", "ines", ("maya",), 30),
    ("PCI scoping for ledger-api", "sam", ("maya", "daniel"), 45),
    ("Interview: backend engineer candidate", "daniel", ("maya",), 60),
    ("Customer call: ledger exports", "marco", ("maya",), 30),
    ("Journal table migration go/no-go", "maya", ("priya", "daniel"), 30),
    ("Pairing: deploy-console approvals", "tom", ("maya",), 90),
    ("Quarterly planning: Platform Infrastructure", "daniel", ("maya", "priya", "tom", "lena"), 90),
    ("Warehouse export sync", "ines", ("maya", "priya"), 30),
    ("On-call handover", "maya", ("priya",), 15),
]

_PRODID = "-//Google Inc//Google Calendar 70.9054//EN"


def _uid(rng: random.Random) -> str:
    return f"{rng.getrandbits(104):026x}@google.com"


def _person(who: Member, *, role: str = "REQ-PARTICIPANT", partstat: str = "ACCEPTED") -> vCalAddress:
    addr = vCalAddress(f"mailto:{who.email}")
    addr.params["CUTYPE"] = "INDIVIDUAL"
    addr.params["ROLE"] = role
    addr.params["PARTSTAT"] = partstat
    addr.params["CN"] = who.name
    addr.params["X-NUM-GUESTS"] = "0"
    return addr


def _event(rng: random.Random, summary: str, start: datetime | date, end: datetime | date, *,
           organizer: str | None, attendees: tuple[str, ...] = (), uid: str | None = None,
           declined: tuple[str, ...] = (), description: str = "", transparent: bool = False) -> Event:
    ev = Event()
    ev.add("dtstart", start)
    ev.add("dtend", end)
    ev.add("dtstamp", DEMO_ANCHOR)
    if organizer:
        org = vCalAddress(f"mailto:{CAST[organizer].email}")
        org.params["CN"] = CAST[organizer].name
        ev.add("organizer", org)
    ev.add("uid", uid or _uid(rng))
    for key in attendees:
        ev.add("attendee", _person(CAST[key], partstat="DECLINED" if key in declined else "ACCEPTED"))
    ev.add("created", datetime(2026, 2, 20, 9, 0, tzinfo=LOCAL_TZ))
    ev.add("description", description)
    ev.add("last-modified", datetime(2026, 2, 20, 9, 0, tzinfo=LOCAL_TZ))
    ev.add("location", "")
    ev.add("sequence", 0)
    ev.add("status", "CONFIRMED")
    ev.add("summary", summary)
    ev.add("transp", "TRANSPARENT" if transparent else "OPAQUE")
    return ev


def _first_on(rrule: vRecur, start: date) -> date:
    days = [str(d) for d in rrule.get("BYDAY", [])]
    names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    day = start
    while days and names[day.weekday()] not in days:
        day += timedelta(days=1)
    return day


def _rituals(cal: Calendar, rng: random.Random) -> None:
    for ritual in PERSONA["rituals"]:
        rrule = vRecur.from_ical(ritual["rrule"])
        first = _first_on(rrule, SERIES_START)
        start = datetime.combine(first, time.fromisoformat(ritual["time"]), tzinfo=LOCAL_TZ)
        end = start + timedelta(minutes=int(ritual["minutes"]))
        organizer, people = RITUAL_PEOPLE[ritual["summary"]]
        uid = _uid(rng)
        series = _event(rng, ritual["summary"], start, end, organizer=organizer, attendees=people, uid=uid,
                        description=f"{ritual['summary']} for {PERSONA['team']}.")
        series.add("rrule", rrule)
        cal.add_component(series)
        if ritual["summary"] == "Platform standup":
            _move_one(cal, rng, series_start=start, minutes=int(ritual["minutes"]), uid=uid,
                      organizer=organizer, people=people)


def _move_one(cal: Calendar, rng: random.Random, *, series_start: datetime, minutes: int, uid: str,
              organizer: str, people: tuple[str, ...]) -> None:
    """One standup moved to 10:15 (a RECURRENCE-ID override, as Google exports it)."""
    day = next(d for d in reversed(workdays()[:-10]) if d.weekday() == 2)
    original = datetime.combine(day, series_start.timetz())
    moved = datetime.combine(day, time(10, 15), tzinfo=LOCAL_TZ)
    override = _event(rng, "Platform standup", moved, moved + timedelta(minutes=minutes), organizer=organizer,
                      attendees=people, uid=uid, description="Moved: company all-hands at 09:30.")
    override.add("recurrence-id", original)
    override["sequence"] = 1
    cal.add_component(override)


def _one_off_rounds(scale: int) -> int:
    """Rounds of ONE_OFF_MEETINGS so that *occurrences* in the window grow ~linearly with scale.

    At 1x the window holds ~85 ritual occurrences plus 12 one-offs; the rituals are facts and
    cannot multiply, so scaled builds add ~8.4 rounds of one-offs per unit of scale instead.
    """
    return max(1, round(8.4 * scale - 7.4))


def _one_offs(cal: Calendar, rng: random.Random, scale: int) -> None:
    for _rep in range(_one_off_rounds(scale)):
        for summary, organizer, others, minutes in ONE_OFF_MEETINGS:
            start = work_times(rng, 1, start="09:00", end="16:30")[0].replace(second=0)
            start = start.replace(minute=start.minute - start.minute % 15)
            attendees = (organizer, *others) if organizer == "maya" else (*others, organizer)
            cal.add_component(_event(rng, summary, start, start + timedelta(minutes=minutes),
                                     organizer=organizer, attendees=attendees))
    lena_day = workdays()[-12]
    start = datetime.combine(lena_day, time(16, 0), tzinfo=LOCAL_TZ).astimezone(UTC)
    cal.add_component(_event(rng, "Payments all-hands", start, start + timedelta(hours=1), organizer="lena",
                             attendees=("lena", "maya", "priya", "daniel"), declined=("maya",)))


def _all_day(cal: Calendar, rng: random.Random) -> None:
    cal.add_component(_event(rng, "Tag der Deutschen Einheit", date(2026, 10, 3), date(2026, 10, 4),
                             organizer=None, transparent=True, description="Public holiday in Germany"))
    cal.add_component(_event(rng, "Maya OOO - vacation", date(2026, 8, 17), date(2026, 8, 22),
                             organizer="maya", transparent=True))
    reviews = DEMO_ANCHOR.date() + timedelta(days=6)
    cal.add_component(_event(rng, "Performance review cycle opens", reviews, reviews + timedelta(days=1),
                             organizer="daniel", attendees=("daniel", "maya"), transparent=True))


def write_calendar(dest_dir: Path, scale: int = 1) -> Path:
    """Write ``<work address>.ics`` into ``dest_dir`` and return its path."""
    rng = rng_for("calendar", scale)
    cal = Calendar()
    cal.add("prodid", _PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", str(PERSONA["work_email"]))
    cal.add("x-wr-timezone", str(PERSONA["timezone"]))
    _rituals(cal, rng)
    _one_offs(cal, rng, scale)
    _all_day(cal, rng)
    dest_dir.mkdir(parents=True, exist_ok=True)
    path = dest_dir / f"{PERSONA['work_email']}.ics"
    path.write_bytes(cal.to_ical())
    return path
