"""``memseed sources``: what memseed can read, and the sources it remembers for ``reseed``."""

from __future__ import annotations

import json

import click

from bootstrap_app.harnesses import HARNESS_CLASSES
from connectors import base

from .common import open_settings, open_store

__all__ = ["COMMANDS", "URI_FORMS", "sources_cmd"]

URI_FORMS: dict[str, str] = {
    "gmail:": "Gmail account (read-only; `memseed auth google` first)",
    "gcal:": "Google Calendar account",
    "gdrive:": "Google Drive documents",
    "outlook:": "Outlook / Microsoft 365 mail (`memseed auth microsoft` first)",
    "outlook-calendar:": "Outlook calendar",
    "onedrive:": "OneDrive documents",
    **{cls.source_uri: cls.source_description for cls in HARNESS_CLASSES if cls.source_uri},
}


@click.command("sources")
@click.option("--forget", metavar="LOCATION", multiple=True, help="Stop re-seeding from this remembered source.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def sources_cmd(ctx: click.Context, forget: tuple[str, ...], as_json: bool) -> None:
    """List the source kinds and URI forms memseed reads, and the sources it remembers.

    Every location you scan is remembered, so `memseed reseed` can look at it again later.

    \b
    Examples:
      memseed sources
      memseed sources --forget ~/Takeout
    """
    kinds = [{"kind": cls.kind, "description": cls.description} for cls in base.registered()]
    schemes = set(getattr(base, "_URI_SCHEMES", {}))
    uris = [{"uri": form, "description": text, "available": form.split(":")[0] in schemes}
            for form, text in URI_FORMS.items()]
    settings = open_settings(ctx)
    with open_store(settings) as store:
        for location in forget:
            store.forget_source(location)
        remembered = store.sources()
    if as_json:
        click.echo(json.dumps({"kinds": kinds, "uris": uris, "remembered": remembered}, indent=2))
        return
    click.echo("Source kinds (detected by shape, give the path):")
    for k in kinds:
        click.echo(f"  {k['kind']:16} {k['description']}")
    click.echo("\nURIs:")
    for u in uris:
        note = "" if u["available"] else "  (not installed)"
        click.echo(f"  {u['uri']:22} {u['description']}{note}")
    click.echo("\nRemembered sources (re-read by `memseed reseed`):")
    if not remembered:
        click.echo("  none yet: run `memseed scan SOURCE...`")
    for r in remembered:
        click.echo(f"  {r['location']}  (last scanned {r['last_scanned'] or 'never'})")


COMMANDS = [sources_cmd]
