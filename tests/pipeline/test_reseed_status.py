"""`memseed reseed` says what happened in its exit status, as `memseed scan` does (issue 29).

A timer runs reseed unattended, so its exit status and the last run shown by `memseed status`
and `memseed schedule --status` are how anyone learns that a remembered source went away:
0 all read, 3 partial (``EXIT_PARTIAL``), 2 nothing readable — on the cheap "nothing new" path
and on the full re-analysis alike. The sources are generated here: a folder of .eml files
written with :mod:`email` and a folder of .ics calendars. Tests run as root, so a file is made
unreadable by breaking it (binary bytes) or by removing its folder, never by chmod.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from bootstrap_app.cli import main
from bootstrap_app.cli.common import EXIT_PARTIAL
from tests.pipeline.synth import planning_note

_EVENT = ("BEGIN:VEVENT\r\nUID:{uid}@example.org\r\nDTSTAMP:20250301T090000Z\r\n"
          "DTSTART:202503{day:02d}T100000Z\r\nDTEND:202503{day:02d}T110000Z\r\nSUMMARY:Planning {uid}\r\n"
          "ORGANIZER:mailto:ana@example.org\r\nEND:VEVENT\r\n")


def _calendar(uid: int) -> str:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//memseed tests//EN\r\n"
            + _EVENT.format(uid=uid, day=uid % 27 + 1) + "END:VCALENDAR\r\n")


def _sources(root: Path) -> tuple[Path, Path]:
    mail, cal = root / "mail", root / "cal"
    mail.mkdir()
    cal.mkdir()
    for n in range(4):
        (mail / f"{n}.eml").write_bytes(planning_note(n))
    for uid in (1, 2):
        (cal / f"{uid}.ics").write_text(_calendar(uid), encoding="utf-8")
    return mail, cal


def _cli(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _last_run_lines(home: Path) -> tuple[str, str, dict[str, object]]:
    """The last run as `schedule --status`, `status` and `status --json` show it."""
    sched = _cli(home, "schedule", "--status")
    assert sched.exit_code == 0, sched.output
    status = _cli(home, "status")
    assert status.exit_code == 0, status.output
    as_json = json.loads(_cli(home, "status", "--json").stdout)
    (sched_line,) = [ln for ln in sched.stdout.splitlines() if ln.startswith("last run:")]
    (status_line,) = [ln for ln in status.stdout.splitlines() if ln.startswith("last run:")]
    return sched_line, status_line, as_json["last_run"]


def test_nothing_new_with_a_source_gone_is_partial_then_nothing_readable_fails(tmp_path: Path) -> None:
    home = tmp_path / "home"
    mail, cal = _sources(tmp_path)
    assert _cli(home, "scan", str(mail), str(cal), "-q").exit_code == 0

    fine = _cli(home, "reseed", "--quiet")
    assert fine.exit_code == 0 and fine.stdout == "" and fine.stderr == ""
    sched, status, as_json = _last_run_lines(home)
    assert sched.endswith("(complete)") and status.endswith("(complete)") and as_json["outcome"] == "complete"

    shutil.rmtree(cal)  # a remembered source went away (a moved folder, an unmounted disk)
    quiet = _cli(home, "reseed", "--quiet")
    assert quiet.exit_code == EXIT_PARTIAL
    assert quiet.stdout == "" and f"cannot read {cal}" in quiet.stderr  # cron mails it even with --quiet
    summary = _cli(home, "reseed", "--json-summary")
    assert summary.exit_code == EXIT_PARTIAL
    outcome = json.loads(summary.stdout)
    assert outcome["status"] == "partial" and outcome["unreadable"] == [str(cal)] and outcome["new_items"] == 0
    sched, status, as_json = _last_run_lines(home)
    for line in (sched, status):
        assert "(partial: 1 source(s) could not be read" in line and str(cal) in line, line
    assert str(as_json["outcome"]).startswith("partial") and as_json["status"] == "finished"

    shutil.rmtree(mail)  # nothing readable is left
    none = _cli(home, "reseed", "--json-summary")
    assert none.exit_code == 2
    assert json.loads(none.stdout)["status"] == "failed"
    assert "no remembered source could be read" in none.stderr and "hint:" in none.stderr
    said = _cli(home, "reseed")
    assert said.exit_code == 2 and "nothing new" not in said.stderr
    sched, status, as_json = _last_run_lines(home)
    for line in (sched, status):
        assert "(failed: no remembered source could be read" in line, line
    assert as_json["status"] == "failed"


def test_a_reanalysis_that_cannot_read_everything_is_partial(tmp_path: Path) -> None:
    """Something is new (one more message), so reseed re-analyses everything; a calendar broken
    since the last scan is skipped with its reason, the rest is read, and the exit says partial."""
    home = tmp_path / "home"
    mail, cal = _sources(tmp_path)
    assert _cli(home, "scan", str(mail), str(cal), "-q").exit_code == 0
    (mail / "9.eml").write_bytes(planning_note(9))
    (cal / "1.ics").write_bytes(b"\x00\x01\x02 not a calendar \xff\xfe" * 20)
    res = _cli(home, "reseed", "--quiet")
    assert res.exit_code == EXIT_PARTIAL, res.output
    assert "1.ics" in res.stderr and "binary file, not a calendar" in res.stderr
    assert "\x00" not in res.stderr
    (cal / "1.ics").write_text(_calendar(1), encoding="utf-8")
    (mail / "10.eml").write_bytes(planning_note(10))
    res = _cli(home, "reseed", "--json-summary")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == "complete"
    sched, status, _ = _last_run_lines(home)
    assert sched.endswith("(complete)") and status.endswith("(complete)")
    # broken again: the last run shown says partial, with how many of the sources read
    (cal / "2.ics").write_bytes(b"\x00garbage\x00" * 30)
    (mail / "11.eml").write_bytes(planning_note(11))
    res = _cli(home, "reseed", "--json-summary")
    assert res.exit_code == EXIT_PARTIAL and json.loads(res.stdout)["status"] == "partial"
    sched, status, as_json = _last_run_lines(home)
    assert re.search(r"\(partial: 1 of [23] sources could not be read in full\)$", sched), sched
    assert status.endswith(sched[sched.index("("):]) and as_json["outcome"] == sched[sched.index("(") + 1:-1]


def test_a_remembered_source_gone_during_a_reanalysis_is_partial(tmp_path: Path) -> None:
    home = tmp_path / "home"
    mail, cal = _sources(tmp_path)
    assert _cli(home, "scan", str(mail), str(cal), "-q").exit_code == 0
    (mail / "9.eml").write_bytes(planning_note(9))
    shutil.rmtree(cal)
    res = _cli(home, "reseed", "--json-summary")
    assert res.exit_code == EXIT_PARTIAL, res.output
    outcome = json.loads(res.stdout)
    assert outcome["status"] == "partial" and str(cal) in outcome["errors"]


def test_one_broken_file_in_a_remembered_folder_is_named_alone(tmp_path: Path) -> None:
    """Nothing new, but one calendar of a remembered folder turned binary: reseed names that file,
    not the folder (its other calendar was read), and says partial."""
    home = tmp_path / "home"
    mail, cal = _sources(tmp_path)
    assert _cli(home, "scan", str(mail), str(cal), "-q").exit_code == 0
    broken = cal / "1.ics"
    broken.write_bytes(b"\x00\x01\x02 not a calendar \xff\xfe" * 20)
    res = _cli(home, "reseed", "--json-summary")
    assert res.exit_code == EXIT_PARTIAL, res.output
    outcome = json.loads(res.stdout)
    assert outcome["status"] == "partial" and outcome["unreadable"] == [str(broken)]
    said = _cli(home, "reseed")
    assert said.exit_code == EXIT_PARTIAL
    assert f"cannot read {broken} (inside a remembered source" in said.stderr
    assert f"cannot read {cal}:" not in said.stderr and "nothing new in 2 remembered sources" in said.stderr
