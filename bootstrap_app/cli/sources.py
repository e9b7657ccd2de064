"""``memseed sources``: what memseed can read, the sources it remembers for ``reseed``, and the
addresses that only look like the owner's (suggested aliases) waiting for a decision."""

from __future__ import annotations

import json

import click

from bootstrap_app.aliases import confirm_alias, list_aliases, reject_alias
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
    "claude-code:[PROJECT]": "Claude Code memory (global, or of one project)",
    "codex:": "Codex memory ($CODEX_HOME)",
    "hermes:": "Hermes memory ($HERMES_HOME)",
    "gemini:": "Gemini CLI memory (~/.gemini/GEMINI.md)",
}


@click.command("sources")
@click.option("--forget", metavar="LOCATION", multiple=True, help="Stop re-seeding from this remembered source.")
@click.option("--confirm-alias", "confirm", metavar="ADDRESS", multiple=True,
              help="This suggested address is mine: count its mail as mine from the next scan on.")
@click.option("--reject-alias", "reject", metavar="ADDRESS", multiple=True,
              help="This suggested address is not mine: never suggest it again.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def sources_cmd(ctx: click.Context, forget: tuple[str, ...], confirm: tuple[str, ...], reject: tuple[str, ...],
                as_json: bool) -> None:
    """List the source kinds and URI forms memseed reads, the sources it remembers, and the
    addresses that only look like yours.

    Every location you scan is remembered, so `memseed reseed` can look at it again later.
    An address is yours only on strong evidence (given with --owner, the sender of mail in
    your Sent folder, a repository's git user.email ...). Lookalikes — your name at another
    domain, your surname at a free-mail provider — are listed as suggested aliases with their
    evidence until you confirm or reject them.

    \b
    Examples:
      memseed sources
      memseed sources --forget ~/Takeout
      memseed sources --confirm-alias me@fastmail.com --reject-alias me@tidewater-io.example
    """
    kinds = [{"kind": cls.kind, "description": cls.description} for cls in base.registered()]
    schemes = set(getattr(base, "_URI_SCHEMES", {}))
    uris = [{"uri": form, "description": text, "available": form.split(":")[0] in schemes}
            for form, text in URI_FORMS.items()]
    settings = open_settings(ctx)
    with open_store(settings) as store:
        for location in forget:
            store.forget_source(location)
        decided = [confirm_alias(store, a) for a in confirm] + [reject_alias(store, a) for a in reject]
        remembered = store.sources()
        aliases = list_aliases(store)
    for alias in decided:
        click.echo(f"{alias.address}: {alias.status}", err=True)
    if as_json:
        click.echo(json.dumps({"kinds": kinds, "uris": uris, "remembered": remembered,
                               "aliases": [vars(a) for a in aliases]}, indent=2))
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
    pending = [a for a in aliases if a.status == "suggested"]
    if pending:
        click.echo("\nSuggested aliases (NOT treated as yours until you confirm; a lookalike sender looks "
                   "just like this):")
        for a in pending:
            click.echo(f"  {a.address:40} {a.evidence}")
        click.echo("  confirm: memseed sources --confirm-alias ADDRESS   reject: --reject-alias ADDRESS")
    confirmed = [a.address for a in aliases if a.status == "confirmed"]
    if confirmed:
        click.echo("\nConfirmed aliases (counted as yours): " + ", ".join(confirmed))


COMMANDS = [sources_cmd]
