"""``memseed review``, ``memseed approve``, ``memseed reject``: decide on proposals.

Why a terminal loop: the person must see every proposal with the evidence behind it before it
can reach a memory folder (DESIGN §1.1). Each keypress is stored at once (``Store.decide``
commits before returning), so quitting — or a crash — loses nothing already decided.

Facts about the person come first: they are loaded into every session, so they matter most.
Each flag is shown with what it means and the lines of the entry it is about
(``cards.flag_notes``, the legend the app's cards use). On a terminal one keypress answers (no
Enter); from a pipe (scripts, tests) one key per line is read instead.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator

import click
import frontmatter
import yaml

from bootstrap_app.errors import MemseedError
from bootstrap_app.review import decisions
from bootstrap_app.review.cards import flag_notes
from bootstrap_app.store import Store, StoredProposal
from bootstrap_app.types import MemoryType

from .common import open_settings, open_store

__all__ = ["COMMANDS", "KEYS", "approve_cmd", "ask_key", "decide_each", "person_first", "reject_cmd", "review"]

_TYPES = click.Choice([t.value for t in MemoryType])
KEYS = "[a]pprove [e]dit [r]eject [s]kip [q]uit"
_ORDER = {MemoryType.USER: 0, MemoryType.FEEDBACK: 1, MemoryType.PROJECT: 2, MemoryType.REFERENCE: 3}


def person_first(rows: list[StoredProposal]) -> list[StoredProposal]:
    """Facts about the person first, then preferences, projects, references (stable otherwise)."""
    return sorted(rows, key=lambda sp: _ORDER.get(sp.effective.type, 9))


@contextlib.contextmanager
def _keypresses(fd: int) -> Iterator[Callable[[], str]]:
    """A reader of single keypresses from the terminal ``fd`` (cbreak mode: no Enter, no echo).

    Why not ``click.getchar``: it switches to raw mode with a flush for every key, so a key
    typed while the card was still being drawn is thrown away; cbreak mode is set here *before*
    the prompt is shown, without a flush, and Ctrl-C keeps working. Where there is no
    ``termios`` (Windows) ``click.getchar`` reads the keys.
    """
    try:
        import termios
        import tty
    except ImportError:  # pragma: no cover - Windows
        yield click.getchar
        return
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        yield lambda: os.read(fd, 4).decode("utf-8", "replace") or "\x04"
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def ask_key(prompt: str = KEYS) -> str:
    """One answer: a single keypress on a terminal (no Enter; Enter alone skips), else one line.

    Why both: the help promises single keys, and a keypress is what a person at a terminal
    expects; scripts and tests pipe answers one per line, which a keypress read would not see.
    """
    if not sys.stdin.isatty():
        return str(click.prompt(f"  {prompt}", default="s", type=click.Choice(list("aersq")),
                                show_choices=False))
    with _keypresses(sys.stdin.fileno()) as read:
        click.echo(f"  {prompt} ", nl=False)
        while True:
            key = read()
            key = {"\r": "s", "\n": "s", "\x04": "q"}.get(key, key.lower())
            if len(key) == 1 and key in "aersq":
                click.echo(key)
                return key


def _status(sp: StoredProposal) -> str:
    return str(sp.decision.status) if sp.decision else "undecided"


def _flags(sp: StoredProposal) -> str:
    parts = []
    for flag in sp.proposal.flags:
        parts.append(click.style(flag.upper(), fg="red", bold=True) if flag == "sensitive" else flag)
    return ", ".join(parts)


def _show(sp: StoredProposal, index: int, total: int) -> None:
    p = sp.effective
    click.echo(click.style(f"\n[{index}/{total}] {p.id}  {p.type}  {p.name}", bold=True))
    click.echo(f"  {p.description}")
    if sp.proposal.flags:
        click.echo(f"  flags: {_flags(sp)}")
        for note in flag_notes(p):
            click.echo(f"    {note.flag}: {note.meaning}")
            for line in note.lines:
                click.echo(f"      about: {line}")
        if sp.proposal.sensitive:
            click.echo(click.style("  personal data: not approved unless you press 'a'", fg="red"))
    if p.supersedes:  # an update: old against new, so the person sees what stops being true
        click.echo(click.style(f"  replaces {p.supersedes}; it said:", fg="yellow"))
        for line in p.previous.splitlines() or [""]:
            click.echo(f"  - {line}")
        click.echo("  now:")
    for line in p.body.splitlines() or [""]:
        click.echo(f"  | {line}")
    since = f", evidence {p.evidence_from.date().isoformat()}…{p.evidence_to.date().isoformat()}" \
        if p.evidence_from and p.evidence_to else ""
    click.echo(f"  confidence {p.confidence:.2f}, scope {p.scope}{since}")
    for ev in p.evidence:
        who = "owner" if ev.authored_by_owner else "third-party"
        date = ev.date.date().isoformat() if ev.date else "undated"
        click.echo(f"  evidence: {ev.source} {ev.ref} ({date}, {who})")
        if ev.excerpt:
            click.echo(f"    \"{ev.excerpt}\"")


def _edit(store: Store, sp: StoredProposal) -> bool:
    p = sp.effective
    template = (f"---\n{yaml.safe_dump({'name': p.name, 'description': p.description}, allow_unicode=True)}"
                f"---\n{p.body}\n")
    text = click.edit(template, extension=".md")
    if text is None:
        click.echo("  no change (editor closed without saving)")
        return False
    post = frontmatter.loads(text)
    try:
        decisions.edit(store, p.fingerprint, name=str(post.get("name", p.name)),
                       description=str(post.get("description", p.description)), body=post.content)
    except MemseedError as exc:
        click.echo(click.style(f"  not saved: {exc}", fg="red"))
        return False
    click.echo("  edited and approved")
    return True


def _list(rows: list[StoredProposal]) -> None:
    if not rows:
        click.echo("no proposals")
        return
    for sp in rows:
        p = sp.effective
        flags = f"  [{_flags(sp)}]" if sp.proposal.flags else ""
        click.echo(f"{p.id}  {_status(sp):9}  {p.type:9}  {p.name}: {p.description}{flags}")


@click.command("review")
@click.option("--list", "list_only", is_flag=True, help="Only list proposals (id, status, type, name).")
@click.option("--type", "memory_type", type=_TYPES, help="Only proposals of this memory type.")
@click.option("--all", "show_all", is_flag=True, help="With --list: also decided proposals.")
@click.pass_context
def review(ctx: click.Context, list_only: bool, memory_type: str | None, show_all: bool) -> None:
    """Review undecided proposals one by one, with their evidence.

    Facts about you come first, then preferences, projects and references; each flag is
    shown with what it means and the lines it is about.

    Keys, one keypress each (no Enter): a = approve, e = edit in $EDITOR (then approved),
    r = reject, s = skip (also Enter), q = quit. From a pipe, one key per line.
    Every decision is saved the moment you make it.

    \b
    Examples:
      memseed review
      memseed review --type feedback
      memseed review --list --all
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        status = None if (list_only and show_all) else "undecided"
        rows = person_first(store.proposals(status=status, memory_type=memory_type))
        if list_only:
            _list(rows)
            return
        if not rows:
            click.echo("nothing to review: every proposal is decided (memseed review --list --all)")
            return
        counts = decide_each(store, rows)
        click.echo(f"\napproved {counts['a']}, edited {counts['e']}, rejected {counts['r']}, "
                   f"skipped {counts['s']}; next: memseed write --target TARGET --dry-run")


