"""A start-up hook in the agents: one line into the session when memory went stale or waits for review.

Why a hook: memory that is stale or proposals nobody reviewed help nobody, and the moment the
person is sure to see a line is when their agent starts. So ``memseed hook install`` adds to
the agent's own settings a command it runs at session start, which prints one line — and
nothing when all is fresh. It must never get in the way: missing, locked or corrupt store, any
error at all, and it prints nothing and exits 0. The command runs :mod:`bootstrap_app.hookcheck`
by its path (no package import, so a session start costs about one Python start); hooks an
older memseed installed call ``memseed hook run``, which still works, and ``hook install``
upgrades them in place.

Where each agent takes a start-up hook (their documentation, checked 2026-11):

- **Claude Code** — ``~/.claude/settings.json``, ``hooks.SessionStart``: a list of
  ``{"matcher", "hooks": [{"type": "command", "command", "timeout"}]}``; its stdout is added to
  the session's context. Output: the plain line.
- **Codex** — ``~/.codex/hooks.json``, the same shape; a user hook must be trusted once in
  Codex (``/hooks``) before it runs. Output: ``hookSpecificOutput.additionalContext`` JSON (its
  SessionStart output is validated strictly).
- **Gemini CLI** — ``~/.gemini/settings.json``, ``hooks.SessionStart``, the same shape; stdout
  must be JSON only. Output: ``hookSpecificOutput.additionalContext`` and ``systemMessage``.
- **Hermes** — shell hooks in ``~/.hermes/config.yaml`` (``hooks:``); ``on_session_start`` is
  observe-only, so the line goes through ``pre_llm_call`` on the first turn
  (``{"context": ...}``); Hermes asks the person once before it runs a new hook. memseed adds the
  block only when the file has no ``hooks:`` key yet (a YAML rewrite would lose the person's
  comments); otherwise it prints the lines to add.

Every change is shown first, confirmed, backed up into the app dir's ``backups/`` and written
atomically; ``memseed hook remove`` takes out exactly the entries memseed added.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bootstrap_app.errors import WriteError
from bootstrap_app.fsutil import atomic_write, read_bytes
from bootstrap_app.harnesses import harness_class
from bootstrap_app.memory import watch
from bootstrap_app.memory.freshness import check_written, refresh_watch
from bootstrap_app.memory.watch import render
from bootstrap_app.store import Store

__all__ = ["HOOKS", "MARKS", "HookChange", "HookSpec", "apply_change", "command_for", "hook_line", "hook_settings_path",
           "plan_install", "plan_remove", "render"]

HOOK_SCRIPT = Path(__file__).resolve().parent.parent / "hookcheck.py"
"""The start-up check script the hook command runs by its path (an entry point: nothing imports it)."""
MARKS = ("bootstrap_app/hookcheck.py", "memseed hook run")
"""What identifies memseed's own hook entries in a command (install is idempotent, remove takes
only these): the check script's path, or — hooks installed before it — ``memseed hook run``."""


def _is_ours(text: str) -> bool:
    return any(mark in text for mark in MARKS)


@dataclass(frozen=True)
class HookSpec:
    file: str
    """The settings file, relative to the agent's home."""
    event: str
    fmt: str
    """How ``memseed hook run`` answers: ``text``, ``codex``, ``gemini``, ``hermes``."""


HOOKS: dict[str, HookSpec] = {
    "claude-code": HookSpec("settings.json", "SessionStart", "text"),
    "codex": HookSpec("hooks.json", "SessionStart", "codex"),
    "gemini": HookSpec("settings.json", "SessionStart", "gemini"),
    "hermes": HookSpec("config.yaml", "pre_llm_call", "hermes"),
}


@dataclass(frozen=True)
class HookChange:
    path: Path
    before: bytes | None
    after: bytes | None
    """``None``: nothing to write (already so, or see ``note``)."""
    note: str = ""


def hook_line(db_path: Path, now: datetime | None = None) -> str:
    """The one line for the session ("" when nothing is stale or waiting). A store that is
    missing, locked or unreadable is "" — a start-up hook must never get in the way.

    The summary answers when it can (:func:`bootstrap_app.memory.watch.fast_line`, what the
    installed hook runs without this package); otherwise the full check runs and refreshes it."""
    today = (now or datetime.now(UTC)).date()
    try:
        return watch.fast_line(db_path, today)
    except watch.Changed:
        pass
    except Exception:  # locked or corrupt: the agent's session starts as usual
        return ""
    try:  # read-only probe with a short wait: a locked or corrupt store is silence, not a stall
        probe = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            probe.execute("SELECT count(*) FROM proposals").fetchone()
        finally:
            probe.close()
        with Store(db_path) as store:
            waiting = len(store.proposals(status="undecided"))
            _checked, stale = check_written(store, now=now)
            with contextlib.suppress(Exception):  # the next session start takes the fast path
                refresh_watch(store, wait=0.2)
    except Exception:  # whatever went wrong, the agent's session starts as usual
        return ""
    return watch.summary_line([(s.fingerprint, s.name, s.what, s.detail) for s in stale], waiting)


def command_for(target: str, home: Path) -> str:
    """The hook command: memseed's own Python runs :mod:`bootstrap_app.hookcheck` by its path,
    isolated (``-I``: no script folder or user site on ``sys.path``, no ``PYTHON*`` variables) and
    without ``site`` (``-S``: the script needs only the standard library until it falls back)."""
    return (f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(HOOK_SCRIPT))} "
            f"--home {shlex.quote(str(home))} --format {HOOKS[target].fmt}")


