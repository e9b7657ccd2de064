"""Calendar shapes end to end: one meeting split into parts is one ritual; names never collide; caps report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan

from .calendar_exports import SPLIT_SHAPES, published_feed, split_series


def _rituals(tmp_path: Path, *files: tuple[str, bytes]) -> tuple[list, list[str]]:
    paths = []
    for name, data in files:
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    result = scan(paths, settings=load_settings(tmp_path / "home"), owners=["maya@example.org"])
    return [p for p in result.proposals if p.name.startswith("ritual-")], result.notes


@pytest.mark.parametrize("shape", SPLIT_SHAPES)
def test_one_meeting_split_across_weekdays_is_one_ritual_naming_its_days(tmp_path: Path, shape: str) -> None:
    today = datetime.now(UTC).date()
    rituals, _ = _rituals(tmp_path, ("cal.ics", split_series(shape, today)))
    assert len(rituals) == 1, [(p.name, p.description) for p in rituals]
    [ritual] = rituals
    assert "weekdays 09:30" in ritual.description and "Europe/Berlin" in ritual.description, ritual.description


def test_rituals_with_one_title_get_distinct_names(tmp_path: Path) -> None:
    today = datetime.now(UTC).date()
    theirs = split_series("several-rrules", today, hour=15, organizer="jon@example.org")  # the owner attends
    theirs = theirs.replace(b"ATTENDEE;CN=Priya", b"ATTENDEE;CN=Maya Okafor:mailto:maya@example.org\r\nATTENDEE;CN=Priya")
    rituals, _ = _rituals(tmp_path, ("a.ics", split_series("several-rrules", today, hour=9)), ("b.ics", theirs))
    assert len(rituals) == 2
    assert len({p.name for p in rituals}) == 2, [p.name for p in rituals]


def test_the_ritual_cap_says_what_it_left_out(tmp_path: Path) -> None:
    today = datetime.now(UTC).date()
    titles = [f"Topic {chr(65 + i)} sync" for i in range(8)]
    files = [(f"{i}.ics", split_series("several-rrules", today, title=t, hour=8 + i)) for i, t in enumerate(titles)]
    rituals, notes = _rituals(tmp_path, *files)
    assert len(rituals) < len(titles)
    dropped = len(titles) - len(rituals)
    [note] = [n for n in notes if "recurring meetings not proposed" in n]
    assert note.startswith(f"{dropped} more") and sum(t in note for t in titles) == dropped


def _owner_and_rituals(tmp_path: Path, data: bytes, *, since: datetime | None = None) -> tuple[object, list]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "cal.ics"
    path.write_bytes(data)
    result = scan([str(path)], settings=load_settings(tmp_path / "home"), since=since)
    return result.owner, [p for p in result.proposals if p.name.startswith("ritual-")]


def test_a_published_feed_is_reference_not_the_persons_meetings(tmp_path: Path) -> None:
    today = datetime.now(UTC).date()
    owner, rituals = _owner_and_rituals(tmp_path, published_feed(today, organizer="events@venue.example"))
    assert rituals == []  # its weekly open evening is not the person's ritual
    assert "events@venue.example" not in owner.addresses | set(owner.suggested) and not owner.names


def test_publish_method_alone_proves_nothing(tmp_path: Path) -> None:
    """A person's own Google export says METHOD:PUBLISH too, and is named after their address."""
    today = datetime.now(UTC).date()
    own = split_series("vevent-per-weekday", today).replace(b"VERSION:2.0\r\n", b"VERSION:2.0\r\nMETHOD:PUBLISH\r\n")
    owner, rituals = _owner_and_rituals(tmp_path / "alone", own)
    # Its account is the owner's candidate (a suggestion until another source supports it), not a
    # feed's; and until it is the owner's, its meetings are nobody's rituals (issue 30).
    assert rituals == [] and "maya@example.org" in owner.suggested
    rituals, _ = _rituals(tmp_path, ("cal.ics", own))  # the account given as the owner's: not a feed
    assert len(rituals) == 1


def test_the_owners_name_never_comes_from_one_organizer_line(tmp_path: Path) -> None:
    today = datetime.now(UTC).date()
    one = split_series("several-rrules", today)  # one VEVENT: one ORGANIZER line, many occurrences
    owner, _ = _owner_and_rituals(tmp_path / "one", one)
    assert owner.names == ()
    two = split_series("vevent-per-weekday", today)  # the same name on five series
    owner, _ = _owner_and_rituals(tmp_path / "two", two)
    assert owner.names == ("Maya Okafor",)


def test_a_series_only_timetable_is_not_a_feed() -> None:
    """A school timetable: a dozen weekly series, few titles, no attendees, METHOD:PUBLISH — the person's own."""
    import icalendar

    from connectors.local.ics_checks import is_published

    today = datetime.now(UTC).date()
    parts = [split_series("several-rrules", today, title=f"Lesson {h % 4}", hour=h) for h in range(6, 18)]
    bodies = b"".join(p.split(b"END:VCALENDAR")[0].split(b"X-WR-TIMEZONE:Europe/Berlin\r\n", 1)[1] for p in parts)
    timetable = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:School\r\n"
                 + bodies.replace(b"ATTENDEE", b"X-NOTE") + b"END:VCALENDAR\r\n")
    cal = icalendar.Calendar.from_ical(timetable)
    assert len(cal.walk("VEVENT")) == 12
    assert not is_published([cal])
    assert is_published([icalendar.Calendar.from_ical(published_feed(today))])
