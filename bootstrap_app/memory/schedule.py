"""Keep memory fresh on a timer: ``memseed reseed`` daily or weekly, by the system's own scheduler.

Why the system's scheduler and not a memseed daemon: nothing of memseed should run between
re-seeds, and the system already knows how to wake a job up after sleep (systemd's
``Persistent=true``, launchd's calendar intervals). So on Linux memseed writes a systemd *user*
service + timer (``~/.config/systemd/user/memseed-reseed.{service,timer}``), on macOS a launchd
agent (``~/Library/LaunchAgents/org.memseed.reseed.plist``), and elsewhere it prints the crontab
line to add. Every system command goes through one injectable ``runner`` (tests check the exact
command lines and never touch the real user's timers).

``--status`` answers from the store (the last ``reseed`` run and how it ended — complete,
partial with the sources it could not read, failed —, what waits for review) and from the
scheduler (the next run: systemd's ``NextElapseUSecRealtime``; computed from the schedule
otherwise).

A reseed that could not read everything exits non-zero (3 partial, 2 nothing readable; see
``memseed reseed --help``), and each scheduler makes that visible its own way, so nothing in the
units below hides it: the oneshot service ends ``failed`` (``systemctl --user status
memseed-reseed`` and ``systemctl --user --failed`` show it, the journal keeps what it printed; the
timer still fires next time), launchd records the exit code (``launchctl print
gui/UID/org.memseed.reseed``) and the output goes to ``reseed.log`` in the app dir, and cron mails
what the job printed — ``reseed --quiet`` still prints a source it could not read.
"""

from __future__ import annotations

import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from bootstrap_app.errors import MemseedError, WriteError
from bootstrap_app.fsutil import atomic_write
from bootstrap_app.report.scan import run_outcome

