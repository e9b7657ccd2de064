"""iCalendar files (.ics): one :class:`~bootstrap_app.types.Event` per occurrence in a bounded window.

Why a window: a weekly meeting without an end date has infinitely many occurrences, and what
matters for memory is the person's *recent* rhythm. The default window is 400 days back to
120 days ahead of now (or from ``ctx.since``). A stale export (most events older than the
window) is anchored on its own recent activity instead of "now", so a 2019 Takeout still reads.

Recurrences, ``RECURRENCE-ID`` overrides, EXDATE/RDATE and Google's ``X-WR-TIMEZONE`` are
handled by ``recurring-ical-events``. Every event's zone is reported as an IANA name
(:mod:`.calzones`: Outlook's Windows names and VTIMEZONE-only zones included), because the
person's timezone is voted from it and their rituals are shown in it. Floating times take the
calendar's zone: ``X-WR-TIMEZONE``, else the one zone the file defines, else UTC; a per-event
TZID always wins over ``X-WR-TIMEZONE``. A file that does not parse as a whole (say, a VTIMEZONE
with an impossible offset) is re-read event by event, and only a file with no readable event at
all is an error; a broken event, property or RRULE is left out with its reason
(:mod:`.ics_checks`). A published feed (:func:`.ics_checks.is_published`) gives events marked
``published``: reference material, never the person's own meetings.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.text.binary import binary_reason, visible
from bootstrap_app.types import Event, Item, Person, utc

from ..base import ReadContext, Source
from .calzones import iana_name
from .ics_checks import check_events, is_published, series_key, unmapped_zones

__all__ = [
    "DATELESS_ANSWERS", "DAYS_AHEAD", "DAYS_BACK", "MAX_OCCURRENCES", "SERIES_CAP", "IcsSource", "calendar_event", "calendar_window", "read_calendar", "read_calendar_bytes",
]

DAYS_BACK = 400
DAYS_AHEAD = 120
MAX_OCCURRENCES = 50_000
"""Occurrences one calendar file gives at most (memory and time stay bounded); the rest is reported."""
SERIES_CAP = 1_000
_SLICE = timedelta(days=60)
"""Occurrences one series gives at most in the window: a daily meeting over the whole window is ~520."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_EVENT_BLOCK = re.compile(r"^BEGIN:VEVENT\r?$.*?^END:VEVENT\r?$", re.MULTILINE | re.DOTALL)
_CAL_PROPS = re.compile(r"^(?:X-WR-[A-Z]+|PRODID|VERSION|CALSCALE)[;:].*$", re.MULTILINE)


def _as_datetime(value: Any, tz: str) -> tuple[datetime | None, bool]:
    """(aware UTC datetime, all-day?) of a DTSTART/DTEND value."""
    if isinstance(value, datetime):
        if value.tzinfo is None and tz:
            with contextlib.suppress(KeyError, ValueError, OSError):  # an unknown zone stays floating
                value = value.replace(tzinfo=ZoneInfo(tz))
        return utc(value), False
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC), True
    return None, False


def _dt(comp: Any) -> Any:
    """A component's DTSTART value (checked readable by :func:`~.ics_checks.check_events`)."""
    return getattr(comp.get("DTSTART"), "dt", None)


def _person(prop: Any) -> Person | None:
    if prop is None:
        return None
    addr = str(prop).strip()
    if addr.lower().startswith("mailto:"):
        addr = addr[7:]
    params = getattr(prop, "params", {}) or {}
    name = str(params.get("CN", "")).strip().strip('"')
    if not addr and not name:
        return None
    return Person(name=name, address=addr)


def _declined(value: Any) -> tuple[str, ...]:
    """Addresses of the ATTENDEE lines whose PARTSTAT is DECLINED."""
    items = value if isinstance(value, list) else [value] if value is not None else []
    return tuple(p.address for v in items
                 if str((getattr(v, "params", {}) or {}).get("PARTSTAT", "")).upper() == "DECLINED"
                 and (p := _person(v)) is not None and p.address)


def _people(value: Any) -> tuple[Person, ...]:
    items = value if isinstance(value, list) else [value] if value is not None else []
    return tuple(p for p in (_person(v) for v in items) if p is not None)


