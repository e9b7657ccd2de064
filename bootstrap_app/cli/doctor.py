"""``memseed doctor``: audit a harness memory folder and print every finding with file and line.

A thin shell over :func:`bootstrap_app.harnesses.doctor.run_doctor`; it never changes a file.
Exit status 1 when any finding is an error (so it can gate CI or a cron job), 0 otherwise.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from bootstrap_app.harnesses.doctor import run_doctor
from bootstrap_app.harnesses.registry import HARNESSES

from .common import open_settings

__all__ = ["COMMANDS", "doctor"]

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


@click.command("doctor")
@click.option("--target", "-t", type=click.Choice(["auto", *HARNESSES]), default="auto", show_default=True,
              help="Which harness's memory to audit (auto: detect from --path; without --path, the default "
                   "target, $MEMSEED_TARGET).")
@click.option("--path", "path", type=click.Path(exists=True, path_type=Path),
              help="The memory folder (or harness home) to audit; default: the harness's own location.")
@click.option("--project", type=click.Path(file_okay=False, path_type=Path),
              help="Project whose Claude Code memory to audit (default: every project's).")
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON Lines.")
@click.option("--quiet", "-q", is_flag=True, help="Hide info findings (stale paths, unknown commands).")
@click.pass_context
def doctor(ctx: click.Context, target: str, path: Path | None, project: Path | None, as_json: bool,
           quiet: bool) -> None:
    """Audit a memory folder: injections, secrets, hidden characters, broken
    frontmatter, duplicates, dangling index links, over-cap files, Hermes
    round-trip problems, stale paths and unknown commands.

    \b
    Examples:
      memseed doctor --target claude-code --project ~/code/my-repo
      memseed doctor --target hermes                 # $HERMES_HOME or ~/.hermes
      memseed doctor --path ~/.codex --json | jq .
    """
    if target == "auto" and path is None:
        target = open_settings(ctx).default_target
    findings = run_doctor(target, path, project)
    if quiet:
        findings = [f for f in findings if f.severity != "info"]
    if as_json:
        for f in findings:
            click.echo(json.dumps(f.to_json(), ensure_ascii=False))
    else:
        for f in findings:
            where = f"{f.file}:{f.line}" if f.line else f.file
            click.echo(f"{where}: " + click.style(f"{f.severity} {f.code}", fg=_COLOURS.get(f.severity)) +
                       f": {f.message}")
        counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
        click.echo(f"{len(findings)} finding(s): {counts['error']} error, {counts['warning']} warning, "
                   f"{counts['info']} info", err=True)
    if any(f.severity == "error" for f in findings):
        sys.exit(1)


COMMANDS = [doctor]