__all__ = ["DAYS", "Plan", "Runner", "Schedule", "launchd_plist", "next_run", "notify", "plan_off", "plan_on",
           "status_lines", "systemd_units"]

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
UNIT = "memseed-reseed"
LABEL = "org.memseed.reseed"

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def run_system(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """The real runner: the command, its output captured, never raising for a non-zero exit."""
    return subprocess.run(list(argv), capture_output=True, text=True, check=False, timeout=60)


@dataclass(frozen=True)
class Schedule:
    time: str
    """``HH:MM``, 24-hour, local time."""
    day: str = ""
    """``Mon`` … ``Sun`` for a weekly run; empty: daily."""

    def __post_init__(self) -> None:
        match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", self.time)
        if match is None:
            raise WriteError(f"{self.time!r} is not a time of day", hint="give HH:MM, 24-hour, e.g. 07:30")
        if self.day and self.day.title()[:3] not in DAYS:
            raise WriteError(f"{self.day!r} is not a day of the week", hint="give one of " + ", ".join(DAYS))

    @property
    def hour(self) -> int:
        return int(self.time.split(":")[0])

    @property
    def minute(self) -> int:
        return int(self.time.split(":")[1])

    @property
    def weekday(self) -> int | None:
        return DAYS.index(self.day.title()[:3]) if self.day else None

    def describe(self) -> str:
        return f"{'every ' + DAYS[self.weekday] if self.weekday is not None else 'daily'} at {self.hour:02d}:{self.minute:02d}"


def reseed_argv(home: Path) -> list[str]:
    exe = shutil.which("memseed") or str(Path(sys.executable).with_name("memseed"))
    return [exe, "--home", str(home), "reseed", "--quiet"]


def systemd_units(schedule: Schedule, home: Path) -> dict[str, str]:
    """The service and timer unit files (systemd.service(5), systemd.timer(5), systemd.time(7))."""
    calendar = f"{DAYS[schedule.weekday] + ' ' if schedule.weekday is not None else ''}*-*-* " \
               f"{schedule.hour:02d}:{schedule.minute:02d}:00"
    service = ("[Unit]\nDescription=memseed: re-seed agent memory from the remembered sources\n\n"
               "[Service]\nType=oneshot\n"
               f"ExecStart={' '.join(shlex.quote(a) for a in reseed_argv(home))}\n")
    timer = (f"[Unit]\nDescription=memseed: re-seed agent memory {schedule.describe()}\n\n"
             f"[Timer]\nOnCalendar={calendar}\nPersistent=true\nUnit={UNIT}.service\n\n"
             "[Install]\nWantedBy=timers.target\n")
    return {f"{UNIT}.service": service, f"{UNIT}.timer": timer}


def launchd_plist(schedule: Schedule, home: Path) -> bytes:
    """The launchd agent (launchd.plist(5)): ``StartCalendarInterval`` Hour/Minute(/Weekday, 0 = Sunday)."""
    interval: dict[str, int] = {"Hour": schedule.hour, "Minute": schedule.minute}
    if schedule.weekday is not None:
        interval["Weekday"] = (schedule.weekday + 1) % 7
    return plistlib.dumps({"Label": LABEL, "ProgramArguments": reseed_argv(home), "StartCalendarInterval": interval,
                           "StandardOutPath": str(home / "reseed.log"), "StandardErrorPath": str(home / "reseed.log"),
                           "RunAtLoad": False})


def cron_line(schedule: Schedule, home: Path) -> str:
    day = str((schedule.weekday + 1) % 7) if schedule.weekday is not None else "*"
    return f"{schedule.minute} {schedule.hour} * * {day}  {' '.join(shlex.quote(a) for a in reseed_argv(home))}"


@dataclass
class Plan:
    """What ``schedule`` will do: files to write (path -> bytes, ``None``: delete), commands, words."""

    system: str
    files: dict[Path, bytes | None] = field(default_factory=dict)
    commands: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def system_name(platform: str | None = None) -> str:
    platform = platform or sys.platform
    if platform.startswith("linux") and shutil.which("systemctl"):
        return "systemd"
    if platform == "darwin":
        return "launchd"
    return "cron"


def _paths(system: str, user_home: Path) -> list[Path]:
    if system == "systemd":
        return [user_home / ".config" / "systemd" / "user" / name for name in (f"{UNIT}.service", f"{UNIT}.timer")]
    if system == "launchd":
        return [user_home / "Library" / "LaunchAgents" / f"{LABEL}.plist"]
    return []


def plan_on(schedule: Schedule, app_home: Path, system: str, user_home: Path | None = None) -> Plan:
    user_home = user_home or Path.home()
    plan = Plan(system)
    if system == "systemd":
        for path, text in zip(_paths(system, user_home), systemd_units(schedule, app_home).values(), strict=True):
            plan.files[path] = text.encode("utf-8")
        plan.commands += [["systemctl", "--user", "daemon-reload"],
                          ["systemctl", "--user", "enable", "--now", f"{UNIT}.timer"]]
    elif system == "launchd":
        path = _paths(system, user_home)[0]
        plan.files[path] = launchd_plist(schedule, app_home)
        domain = f"gui/{os.getuid()}" if hasattr(os, "getuid") else "gui"
        plan.commands += [["launchctl", "bootout", f"{domain}/{LABEL}"], ["launchctl", "bootstrap", domain, str(path)]]
    else:
        plan.notes.append("add this line with `crontab -e`:\n  " + cron_line(schedule, app_home))
    plan.notes.insert(0, f"memseed reseed {schedule.describe()} ({system})")
    return plan


def plan_off(app_home: Path, system: str, user_home: Path | None = None) -> Plan:
    plan = Plan(system)
    paths = [p for p in _paths(system, user_home or Path.home()) if p.exists()]
    if system == "systemd" and paths:
        plan.commands.append(["systemctl", "--user", "disable", "--now", f"{UNIT}.timer"])
        plan.files.update(dict.fromkeys(paths))
        plan.commands.append(["systemctl", "--user", "daemon-reload"])
    elif system == "launchd" and paths:
        domain = f"gui/{os.getuid()}" if hasattr(os, "getuid") else "gui"
        plan.commands.append(["launchctl", "bootout", f"{domain}/{LABEL}"])
        plan.files.update(dict.fromkeys(paths))
    elif system == "cron":
        plan.notes.append("remove the `memseed ... reseed` line with `crontab -e`")
    else:
        plan.notes.append("no memseed schedule is installed")
    return plan


def apply(plan: Plan, runner: Runner = run_system) -> list[str]:
    """Write/delete the files, then run the commands; returns problems (a command that failed)."""
    for path, data in plan.files.items():
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, data)
    problems = []
    for argv in plan.commands:
        try:
            done = runner(argv)
        except (OSError, subprocess.SubprocessError) as exc:
            problems.append(f"{' '.join(argv)}: {exc}")
            continue
        if done.returncode != 0 and argv[1:2] != ["bootout"]:  # bootout of an agent not loaded is fine
            problems.append(f"{' '.join(argv)}: exit {done.returncode} {done.stderr.strip()[:200]}")
    return problems


