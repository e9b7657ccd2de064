"""Calendar files with broken parts: each event checked on its own before any expansion.

Why: icalendar parses a value lazily and raises when it is first used, and the recurrence
expansion uses every event of the file at once, so one VEVENT whose DTSTART is not a date (or
whose RRULE says ``BYDAY=XX``) made the whole calendar unreadable. Here each event's time
properties are read once: a broken event (no readable DTSTART) is taken out of the file, a
broken optional property (DTEND, DURATION, EXDATE, RDATE, RRULE, RECURRENCE-ID) is taken out of
its event, and each is reported with its reason; everything else is kept. A series repeating
more often than daily cannot be a meeting series and could yield hundreds of thousands of
occurrences: it is read as its first occurrence only, and said so. A TZID that names no IANA
zone is counted and reported too (:func:`unmapped_zones`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from datetime import date, datetime, timedelta
from typing import Any

import icalendar

from ..base import ReadContext
from .calzones import iana_name

__all__ = ["DATELESS_METHODS", "check_events", "is_published", "series_key", "unmapped_zones"]

_OPTIONAL = ("DTEND", "DURATION", "RECURRENCE-ID", "EXDATE", "RDATE")
_SUB_DAILY = frozenset({"SECONDLY", "MINUTELY", "HOURLY"})


def _time_of(prop: Any) -> Any:
    """The value(s) of a time property, raising when it is broken."""
    values = prop if isinstance(prop, list) else [prop]
    out: list[Any] = []
    for value in values:
        if hasattr(value, "dts"):
            out.extend(d.dt for d in value.dts)
        else:
            out.append(value.dt)
    for value in out:
        if not isinstance(value, date | datetime | timedelta | tuple):
            raise ValueError(f"not a date or time: {value!r}")
    return out


def _expand_two(text: str, start: date) -> None:
    """The rule's first two dates, raising when it cannot be expanded."""
    from dateutil.rrule import rrulestr

    anchor = start if isinstance(start, datetime) else datetime(start.year, start.month, start.day)
    try:
        list(itertools.islice(rrulestr(text, dtstart=anchor), 2))
    except ValueError:  # a floating UNTIL beside a zoned DTSTART (or the reverse) is common and harmless
        naive = re.sub(r"(UNTIL=\d{8}(?:T\d{6})?)Z", r"\1", text)
        list(itertools.islice(rrulestr(naive, dtstart=anchor.replace(tzinfo=None)), 2))


def _rrule_error(comp: Any, start: date) -> str:
    """Why the event's RRULE cannot be expanded, or ``""``."""
    rules = comp.get("RRULE")
    for rule in rules if isinstance(rules, list) else [rules]:
        text = rule.to_ical().decode("utf-8", "replace") if hasattr(rule, "to_ical") else str(rule)
        try:
            freq = str(rule.get("FREQ", [""])[0]).upper()
            if freq in _SUB_DAILY:
                return f"it repeats {freq.lower()}, which no meeting series does"
            _expand_two(text, start)
        except Exception as exc:  # dateutil and icalendar raise ValueError, TypeError, KeyError ...
            return f"RRULE {text} cannot be expanded ({exc})"
    return ""


DATELESS_METHODS = frozenset({"REPLY", "CANCEL", "REFRESH", "DECLINECOUNTER"})
"""iTIP methods whose VEVENT may leave DTSTART out (RFC 5546, the component tables of 3.2.3-3.2.8)."""


def series_key(comp: Any) -> str:
    """The event series a VEVENT belongs to: its UID (an event without one is a series of its own)."""
    return str(comp.get("UID", "") or "").strip() or f"#{id(comp)}"


