"""``memseed scan``: read sources, print proposals as JSON Lines (DESIGN §4).

Proposals go to ``--out`` or stdout, one JSON object per line; progress and the summary go to
stderr, so ``memseed scan ~/Takeout > proposals.jsonl`` stays a clean pipe. Exit status 0
when everything found was read (or passed over by choice); 3 (``EXIT_PARTIAL``) when the scan
went on past something it could not read — a source, a file, a message, a folder that cannot be
listed — each named in the summary with its reason; 2 when no source could be read, with a
message saying what to do.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import click

from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanEvent, ScanResult, format_summary, name_once
from bootstrap_app.report.throughput import Throughput

from .common import EXIT_PARTIAL, open_settings, open_store

__all__ = ["COMMANDS", "ProgressPrinter", "scan_cmd", "write_jsonl"]

_EVERY = 15.0
"""Seconds between two progress lines when stderr is not a terminal (a log file, a cron mail)."""


class ProgressPrinter:
    """ScanEvents -> short stderr lines: on a terminal a live line (items and bytes per second, time
    left); otherwise that line every :data:`_EVERY` seconds of a long read."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.meters: dict[str, Throughput] = {}
        self.said = time.monotonic()

    def _llm(self, event: ScanEvent) -> None:
        """The model's answer as it streams: a live line on a terminal, a line every 15 s otherwise."""
        stage, _, text = event.message.partition(": ")
        if stage == "retrying":
            click.echo(f"{chr(13) if self.tty else ''}  LLM: {text}", err=True)
        elif self.tty:
            click.echo(f"\r  LLM: {text} (Ctrl-C stops it)", err=True, nl=False)
        elif event.count and event.count % 200 == 0:
            click.echo(f"  LLM: {text}", err=True)

    def __call__(self, event: ScanEvent) -> None:
        if self.quiet:
            return
        if event.kind == "source-start":
            self.meters[event.source] = Throughput()
            click.echo(f"reading {event.source} ({event.message})", err=True)
        elif event.kind == "progress":
            meter = self.meters.setdefault(event.source, Throughput())
            meter.update(event.count, event.done_bytes or None, event.total_bytes or None)
            if self.tty:
                click.echo(f"\r  {meter.line()}   ", err=True, nl=False)
            elif time.monotonic() - self.said >= _EVERY:  # a log file: a line now and then
                self.said = time.monotonic()
                click.echo(f"  {meter.line()}", err=True)
        elif event.kind == "source-done":
            prefix = "\r" if self.tty else ""
            click.echo(f"{prefix}  {event.count} items ({event.message})", err=True)
        elif event.kind == "error":
            click.echo(f"  error: {name_once(event.source, event.message)}", err=True)
        elif event.kind == "llm-progress":
            self._llm(event)
        elif event.kind == "stage" and event.message not in ("done", "stopped"):
            click.echo(f"{event.message} ...", err=True)


def write_jsonl(result: ScanResult, stream: IO[str]) -> None:
    for proposal in result.proposals:
        stream.write(json.dumps(proposal.to_json(), ensure_ascii=False) + "\n")