def installed(system: str, user_home: Path | None = None) -> Schedule | None:
    """The schedule memseed installed, read back from its own unit/plist (None: none)."""
    paths = _paths(system, user_home or Path.home())
    try:
        if system == "systemd" and paths[1].is_file():
            match = re.search(r"^OnCalendar=(?:(\w{3}) )?\*-\*-\* (\d\d:\d\d):00$", paths[1].read_text(), re.M)
            return Schedule(match.group(2), match.group(1) or "") if match else None
        if system == "launchd" and paths[0].is_file():
            interval = plistlib.loads(paths[0].read_bytes())["StartCalendarInterval"]
            day = DAYS[(interval["Weekday"] - 1) % 7] if "Weekday" in interval else ""
            return Schedule(f"{interval['Hour']:02d}:{interval['Minute']:02d}", day)
    except (OSError, ValueError, KeyError, MemseedError, plistlib.InvalidFileException):
        return None
    return None


def next_run(schedule: Schedule, now: datetime) -> datetime:
    """The next time ``schedule`` fires after ``now`` (local, naive arithmetic on ``now``'s zone)."""
    candidate = now.replace(hour=schedule.hour, minute=schedule.minute, second=0, microsecond=0)
    if candidate <= now:
        candidate += timedelta(days=1)
    if schedule.weekday is not None:
        candidate += timedelta(days=(schedule.weekday - candidate.weekday()) % 7)
    return candidate


def status_lines(system: str, last_run: dict[str, object] | None, waiting: int, stale: int, now: datetime,
                 runner: Runner = run_system, user_home: Path | None = None) -> list[str]:
    """What ``memseed schedule --status`` and the wizard show."""
    schedule = installed(system, user_home)
    lines = [f"schedule: {schedule.describe()} ({system})" if schedule else
             f"schedule: none installed ({system}; `memseed schedule --daily HH:MM`)"]
    if last_run:
        lines.append(f"last run: {last_run.get('started')} ({run_outcome(last_run)})")
    else:
        lines.append("last run: never")
    if schedule:
        upcoming = next_run(schedule, now).strftime("%Y-%m-%d %H:%M")
        if system == "systemd":
            try:
                shown = runner(["systemctl", "--user", "show", f"{UNIT}.timer", "--property=NextElapseUSecRealtime",
                                "--value"])
                upcoming = shown.stdout.strip() or upcoming
            except (OSError, subprocess.SubprocessError):
                pass
        lines.append(f"next run: {upcoming}")
    lines.append(f"waiting: {waiting} proposal(s) to review, {stale} stale entr{'y' if stale == 1 else 'ies'}")
    return lines


def notify(command: str, waiting: int, new: int) -> str:
    """Run the person's ``notify_cmd`` (split like a shell line, no shell) with ``MEMSEED_WAITING``
    and ``MEMSEED_NEW`` set; returns "" or what went wrong (a notification never fails a reseed)."""
    if not command.strip():
        return ""
    env = {**os.environ, "MEMSEED_WAITING": str(waiting), "MEMSEED_NEW": str(new)}
    try:
        done = subprocess.run(shlex.split(command), env=env, capture_output=True, text=True, check=False, timeout=60)
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        return f"notify_cmd failed: {exc}"
    return f"notify_cmd exited {done.returncode}: {done.stderr.strip()[:200]}" if done.returncode else ""
