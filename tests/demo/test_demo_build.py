"""build_demo: idempotent, deterministic, scalable with the same facts, safe with foreign folders."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import icalendar
import pytest
import recurring_ical_events
from demo_helpers import git, read_mbox

from bootstrap_app import demo
from bootstrap_app.demo import (
    DEMO_ANCHOR,
    MARKER,
    build_demo,
    demo_locations,
    demo_owner_addresses,
    read_marker,
)
from bootstrap_app.errors import ConfigError, MemseedError, WriteError


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.stat().st_ino)
            for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


def _slack_messages(root: Path) -> tuple[int, int, set[str]]:
    export = demo_locations(root)["slack"]
    total, maya_random, names = 0, 0, set()
    for folder in export.iterdir():
        if folder.is_dir():
            names.add(folder.name)
            for day in folder.glob("*.json"):
                msgs = json.loads(day.read_text(encoding="utf-8"))
                total += len(msgs)
                if folder.name == "random":
                    maya_random += sum(m.get("user") == demo.PERSONA["slack_user_id"] for m in msgs)
    return total, maya_random, names


def test_second_build_rewrites_nothing(demo_root: Path) -> None:
    before = _snapshot(demo_root)
    assert build_demo(demo_root, 1) == demo_root
    assert _snapshot(demo_root) == before
    assert read_marker(demo_root)["scale"] == 1  # type: ignore[index]


def test_builds_are_deterministic(demo_root: Path, tmp_path: Path) -> None:
    other = build_demo(tmp_path / "again", 1)
    for kind in ("mbox", "calendar"):
        assert demo_locations(other)[kind].read_bytes() == demo_locations(demo_root)[kind].read_bytes()
    for rel in ("documents/rfcs/rfc-012-event-sourcing.docx", "documents/design/deploy-console-design.pdf",
                "slack/northwind-export/ledger-dev"):
        a, b = other / rel, demo_root / rel
        if a.is_dir():
            assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
        else:
            assert a.read_bytes() == b.read_bytes()
    for name in ("ledger-api", "deploy-console"):
        assert git(other / "repos" / name, "rev-parse", "HEAD") == git(demo_root / "repos" / name, "rev-parse", "HEAD")


def test_scale_multiplies_volume_and_keeps_facts(demo_root: Path, demo3_root: Path) -> None:
    one, three = demo_locations(demo_root), demo_locations(demo3_root)
    mails1, mails3 = len(read_mbox(one["mbox"])), len(read_mbox(three["mbox"]))
    assert 2.5 <= mails3 / mails1 <= 3.2
    chat1, _, names1 = _slack_messages(demo_root)
    chat3, maya_random3, names3 = _slack_messages(demo3_root)
    assert 2.5 <= chat3 / chat1 <= 3.2 and names1 == names3 and maya_random3 <= 1
    for name in ("ledger-api", "deploy-console"):
        n1 = int(git(one[name], "rev-list", "--count", "HEAD"))
        n3 = int(git(three[name], "rev-list", "--count", "HEAD"))
        assert n3 == 3 * n1
        assert git(one[name], "ls-files") == git(three[name], "ls-files"), "same files at any scale"
    cal1 = icalendar.Calendar.from_ical(one["calendar"].read_bytes())
    cal3 = icalendar.Calendar.from_ical(three["calendar"].read_bytes())
    rules = [sorted((str(e["SUMMARY"]), e["RRULE"].to_ical()) for e in c.walk("VEVENT") if e.get("RRULE"))
             for c in (cal1, cal3)]
    assert rules[0] == rules[1]
    window = (DEMO_ANCHOR.date() - timedelta(days=90), DEMO_ANCHOR.date())
    occ1 = len(list(recurring_ical_events.of(cal1).between(*window)))
    occ3 = len(list(recurring_ical_events.of(cal3).between(*window)))
    assert 2.5 <= occ3 / occ1 <= 3.3, "calendar occurrences grow with scale, rituals stay"


def test_other_scale_or_version_rebuilds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = build_demo(tmp_path / "d", 1)
    count1 = len(read_mbox(demo_locations(root)["mbox"]))
    build_demo(root, 2)
    assert read_marker(root)["scale"] == 2  # type: ignore[index]
    assert len(read_mbox(demo_locations(root)["mbox"])) > count1
    monkeypatch.setattr(demo, "GENERATOR_VERSION", demo.GENERATOR_VERSION + 1)
    before = (root / MARKER).stat().st_mtime_ns
    build_demo(root, 2)
    assert read_marker(root)["generator_version"] == demo.GENERATOR_VERSION  # type: ignore[index]
    assert (root / MARKER).stat().st_mtime_ns != before


def test_refuses_a_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("keep me")
    with pytest.raises(WriteError) as err:
        build_demo(tmp_path / "mine", 1)
    assert err.value.hint
    assert (tmp_path / "mine" / "thesis.tex").read_text() == "keep me"


def test_refuses_a_file_or_symlink(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "target").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    for name in ("file", "link"):
        with pytest.raises(WriteError):
            build_demo(tmp_path / name, 1)
    assert (tmp_path / "file").read_text() == "x" and (tmp_path / "link").is_symlink()


def test_bad_scale_is_a_config_error(tmp_path: Path) -> None:
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ConfigError):
            build_demo(tmp_path / "x", bad)  # type: ignore[arg-type]


def test_interrupted_build_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> int:
        raise MemseedError("disk full")

    monkeypatch.setattr(demo, "write_slack", broken)
    with pytest.raises(MemseedError):
        build_demo(tmp_path / "d", 1)
    assert not (tmp_path / "d").exists()
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == []


def test_owner_addresses() -> None:
    owners = demo_owner_addresses()
    assert owners[0] == demo.PERSONA["work_email"] and demo.PERSONA["personal_email"] in owners
    assert all(a == a.lower() and "@" in a for a in owners)


def test_module_entry_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bootstrap_app.demo.__main__ import main

    assert main([str(tmp_path / "d")]) == 0
    assert "repos/ledger-api" in capsys.readouterr().out
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    assert main([str(tmp_path / "other")]) == 1
    assert "not a memseed demo folder" in capsys.readouterr().err
