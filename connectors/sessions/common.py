"""What every session reader shares: line streaming, turn marks, the project a folder belongs to.

Why one module: Claude Code transcripts and Codex rollouts are both JSON Lines files of
mixed records, most of them the agent's (its text, tool calls, tool output). The readers share
how a line is taken apart (only a record that may be the person's is parsed in full; the rest
are classified by a few bytes near the start of the line), how a person turn is marked as
*not* the person's own words (a pasted log, a slash command and its output, an interruption
notice), and how a working folder maps to its repository.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = [
    "ReadTally",
    "kept_text",
    "marks_of",
    "own_part",
    "parse_record",
    "parse_time",
    "project_of",
    "stream_lines",
]


@dataclass
class ReadTally:
    """What one read saw: records per role, unknown record types, broken lines (for the report)."""

    sessions: int = 0
    person_turns: int = 0
    records: int = 0
    unknown: dict[str, int] = field(default_factory=dict)
    broken: int = 0

    def count_unknown(self, kind: str) -> bool:
        """Count an unknown record type; True the first time it is seen (report it once)."""
        self.unknown[kind] = self.unknown.get(kind, 0) + 1
        return self.unknown[kind] == 1


_BLANK = b" \t\n\r\x0b\x0c"
"""The bytes ``bytes.strip`` removes."""


def stream_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, raw line without its newline, complete) for each non-blank line.

    ``complete`` is False for a last line with no newline: a session still being written, or a
    file cut short by a crash or a copy. Why bytes: most lines are never decoded at all."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, 1):
            complete = raw.endswith(b"\n")
            line = raw.rstrip(b"\r\n")
            # a line that opens with a non-blank byte is not blank: no copy of it to find that out
            if line and (line[0] not in _BLANK or line.strip()):
                yield number, line, complete


def parse_record(line: bytes, complete: bool, ref: str, tally: ReadTally,
                 skip: Callable[[str, str], None]) -> dict[str, Any] | None:
    """The JSON object on ``line``, or ``None`` once ``skip(ref, reason)`` was told why not (a line
    cut short, not JSON, not an object) and the tally counted it broken: one wording for every
    reader, so a session's report reads the same whichever agent wrote it."""
    try:
        record = json.loads(line)
    except ValueError as exc:
        tally.broken += 1
        skip(ref, "line cut short (no newline at the end of the file)" if not complete
             else f"not a JSON record ({str(exc)[:60]})")
        return None
    if not isinstance(record, dict):
        tally.broken += 1
        skip(ref, "not a JSON object")
        return None
    return record


