"""``memseed import``: move memory from one agent to another, with the same approval as a scan.

Why a command of its own when ``scan`` + ``review`` + ``write`` can do it: the person thinks
"take what Claude Code knows into Codex", and wants an account of every entry — which ones
arrived and why each other one did not. The work is the library's (``bootstrap_app.memory.move``);
this module asks, prints and confirms.
"""

from __future__ import annotations

import click

from bootstrap_app.harnesses import HARNESSES
from bootstrap_app.memory import move as importing

from .common import EXIT_PARTIAL, open_settings, open_store
from .review import decide_each
from .scan import ProgressPrinter

__all__ = ["COMMANDS", "import_cmd"]


def _report(run: importing.ImportRun) -> None:
    for o in run.reported():
        click.echo(f"  {o.status:12} {o.ref}: {o.reason}", err=True)
    counts = run.counts()
    moved = counts.get("moved", 0) + counts.get("to-write", 0)
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("moved", "to-write"))
    click.echo(("partial: " if run.partial else "")
               + f"read {run.read}: {'moved' if counts.get('moved') else 'to write'} {moved}, reported "
               f"{run.read - moved}" + (f" ({reasons})" if reasons else ""), err=True)


def _finish(ctx: click.Context, run: importing.ImportRun) -> None:
    """Exit with :data:`EXIT_PARTIAL` when an entry meant to move could not (see ``importing.PARTIAL``)."""
    if run.partial:
        ctx.exit(EXIT_PARTIAL)


@click.command("import")
@click.option("--from", "source", required=True, metavar="SOURCE",
              help="The agent memory to read: claude-code:, codex:, hermes:, gemini:, cline:PROJECT, "
                   "cursor:PROJECT, or a memory folder.")
@click.option("--to", "target", required=True, type=click.Choice(list(HARNESSES)), help="The harness to write into.")
@click.option("--project", type=click.Path(file_okay=False), help="Project the entries are written for.")
@click.option("--profile", help="Hermes profile name (profiles/NAME/memories).")
@click.option("--yes", is_flag=True,
              help="Ask nothing: write only entries already approved (an earlier import or `memseed approve`).")
@click.option("--dry-run", is_flag=True, help="Review, then print the exact diff; write nothing.")
@click.pass_context
def import_cmd(ctx: click.Context, source: str, target: str, project: str | None, profile: str | None,
               yes: bool, dry_run: bool) -> None:
    """Bring another agent's memory into TARGET: review each entry, then write.

    Every entry read either arrives in TARGET's own format or is reported with its reason
    (unsafe, duplicate, rejected, waiting for review, over TARGET's cap). One blocked entry
    never stops the others: the rest is written, and the summary says "partial" and the exit
    status is 3 when an entry meant to move could not (unsafe, over the cap, not taken).
    `memseed undo` puts every file back.

    \b
    Examples:
      memseed import --from claude-code: --to codex
      memseed import --from ~/.hermes --to claude-code --project ~/code/app
      memseed import --from cline:~/code/app --to hermes --yes
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        run = importing.start_import(source, target, settings=settings, store=store, project=project,
                                     profile=profile, on_event=ProgressPrinter(quiet=True))
        rows = importing.pending(run, store)
        if rows and not yes:
            decide_each(store, rows)
        plan = importing.plan_import(run, store)
        if plan is not None:
            for line in plan.notes:
                click.echo(line, err=True)
        if dry_run or plan is None or plan.empty:
            if dry_run and plan is not None:
                click.echo(plan.diff(), nl=False)
            _report(run)
            click.echo("nothing written", err=True)
            _finish(ctx, run)
            return
        if not yes and not click.confirm(f"write {len(plan.entries)} entr{'y' if len(plan.entries) == 1 else 'ies'} "
                                         f"to {target} ({len(plan.files)} file(s))?", default=True, err=True):
            _report(run)
            click.echo("nothing written", err=True)
            return
        write_id = importing.apply_import(run, store)
        _report(run)
        click.echo(f"write {write_id}: undo with `memseed undo {write_id}`", err=True)
    _finish(ctx, run)


COMMANDS = [import_cmd]