def calendar_event(ctx: ReadContext, source: str, uid: str, start: datetime, end: datetime | None, *,
                   all_day: bool, tzid: str, organizer: Person | None, attendees: tuple[Person, ...],
                   summary: Any, location: Any, description: Any, status: str, owner: str,
                   rrule: str = "", series_uid: str = "", declined: tuple[str, ...] = ()) -> Event:
    """One occurrence as an :class:`Event`, built the same way by every calendar source.

    Why one builder: an event's ``ref`` (``UID@start``, so each occurrence of a series is its own
    item and a re-read finds the same one), its ``people`` (organizer first, no repeats) and the
    text caps (500 characters for the summary and place, the context's cap for the description)
    must not drift between the ``.ics`` reader and the Google Calendar API, or one meeting read
    from both would count twice and be shown differently. ``series_uid`` defaults to ``uid``
    (a server that names the series apart from the occurrence, as Graph does, passes it).
    """
    return Event(
        source=source, ref=f"{uid or 'no-uid'}@{start.isoformat()}", timestamp=start,
        people=tuple(dict.fromkeys(p for p in (organizer, *attendees) if p is not None)),
        summary=ctx.clean(str(summary or ""), 500), start=start, end=end, all_day=all_day, tzid=tzid,
        organizer=organizer, attendees=attendees, series_uid=series_uid or uid, rrule=rrule,
        location=ctx.clean(str(location or ""), 500), description=ctx.clean(str(description or "")),
        status=status, calendar_owner=owner, declined=tuple(a.lower() for a in declined),
    )


def calendar_window(cals: list[icalendar.Calendar], ctx: ReadContext,
                    now: datetime | None = None) -> tuple[datetime, datetime]:
    """The expansion window: default around now, anchored on the data for a stale export."""
    now = now or datetime.now(UTC)
    end = now + timedelta(days=DAYS_AHEAD)
    start = now - timedelta(days=DAYS_BACK)
    if ctx.since is not None:
        return utc(ctx.since) or start, end
    starts = sorted(s for s in (_as_datetime(getattr(e.get("DTSTART"), "dt", None), "")[0]
                                for cal in cals for e in cal.walk("VEVENT")) if s is not None)
    if starts:
        recent = starts[int(len(starts) * 0.95) - 1 if len(starts) > 1 else 0]
        if recent < start:  # a stale export: look at its own last active period
            return recent - timedelta(days=DAYS_BACK), recent + timedelta(days=DAYS_AHEAD)
    return start, end


def _parse(data: bytes, label: str, source_id: str, ctx: ReadContext) -> list[icalendar.Calendar]:
    if why := binary_reason(data, "a calendar"):
        raise SourceError(f"{label}: {why}", hint="export the calendar again as an .ics (iCalendar text) file")
    try:
        parsed = icalendar.Calendar.from_ical(data, multiple=True)  # some files hold several
        if parsed:
            return list(parsed)
        raise ValueError("no VCALENDAR in the file")
    except Exception as exc:  # icalendar raises ValueError, KeyError, IndexError ...
        whole_error = visible(str(exc))  # the parser quotes the input: never echo raw bytes
    text = data.decode("utf-8", errors="replace")
    props = "\n".join(_CAL_PROPS.findall(text))
    cals: list[icalendar.Calendar] = []
    blocks = _EVENT_BLOCK.findall(text)
    for n, block in enumerate(blocks):
        try:
            cals.append(icalendar.Calendar.from_ical(f"BEGIN:VCALENDAR\n{props}\n{block}\nEND:VCALENDAR\n"))
        except Exception as exc:  # one broken event never stops the calendar
            uid = re.search(r"^UID:(.*)$", block, re.MULTILINE)
            ctx.skip(source_id, uid.group(1).strip() if uid else f"event#{n}",
                     f"{label}: event unreadable ({visible(str(exc))})")
    if not cals:
        raise SourceError(f"{label}: calendar cannot be parsed ({whole_error})",
                          hint="re-export the calendar, or open it in a calendar app and save it again")
    ctx.skip(source_id, "VCALENDAR", f"{label}: calendar does not parse as a whole ({whole_error}); "
                                     f"read {len(cals)} of {len(blocks)} events one by one")
    return cals


def calendar_zone(cals: list[icalendar.Calendar]) -> str:
    """The zone floating times are in: ``X-WR-TIMEZONE`` (any naming), else the only zone
    the file defines in a VTIMEZONE, else ``""`` (UTC)."""
    for cal in cals:
        if name := iana_name(str(cal.get("X-WR-TIMEZONE", "") or "")):
            return name
    zones = {str(z.get("TZID", "")): z for cal in cals for z in cal.walk("VTIMEZONE")}
    if len(zones) != 1:
        return ""
    tzid, comp = next(iter(zones.items()))
    try:
        tz = comp.to_tz() if isinstance(comp, icalendar.Timezone) else None
    except Exception:  # an impossible VTIMEZONE: the name alone may still tell
        tz = None
    return iana_name(tzid, tz)


