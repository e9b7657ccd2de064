"""``memseed write``, ``memseed undo``, ``memseed history``: put approved entries in place.

Why ``--dry-run`` prints the writer's own plan: the diff shown is byte for byte what the real
write will put on disk (the same ``plan_write`` call), so there is nothing to trust blindly.
"""

from __future__ import annotations

import click

from bootstrap_app.harnesses import HARNESSES
from bootstrap_app.memory import write as writing

from .common import EXIT_PARTIAL, open_settings, open_store

__all__ = ["COMMANDS", "history_cmd", "undo_cmd", "write_cmd"]


@click.command("write")
@click.option("--target", "-t", required=True, type=click.Choice(list(HARNESSES)),
              help="The harness whose memory to write.")
@click.option("--project", type=click.Path(file_okay=False),
              help="Project for entries not tied to a repository (Claude Code: entries scoped to a "
                   "repository still go to that repository's folder, facts about you to ~/.claude/CLAUDE.md; "
                   "markdown: DIR/memory; Codex, Gemini CLI and Hermes put a repository's facts in that "
                   "repository's own file whatever --project says).")
@click.option("--dry-run", is_flag=True, help="Print the exact diff; write nothing.")
@click.option("--only", multiple=True, metavar="ID", help="Write only these proposal ids (repeatable).")
@click.option("--exclude", multiple=True, metavar="ID", help="Leave these proposal ids out (repeatable).")
@click.option("--user-facts", type=click.Choice(["claude-md", "project"]), default="claude-md", show_default=True,
              help="Claude Code: facts about you and facts tied to no project go to a block in the user-level "
                   "~/.claude/CLAUDE.md, which every session loads (claude-md), or to the home folder's "
                   "auto memory, which Claude Code loads only when started in the home folder (project).")
@click.option("--profile", help="Hermes profile name (profiles/NAME/memories).")
@click.pass_context
def write_cmd(ctx: click.Context, target: str, project: str | None, dry_run: bool, only: tuple[str, ...],
              exclude: tuple[str, ...], user_facts: str, profile: str | None) -> None:
    """Write the approved entries into a harness's memory folder.

    Facts about you go where the agent loads them in every session; a repository's facts only
    where it loads them inside that repository (Claude Code: its project memory; Codex and
    Hermes: a marked block in the repository's AGENTS.md or the file each reads there; Gemini
    CLI: its GEMINI.md). The plan says when such a file is tracked by git; a fact about a
    repository not on this machine is not written.

    An entry the target's safety check refuses is reported with its reason and the rest is
    written; the exit status is then 3 (partial). An id given to --only or --exclude that is
    no approved entry is an error naming the nearest ids.

    \b
    Examples:
      memseed write --target claude-code --project ~/code/app --dry-run
      memseed write --target hermes --only 3f2a9c1b --only 77d0e4aa
      memseed write --target codex
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        plan = writing.plan_write(store, target, project=project, only=only, exclude=exclude,
                                  user_facts=user_facts, profile=profile)
        for line in writing.describe(plan):
            click.echo(line, err=True)
        partial = f"partial: {len(plan.blocked)} entr{'y' if len(plan.blocked) == 1 else 'ies'} blocked" \
            if plan.blocked else ""
        if dry_run:
            click.echo(plan.diff(), nl=False)
            click.echo(f"dry run: {len(plan.files)} file(s) would change; nothing written", err=True)
        elif not plan.empty:
            outcome = writing.apply_write(store, plan)
            for path in outcome.paths:
                click.echo(path)
            click.echo(f"write {outcome.write_id}: {len(plan.entries)} new entr"
                       f"{'y' if len(plan.entries) == 1 else 'ies'} in {len(outcome.paths)} file(s); "
                       f"undo with `memseed undo {outcome.write_id}`", err=True)
    if partial:
        click.echo(f"{partial} (reasons above); the rest was {'planned' if dry_run else 'written'}", err=True)
        ctx.exit(EXIT_PARTIAL)


@click.command("undo")
@click.argument("write_id", required=False, type=int)
@click.option("--force", is_flag=True, help="Restore even files changed since the write.")
@click.pass_context
def undo_cmd(ctx: click.Context, write_id: int | None, force: bool) -> None:
    """Put every file of a write back exactly as it was (default: the last write).

    \b
    Examples:
      memseed undo
      memseed undo 7
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        paths = writing.undo_write(store, write_id, force=force)
        for path in paths:
            click.echo(path)
        click.echo(f"restored {len(paths)} file(s)", err=True)


@click.command("history")
@click.option("--limit", default=20, show_default=True, help="How many writes to show.")
@click.pass_context
def history_cmd(ctx: click.Context, limit: int) -> None:
    """List past writes (id, time, target, status, files).

    \b
    Example:
      memseed history
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        rows = writing.history(store, limit)
        if not rows:
            click.echo("no writes yet")
        for row in rows:
            click.echo(f"{row['id']:>4}  {row['at']}  {row['target']:11}  {row['status']:8}  "
                       f"{len(row['files'])} file(s)")
            for path in row["files"]:
                click.echo(f"        {path}")
            for old in row["replaced"]:
                text = " ".join(old["old_text"].split())
                click.echo(f"        {old.get('kind', 'replaced')} (true until {old['until'] or '?'}): {text[:70]}"
                           + ("…" if len(text) > 70 else ""))


COMMANDS = [write_cmd, undo_cmd, history_cmd]
