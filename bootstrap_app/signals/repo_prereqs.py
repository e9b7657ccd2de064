"""Prerequisites: a command that runs a file the repository does not track comes with the step that makes it.

Why: ``./configure`` does not exist in an autotools checkout until ``autogen.sh`` (or ``autoreconf``)
has generated it from ``configure.ac``; proposing ``./configure`` alone hands a newcomer a command
that fails with "No such file or directory". So every ``&&`` part that runs a file by its path is
checked against the tracked tree: a tracked file, or one an earlier part of the same command
makes, is fine; an untracked one gets the step that makes it put in front, spelt as the
repository's docs spell it (the nearest plain command before it in the same doc that runs one
of the makers the ecosystem names, see :meth:`Ecosystem.makers`), else the maker's own plain
form. A command that installs exactly a lockfile the repository does not track (``npm ci``,
``uv sync --locked``, see :meth:`Ecosystem.needs`) is not proposed either: it stops at once.
A command that starts with a file nothing makes is not proposed at all: it cannot be
proven (a later part may run what an earlier part builds, ``cmake --build build && build/tests``).
"""

from __future__ import annotations

import dataclasses
import re

from bootstrap_app.ecosystems import Ecosystem, RepoView

from .repo_tasks import Task

__all__ = ["completed", "runs_file", "with_prerequisites"]

_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})
_TOKEN = re.compile(r"^[A-Za-z0-9_./:=@+,%^~-]+$")
_PROMPT = re.compile(r"^(?:\$|%|>)\s+")
_BACKTICKED = re.compile(r"`([^`\n]{2,80})`")


def runs_file(argv: list[str]) -> str:
    """The repository path a command runs (``./configure`` -> ``configure``, ``sh autogen.sh`` ->
    ``autogen.sh``, ``tools/gen.sh`` -> itself), or ``""`` for a program found on ``PATH``."""
    if not argv:
        return ""
    first = argv[1] if argv[0] in _SHELLS and len(argv) > 1 else argv[0]
    if first.startswith("-") or ("/" not in first and argv[0] not in _SHELLS):
        return ""
    path = first.removeprefix("./")
    return "" if path.startswith(("/", "~", "$")) or ".." in path.split("/") else path


def _makes(step: str, makers: tuple[str, ...]) -> bool:
    """``step`` runs one of ``makers``: a script by its path (``sh autogen.sh``) or a program (``autoreconf -i``)."""
    argv = step.split()
    return bool(argv) and any(runs_file(argv) == m or argv[0] == m.split()[0] for m in makers)


def _doc_step(docs: dict[str, str], where: str, makers: tuple[str, ...], part: str = "") -> str:
    """The nearest plain command before ``where`` (``path:line``) in that doc that runs one of ``makers``;
    for a step of CI (no doc line), before the first line of a workflow that runs ``part``'s program."""
    path, _, line = where.split(";")[0].strip().partition(":")
    if path not in docs:  # a CI step ("CI"): the workflow that runs the command, up to its line
        path, line = next(((p, str(t.count("\n", 0, pos) + 1)) for p, t in docs.items()
                           if part and (pos := t.find(part.split()[0] + " ")) >= 0), ("", ""))
    text = docs.get(path, "")
    lines = text.splitlines()[: int(line) - 1] if line.isdigit() else []
    for raw in reversed(lines):
        # `autoreconf -i   # if building from git`: the comment says when, the command is the step
        for cand in [re.sub(r"\s+#\s.*$", "", _PROMPT.sub("", raw.strip())), *_BACKTICKED.findall(raw)]:
            argv = cand.split()
            if argv and len(argv) <= 6 and all(_TOKEN.match(t) for t in argv) and _makes(cand, makers):
                return " ".join(argv)
    return ""


def _plain_step(maker: str, view: RepoView) -> str:
    """A maker as a command: a tracked script run by its path, else the program's own command."""
    return f"./{maker}" if maker in view.listed else maker


def with_prerequisites(task: Task, docs: dict[str, str], view: RepoView, ecosystems: tuple[Ecosystem, ...]) -> Task | None:
    """``task`` with the steps that make its untracked files in front, ``None`` when nothing makes one."""
    out: list[str] = []
    changed = False
    for part in (p.strip() for p in task.command.split("&&")):
        locks = tuple(dict.fromkeys(n for e in ecosystems for n in e.needs(part.split())))
        if locks and not any(lock in view.listed for lock in locks):
            return None  # `npm ci` with no package-lock.json tracked stops at once
        path = runs_file(part.split())
        if path and path not in view.listed:
            makers = tuple(dict.fromkeys(m for e in ecosystems for m in e.makers(path, view)))
            if not makers and not out:
                return None  # nothing in the repository makes the file this command starts with
            if not makers:  # `cmake --build build && build/tests`: an earlier step may well build it
                out.append(part)
                continue
            if not any(_makes(prev, makers) for prev in out):
                out.append(_doc_step(docs, task.source, makers, part) or _plain_step(makers[0], view))
                changed = True
        out.append(part)
    return dataclasses.replace(task, command=" && ".join(out)) if changed else task


def completed(tasks: tuple[Task, ...], docs: dict[str, str], view: RepoView,
              ecosystems: tuple[Ecosystem, ...]) -> tuple[Task, ...]:
    """Every task :func:`with_prerequisites` keeps, completed; a step that now stands at the head of
    another command of its kind (``autoreconf -fi`` before ``autoreconf -fi && ./configure``) is
    that command's first step, not a command of its own."""
    pairs = [(task, t) for task in tasks if (t := with_prerequisites(task, docs, view, ecosystems))]
    # only a step put in front here is absorbed: a chain the docs wrote themselves (`crystal tool
    # format && bin/ameba && crystal spec`) does not make its first command any less a command
    return tuple(t for _, t in pairs if not any(o.kind == t.kind and o.command.startswith(t.command + " && ")
                                                and not was.command.startswith(t.command + " && ")
                                                for was, o in pairs))
