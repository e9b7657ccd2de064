"""Calendar zone names -> IANA names, so a calendar's times can be shown in the person's zone.

Why: calendar programs name zones in their own ways. Google and Apple write IANA names
(``Europe/Berlin``); Outlook writes Windows names (``W. Europe Standard Time``) or a display
name (``(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna``) or just ``Customized
Time Zone``, each defined only by the file's own VTIMEZONE; Thunderbird/Evolution may write a
"globally unique" ``/freeassociation.sourceforge.net/Europe/Berlin``. A zone that is not an
IANA name cannot be voted for as the person's timezone, and their rituals would then be shown
in UTC — two hours off for a Berlin stand-up in summer.

The order of evidence, best first:

1. the ``tzinfo`` already is an IANA zone (``ZoneInfo.key``);
2. the TZID itself is an IANA name (after stripping a leading ``/``);
3. the Windows name through icalendar's own Windows->Olson table (never a hand-written one);
4. the trailing IANA part of a "globally unique" TZID;
5. for a zone defined only by its VTIMEZONE: the IANA zones whose UTC offsets agree with it
   at every sample instant over two years; among them the one whose city is named in the
   TZID, else the one Windows maps the best-fitting of its own zone names to (``Eastern`` ->
   ``Eastern Standard Time`` -> ``America/New_York``), else the first by name. Any of them
   gives the same local times; the name is then a representative, not the person's city.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zoneinfo
from datetime import UTC, datetime, timedelta, tzinfo

from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

__all__ = ["iana_name", "zone_of"]

_SKIP_PREFIXES = ("Etc/", "SystemV/", "posix/", "right/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")


def _valid(name: str) -> bool:
    if not name or name.startswith("/") or ".." in name:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def zone_of(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA zone for ``name`` (IANA, Windows or globally-unique form), or None."""
    resolved = _by_name(name)
    return zoneinfo.ZoneInfo(resolved) if resolved else None


@functools.lru_cache(maxsize=256)
def _by_name(tzid: str) -> str:
    cleaned = (tzid or "").replace("\\,", ",").replace("\\;", ";").strip().strip('"').strip()
    if not cleaned:
        return ""
    if _valid(cleaned.strip("/")):
        return cleaned.strip("/")
    olson = WINDOWS_TO_OLSON.get(cleaned)
    if olson and _valid(olson):
        return olson
    parts = cleaned.strip("/").split("/")
    for start in range(1, len(parts)):  # /vendor/.../Area/City: the longest valid suffix
        candidate = "/".join(parts[start:])
        if "/" in candidate and _valid(candidate):
            return candidate
    return _by_display(cleaned)


_DISPLAY = re.compile(r"^\(\s*(?:UTC|GMT)\s*(?:([+-])\s*(\d{1,2})(?:[:.]?(\d{2}))?)?\s*\)\s*(.*)$", re.I)
_NOT_PLACES = frozenset({"standard", "time", "daylight", "utc", "gmt", "and", "the", "of", "zone"})


def _fold(text: str) -> str:
    """``São_Paulo`` -> ``sao paulo``: accents, case and underscores do not tell cities apart."""
    flat = unicodedata.normalize("NFKD", text.replace("_", " "))
    return " ".join("".join(ch for ch in flat if not unicodedata.combining(ch)).casefold().split())


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, tuple[str, ...]]:
    """Folded city -> IANA zones named after it (``sydney`` -> ``Australia/Sydney``), from tzdata itself."""
    index: dict[str, list[str]] = {}
    for name in sorted(zoneinfo.available_timezones()):
        if "/" in name and not name.startswith(_SKIP_PREFIXES):
            index.setdefault(_fold(name.rsplit("/", 1)[-1]), []).append(name)
    return {k: tuple(v) for k, v in index.items()}


