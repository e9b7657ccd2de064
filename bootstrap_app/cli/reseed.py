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
from bootstrap_app.store import Store

from .common import EXIT_PARTIAL, open_settings, open_store

__all__ = ["COMMANDS", "reseed_cmd"]


def _cheap_status(locations: list[str], failed: list[str]) -> str:
    """``complete``, ``partial`` (some remembered source could not be read) or ``failed`` (none could)."""
    if not failed:
        return "complete"
    return "failed" if set(locations) <= set(failed) else "partial"


def _nothing_new(ctx: click.Context, store: Store, locations: list[str], failed: list[str],
                 outcome: dict[str, object], quiet: bool, json_summary: bool) -> None:
    """The common cron run: nothing new anywhere. Record it (with what could not be read), say so
    unless ``--quiet``, and exit with the scan's statuses: 3 partial, 2 when nothing was readable."""
    status = _cheap_status(locations, failed)
    run_id = store.start_run("reseed", locations)
    error = f"no remembered source could be read ({', '.join(failed)})" if status == "failed" else ""
    store.finish_run(run_id, "failed" if error else "finished",
                     {"new_items": 0, "unreadable": failed, "status": status, **({"error": error} if error else {})})
    waiting = len(store.proposals(status="undecided"))
    refresh_watch(store)  # the start-up hook's summary, fresh for the next session (hookcheck)
    outcome.update(waiting=waiting, status=status, run_id=run_id)
    if json_summary:
        click.echo(json.dumps(outcome))
    elif not quiet and not error:
        whole = [f for f in failed if f in locations]
        readable = len(locations) - len(whole)
        click.echo(f"nothing new in {readable} remembered source{'' if readable == 1 else 's'}"
                   f"{f' ({len(failed)} could not be read)' if failed else ''}; {waiting} proposals wait for review",
                   err=True)
    if error:
        raise NoSourceReadable(error, hint="check they are still there (a moved folder, an unmounted disk, a "
                                           "signed-out account), or stop re-seeding one with "
                                           "`memseed sources --forget LOCATION`")
    if not json_summary:  # said even with --quiet: cron mails it, the journal keeps it
        for location in failed:
            if location in locations:
                click.echo(f"  cannot read {location}: check it is still there, or stop re-seeding it with "
                           f"`memseed sources --forget {location}`", err=True)
            else:  # one part of a remembered folder: the rest of it was read
                click.echo(f"  cannot read {location} (inside a remembered source, whose other parts were read): "
                           f"repair or remove it; `memseed scan` on it says why", err=True)
    if status == "partial":
        ctx.exit(EXIT_PARTIAL)


@click.command("reseed")
@click.option("-q", "--quiet", is_flag=True,
              help="Print nothing unless there are new proposals or something could not be read (for cron, "
                   "which mails what a job prints).")
@click.option("--json-summary", is_flag=True, help="Print the outcome as one JSON object on stdout.")
@click.pass_context
def reseed_cmd(ctx: click.Context, quiet: bool, json_summary: bool) -> None:
    """Re-scan the remembered sources (and config.toml's ``sources``); new proposals wait for review.

    Each source is first asked only for what is new since the last scan. When something is,
    everything is analysed again: mailboxes (gmail:, outlook:) from the local item cache plus
    their new mail (nothing downloaded twice), other sources by reading them again.

    Exit status, as for `memseed scan`: 0 everything read; 3 partial (a remembered source, or a
    file or message in one, could not be read — the rest was; each is named on stderr); 2 nothing
    could be read. A timer set by `memseed schedule` shows a non-zero exit as a failed run.

    \b
    Example (crontab: every morning at 7, quiet unless there is news or trouble):
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
        failed = list(dict.fromkeys(failed))  # a location whose several parts failed is named once
        outcome: dict[str, object] = {"new_items": new_items, "unreadable": failed, "new_proposals": 0}
        if new_items == 0:
            _nothing_new(ctx, store, locations, failed, outcome, quiet, json_summary)
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
    else:
        if result.new_proposals or not quiet:
            said = f", {updates} of them updates of what memory holds" if updates else ""
            click.echo(f"memseed reseed: {result.new_proposals} new proposals wait for approval{said} "
                       f"({waiting} undecided in total); run `memseed review`")
        # said even with --quiet, like the cheap path's unreadable sources: cron mails it, the journal keeps it
        for source, error in errors.items():
            click.echo(f"  error: {name_once(source, error)}", err=True)
        for report in result.reports:
            if report.partial and not report.error and report.ledger is not None:
                click.echo(f"  partial: {report.source}: {report.ledger.failed_units} of {report.ledger.found} "
                           f"could not be read (`memseed scan {report.source}` names each)", err=True)
    if result.status == "partial":
        ctx.exit(EXIT_PARTIAL)


COMMANDS = [reseed_cmd]