def decide_each(store: Store, rows: list[StoredProposal]) -> dict[str, int]:
    """Show each proposal with its evidence, the person's facts first, and ask; every answer is
    stored at once. Returns the count per key (a, e, r, s). Shared by ``memseed review`` and
    ``memseed import``."""
    counts = {"a": 0, "e": 0, "r": 0, "s": 0}
    rows = person_first(rows)
    for index, sp in enumerate(rows, 1):
        _show(sp, index, len(rows))
        while True:
            key = ask_key()
            if key == "e" and not _edit(store, sp):
                continue
            break
        if key == "q":
            break
        if key == "a":
            decisions.approve(store, [sp.fingerprint])
        elif key == "r":
            decisions.reject(store, [sp.fingerprint])
        counts[key] += 1
    return counts


@click.command("approve")
@click.argument("ids", nargs=-1)
@click.option("--all-of-type", "all_of_type", type=_TYPES, help="Approve every undecided proposal of a type.")
@click.option("--include-sensitive", is_flag=True, help="With --all-of-type: include proposals flagged sensitive.")
@click.pass_context
def approve_cmd(ctx: click.Context, ids: tuple[str, ...], all_of_type: str | None,
                include_sensitive: bool) -> None:
    """Approve proposals by id (from `memseed review --list`).

    \b
    Examples:
      memseed approve 3f2a9c1b 77d0e4aa
      memseed approve --all-of-type feedback
    """
    if not ids and not all_of_type:
        raise click.UsageError("give proposal ids or --all-of-type TYPE")
    settings = open_settings(ctx)
    with open_store(settings) as store:
        done = decisions.approve(store, ids) if ids else []
        if all_of_type:
            done += decisions.approve_all_of_type(store, all_of_type, include_sensitive=include_sensitive)
            skipped = [sp for sp in store.proposals(status="undecided", memory_type=all_of_type)
                       if sp.proposal.sensitive]
            if skipped:
                click.echo(f"left {len(skipped)} sensitive proposal(s) undecided: "
                           + " ".join(sp.proposal.id for sp in skipped))
        click.echo(f"approved {len(done)} proposal(s)")


@click.command("reject")
@click.argument("ids", nargs=-1, required=True)
@click.pass_context
def reject_cmd(ctx: click.Context, ids: tuple[str, ...]) -> None:
    """Reject proposals by id; they are never proposed again.

    \b
    Example:
      memseed reject 3f2a9c1b
    """
    settings = open_settings(ctx)
    with open_store(settings) as store:
        done = decisions.reject(store, ids)
        click.echo(f"rejected {len(done)} proposal(s)")


COMMANDS = [review, approve_cmd, reject_cmd]
