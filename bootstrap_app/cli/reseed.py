"""``memseed reseed``: look at the remembered sources again; new proposals wait for approval.

Why a cheap check first: the common cron run finds nothing new. Each source is read from the
cursor its last scan stored (new items only); when nothing is new, reseed records the run and
says nothing. When something is new, the sources are analysed over their whole history again,
because signals such as "closest collaborators" or "working hours" are only right over all of
it; fingerprints already decided are never proposed again, and only proposals the store had not
seen count as new. Mailboxes (``gmail:``, ``outlook:``) are not downloaded again for that: the
check puts their new mail into the local item cache, and the scan replays the cache
(:mod:`bootstrap_app.cache.append`); path sources whose files did not change are replayed from their
last full read (:mod:`bootstrap_app.cache.snapshots`), the others are read in full.
"""

from __future__ import annotations

import json

import click

from bootstrap_app.cache.changes import count_new_items
from bootstrap_app.errors import NoSourceReadable
from bootstrap_app.memory.freshness import refresh_watch
from bootstrap_app.memory.schedule import notify
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import name_once

from .common import open_settings, open_store

__all__ = ["COMMANDS", "reseed_cmd"]


@click.command("reseed")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless there are new proposals (for cron).")
@click.option("--json-summary", is_flag=True, help="Print the outcome as one JSON object on stdout.")
@click.pass_context
def reseed_cmd(ctx: click.Context, quiet: bool, json_summary: bool) -> None:
    """Re-scan the remembered sources (and config.toml's ``sources``); new proposals wait for review.

    Each source is first asked only for what is new since the last scan. When something is,
    everything is analysed again: mailboxes (gmail:, outlook:) from the local item cache plus
    their new mail (nothing downloaded twice), other sources by reading them again.

    \b
    Example (crontab: every morning at 7, quiet unless there is news):
      0 7 * * *  memseed reseed --quiet
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        # the sources listed in config.toml, then every source a scan remembered
        locations = list(dict.fromkeys([*settings.sources, *(s["location"] for s in store.sources())]))
        if not locations:
            raise NoSourceReadable("no remembered sources to re-seed from",
                                   hint="run `memseed scan SOURCE...` once (its sources are remembered), "
                                        "or list them as sources = [...] in config.toml")
        new_items, failed = count_new_items(locations, store, settings)
        outcome: dict[str, object] = {"new_items": new_items, "unreadable": failed, "new_proposals": 0}
        if new_items == 0:
            run_id = store.start_run("reseed", locations)
            store.finish_run(run_id, "finished", {"new_items": 0, "unreadable": failed})
            waiting = len(store.proposals(status="undecided"))
            refresh_watch(store)  # the start-up hook's summary, fresh for the next session (hookcheck)
            outcome["waiting"] = waiting
            if json_summary:
                click.echo(json.dumps(outcome))
            elif not quiet:
                click.echo(f"nothing new in {len(locations)} remembered sources; {waiting} proposals wait for review",
                           err=True)
                for location in failed:
                    click.echo(f"  cannot read {location}: check it is still there, or stop re-seeding it with "
                               f"`memseed sources --forget {location}`", err=True)
            return
        result = scan(locations, settings=settings, store=store, llm=settings.llm,
                      run_kind="reseed", cached=True)
        waiting = len(store.proposals(status="undecided"))
        refresh_watch(store)
    errors = {r.source: r.error for r in result.reports if r.error}
    if result.new_proposals:
        problem = notify(settings.notify_cmd, waiting, result.new_proposals)
        if problem:
            click.echo(f"  {problem}", err=True)
    updates = sum(1 for p in result.proposals if p.supersedes)
    outcome.update(new_proposals=result.new_proposals, waiting=waiting, run_id=result.run_id,
                   already_decided=result.already_decided, errors=errors, updates=updates, status=result.status)
    if json_summary:
        click.echo(json.dumps(outcome, default=str))
    elif result.new_proposals or not quiet:
        said = f", {updates} of them updates of what memory holds" if updates else ""
        click.echo(f"memseed reseed: {result.new_proposals} new proposals wait for approval{said} "
                   f"({waiting} undecided in total); run `memseed review`")
        for source, error in errors.items():
            click.echo(f"  error: {name_once(source, error)}", err=True)


COMMANDS = [reseed_cmd]
