"""Claude Code session transcripts: ``~/.claude/projects/<key>/<session>.jsonl``.

Format (from the real files and Claude Code's documentation of its transcripts): one JSON
record per line. ``type`` is ``user``, ``assistant``, ``summary``, ``system`` or a bookkeeping
type (``file-history-snapshot``, ``queue-operation``, ``progress``); ``user`` and ``assistant``
records carry ``sessionId``, ``cwd``, ``gitBranch``, ``timestamp``, ``isSidechain`` (a
sub-agent's conversation), ``isMeta`` (text the harness wrote in the person's name) and
``message`` (``role``, ``content``: a string or a list of ``text`` / ``tool_use`` /
``tool_result`` / ``thinking`` / ``image`` blocks). A context compaction writes a ``user``
record with ``isCompactSummary`` holding the model's summary of the earlier conversation.

Why most lines are never parsed: the person's turns are a few hundred bytes among megabytes of
tool output and assistant text. A line is classified by looking for the record's structural
``"type":"…"`` markers (inside JSON strings quotes are escaped, so the unescaped marker is the
record's own, and the message's ``role`` and first block sit in the record's first two kilobytes);
only a ``user`` record without a ``tool_result`` block is parsed in full.
Assistant records give only the names of the tools they called (a regular expression over the
line); their text never leaves this module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from bootstrap_app.types import AgentTurn

from .common import ReadTally, kept_text, own_part, parse_record, parse_time, project_of, stream_lines

__all__ = ["KNOWN_TYPES", "read_claude_session"]

HARNESS = "claude-code"
KNOWN_TYPES = frozenset({"user", "assistant", "summary", "system", "file-history-snapshot",
                         "queue-operation", "progress", "attachment"})
"""Record types the reader knows; anything else is counted and skipped."""

_USER = b'"type":"user"'
_ASSISTANT = b'"role":"assistant"'
_TOOL_RESULT = b'"type":"tool_result"'
_TOOL_USE = b'"type":"tool_use"'
_HEAD = 2048
"""Bytes at the start of a record that hold its message's role and first content block: the
record's own fields (ids, folder, branch) come first, then ``message`` opens with them."""
_TOOL_NAME = re.compile(rb'"type":"tool_use","id":"[^"]*","name":"([^"\\]{1,80})"')
_TYPE = re.compile(rb'"type":"([A-Za-z_-]{1,40})"')

Skip = Callable[[str, str], None]


def _text_of(content: object) -> str:
    """The typed text of a message: the string, or the ``text`` blocks joined (images dropped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content
                         if isinstance(b, dict) and b.get("type") == "text")
    return ""


def read_claude_session(path: Path, source: str, tally: ReadTally, skip: Skip,
                        clean: Callable[[str], str]) -> Iterator[AgentTurn]:
    """Stream one transcript's turns: the person's in full, tool calls by name, the rest counted.

    ``skip(ref, reason)`` is told of each broken line and, once per file, of each unknown record
    type; ``clean`` redacts and caps the person's text (the source's ``ctx.clean``)."""
    session = path.stem
    cwd = ""
    project = ""
    tally.sessions += 1
    prefix = f"{path}:"
    for number, line, complete in stream_lines(path):
        tally.records += 1
        head = line[:_HEAD]
        if _ASSISTANT in head and _USER not in head:
            if _TOOL_USE in line:
                for name in _TOOL_NAME.findall(line):
                    yield AgentTurn(source=source, ref=f"{prefix}{number}", harness=HARNESS, session=session,
                                    line=number, role="tool", tool=name.decode("utf-8", "replace"),
                                    project=project, cwd=cwd)
            continue
        if _TOOL_RESULT in head and _USER in head:
            continue  # tool output: third-party data, never decoded
        ref = f"{prefix}{number}"
        record = parse_record(line, complete, ref, tally, skip)
        if record is None:
            continue
        kind = str(record.get("type", ""))
        if kind not in KNOWN_TYPES:
            if tally.count_unknown(f"{HARNESS}:{kind or '?'}"):
                skip(ref, f"unknown record type {kind or '(none)'!r}: counted and skipped")
            continue
        session = str(record.get("sessionId") or session)
        if record.get("cwd"):
            cwd = str(record["cwd"])
            project = project_of(cwd)
        if kind == "assistant":  # a record the cheap test missed (a tool input holding the marker)
            continue
        if kind != "user":
            continue  # summary titles, system notices, bookkeeping: the agent's, not the person's
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result"
                                             for b in content):
            continue
        text = _text_of(content)
        if not text.strip():
            continue
        text, found = own_part(text)
        marks = list(found)
        if record.get("isSidechain"):
            marks.insert(0, "subagent")
        if record.get("isCompactSummary"):
            marks.insert(0, "compaction")
        if record.get("isMeta") or record.get("userType", "external") != "external":
            marks.insert(0, "meta")
        if not marks:
            tally.person_turns += 1
        yield AgentTurn(source=source, ref=ref, timestamp=parse_time(record.get("timestamp")),
                        authored_by_owner=not marks, harness=HARNESS, session=session, line=number,
                        role="person", marks=tuple(dict.fromkeys(marks)), text=kept_text(text, marks, clean),
                        project=project, cwd=cwd)


def looks_like_session(path: Path) -> bool:
    """A ``.jsonl`` file whose first record has Claude Code's shape (``sessionId`` or ``leafUuid``)."""
    if path.suffix != ".jsonl" or not path.is_file():
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return b'"sessionId"' in head or b'"leafUuid"' in head
