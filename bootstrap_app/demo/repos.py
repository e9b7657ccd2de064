"""Maya's two repositories, built as real git repositories with ``git fast-import``.

Why fast-import: the history must be real (authors, dates, subjects that ``git log`` and
``git shortlog`` report), deterministic, and cheap at scale 100 (~4,000 commits). One
``git fast-import`` process writes the whole history from a stream with fixed author and
committer dates; ``git reset --hard`` then checks out the tip. The repository is created
with ``git -c init.defaultBranch=<branch> init`` and gets ``user.email`` = Maya's work
address, as a real clone on her laptop would. Global and system git config are ignored
(``GIT_CONFIG_GLOBAL=/dev/null``, ``GIT_CONFIG_NOSYSTEM=1``) so hooks or templates on the
machine cannot change the result.

The story commits (about 25 and 15) grow the files to their final content: a file touched
k times is written as a growing prefix of its final lines, so every commit has a real diff.
At scale N, (N-1) times as many extra commits tune numbers in a settings module; the
file list, authorship mix and conventions — the facts — stay the same.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from importlib import resources
from pathlib import Path

from ..errors import SourceError
from .cast import CAST, LOCAL_TZ, rng_for, work_times, workdays
from .persona import PERSONA
from .repo_files import CONSOLE_FILES, EXECUTABLE, LEDGER_FILES, console_config, ledger_settings

__all__ = ["CONSOLE_STORY", "LEDGER_STORY", "git_env", "write_repos"]

def _stories() -> dict[str, list[tuple[str, str, str]]]:
    """The story commits, kept as data in ``stories.toml`` beside this module."""
    raw = tomllib.loads(resources.files(__package__).joinpath("stories.toml").read_text(encoding="utf-8"))
    return {name: [(author, subject, paths) for author, subject, paths in rows] for name, rows in raw.items()}


_STORIES = _stories()
LEDGER_STORY: list[tuple[str, str, str]] = _STORIES["ledger"]
"""(author key, subject, the paths it touches separated by spaces) of ledger-api, oldest first."""
CONSOLE_STORY: list[tuple[str, str, str]] = _STORIES["console"]
"""The same for deploy-console."""


def git_env() -> dict[str, str]:
    """Environment for every git call: Maya's identity, no global/system config, C locale."""
    maya = CAST["maya"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
                "GIT_AUTHOR_NAME": maya.name, "GIT_AUTHOR_EMAIL": maya.email,
                "GIT_COMMITTER_NAME": maya.name, "GIT_COMMITTER_EMAIL": maya.email,
                "GIT_AUTHOR_DATE": "2026-03-02T09:00:00+01:00", "GIT_COMMITTER_DATE": "2026-03-02T09:00:00+01:00"})
    return env


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> None:
    try:
        subprocess.run(["git", *args], cwd=repo, env=git_env(), input=stdin, check=True, capture_output=True)
    except FileNotFoundError as exc:
        raise SourceError("git is not installed, so the demo repositories cannot be built",
                          hint="install git (https://git-scm.com) and run the demo again") from exc
    except subprocess.CalledProcessError as exc:
        raise SourceError(f"git {args[0]} failed while building the demo: {exc.stderr.decode(errors='replace')}",
                          hint="check that `git --version` works; delete the demo folder and retry") from exc


def _data(payload: bytes) -> bytes:
    return b"data " + str(len(payload)).encode() + b"\n" + payload + b"\n"