def _write_quarantine(result: ScanResult, path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for q in result.quarantined:
            fh.write(json.dumps({"reason": q.reason, "source": q.source, "ref": q.ref, "excerpt": q.excerpt,
                                 "proposal": q.proposal_name}, ensure_ascii=False) + "\n")


def _write_preview(request: dict[str, Any], target: str) -> None:
    """The request as JSON, byte for byte what the client would post (indented to read)."""
    text = json.dumps(request, ensure_ascii=False, indent=2) + "\n"
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(target).write_text(text, encoding="utf-8", newline="\n")
    if request:
        chars = sum(len(m.get("content", "")) for m in request.get("messages", []))
        where = "stdout" if target == "-" else target
        click.echo(f"LLM request preview written to {where} ({chars} characters in "
                   f"{len(request.get('messages', []))} messages); nothing was sent", err=True)
    else:
        click.echo("LLM request preview: nothing would be sent (no owner-authored items to cite)", err=True)


@click.command("scan")
@click.argument("sources", nargs=-1)
@click.option("--out", "out", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write the JSON Lines proposals here instead of stdout.")
@click.option("--owner", "owners", multiple=True, metavar="WHO",
              help="You: an e-mail address (any written form, e.g. `you at host`), a repository's git author "
                   "e-mail or name, Slack user id, Slack handle or full name; repeat for several. "
                   "Otherwise memseed works it out (and lists likely owners when nothing proves one).")
@click.option("--llm", type=click.Choice(["off", "openai"]), default=None,
              help="Also ask a language model (opt-in; default from settings: off).")
@click.option("--llm-preview", "llm_preview", metavar="FILE",
              help="Write the exact LLM request to FILE ('-' for stdout) and send nothing; the proposals "
                   "are the heuristic ones. With '-', proposals go only to --out (and the review queue).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]),
              help="Only read items newer than this date (UTC).")
@click.option("--demo", is_flag=True, help="Scan the bundled demo persona (Maya Okafor; nobody real).")
@click.option("--quarantine", "quarantine_file", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write what the safety gate quarantined (reason, source, ref, excerpt) as JSON Lines.")
@click.option("--llm-report", "llm_report", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Write each fact the LLM returned, kept or dropped with the reason, as JSON Lines.")
@click.option("--json-summary", is_flag=True, help="Print the summary on stderr as one JSON object.")
@click.option("--jobs", "jobs", type=click.IntRange(min=0), default=None, metavar="N",
              help="Worker processes that parse a large mailbox: an mbox, or a folder of .eml files or a "
                   "maildir (default from settings: 0, every core).")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines, only the summary.")
@click.pass_context
def scan_cmd(ctx: click.Context, sources: tuple[str, ...], out: Path | None, owners: tuple[str, ...],
             llm: str | None, llm_preview: str | None, since: datetime | None, demo: bool,
             quarantine_file: Path | None, llm_report: Path | None, json_summary: bool, jobs: int | None,
             quiet: bool) -> None:
    """Propose memories from your mail, calendar, documents, chat, repositories and agent sessions.

    SOURCE is a path (.mbox, .eml folder, maildir, .ics, Takeout folder/zip, git repo, Slack
    export, harness memory folder, an agent's sessions, a ChatGPT or Claude.ai export, a folder
    of documents, or a folder holding several) or a URI (claude-code:, codex:, gmail:, ...). Nothing is written to any memory folder: proposals
    wait in the state store for `memseed review`.

    \b
    Examples:
      memseed scan ~/Takeout ~/code/my-repo > proposals.jsonl
      memseed scan mail/inbox.mbox --owner me@example.com --out proposals.jsonl
      memseed scan --demo --quarantine quarantined.jsonl

    Every source is accounted for: what its reader found = read + skipped (with the reasons).
    Exit status: 0 all read; 3 partial (some source, file or message could not be read — the
    rest was, and the summary says what and why; a file of a kind memseed does not read, or
    older than --since, is passed over and is not partial); 2 nothing could be read.
    """
    if not sources and not demo:
        raise click.UsageError("give at least one SOURCE, or --demo to scan the demo persona "
                               "(see `memseed sources` for what can be scanned)")
    settings = open_settings(ctx, llm=llm, owner=list(owners) or None, jobs=jobs)
    since_utc = since.replace(tzinfo=UTC) if since else None
    progress = ProgressPrinter(quiet)
    locations = list(sources)
    if demo:
        locations.insert(0, str(build_demo(settings.home / "demo")))
        owners = owners or demo_owner_addresses()
    previews: list[dict[str, Any]] = []
    with open_store(settings) as store:
        result = scan(locations, settings=settings, store=store, owners=owners,
                      llm=settings.llm, since=since_utc, on_event=progress,
                      llm_preview=previews.append if llm_preview else None)
    if llm_preview:
        _write_preview(previews[0] if previews else {}, llm_preview)
    if out is not None:
        with out.open("w", encoding="utf-8", newline="\n") as fh:
            write_jsonl(result, fh)
    elif llm_preview != "-":
        write_jsonl(result, sys.stdout)
        sys.stdout.flush()
    if quarantine_file is not None:
        _write_quarantine(result, quarantine_file)
    if llm_report is not None:
        with llm_report.open("w", encoding="utf-8", newline="\n") as fh:
            for row in result.llm_report:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    summary = result.summary()
    if json_summary:
        click.echo(json.dumps(summary, default=str), err=True)
    else:
        click.echo(format_summary(summary), err=True)
        if result.proposals:
            click.echo("next: `memseed review` to approve, edit or reject each proposal", err=True)
    if summary["status"] == "partial":
        sys.exit(EXIT_PARTIAL)


COMMANDS = [scan_cmd]