def parse_time(value: object) -> datetime | None:
    """An ISO 8601 time (``2025-08-25T15:34:03.968Z``) or epoch seconds, as aware UTC; None otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


_COMMAND = re.compile(r"^\s*<(command-name|command-message|command-args|local-command-stdout|"
                      r"local-command-stderr|bash-input|bash-stdout|bash-stderr)>")
_HARNESS_TAG = re.compile(r"^\s*<(environment_context|user_instructions|system-reminder|user-prompt-submit-hook)>")
_INTERRUPTED = re.compile(r"^\s*\[Request interrupted by user")
_LOG_LINE = re.compile(
    r"^\s*(\[?(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|OK|FAIL|FAILED|PASS|PASSED)\]?[\s:\]\[]"
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|Traceback \(most recent call last\)|\s+File \"|"
    r"[A-Za-z_][\w.]*(Error|Exception)\b|at [\w.$]+\(|\$ |>>> |#\d+ |npm (ERR|WARN)|E\s{2,}|\+\+\+ |--- |@@ |"
    r"[/~][\w./-]+:(?: line)? ?\d+|\S+\s+\[\s*\d+%\]$|\(?[\w.-]*\)?\s*[\w.-]+@[\w.-]+[:~]|\d+(\.\d+)?m?s$|\s{2,}\S|[\w-]+=\S+$|={3,}|-{3,}|\|.*\|)", re.IGNORECASE)


def _output_lines(lines: list[str]) -> tuple[list[int], int]:
    """(indices of the lines that look like output, how many lines are not blank)."""
    filled = 0
    output: list[int] = []
    for index, line in enumerate(lines):
        if line.strip():
            filled += 1
            if _LOG_LINE.match(line):
                output.append(index)
    return output, filled


def _share(output: int, filled: int) -> float:
    if not filled:
        return 0.0
    share = output / filled
    return share if filled >= 4 or share == 1.0 else 0.0  # a short message: only all-output counts


def pasted_share(text: str) -> float:
    """Share of the text's lines that look like output (log lines, tracebacks, paths with line
    numbers, tables, indented code): a structural test, whatever language the log is in."""
    output, filled = _output_lines(text.splitlines())
    return _share(len(output), filled)


def _tag_marks(text: str) -> tuple[str, ...]:
    if _COMMAND.match(text):
        return ("command",)
    if _HARNESS_TAG.match(text):
        return ("meta",)
    if _INTERRUPTED.match(text):
        return ("interrupted",)
    return ()


def marks_of(text: str) -> tuple[str, ...]:
    """Why a person-role record is not the person's own words, if it is not.

    ``command``: a slash command, its arguments or a local command's output; ``meta``: text the
    harness put in the person's name (environment context, hook output, reminders);
    ``interrupted``: the harness's note that the person pressed Escape; ``pasted``: mostly pasted
    output (a log, a traceback). A person's message that merely *contains* a short paste keeps
    no mark: its own lines are read, the pasted ones are skipped by the signal reader."""
    return _tag_marks(text) or (("pasted",) if pasted_share(text) >= 0.6 else ())


def own_part(text: str) -> tuple[str, tuple[str, ...]]:
    """(what of a person-role record is the person's own, its marks).

    A message that is half or more pasted output but opens or closes with the person's own lines
    ("I think you broke something:" and a traceback; a log line and "this is the problem we had
    before") keeps those lines, without the paste, and no mark: they are what the person said,
    the paste is third-party data that is never kept. A paste with no such lines of at least
    three words is marked ``pasted``; other marks as :func:`marks_of`.

    Why the lines are matched once here rather than by :func:`marks_of` and again: the output
    test is most of what reading a person's turn costs (a pasted log is hundreds of lines)."""
    marks = _tag_marks(text)
    if marks:
        return text, marks
    lines = text.splitlines()
    output, filled = _output_lines(lines)
    pasted = _share(len(output), filled) >= 0.6
    if not output or (len(output) < filled / 2 and not pasted):
        return text, ()
    own = "\n".join([*lines[:output[0]], *lines[output[-1] + 1:]]).strip()
    return (own, ()) if len(own.split()) >= 3 else (text, ("pasted",))


def kept_text(text: str, marks: tuple[str, ...] | list[str], clean: Callable[[str], str]) -> str:
    """What a person-role turn keeps of its text: all of it, redacted, when it is the person's own
    words; nothing when a mark says it is not (a pasted log, a command's output, harness text).

    Why drop it rather than redact it: nothing downstream reads a marked turn's words, and the
    pasted logs and command output are where secrets sit (and where redaction spends its time)."""
    return "" if marks else clean(text)


@lru_cache(maxsize=512)
def _repo_root(cwd: str) -> str:
    path = Path(cwd)
    try:
        for folder in (path, *path.parents):
            if (folder / ".git").exists():
                return str(folder)
    except OSError:
        return ""
    return ""


def project_of(cwd: str, remote: str = "") -> str:
    """The repository a session's working folder belongs to.

    The checkout root when the folder still exists here (found by its ``.git``), so a session
    started in a sub-folder counts for its repository; else the repository the session itself
    names (Codex's ``git.repository_url``); else the folder as recorded."""
    if not cwd:
        return remote_name(remote)
    root = _repo_root(cwd) if os.path.isabs(cwd) else ""
    return root or cwd.rstrip("/\\") or remote_name(remote)


def remote_name(remote: str) -> str:
    """``git@github.com:owner/name.git`` -> ``owner/name``; "" for none."""
    text = remote.strip().removesuffix(".git").rstrip("/")
    if not text:
        return ""
    tail = re.split(r"[:/]", text)
    return "/".join(tail[-2:]) if len(tail) >= 2 else text