def _normalise_x_wr_timezone(cal: icalendar.Calendar) -> None:
    """``X-WR-TIMEZONE`` as an IANA name (or gone when none fits): the expansion library looks
    it up as one, and an Outlook-style ``Eastern Standard Time`` there lost every event."""
    raw = str(cal.get("X-WR-TIMEZONE", "") or "")
    if not raw:
        return
    name = iana_name(raw)
    if name != raw:
        del cal["X-WR-TIMEZONE"]
        if name:
            cal.add("X-WR-TIMEZONE", name)


def read_calendar_bytes(path: Path, ctx: ReadContext, label: str) -> bytes:
    """A calendar file's bytes, refusing one too big to parse in bounded memory (a calendar is
    parsed as a whole; twice the per-file cap leaves room for years of a busy calendar)."""
    cap = 2 * ctx.max_file_bytes
    size = path.stat().st_size
    if size > cap:
        raise SourceError(f"{label}: calendar is {size / 2**20:.0f} MB, over the {cap / 2**20:.0f} MB limit",
                          hint="export a shorter period, or raise the max_file_bytes setting")
    with open(path, "rb") as f:
        return f.read(cap + 1)


def read_calendar(data: bytes, source_id: str, ctx: ReadContext, *, label: str, file_stem: str = "",
                  window: tuple[datetime, datetime] | None = None) -> Iterator[Event]:
    """Events of one calendar file's bytes; used by :class:`IcsSource` and the Takeout connector."""
    first_skip = len(ctx.skips)
    cals = _parse(data, label, source_id, ctx)
    listed = _series(cals)  # the ledger's units: event series (one UID), before broken events go
    dateless: set[str] = set()  # series of scheduling answers without a date (iTIP): passed over
    for cal in cals:
        check_events(cal, label, source_id, ctx, dateless)
        _normalise_x_wr_timezone(cal)
    first = cals[0]
    tz = calendar_zone(cals)
    zones: dict[tuple[str, int, int], str] = {}
    unmapped = unmapped_zones(cals)
    calname = str(first.get("X-WR-CALNAME", "") or "").strip()
    owner = calname if _EMAIL.match(calname) else file_stem if _EMAIL.match(file_stem) else ""
    published = is_published(cals, file_stem)
    start, end = window or calendar_window(cals, ctx)
    count = cancelled = 0
    seen: set[str] = set()
    given: set[str] = set()
    for cal in cals:
        for comp in _occurrences(cal, (start, end), tz, label, source_id, ctx):
            if ctx.should_stop():
                return
            uid = str(comp.get("UID", "") or "").strip()
            seen.add(uid)
            try:
                event = _event(comp, uid, tz, owner, source_id, ctx, zones)
            except Exception as exc:  # one odd event never stops the calendar
                ctx.skip(source_id, uid or "event", f"{label}: event unreadable ({exc})")
                continue
            if event is None:
                cancelled += 1
                continue
            given.add(uid)
            if published:
                event = replace(event, published=True, calendar_owner="")
            count += 1
            if count % 500 == 0:
                ctx.progress(source_id, count)
            yield event
    if cancelled:
        ctx.skip(source_id, "STATUS:CANCELLED", f"{label}: {cancelled} cancelled occurrences left out")
    for name, n in unmapped.most_common():
        ctx.skip(source_id, f"TZID {name}", f"{label}: time zone {name!r} names no IANA zone ({n} events): "
                                            "their times are as the file defines the zone (UTC when it does not), "
                                            "and they do not count toward your timezone")
    _report_window(cals, seen, (start, end), tz, label, ctx)
    _tally(listed, _series(cals), seen, given, {s.ref for s in ctx.skips[first_skip:]}, ctx, dateless)
    ctx.progress(source_id, count)


DATELESS_ANSWERS = ("event series that are only scheduling answers without a date (an iTIP reply, "
                    "cancellation or refresh: nothing to schedule)")
"""The ledger's pass-over reason for them (:func:`~.ics_checks.check_events`)."""


def _series(cals: list[icalendar.Calendar]) -> set[str]:
    """The event series of the calendars: one per UID (an event without one is its own)."""
    return {series_key(comp) for cal in cals for comp in cal.walk("VEVENT")}