@functools.lru_cache(maxsize=1024)
def _standard_offset(name: str) -> int:
    """The zone's standard (lower) UTC offset in minutes this year: what ``(UTC+10:00)`` states."""
    zone = zoneinfo.ZoneInfo(name)
    year = datetime.now(UTC).year
    offsets = [datetime(year, month, 15, 12, tzinfo=UTC).astimezone(zone).utcoffset() for month in (1, 7)]
    return min(int(o // timedelta(minutes=1)) for o in offsets if o is not None)


def _by_display(name: str) -> str:
    """An Outlook display name (``(UTC+10:00) Canberra, Melbourne, Sydney``, or the city list
    alone) -> the IANA zone of the first named city whose standard offset agrees with the stated
    one, Windows' own primary zone first; else the Windows zone whose name shares the most words
    with it (``Eastern Time (US & Canada)`` -> ``Eastern Standard Time``) at that offset."""
    m = _DISPLAY.match(name)
    stated = None
    rest = name
    if m:
        rest = m.group(4)
        sign, hours, minutes = m.group(1), m.group(2), m.group(3)
        stated = 0 if not hours else (-1 if sign == "-" else 1) * (int(hours) * 60 + int(minutes or 0))
    elif "," not in name:
        return ""  # one word that is neither IANA nor Windows: not a display name

    def fits(zone: str) -> bool:
        return stated is None or _standard_offset(zone) == stated

    primary = set(WINDOWS_TO_OLSON.values())
    hits = [z for city in re.split(r"[,;&/]|\band\b", re.sub(r"\(.*?\)", ",", rest))
            for z in _cities().get(_fold(city.strip(" .-")), ()) if fits(z)]
    if hits:
        return min(hits, key=lambda z: (z not in primary, hits.index(z)))
    words = set(re.findall(r"[a-z]+", _fold(re.sub(r"\(.*?\)", " ", rest)))) - _NOT_PLACES
    scored = []
    for win, olson in WINDOWS_TO_OLSON.items():
        named = set(re.findall(r"[a-z]+", win.lower())) - _NOT_PLACES
        if words & named and _valid(olson) and fits(olson):
            scored.append((-len(words & named), len(named - words), olson))
    if scored:
        return min(scored)[2]
    if m and stated == 0 and ({"coordinated", "universal"} <= words or not words):
        return "UTC"
    return ""


def _samples(year: int) -> tuple[datetime, ...]:
    """Two instants a month over two years: catches every DST rule in use."""
    out = []
    for y in (year - 1, year):
        for month in range(1, 13):
            for day in (1, 16):
                out.append(datetime(y, month, day, 12, tzinfo=UTC))
    return tuple(out)


def _offsets(tz: tzinfo, instants: tuple[datetime, ...]) -> tuple[int, ...] | None:
    try:
        out = []
        for t in instants:
            delta = t.astimezone(tz).utcoffset()
            if delta is None:
                return None
            out.append(int(delta // timedelta(minutes=1)))
        return tuple(out)
    except (ValueError, OverflowError, TypeError, AttributeError):
        return None


@functools.lru_cache(maxsize=1)
def _candidates() -> tuple[str, ...]:
    return tuple(sorted(n for n in zoneinfo.available_timezones()
                        if "/" in n and not n.startswith(_SKIP_PREFIXES)))


@functools.lru_cache(maxsize=128)
def _by_offsets(offsets: tuple[int, ...], year: int, tzid: str) -> str:
    instants = _samples(year)
    matches = [n for n in _candidates() if _offsets(zoneinfo.ZoneInfo(n), instants) == offsets]
    if not matches:  # a VTIMEZONE read by dateutil can be off around the turn of a year: near agreement
        agree = {n: sum(a == b for a, b in zip(zone_offsets, offsets, strict=True)) for n in _candidates()
                 if (zone_offsets := _offsets(zoneinfo.ZoneInfo(n), instants)) is not None}
        best = max(agree.values(), default=0)
        matches = [n for n, a in agree.items() if a == best and a >= 0.9 * len(offsets)]
    if not matches:
        return ""
    text = tzid.lower()
    named = [(pos, n) for n in matches
             if (pos := _word_at(text, n.rsplit("/", 1)[-1].replace("_", " ").lower())) >= 0]
    if named:  # a Windows display name lists several cities: its own primary zone first
        primary = set(WINDOWS_TO_OLSON.values())
        return min((n not in primary, pos, n) for pos, n in named)[2]
    words = set(re.findall(r"[a-z]+", text)) - {"standard", "time", "daylight", "utc", "gmt"}
    windows = sorted((-len(words & set(re.findall(r"[a-z]+", win.lower()))), olson)
                     for win, olson in WINDOWS_TO_OLSON.items() if olson in matches)
    return windows[0][1] if windows else matches[0]


def _word_at(text: str, word: str) -> int:
    m = re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text)
    return m.start() if m else -1


def iana_name(tzid: str, tz: tzinfo | None = None, when: datetime | None = None) -> str:
    """The IANA name for an event's zone, or ``""`` when none can be told.

    ``tzid`` is the TZID parameter as written; ``tz`` the tzinfo icalendar built (possibly from
    the file's own VTIMEZONE); ``when`` a date inside the period of interest (DST rules change).
    """
    key = str(getattr(tz, "key", "") or "")
    if key and _valid(key):
        return key
    if tzid and (name := _by_name(tzid)):
        return name
    if tz is None:
        return ""
    year = (when or datetime.now(UTC)).year
    offsets = _offsets(tz, _samples(year))
    if offsets is None:
        return ""
    named = _by_offsets(offsets, year, tzid or "")
    if not any(offsets) and not (named and _word_at((tzid or "").lower(), named.rsplit("/", 1)[-1].lower()) >= 0):
        return "UTC"  # a constant zero offset that names no place is UTC, not Africa/Abidjan
    return named
