"""Outlook calendar through Microsoft Graph (``outlook-calendar:[ACCOUNT]``).

``/me/calendarView/delta`` over the analysis window (the same window as the .ics connector:
:data:`~connectors.local.ics.DAYS_BACK` back, :data:`~connectors.local.ics.DAYS_AHEAD` ahead,
or from ``ctx.since``) returns every occurrence with recurrences already expanded, and ends
with a delta link that a reseed follows to get only what changed.

Time zones: times are asked for in UTC (``Prefer: outlook.timezone="UTC"``), but Graph names
zones the Windows way ("W. Europe Standard Time") wherever it does not honour that — and
always in ``originalStartTimeZone``, which is the zone the organiser scheduled in. Those names
are mapped to IANA with icalendar's table generated from Unicode CLDR's windowsZones.xml, so
``Event.tzid`` reads like the .ics connector's and downstream rhythm signals see real zones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from bootstrap_app.types import Event, Item, utc

from ..base import ReadContext
from ..local.ics import DAYS_AHEAD, DAYS_BACK, calendar_event
from ..series import SeriesTally
from .source import GraphSource, graph_person

__all__ = ["REWINDOW", "OutlookCalendarSource", "event_from_graph", "iana_zone"]

REWINDOW = timedelta(days=DAYS_AHEAD // 2)
"""How close the saved window's end may come to today before the calendar is read afresh."""
_HEADERS = {"Prefer": 'outlook.timezone="UTC", odata.maxpagesize=100'}


def iana_zone(name: str) -> str:
    """IANA name of a Graph zone (Windows or IANA spelling); "" when it names no known zone."""
    name = (name or "").strip()
    if not name:
        return ""
    if name.upper() in ("UTC", "Z", "GMT", "COORDINATED UNIVERSAL TIME"):
        return "UTC"
    if name in WINDOWS_TO_OLSON:
        return str(WINDOWS_TO_OLSON[name])
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ""  # "tzone://Microsoft/Custom" and other private zone definitions
    return name


def _when(value: Any) -> tuple[datetime | None, str]:
    """``{"dateTime": "...", "timeZone": "..."}`` -> (aware UTC datetime, IANA zone)."""
    if not isinstance(value, dict) or not value.get("dateTime"):
        return None, ""
    text = str(value["dateTime"])
    head, dot, frac = text.partition(".")
    text = f"{head}.{frac[:6]}" if dot else head  # 7 fractional digits -> 6
    try:
        naive = datetime.fromisoformat(text.rstrip("Z"))
    except ValueError:
        return None, ""
    zone = iana_zone(str(value.get("timeZone") or "UTC"))
    if naive.tzinfo is None:
        tz: Any = UTC
        with contextlib.suppress(ZoneInfoNotFoundError, ValueError):
            tz = ZoneInfo(zone) if zone and zone != "UTC" else UTC
        naive = naive.replace(tzinfo=tz)
    return utc(naive), zone


def event_from_graph(data: dict[str, Any], *, source: str, owner: str, ctx: ReadContext) -> Event | None:
    """One Graph event (an occurrence, exception or single event) -> Event; None if cancelled."""
    if data.get("isCancelled"):
        return None
    start, zone = _when(data.get("start"))
    if start is None:
        raise ValueError("no start time")
    end, _ = _when(data.get("end"))
    all_day = bool(data.get("isAllDay"))
    if all_day:  # all-day events are dates: keep the calendar day, as the .ics connector does
        day = str((data.get("start") or {}).get("dateTime", ""))[:10]
        with contextlib.suppress(ValueError):
            start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    organizer = graph_person(data.get("organizer"))
    attendees = tuple(p for p in (graph_person(a) for a in data.get("attendees") or []) if p is not None)
    tzid = iana_zone(str(data.get("originalStartTimeZone") or "")) or zone
    uid = str(data.get("iCalUId") or data.get("id") or "")
    raw_location = data.get("location")
    location: dict[str, Any] = raw_location if isinstance(raw_location, dict) else {}
    status = "tentative" if data.get("showAs") == "tentative" else "confirmed"
    return calendar_event(ctx, source, uid, start, end, all_day=all_day, tzid=tzid if not all_day else "",
                          organizer=organizer, attendees=attendees, summary=data.get("subject"),
                          location=location.get("displayName"), description=data.get("bodyPreview"),
                          status=status, owner=owner, series_uid=str(data.get("seriesMasterId") or ""),
                          declined=tuple(p.address for a in data.get("attendees") or []
                                         if isinstance(a, dict) and (a.get("status") or {}).get("response") == "declined"
                                         and (p := graph_person(a)) is not None and p.address))


def _window(ctx: ReadContext, now: datetime | None = None) -> tuple[str, str]:
    now = now or datetime.now(UTC)
    start = utc(ctx.since) if ctx.since is not None else now - timedelta(days=DAYS_BACK)
    end = now + timedelta(days=DAYS_AHEAD)
    fmt = "%Y-%m-%dT00:00:00Z"
    return (start or now).strftime(fmt), end.strftime(fmt)


def _still_fits(cursor: dict[str, Any], window: tuple[str, str], ctx: ReadContext) -> bool:
    """Whether the saved delta link's window still serves: a delta round never widens its window,
    so once its end comes within :data:`REWINDOW` of today (meetings being planned beyond it
    would go unseen) or ``--since`` asks for another start, a new round over a fresh window starts."""
    saved = list(cursor.get("window") or [])
    if not cursor.get("delta") or len(saved) != 2:
        return False
    if ctx.since is not None and saved[0] != window[0]:
        return False
    return bool(str(saved[1]) >= (datetime.now(UTC) + REWINDOW).strftime("%Y-%m-%dT00:00:00Z"))


class OutlookCalendarSource(GraphSource, kind="outlook-calendar",
                            description="Outlook / Microsoft 365 calendar (Microsoft Graph, read-only)",
                            cursor_doc="calendarView delta link and the window it covers, of the last complete read; /me entry"):
    """Calendar of a Microsoft account: occurrences in the analysis window, then deltas."""

    scope: ClassVar[str] = "Calendars.Read"

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        client, creds = self.client(ctx)
        me = self.me(client, ctx)  # directory facts, once per account (shared with mail and OneDrive)
        cursor = self.saved_cursor(ctx)
        window = _window(ctx)
        saved = cursor.get("delta") if _still_fits(cursor, window, ctx) else None
        if saved:
            window = tuple(cursor.get("window") or window)
        owner = self.account or creds.account
        params = {"startDateTime": window[0], "endDateTime": window[1]}
        count = cancelled = 0
        tally = SeriesTally()  # the ledger, in event series (an occurrence names its series master)
        for page, link in client.delta("me/calendarView/delta", saved, params=params, headers=_HEADERS):
            for data in page:
                if "@removed" in data:
                    continue
                series = str(data.get("seriesMasterId") or data.get("id") or "")
                try:
                    event = event_from_graph(data, source=self.id, owner=owner, ctx=ctx)
                except Exception as exc:  # one odd event never stops the calendar
                    ctx.skip(self.id, str(data.get("id") or "event"), f"event unreadable ({exc})")
                    tally.fail(series)
                    continue
                if event is None:
                    cancelled += 1
                    tally.cancel(series)
                    continue
                tally.item(series)
                count += 1
                yield event
            ctx.progress(self.id, count)
            if ctx.should_stop():
                return
            if link:
                if cancelled:
                    ctx.skip(self.id, "isCancelled", f"{cancelled} cancelled occurrences left out", note=True)
                tally.finish(ctx)
                ctx.new_cursor = {"delta": link, "window": list(window), "me": me}