def _tally(listed: set[str], kept: set[str], seen: set[str], given: set[str], skipped: set[str],
           ctx: ReadContext, dateless: set[str]) -> None:
    """The calendar's ledger, in event series: read (an occurrence became an item), failed (left
    out broken, or never expanded / read), passed over (no occurrence in the analysis window, all
    of them cancelled, or only scheduling answers without a date: ``dateless``). A series seen in
    the window that ends in none of these is left unaccounted on purpose: the scan's check then
    reports it instead of assuming it."""
    read = listed & given
    failed = ((listed - kept - dateless) | (listed & skipped)) - read
    answers = (listed & dateless) - kept - read - failed
    outside = kept - seen - failed
    cancelled = (kept & seen) - given - failed
    ctx.find(len(listed))
    ctx.units_read = (ctx.units_read or 0) + len(read)
    ctx.units_failed += len(failed)
    ctx.pass_over("event series with no occurrence in the analysis window", len(outside))
    ctx.pass_over("event series whose occurrences are all cancelled", len(cancelled))
    ctx.pass_over(DATELESS_ANSWERS, len(answers))


def _report_window(cals: list[icalendar.Calendar], seen: set[str], window: tuple[datetime, datetime], tz: str,
                   label: str, ctx: ReadContext) -> None:
    """How many events (series counted once) had no occurrence in the window, before or after it."""
    before = after = 0
    for cal in cals:
        for comp in cal.walk("VEVENT"):
            if str(comp.get("UID", "") or "").strip() in seen or comp.get("RECURRENCE-ID") is not None:
                continue
            when, _ = _as_datetime(_dt(comp), tz)
            if when is not None and when < window[0]:
                before += 1
            else:
                after += 1
    first, last = (f"{w:%Y-%m-%d}" for w in window)
    label = Path(label).name or label
    if before:
        ctx.leave_out(before, f"{before} events of {label} end before the analysis window {first} to {last}: "
                              f"read them with --since YYYY-MM-DD", window)
    if after:
        ctx.leave_out(after, f"{after} events of {label} start after the analysis window (planned beyond {last})",
                      window)
    ctx.leave_out(0, "", window)


def _occurrences(cal: icalendar.Calendar, window: tuple[datetime, datetime], tz: str, label: str,
                 source_id: str, ctx: ReadContext) -> Iterator[Any]:
    """Occurrences in the window, expanded two months at a time so memory stays flat whatever the
    calendar holds; at most :data:`MAX_OCCURRENCES` per file and :data:`SERIES_CAP` per series,
    each cap reporting what it left out. When the calendar as a whole cannot be expanded, each
    series (all components sharing a UID) is expanded on its own and the ones that fail are skipped."""
    import recurring_ical_events  # here, not at the top: ~20 ms of every CLI start, for .ics reads only

    start, end = window
    per_series: Counter[str] = Counter()
    given = 0
    chunk = start
    try:
        query = recurring_ical_events.of(cal, keep_recurrence_attributes=True)
        while chunk < end:  # two months at a time: only that slice's occurrences are ever held
            chunk_end = min(end, chunk + _SLICE)
            for comp in query.between(chunk, chunk_end):
                when, _ = _as_datetime(_dt(comp), tz)
                if when is not None and ((chunk > start and when < chunk) or (chunk_end < end and when >= chunk_end)):
                    continue  # began in the slice before (given there) or begins in the next
                uid = str(comp.get("UID", "") or "").strip()
                per_series[uid] += 1
                if per_series[uid] > SERIES_CAP:
                    continue
                if given >= MAX_OCCURRENCES:
                    ctx.leave_out(1, f"{label}: more than {MAX_OCCURRENCES:,} occurrences in the analysis window; "
                                     f"read up to {chunk:%Y-%m-%d} — narrow it with --since YYYY-MM-DD", window)
                    return
                given += 1
                yield comp
            chunk = chunk_end
    except Exception as exc:  # fall back to series-by-series expansion
        whole_error = exc
    else:
        _report_series_cap(per_series, label, ctx, window)
        return
    yield from _by_series(cal, (chunk, end), label, source_id, ctx, whole_error)


def _report_series_cap(per_series: Counter[str], label: str, ctx: ReadContext,
                       window: tuple[datetime, datetime]) -> None:
    for uid, n in per_series.items():
        if n > SERIES_CAP:
            ctx.leave_out(n - SERIES_CAP, f"{label}: series {uid} has {n:,} occurrences in the analysis window; "
                                          f"the first {SERIES_CAP:,} were read", window)


