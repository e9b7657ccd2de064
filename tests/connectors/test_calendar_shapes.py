"""Calendar shapes end to end: one meeting split into parts is one ritual; names never collide; caps report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan

from .calendar_exports import SPLIT_SHAPES, split_series


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
    rituals, _ = _rituals(tmp_path, ("a.ics", split_series("several-rrules", today, hour=9)),
                          ("b.ics", split_series("several-rrules", today, hour=15, organizer="jon@example.org")))
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
