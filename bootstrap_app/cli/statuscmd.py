"""``memseed status`` and ``memseed config``: where the person stands, and what is in force.

Both only read: ``status`` asks :func:`bootstrap_app.memory.status.memseed_status` (review queue,
sources, last run and write, stale entries, hook, timer) and never creates the store;
``config`` lists every setting with the place it comes from
(:func:`bootstrap_app.config.settings_origins`), so "why does it use that model?" has an answer.
"""

from __future__ import annotations

import json

import click

from bootstrap_app.config import settings_origins
from bootstrap_app.memory.status import format_status, memseed_status

from .common import open_settings

__all__ = ["COMMANDS", "config_cmd", "status_cmd"]


@click.command("status")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of lines.")
@click.pass_context
def status_cmd(ctx: click.Context, as_json: bool) -> None:
    """Where you stand: what waits for review, when each source was last read, the last run and
    write, entries gone stale, the start-up hook and the re-seed timer. Reads only.

    \b
    Examples:
      memseed status
      memseed status --json
    """
    status = memseed_status(open_settings(ctx))
    if as_json:
        click.echo(json.dumps(status.to_json(), ensure_ascii=False, indent=2))
        return
    for line in format_status(status):
        click.echo(line)


@click.command("config")
@click.option("--json", "as_json", is_flag=True, help="A JSON list: key, value, origin, where, env, doc.")
@click.pass_context
def config_cmd(ctx: click.Context, as_json: bool) -> None:
    """Every setting in force and where it comes from (flag > environment > config.toml >
    default). Secrets are shown as the references config.toml holds, never resolved.

    \b
    Examples:
      memseed config
      memseed --home /tmp/memseed-try config --json
    """
    origins = settings_origins((ctx.find_root().obj or {}).get("home"))
    if as_json:
        click.echo(json.dumps([o.to_json() for o in origins], ensure_ascii=False, indent=2))
        return
    width = max(len(o.key) for o in origins)
    for o in origins:
        value = ",".join(o.value) if isinstance(o.value, tuple) else str(o.value)
        source = o.origin + (f" ({o.where})" if o.where else "")
        click.echo(f"{o.key:<{width}}  {value or '(empty)'}  <- {source}")


COMMANDS = [status_cmd, config_cmd]
