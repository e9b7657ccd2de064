"""``memseed sources``: what memseed can read, and the sources it remembers for ``reseed``."""

from __future__ import annotations

import json

import click

from bootstrap_app.sourceinfo import source_catalog

from .common import open_settings, open_store

__all__ = ["COMMANDS", "sources_cmd"]


@click.command("sources")
@click.option("--forget", metavar="LOCATION", multiple=True, help="Stop re-seeding from this remembered source.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def sources_cmd(ctx: click.Context, forget: tuple[str, ...], as_json: bool) -> None:
    """List the source kinds and URI forms memseed reads, and the sources it remembers.

    Every location you scan is remembered, so `memseed reseed` can look at it again later.
    Account sources (gmail:, outlook: ...) show whether you are signed in, as whom, with
    which scopes.

    \b
    Examples:
      memseed sources
      memseed sources --forget ~/Takeout
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        for location in forget:
            store.forget_source(location)
        catalog = source_catalog(settings, store)
    if as_json:
        click.echo(json.dumps(catalog.to_dict(), indent=2))
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
            click.echo(f"  {'':22} {state}{'; scopes: ' + ', '.join(u.scopes) if u.scopes else ''}")
    click.echo("\nRemembered sources (re-read by `memseed reseed`):")
    if not catalog.remembered:
        click.echo("  none yet: run `memseed scan SOURCE...`")
    for r in catalog.remembered:
        what = f"{r.items} items" + (f", {', '.join(r.kinds)}" if r.kinds else "")
        if r.error:
            what = f"unreadable now: {r.error}"
        click.echo(f"  {r.location}  (last synced {r.last_scanned or 'never'}; {what})")


COMMANDS = [sources_cmd]