def check_events(cal: icalendar.Calendar, label: str, source_id: str, ctx: ReadContext,
                 dateless: set[str] | None = None) -> int:
    """Take broken events and properties out of ``cal`` (reporting each); the number of events removed.

    An event without DTSTART in a scheduling answer (an iTIP object whose METHOD is one of
    :data:`DATELESS_METHODS`: a reply, a cancellation, a refresh, a declined counter) is not broken:
    RFC 5546 lets those leave DTSTART out, and such an event carries an answer, not a date. It is
    taken out without a skip and its series key (:func:`series_key`) added to ``dateless``, so the
    ledger passes it over instead of failing it. Everywhere else (no METHOD, or PUBLISH, REQUEST,
    ADD, COUNTER, which must carry DTSTART) an event without one is broken, as before."""
    removed = 0
    method = str(cal.get("METHOD", "") or "").strip().upper()
    for holder in [cal, *cal.walk()]:
        keep = []
        for comp in holder.subcomponents:
            if comp.name != "VEVENT":
                keep.append(comp)
                continue
            if method in DATELESS_METHODS and "DTSTART" not in comp and dateless is not None:
                dateless.add(series_key(comp))
                removed += 1
                continue
            uid = str(comp.get("UID", "") or "").strip() or f"event#{removed + len(keep)}"
            try:
                start = _time_of(comp["DTSTART"])[0]
            except KeyError:
                start = None
                reason = "event without DTSTART left out"
            except Exception as exc:  # icalendar's BrokenCalendarProperty, ValueError ...
                start = None
                reason = f"event left out: its DTSTART is not a date ({exc})"
            if start is None:
                ctx.skip(source_id, uid, f"{label}: {reason}")
                removed += 1
                continue
            for name in _OPTIONAL:
                if name in comp:
                    try:
                        _time_of(comp[name])
                    except Exception as exc:  # one bad property never costs the event
                        del comp[name]
                        ctx.skip(source_id, uid, f"{label}: {name} of event {uid} left out, not a date ({exc})")
            if "RRULE" in comp and (error := _rrule_error(comp, start)):
                del comp["RRULE"]
                ctx.skip(source_id, uid, f"{label}: recurrence of event {uid} left out, read as one "
                                         f"occurrence: {error}")
            keep.append(comp)
        holder.subcomponents[:] = keep
    return removed


def unmapped_zones(cals: list[icalendar.Calendar]) -> Counter[str]:
    """TZIDs of event times that name no IANA zone, with how many events use each: reported,
    because such a time is read as the file defines the zone (or in the calendar's zone when
    it does not) and cannot count toward the person's timezone."""
    out: Counter[str] = Counter()
    for cal in cals:
        for comp in cal.walk("VEVENT"):
            prop = comp.get("DTSTART")
            tzid = str((getattr(prop, "params", {}) or {}).get("TZID", "") or "")
            if tzid:
                value = getattr(prop, "dt", None)
                if not iana_name(tzid, getattr(value, "tzinfo", None), value if isinstance(value, datetime) else None):
                    out[tzid] += 1
    return out


_MIN_FEED_EVENTS = 10
_INVITE_METHODS = frozenset({"REQUEST", "REPLY", "COUNTER", "CANCEL", "REFRESH", "DECLINECOUNTER", "ADD"})


def is_published(cals: list[icalendar.Calendar], file_stem: str = "") -> bool:
    """True for a published or subscribed calendar (a venue's or a group's public feed), by its
    structure: it is not named after an address (Google names a person's own export after their
    address, ``METHOD:PUBLISH`` or not), is no invitation (``METHOD:REQUEST``/``REPLY``), holds at
    least ten events of which fewer than one in ten has ATTENDEE lines, at most one organizer
    address across everything, and many unrelated events (distinct titles for at least three
    in ten). ``METHOD:PUBLISH`` alone proves nothing: a person's own export carries it too."""
    first = cals[0]
    calname = str(first.get("X-WR-CALNAME", "") or "").strip()
    if "@" in calname or "@" in file_stem:
        return False
    if any(str(cal.get("METHOD", "") or "").upper() in _INVITE_METHODS for cal in cals):
        return False
    events = [e for cal in cals for e in cal.walk("VEVENT") if e.get("RECURRENCE-ID") is None]
    if len(events) < _MIN_FEED_EVENTS:
        return False
    with_attendees = sum(1 for e in events if e.get("ATTENDEE") is not None)
    organizers = {str(e.get("ORGANIZER")).lower().removeprefix("mailto:") for e in events
                  if e.get("ORGANIZER") is not None}
    oneoffs = [e for e in events if e.get("RRULE") is None and e.get("RDATE") is None]
    titles = {" ".join(str(e.get("SUMMARY", "") or "").split()).casefold() for e in oneoffs}
    return (with_attendees < 0.1 * len(events) and len(organizers) <= 1 and len(oneoffs) >= _MIN_FEED_EVENTS
            and len(oneoffs) >= 0.5 * len(events) and len(titles) >= 0.3 * len(oneoffs))
