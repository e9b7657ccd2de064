"""``google-calendar:[ACCOUNT]`` (alias ``gcal:``) — every calendar the account can see.

Each calendar in ``calendarList`` is read with ``singleEvents=True`` over the same window the
ics connector uses (400 days back, 120 ahead, or from ``ctx.since``), so a weekly meeting
arrives as its occurrences, each an :class:`~bootstrap_app.types.Event` shaped like the ics
connector's: ``ref`` is ``UID@start``, ``series_uid`` the iCalendar UID shared by every
occurrence, times in UTC with the zone kept in ``tzid`` (the event's, else the calendar's).
Only the primary calendar names its owner (``calendar_owner``): a colleague's shared calendar
is not evidence of who the owner is. ``rrule`` stays empty (instances do not carry it).

Incremental: one ``nextSyncToken`` per calendar in the cursor; a reseed sends only the
tokens (changes and cancellations come back). 410 ``fullSyncRequired`` re-reads that calendar.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from bootstrap_app.types import Event, Item, Person, utc

from ..base import ReadContext
from ..local.ics import DAYS_AHEAD, DAYS_BACK, calendar_event
from ..series import SeriesTally
from .client import Gone, GoogleSession
from .source import GoogleSource

__all__ = ["GoogleCalendarSource", "to_event"]

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _time(value: dict[str, Any] | None) -> tuple[datetime | None, bool]:
    """(aware UTC datetime, all-day?) of an event's ``start``/``end``."""
    if not value:
        return None, False
    if value.get("dateTime"):
        return utc(datetime.fromisoformat(str(value["dateTime"]).replace("Z", "+00:00"))), False
    if value.get("date"):
        day = datetime.strptime(str(value["date"]), "%Y-%m-%d")
        return day.replace(tzinfo=UTC), True
    return None, False


def _person(data: dict[str, Any] | None) -> Person | None:
    if not data or not (data.get("email") or data.get("displayName")):
        return None
    return Person(name=str(data.get("displayName", "")), address=str(data.get("email", "")))


def to_event(ev: dict[str, Any], calendar: dict[str, Any], source: str, ctx: ReadContext) -> Event | None:
    """One ``events.list`` item -> Event (None for a cancelled occurrence, as the ics reader)."""
    status = str(ev.get("status", "")).lower()
    if status == "cancelled":
        return None
    start, all_day = _time(ev.get("start"))
    if start is None:
        raise ValueError("no start")
    end, _ = _time(ev.get("end"))
    tzid = "" if all_day else str((ev.get("start") or {}).get("timeZone") or calendar.get("timeZone") or "UTC")
    uid = str(ev.get("iCalUID") or ev.get("recurringEventId") or ev.get("id", ""))
    organizer = _person(ev.get("organizer"))
    attendees = tuple(p for p in (_person(a) for a in ev.get("attendees", []) or []) if p is not None)
    cal_id = str(calendar.get("id", ""))
    owner = cal_id if calendar.get("primary") and _EMAIL.match(cal_id) else ""
    return calendar_event(ctx, source, uid, start, end, all_day=all_day, tzid=tzid, organizer=organizer,
                          attendees=attendees, summary=ev.get("summary"), location=ev.get("location"),
                          description=ev.get("description"), status=status, owner=owner,
                          declined=tuple(str(a.get("email", "")) for a in ev.get("attendees", []) or []
                                         if a.get("responseStatus") == "declined" and a.get("email")))


class GoogleCalendarSource(GoogleSource, kind="google-calendar",
                           description="Google Calendar account, read-only (`memseed auth google` first)",
                           uri_schemes=("google-calendar", "gcal"),
                           cursor_doc="account and one nextSyncToken per calendar id"):
    """Google Calendar through the Calendar API (read-only), every calendar in the list."""

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        session = self.session(ctx)
        api = session.calendar()
        calendars = self._calendars(session, api)
        primary = next((c for c in calendars if c.get("primary")), None)
        account = str(primary.get("id", "")) if primary else ""
        cur = self.cursor_for(ctx, account)
        tokens: dict[str, str] = dict(cur.get("tokens", {}))
        now = datetime.now(UTC)
        window = (utc(ctx.since) or now - timedelta(days=DAYS_BACK), now + timedelta(days=DAYS_AHEAD))
        ctx.leave_out(0, "", window)  # the window is reported; the server counts nothing outside it
        new_tokens: dict[str, str] = {}
        count = 0
        seen: set[str] = set()  # a meeting on two calendars (mine and a colleague's) counts once
        tally = SeriesTally()  # the ledger, in event series (the iCalendar UID all occurrences share)
        for cal in calendars:
            cal_id = str(cal["id"])
            source_id = self.id
            token = tokens.get(cal_id)
            try:
                events, new_tokens[cal_id] = self._events(session, api, cal_id, token, window)
            except Gone:
                ctx.skip(source_id, "syncToken", f"{source_id} ({cal_id}): Google asks for a full re-read of "
                                                 "this calendar", note=True)
                events, new_tokens[cal_id] = self._events(session, api, cal_id, None, window)
            for ev in events:
                series = str(ev.get("iCalUID") or ev.get("recurringEventId") or ev.get("id", ""))
                try:
                    item = to_event(ev, cal, source_id, ctx)
                except (ValueError, KeyError, TypeError) as exc:
                    ctx.skip(source_id, str(ev.get("id", "event")), f"{source_id}: event unreadable ({exc})")
                    tally.fail(series)
                    continue
                if item is None:
                    tally.cancel(series)
                    continue
                tally.item(series)
                if item.ref not in seen:
                    seen.add(item.ref)
                    count += 1
                    yield item
            ctx.progress(self.id, count)
            if ctx.should_stop():
                return
        tally.finish(ctx)
        ctx.new_cursor = {"account": account, "tokens": new_tokens}

    @staticmethod
    def _calendars(session: GoogleSession, api: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        page = None
        while True:
            answer = session.call(api.calendarList().list(maxResults=250, pageToken=page), units=1)
            out.extend(c for c in answer.get("items", []) or [] if not c.get("deleted"))
            page = answer.get("nextPageToken")
            if not page:  # primary first: of a meeting on two calendars, the copy kept names the owner
                return sorted(out, key=lambda c: not c.get("primary"))

    @staticmethod
    def _events(session: GoogleSession, api: Any, cal_id: str, token: str | None,
                window: tuple[datetime, datetime]) -> tuple[list[dict[str, Any]], str]:
        """All pages of one calendar (full over the window, or changes since ``token``) and the
        new sync token, which Google puts on the last page only."""
        events: list[dict[str, Any]] = []
        page = None
        while True:
            if token:
                req = api.events().list(calendarId=cal_id, singleEvents=True, syncToken=token, maxResults=2500,
                                        pageToken=page)
            else:
                req = api.events().list(calendarId=cal_id, singleEvents=True, maxResults=2500, pageToken=page,
                                        timeMin=window[0].isoformat().replace("+00:00", "Z"),
                                        timeMax=window[1].isoformat().replace("+00:00", "Z"))
            answer = session.call(req, units=1, gone=(410,))
            events.extend(answer.get("items", []) or [])
            page = answer.get("nextPageToken")
            if not page:
                return events, str(answer.get("nextSyncToken", ""))
