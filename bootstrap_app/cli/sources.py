"""``memseed sources``: what memseed can read, the sources it remembers for ``reseed``, and the
addresses that only look like the owner's (suggested aliases) waiting for a decision."""

from __future__ import annotations

import json

import click

from bootstrap_app.identity.aliases import confirm_alias, list_aliases, reject_alias
from bootstrap_app.report.sources import short_scope, source_catalog

from .common import open_settings, open_store

__all__ = ["COMMANDS", "sources_cmd"]


@click.command("sources")
@click.option("--forget", metavar="LOCATION", multiple=True, help="Stop re-seeding from this remembered source.")
@click.option("--confirm-alias", "confirm", metavar="ADDRESS", multiple=True,
              help="This suggested address is mine: count its mail as mine from the next scan on.")
@click.option("--reject-alias", "reject", metavar="ADDRESS", multiple=True,
              help="This suggested address is not mine: never suggest it again.")
@click.option("--check", is_flag=True,
              help="Also look at each remembered source on disk and say whether it is still readable.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def sources_cmd(ctx: click.Context, forget: tuple[str, ...], confirm: tuple[str, ...], reject: tuple[str, ...],
                check: bool, as_json: bool) -> None:
    """List the source kinds and URI forms memseed reads, the sources it remembers, and the
    addresses that only look like yours.

    Every location you scan is remembered, so `memseed reseed` can look at it again later.
    Account sources (gmail:, outlook: ...) show whether you are signed in, as whom, with
    which scopes. An address is yours only on strong evidence (given with --owner, the sender
    of mail in your Sent folder, a repository's git user.email ...). Lookalikes — your name at
    another domain, your surname at a free-mail provider — are listed as suggested aliases with
    their evidence until you confirm or reject them. Item counts and the last sync come from
    the last scan; --check also looks at each remembered location on disk.

    \b
    Examples:
      memseed sources
      memseed sources --check
      memseed sources --forget ~/Takeout
      memseed sources --confirm-alias me@fastmail.com --reject-alias me@tidewater-io.example
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        for location in forget:
            store.forget_source(location)
        decided = [confirm_alias(store, a) for a in confirm] + [reject_alias(store, a) for a in reject]
        catalog = source_catalog(settings, store, check=check)
        owner_aliases = list_aliases(store)
    for alias in decided:
        click.echo(f"{alias.address}: {alias.status}", err=True)
    if as_json:
        click.echo(json.dumps({**catalog.to_dict(), "aliases": [vars(a) for a in owner_aliases]}, indent=2))
        return
    click.echo("Source kinds (detected by shape, give the path):")
    for k in catalog.kinds:
        click.echo(f"  {k.kind:16} {k.description}")
    click.echo("\nURIs:")
    for u in catalog.uris:
        aliases = f" (also {', '.join(a + ':' for a in u.aliases)})" if u.aliases else ""
        click.echo(f"  {u.uri:22} {u.description}{aliases}")
        if u.auth:
            state = f"signed in as {u.account}" if u.available and u.account else (u.detail or "not available")
            scopes = ", ".join(short_scope(scope) for scope in u.scopes)  # gmail.readonly
            click.echo(f"  {'':22} {state}{'; scopes: ' + scopes if scopes else ''}")
    click.echo("\nRemembered sources (re-read by `memseed reseed`):")
    if not catalog.remembered:
        click.echo("  none yet: run `memseed scan SOURCE...`")
    for r in catalog.remembered:
        what = f"{r.items} items at the last scan" + (f", {', '.join(r.kinds)}" if r.kinds else "")
        if r.error:
            what = f"unreadable now: {r.error}"
        click.echo(f"  {r.location}  (last synced {r.last_scanned or 'never'}; {what})")
    pending = [a for a in owner_aliases if a.status == "suggested"]
    if pending:
        click.echo("\nSuggested aliases (NOT treated as yours until you confirm; a lookalike sender looks "
                   "just like this):")
        for a in pending:
            click.echo(f"  {a.address:40} {a.evidence}")
        click.echo("  confirm: memseed sources --confirm-alias ADDRESS   reject: --reject-alias ADDRESS")
    confirmed = [a.address for a in owner_aliases if a.status == "confirmed"]
    if confirmed:
        click.echo("\nConfirmed aliases (counted as yours): " + ", ".join(confirmed))


COMMANDS = [sources_cmd]
