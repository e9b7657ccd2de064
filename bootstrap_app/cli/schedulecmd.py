"""``memseed schedule``: re-seed on a timer (systemd user timer, launchd agent, or a crontab line).

See :mod:`bootstrap_app.memory.schedule`; this module parses, shows and calls. ``--status`` shows the
last run and how it ended, the next run and what waits.
"""

from __future__ import annotations

from datetime import datetime

import click

from bootstrap_app.memory import schedule
from bootstrap_app.memory.freshness import check_written

from .common import open_settings, open_store

__all__ = ["COMMANDS", "schedule_cmd"]


@click.command("schedule")
@click.option("--daily", metavar="HH:MM", help="Re-seed every day at this local time.")
@click.option("--weekly", nargs=2, metavar="DAY HH:MM", help="Re-seed once a week (DAY: Mon ... Sun).")
@click.option("--off", is_flag=True, help="Remove memseed's timer.")
@click.option("--status", is_flag=True, help="Show the schedule, the last reseed and how it ended (complete, partial, failed), "
                   "the next run and what waits.")
@click.pass_context
def schedule_cmd(ctx: click.Context, daily: str | None, weekly: tuple[str, str] | None, off: bool, status: bool) -> None:
    """Keep memory fresh: run `memseed reseed` on a timer (systemd user timer on Linux, launchd
    agent on macOS, otherwise the crontab line to add). New proposals wait for review; set
    notify_cmd in config.toml to be told.

    \b
    Examples:
      memseed schedule --daily 07:30
      memseed schedule --weekly Mon 08:00
      memseed schedule --status
      memseed schedule --off
    """
    chosen = [bool(daily), bool(weekly), off, status]
    if sum(chosen) != 1:
        raise click.UsageError("give exactly one of --daily HH:MM, --weekly DAY HH:MM, --off, --status")
    settings = open_settings(ctx)
    system = schedule.system_name()
    runner = schedule.run_system  # looked up now, so tests can put a stand-in there
    if status:
        with open_store(settings) as store:
            last = next((r for r in store.runs(limit=200) if r["kind"] == "reseed"), None)
            waiting = len(store.proposals(status="undecided"))
            stale = len({s.fingerprint for s in check_written(store)[1]})
        for line in schedule.status_lines(system, last, waiting, stale, datetime.now().astimezone(), runner):
            click.echo(line)
        return
    if off:
        plan = schedule.plan_off(settings.home, system)
    else:
        when = schedule.Schedule(daily) if daily else schedule.Schedule(weekly[1], weekly[0])  # type: ignore[index]
        plan = schedule.plan_on(when, settings.home, system)
    for path, data in plan.files.items():
        click.echo(f"{'remove' if data is None else 'write'} {path}")
    for line in plan.notes:
        click.echo(line)
    for problem in schedule.apply(plan, runner):
        click.echo(f"  problem: {problem}", err=True)


COMMANDS = [schedule_cmd]