def hook_settings_path(target: str) -> Path:
    """The agent's settings file memseed's start-up hook goes into (``WriteError``: no hook there)."""
    if target not in HOOKS:
        raise WriteError(f"{target} has no start-up hook memseed can add",
                         hint="supported: " + ", ".join(HOOKS))
    return harness_class(target).home() / HOOKS[target].file


def _load_json(path: Path, before: bytes | None) -> dict[str, Any]:
    try:
        data = json.loads(before.decode("utf-8")) if before and before.strip() else {}
    except (UnicodeDecodeError, ValueError) as exc:
        raise WriteError(f"{path} is not valid JSON; memseed will not rewrite it",
                         hint="fix the file (or move it aside), then run again") from exc
    if not isinstance(data, dict):
        raise WriteError(f"{path} does not hold a JSON object; memseed will not rewrite it")
    return data


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _our_hooks(group: Any) -> list[dict[str, Any]]:
    return [h for h in group.get("hooks", []) if isinstance(h, dict) and _is_ours(str(h.get("command", "")))] \
        if isinstance(group, dict) else []


def _ours(group: Any) -> bool:
    return bool(_our_hooks(group))


def plan_install(target: str, app_home: Path) -> HookChange:
    path = hook_settings_path(target)
    before = read_bytes(path)
    command = command_for(target, app_home)
    if target == "hermes":
        text = (before or b"").decode("utf-8", "replace")
        if _is_ours(text):
            lines = text.splitlines(keepends=True)
            at = next(i for i, ln in enumerate(lines) if _is_ours(ln))
            line = lines[at]
            head, sep, _old = line.partition("command: ")
            new = f"{head}{sep}{json.dumps(command)}{line[len(line.rstrip()):]}"
            if not sep or new == line:
                return HookChange(path, before, None, "already installed")
            lines[at] = new  # an older command line: upgraded in place
            return HookChange(path, before, "".join(lines).encode("utf-8"), "the hook command was upgraded")
        block = f"hooks:\n  pre_llm_call:\n    - command: {json.dumps(command)}\n      timeout: 10\n"
        if any(line.startswith("hooks:") for line in text.splitlines()):
            return HookChange(path, before, None, f"{path} already has a hooks: block; add under it:\n{block}")
        sep = "" if not text or text.endswith("\n") else "\n"
        return HookChange(path, before, (text + sep + block).encode("utf-8"),
                          "Hermes asks once before it runs a new hook (or start it with --accept-hooks)")
    data = _load_json(path, before)
    hooks = data.setdefault("hooks", {})
    groups = hooks.setdefault(HOOKS[target].event, [])
    if not isinstance(hooks, dict) or not isinstance(groups, list):
        raise WriteError(f"{path}: 'hooks' is not in the documented shape; memseed will not rewrite it")
    mine = [h for g in groups for h in _our_hooks(g)]
    if mine:
        if all(h.get("command") == command for h in mine):
            return HookChange(path, before, None, "already installed")
        for h in mine:  # an older command line (`memseed hook run`, another path): upgraded in place
            h["command"] = command
        return HookChange(path, before, _dump(data), "the hook command was upgraded")
    groups.append({"matcher": "startup", "hooks": [{"type": "command", "command": command, "timeout": 10}]})
    note = "Codex runs a new user hook only after you trust it once (/hooks)" if target == "codex" else ""
    return HookChange(path, before, _dump(data), note)


def plan_remove(target: str) -> HookChange:
    path = hook_settings_path(target)
    before = read_bytes(path)
    if before is None or not _is_ours(before.decode("utf-8", "replace")):
        return HookChange(path, before, None, "not installed")
    if target == "hermes":
        lines = before.decode("utf-8").splitlines(keepends=True)
        start = next(i for i, ln in enumerate(lines) if _is_ours(ln))
        if start >= 2 and lines[start - 1].strip() == "pre_llm_call:" and lines[start - 2].startswith("hooks:") \
                and (start + 2 >= len(lines) or not lines[start + 2].startswith(" ")):
            kept = lines[:start - 2] + lines[start + 2:]  # the block memseed appended, whole
            return HookChange(path, before, "".join(kept).encode("utf-8"))
        return HookChange(path, before, None, f"{path}: the memseed hook was edited since; remove it by hand")
    data = _load_json(path, before)
    hooks = data.get("hooks", {})
    groups = [g for g in hooks.get(HOOKS[target].event, []) if not _ours(g)]
    if groups:
        hooks[HOOKS[target].event] = groups
    else:
        hooks.pop(HOOKS[target].event, None)
    if not hooks:
        data.pop("hooks", None)
    return HookChange(path, before, _dump(data))


def apply_change(change: HookChange, backups: Path, clock: Callable[[], float] = time.time) -> Path | None:
    """Back the file up (when it existed), then write it atomically; returns the backup."""
    if change.after is None:
        return None
    backup = None
    if change.before is not None:
        backups.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%S")
        backup = backups / f"{change.path.parent.name}-{change.path.name}.{stamp}.bak"
        atomic_write(backup, change.before)
    change.path.parent.mkdir(parents=True, exist_ok=True)
    if read_bytes(change.path) != change.before:
        raise WriteError(f"{change.path} changed while memseed was asking; nothing was written",
                         hint="run the command again")
    atomic_write(change.path, change.after)
    return backup