def _prefix(text: str, touch: int, touches: int) -> str:
    """The ``touch``-th of ``touches`` versions of a file: a growing prefix of its lines."""
    if touch == touches:
        return text
    lines = text.splitlines(keepends=True)
    return "".join(lines[: max(1, len(lines) * touch // touches)])


def _stream(branch: str, files: dict[str, str], story: list[tuple[str, str, str]],
            dates: list[datetime], extra: Callable[[int], tuple[str, str, str, str]]) -> bytes:
    """The fast-import stream: story commits at evenly spaced slots, extra commits between."""
    touches: dict[str, int] = defaultdict(int)
    for _who, _subject, paths in story:
        for path in paths.split():
            touches[path] += 1
    seen: dict[str, int] = defaultdict(int)
    slots = {len(dates) * i // len(story): i for i in range(len(story))}
    out, pr, extra_n = bytearray(), 11, 0
    for slot, when in enumerate(dates):
        if slot in slots:
            who, subject, paths = story[slots[slot]]
            changes = []
            for path in paths.split():
                seen[path] += 1
                changes.append((path, _prefix(files[path], seen[path], touches[path])))
        else:
            extra_n += 1
            who, subject, path, text = extra(extra_n)
            changes = [(path, text)]
        pr += 1
        person = CAST[who]
        stamp = f"{int(when.timestamp())} {when.astimezone(LOCAL_TZ).strftime('%z')}"
        out += f"commit refs/heads/{branch}\nmark :{slot + 1}\n".encode()
        out += f"author {person.name} <{person.email}> {stamp}\ncommitter {person.name} <{person.email}> {stamp}\n".encode()
        out += _data(f"{subject} (#{pr})\n".encode())
        if slot:
            out += f"from :{slot}\n".encode()
        for path, text in changes:
            mode = "100755" if path in EXECUTABLE else "100644"
            out += f"M {mode} inline {path}\n".encode() + _data(text.encode())
        out += b"\n"
    return bytes(out)


def _build(repo: Path, name: str, files: dict[str, str], story: list[tuple[str, str, str]],
           scale: int, days: int, extra: Callable[[int], tuple[str, str, str, str]]) -> Path:
    facts = next(r for r in PERSONA["repos"] if r["name"] == name)
    branch = str(facts["default_branch"])
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    rng = rng_for(f"repo/{name}", scale)
    dates = work_times(rng, len(story) * scale, days=workdays(days))
    _git(repo, "-c", f"init.defaultBranch={branch}", "init", "-q")
    _git(repo, "config", "user.name", str(PERSONA["name"]))
    _git(repo, "config", "user.email", str(PERSONA["work_email"]))
    _git(repo, "remote", "add", "origin", f"git@github.example:northwind-labs/{name}.git")
    _git(repo, "fast-import", "--quiet", "--date-format=raw", stdin=_stream(branch, files, story, dates, extra))
    _git(repo, "reset", "--hard", "-q", branch)
    return repo


def write_repos(dest: Path, scale: int = 1) -> list[Path]:
    """Build ``dest/ledger-api`` and ``dest/deploy-console``; return their paths."""
    rng = rng_for("repo-extras", scale)

    def ledger_extra(n: int) -> tuple[str, str, str, str]:
        page, snap, batch, timeout = (rng.choice([50, 100, 200]), rng.choice([250, 500, 1000]),
                                      rng.choice([500, 1000, 2000]), rng.choice([3, 5, 10]))
        who = "priya" if rng.random() < 0.25 else "maya"
        subject = rng.choice([f"perf(settings): reconcile in batches of {batch}",
                              f"chore(settings): page size {page}", f"fix(settings): HTTP timeout {timeout}s",
                              f"perf(events): snapshot every {snap} events"])
        return who, subject, "src/ledger_api/settings.py", ledger_settings(page, snap, batch, timeout)

    def console_extra(n: int) -> tuple[str, str, str, str]:
        canary, half, timeout = rng.choice([1, 5, 10]), rng.choice([25, 50]), rng.choice([15, 30, 60])
        who = "tom" if rng.random() < 0.35 else "maya"
        subject = rng.choice([f"feat(config): canary at {canary}%", f"fix(config): health timeout {timeout}s",
                              f"chore(config): half stage at {half}%"])
        return who, subject, "src/config.ts", console_config(canary, half, timeout)

    return [
        _build(dest / "ledger-api", "ledger-api", LEDGER_FILES, LEDGER_STORY, scale, 150, ledger_extra),
        _build(dest / "deploy-console", "deploy-console", CONSOLE_FILES, CONSOLE_STORY, scale, 90, console_extra),
    ]
