"""`memseed schedule`: unit files / plist / cron line, the exact system commands, never the real timers."""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.errors import WriteError
from bootstrap_app.memory import schedule


class FakeRunner:
    """Records every command; answers `systemctl show` with a next-run time."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.calls.append(list(argv))
        out = "Mon 2026-11-30 07:30:00 UTC\n" if "show" in argv else ""
        return subprocess.CompletedProcess(list(argv), 0, out, "")


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> FakeRunner:
    fake = FakeRunner()
    monkeypatch.setattr(schedule, "run_system", fake)
    return fake


def test_systemd_units_pass_systemd_analyze(hermetic: Path) -> None:
    units = schedule.systemd_units(schedule.Schedule("07:30", "mon"), hermetic / ".memseed")
    assert "OnCalendar=Mon *-*-* 07:30:00" in units["memseed-reseed.timer"]
    assert "Persistent=true" in units["memseed-reseed.timer"]
    assert "reseed --quiet" in units["memseed-reseed.service"]
    # reseed's exit status (3 partial, 2 nothing readable) must reach systemd: a failed run shows
    # in `systemctl --user status`; neither an ExecStart "-" prefix nor SuccessExitStatus may hide it
    assert "ExecStart=-" not in units["memseed-reseed.service"]
    assert "SuccessExitStatus" not in units["memseed-reseed.service"]
    folder = hermetic / "units"
    folder.mkdir()
    for name, text in units.items():
        (folder / name).write_text(text)
    if shutil.which("systemd-analyze") is None:  # the documented format, checked by hand above
        return
    exe = schedule.reseed_argv(hermetic)[0]
    if not Path(exe).exists():
        pytest.skip(f"{exe} is not installed; systemd-analyze would reject the ExecStart")
    env = {**os.environ, "XDG_RUNTIME_DIR": str(hermetic)}

    def verify(*names: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["systemd-analyze", "--user", "verify", *(str(folder / n) for n in names)],
                              capture_output=True, text=True, check=False, env=env)

    done = verify(*units)
    assert done.returncode == 0, done.stdout + done.stderr
    # the validator is real: the same timer with an impossible time is refused
    (folder / "bad.timer").write_text(units["memseed-reseed.timer"].replace("07:30:00", "27:30:00"))
    assert verify("bad.timer").returncode != 0


def test_launchd_plist_and_cron_line(hermetic: Path) -> None:
    data = plistlib.loads(schedule.launchd_plist(schedule.Schedule("18:05", "Sun"), hermetic))
    assert data["Label"] == "org.memseed.reseed" and data["StartCalendarInterval"] == {"Hour": 18, "Minute": 5,
                                                                                      "Weekday": 0}
    assert data["ProgramArguments"][-2:] == ["reseed", "--quiet"]
    line = schedule.cron_line(schedule.Schedule("7:05"), hermetic)
    assert line.startswith("5 7 * * *  ") and line.endswith("reseed --quiet")
    assert schedule.cron_line(schedule.Schedule("07:05", "Mon"), hermetic).startswith("5 7 * * 1 ")
    with pytest.raises(WriteError):
        schedule.Schedule("25:00")
    with pytest.raises(WriteError):
        schedule.Schedule("07:00", "Someday")


def test_next_run() -> None:
    now = datetime(2026, 11, 27, 9, 0)  # a Friday
    assert schedule.next_run(schedule.Schedule("07:30"), now) == datetime(2026, 11, 28, 7, 30)
    assert schedule.next_run(schedule.Schedule("10:00"), now) == datetime(2026, 11, 27, 10, 0)
    assert schedule.next_run(schedule.Schedule("07:30", "Mon"), now) == datetime(2026, 11, 30, 7, 30)


def test_cli_daily_status_off_on_systemd(hermetic: Path, runner: FakeRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schedule, "system_name", lambda platform=None: "systemd")
    cli = CliRunner()
    on = cli.invoke(main, ["schedule", "--weekly", "Mon", "07:30"])
    assert on.exit_code == 0, on.output
    timer = hermetic / ".config" / "systemd" / "user" / "memseed-reseed.timer"
    assert "OnCalendar=Mon *-*-* 07:30:00" in timer.read_text()
    assert runner.calls == [["systemctl", "--user", "daemon-reload"],
                            ["systemctl", "--user", "enable", "--now", "memseed-reseed.timer"]]
    status = cli.invoke(main, ["schedule", "--status"])
    assert "schedule: every Mon at 07:30 (systemd)" in status.output
    assert "next run: Mon 2026-11-30 07:30:00 UTC" in status.output and "last run: never" in status.output
    assert "waiting: 0 proposal(s) to review" in status.output
    runner.calls.clear()
    off = cli.invoke(main, ["schedule", "--off"])
    assert off.exit_code == 0 and not timer.exists()
    assert runner.calls[0] == ["systemctl", "--user", "disable", "--now", "memseed-reseed.timer"]


def test_cli_cron_prints_the_line(hermetic: Path, runner: FakeRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schedule, "system_name", lambda platform=None: "cron")
    out = CliRunner().invoke(main, ["schedule", "--daily", "06:45"])
    assert out.exit_code == 0 and "45 6 * * *" in out.output and runner.calls == []
    assert CliRunner().invoke(main, ["schedule", "--daily", "06:45", "--off"]).exit_code == 2


def test_notify_cmd_gets_the_counts(hermetic: Path) -> None:
    out = hermetic / "told.txt"
    script = hermetic / "tell.sh"
    script.write_text(f'#!/bin/sh\necho "$MEMSEED_NEW/$MEMSEED_WAITING" > {out}\n')
    script.chmod(0o755)
    assert schedule.notify(str(script), 7, 2) == "" and out.read_text() == "2/7\n"
    assert "exited 3" in schedule.notify("sh -c 'exit 3'", 1, 1)
    assert schedule.notify("", 1, 1) == ""