def _by_series(cal: icalendar.Calendar, window: tuple[datetime, datetime], label: str, source_id: str,
               ctx: ReadContext, whole_error: Exception) -> Iterator[Any]:
    """Each series expanded on its own over ``window`` (the rest of the window: the slices before
    the one that failed were given already)."""
    import recurring_ical_events

    series: dict[str, list[Any]] = {}
    for comp in cal.walk("VEVENT"):
        series.setdefault(str(comp.get("UID", "") or id(comp)), []).append(comp)
    zones = cal.walk("VTIMEZONE")
    for uid, comps in series.items():
        mini = icalendar.Calendar()
        for key in ("X-WR-TIMEZONE", "X-WR-CALNAME"):
            if cal.get(key):
                mini.add(key, cal.get(key))
        for comp in (*zones, *comps):
            mini.add_component(comp)
        try:
            occurrences = recurring_ical_events.of(mini, keep_recurrence_attributes=True).between(*window)
        except Exception as exc:  # one broken series never stops the calendar
            ctx.skip(source_id, uid, f"{label}: event series {uid} cannot be expanded ({exc or whole_error!r})")
            continue
        for comp in occurrences[:SERIES_CAP]:
            when, _ = _as_datetime(_dt(comp), "")
            if when is None or when >= window[0]:
                yield comp


def _zone_name(dtstart: Any, tz: str, zones: dict[tuple[str, int, int], str]) -> str:
    """The IANA name of a DTSTART's zone (cached per TZID, zone object and year); a TZID that
    names none keeps its own name (:func:`~.ics_checks.unmapped_zones` reports it), never "UTC"."""
    value = dtstart.dt
    tzinfo = value.tzinfo
    if tzinfo is None:
        return tz or "floating"
    param = str((getattr(dtstart, "params", {}) or {}).get("TZID", "") or "")
    key = (param, id(tzinfo), value.year)
    if key not in zones:
        zones[key] = iana_name(param, tzinfo, value) or ""
    return zones[key] or param or tz or "UTC"


def _event(comp: Any, uid: str, tz: str, owner: str, source_id: str, ctx: ReadContext,
           zones: dict[tuple[str, int, int], str] | None = None) -> Event | None:
    status = str(comp.get("STATUS", "") or "").upper()
    if status == "CANCELLED":
        return None
    dtstart = comp.get("DTSTART")
    start, all_day = _as_datetime(getattr(dtstart, "dt", None), tz)
    if start is None:
        raise ValueError("no DTSTART")
    dtend = comp.get("DTEND")
    end, _ = _as_datetime(getattr(dtend, "dt", None), tz)
    if end is None and comp.get("DURATION") is not None:
        end = start + comp.get("DURATION").dt
    tzid = _zone_name(dtstart, tz, {} if zones is None else zones) \
        if isinstance(getattr(dtstart, "dt", None), datetime) else ""
    rrule = comp.get("RRULE")
    organizer = _person(comp.get("ORGANIZER"))
    attendees = _people(comp.get("ATTENDEE"))
    return calendar_event(ctx, source_id, uid, start, end, all_day=all_day, tzid=tzid, organizer=organizer,
                          attendees=attendees, summary=comp.get("SUMMARY"), location=comp.get("LOCATION"),
                          description=comp.get("DESCRIPTION"), status=status.lower(), owner=owner,
                          declined=_declined(comp.get("ATTENDEE")), rrule="\n".join(r.to_ical().decode("utf-8", "replace")
                                    for r in (rrule if isinstance(rrule, list) else [rrule] if rrule is not None else [])))


class IcsSource(Source, kind="ics", priority=30, description="iCalendar file (.ics)",
                cursor_doc="size and mtime of the file (an unchanged file yields nothing new)"):
    """An iCalendar file (Google/Takeout, Outlook, Apple, Thunderbird exports)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if not path.is_file():
            return False
        if path.suffix.lower() in (".ics", ".ical", ".ifb", ".icalendar"):
            return True
        try:
            with open(path, "rb") as f:
                return f.read(64).lstrip(b"\xef\xbb\xbf \r\n").upper().startswith(b"BEGIN:VCALENDAR")
        except OSError:
            return False

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = Path(self.location)
        try:
            st = path.stat()
            mark = {"mtime": st.st_mtime, "size": st.st_size}
            if ctx.cursor == mark:  # unchanged since the last scan: nothing new to say
                ctx.new_cursor = dict(mark)
                return
            data = read_calendar_bytes(path, ctx, str(path))
        except FileNotFoundError as exc:
            raise SourceNotFound(f"{path}: no such calendar file", hint="check the path") from exc
        except OSError as exc:
            raise SourceError(f"{path}: cannot read calendar ({exc.strerror})",
                              hint="check the file's permissions") from exc
        yield from read_calendar(data, self.id, ctx, label=str(path), file_stem=path.stem)
        ctx.new_cursor = mark
