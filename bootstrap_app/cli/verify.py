"""``memseed verify``: is what memseed wrote still true? (see ``extract.freshness``).

Exit status 0 when every entry checked still holds, 1 when something went stale (so a script
or a timer can act on it), 2 on an error (the store cannot be opened ...).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from bootstrap_app.harnesses import HARNESSES
from bootstrap_app.memory.freshness import check_written, refresh_watch

from .common import open_settings, open_store

__all__ = ["COMMANDS", "verify_cmd"]


@click.command("verify")
@click.option("--target", "-t", type=click.Choice(list(HARNESSES)), help="Only entries written to this harness.")
@click.option("--project", type=click.Path(file_okay=False, path_type=Path),
              help="Only entries about this project (scoped to it or written under it).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: entries checked and each stale finding.")
@click.pass_context
def verify_cmd(ctx: click.Context, target: str | None, project: Path | None, as_json: bool) -> None:
    """Re-check every memory memseed wrote: paths, commands, sources, deadlines, the file itself.

    Prints what went stale; exit status 1 when anything did, 0 when all still holds.
    `memseed reseed` then proposes fixes for stale paths and commands, for review.

    \b
    Examples:
      memseed verify
      memseed verify --target claude-code --project ~/code/app
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        checked, stale = check_written(store, target, project)
        refresh_watch(store)  # the start-up hook's summary (hookcheck), fresh again
    if as_json:
        click.echo(json.dumps({"checked": checked, "stale": [s.__dict__ for s in stale]}, ensure_ascii=False))
    else:
        for finding in stale:
            click.echo(finding.line())
        entries = len({s.fingerprint for s in stale})
        click.echo(f"checked {checked} entr{'y' if checked == 1 else 'ies'}: "
                   + (f"{entries} stale ({len(stale)} finding(s)); `memseed reseed` proposes fixes for stale paths and commands"
                      if stale else "all still hold"), err=True)
    sys.exit(1 if stale else 0)


COMMANDS = [verify_cmd]
