"""``memseed hook install|remove|run``: a start-up hook in the agent (see ``bootstrap_app.memory.hooks``).

``run`` is what the agent calls at session start: one line when memory went stale or proposals
wait for review, nothing otherwise, and always exit status 0 — a hook must never stop a session.
"""

from __future__ import annotations

import difflib
import sys

import click

from bootstrap_app.config import load_settings
from bootstrap_app.memory import hooks as agenthooks

from .common import open_settings

__all__ = ["COMMANDS", "hook_group"]

_TARGETS = click.Choice(list(agenthooks.HOOKS))


@click.group("hook")
def hook_group() -> None:
    """Add or remove a start-up hook that tells the agent when memory is stale or waiting.

    The hook runs memseed's check script (bootstrap_app/hookcheck.py) by its path, so a session
    start costs about one Python start; `install` also upgrades a hook an older memseed added.

    \b
    Examples:
      memseed hook install --target claude-code
      memseed hook remove --target claude-code
    """


def _confirm_and_apply(ctx: click.Context, change: agenthooks.HookChange, yes: bool) -> None:
    if change.after is None:
        click.echo(f"{change.path}: {change.note or 'nothing to change'}")
        return
    before = (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    after = change.after.decode("utf-8").splitlines(keepends=True)
    click.echo("".join(difflib.unified_diff(before, after, str(change.path), str(change.path))), nl=False)
    if not yes and not click.confirm(f"change {change.path}?", default=False):
        click.echo("nothing changed")
        return
    backup = agenthooks.apply_change(change, open_settings(ctx).backups)
    click.echo(f"changed {change.path}" + (f" (backup: {backup})" if backup else ""))
    if change.note:
        click.echo(change.note)


@hook_group.command("install")
@click.option("--target", "-t", required=True, type=_TARGETS, help="The agent to add the hook to.")
@click.option("--yes", is_flag=True, help="Do not ask before changing the agent's settings file.")
@click.pass_context
def install_cmd(ctx: click.Context, target: str, yes: bool) -> None:
    """Add memseed's start-up check to TARGET's settings (shown first, backed up)."""
    _confirm_and_apply(ctx, agenthooks.plan_install(target, open_settings(ctx).home), yes)


@hook_group.command("remove")
@click.option("--target", "-t", required=True, type=_TARGETS, help="The agent to remove the hook from.")
@click.option("--yes", is_flag=True, help="Do not ask before changing the agent's settings file.")
@click.pass_context
def remove_cmd(ctx: click.Context, target: str, yes: bool) -> None:
    """Take memseed's start-up check out of TARGET's settings again."""
    _confirm_and_apply(ctx, agenthooks.plan_remove(target), yes)


@hook_group.command("run")
@click.option("--format", "fmt", type=click.Choice(["text", "codex", "gemini", "hermes"]), default="text",
              show_default=True, help="How the agent wants the answer (set by `hook install`).")
@click.pass_context
def run_cmd(ctx: click.Context, fmt: str) -> None:
    """The check the agent runs at start: one line if stale or waiting, else nothing; always exit 0."""
    try:
        stdin = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read(65536)
        settings = load_settings((ctx.find_root().obj or {}).get("home"))
        out = agenthooks.render(agenthooks.hook_line(settings.db_path), fmt, stdin)
    except Exception:  # a broken config or store never stops the agent's session
        out = ""
    if out:
        click.echo(out)
    sys.exit(0)


COMMANDS = [hook_group]
