"""Codex rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

Format (from the real files and the Codex CLI's rollout recorder): one JSON record per line,
``{"timestamp", "type", "payload"}``. ``session_meta`` opens the file (``id``, ``cwd``,
``git.repository_url``, ``originator``); ``turn_context`` restates the working folder when it
changes; ``response_item`` payloads are what the model saw (``message`` with ``role``
``user``/``assistant``/``developer``, ``reasoning``, ``function_call`` with ``name``,
``function_call_output``, ``custom_tool_call``, ``local_shell_call``, ``web_search_call``);
``event_msg`` payloads are what the terminal showed (``user_message``, ``agent_message``,
``token_count`` …); ``compacted`` holds the summary that replaced older history. Rollouts
written before the wrapper existed put the payload at the top level (``{"type":"message",
"role":"user", …}``) after a first line holding ``id`` and ``instructions``.

The person's message appears twice in new rollouts (a ``response_item`` message with role
``user`` and the ``event_msg`` ``user_message`` right after): the reader holds the first and
drops it when its twin follows, so each message is one turn and old rollouts (no events) still
yield theirs. Tool output and the model's text are never decoded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bootstrap_app.types import AgentTurn

from .common import ReadTally, kept_text, own_part, parse_record, parse_time, project_of, stream_lines

__all__ = ["KNOWN_TYPES", "read_codex_rollout"]

HARNESS = "codex"
KNOWN_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted", "message",
                         "reasoning", "function_call", "function_call_output", "custom_tool_call",
                         "custom_tool_call_output", "local_shell_call", "web_search_call", "state"})

_HEAD = 200
"""Bytes at the start of a line that hold its record and payload types."""
_KIND = re.compile(rb'"type":"(\w{1,40})"(?:,"role":"(\w{1,20})")?')
"""The first ``"type":"…"`` of a payload (and the ``role`` a message gives right after it): in a
new rollout the payload's, found after ``"payload":``; in an old one the record's own."""
_SKIPPED = frozenset({b"function_call_output", b"reasoning", b"token_count", b"agent_message", b"agent_reasoning",
                      b"custom_tool_call_output", b"exec_command_end", b"exec_command_output_delta",
                      b"agent_reasoning_delta", b"agent_message_delta"})
_CALLS = frozenset({b"function_call", b"custom_tool_call", b"local_shell_call", b"web_search_call"})
_NOT_PERSON = frozenset({b"assistant", b"developer", b"system"})
_CALL_NAME = re.compile(rb'"name":"([^"\\]{1,80})"')

Skip = Callable[[str, str], None]


def _payload_text(payload: dict[str, Any]) -> str:
    content = payload.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content
                         if isinstance(b, dict) and b.get("type") in ("input_text", "text"))
    return ""


def read_codex_rollout(path: Path, source: str, tally: ReadTally, skip: Skip,
                       clean: Callable[[str], str]) -> Iterator[AgentTurn]:
    """Stream one rollout's turns (see the module docstring); same contract as the Claude reader."""
    session = "-".join(path.stem.split("-")[-5:])
    cwd = project = remote = ""
    pending: AgentTurn | None = None
    pending_text = ""
    tally.sessions += 1

    def turn(ref: str, number: int, when: object, text: str, compaction: bool = False) -> AgentTurn:
        text, found = own_part(text)
        marks = (("compaction",) if compaction else ()) + found
        return AgentTurn(source=source, ref=ref, timestamp=parse_time(when), authored_by_owner=not marks,
                         harness=HARNESS, session=session, line=number, role="person", marks=marks,
                         text=kept_text(text, marks, clean), project=project, cwd=cwd)

    prefix = f"{path}:"
    for number, line, complete in stream_lines(path):
        tally.records += 1
        at = line.find(b'"payload":', 0, _HEAD)
        shape = _KIND.search(line, at if at >= 0 else 0, _HEAD)
        if shape is not None:
            payload_type, role = shape.group(1), shape.group(2)
            if payload_type in _SKIPPED or (payload_type == b"message" and role in _NOT_PERSON):
                continue
            if payload_type in _CALLS:
                found = _CALL_NAME.search(line, 0, 4096)
                name = found.group(1).decode("utf-8", "replace") if found else "shell"
                yield AgentTurn(source=source, ref=f"{prefix}{number}", harness=HARNESS, session=session,
                                line=number, role="tool", tool=name, project=project, cwd=cwd)
                continue
        ref = f"{prefix}{number}"
        record = parse_record(line, complete, ref, tally, skip)
        if record is None:
            continue
        kind = str(record.get("type", "") or record.get("record_type", ""))
        wrapped = record.get("payload")
        payload: dict[str, Any] = wrapped if isinstance(wrapped, dict) else record
        when = record.get("timestamp")
        if not kind and number == 1 and "id" in record:  # the first line of an old rollout
            kind, payload = "session_meta", record
        if kind not in KNOWN_TYPES:
            if tally.count_unknown(f"{HARNESS}:{kind or '?'}"):
                skip(ref, f"unknown record type {kind or '(none)'!r}: counted and skipped")
            continue
        if kind == "session_meta":
            session = str(payload.get("id") or session)
            git = payload.get("git")
            remote = str(git.get("repository_url") or "") if isinstance(git, dict) else ""
            cwd = str(payload.get("cwd") or cwd)
            project = project_of(cwd, remote)
            continue
        if kind == "turn_context":
            if payload.get("cwd") and payload["cwd"] != cwd:
                cwd = str(payload["cwd"])
                project = project_of(cwd, remote)
            continue
        ptype = payload.get("type")
        if kind == "compacted":
            text = str(payload.get("message") or "")
            if text.strip():
                yield turn(ref, number, when, text, compaction=True)
            continue
        if kind == "event_msg" and ptype == "user_message":
            text = str(payload.get("message") or "")
            if pending is not None and pending_text == text:
                # its twin: one turn, cited at the event's line, its text redacted once
                made = replace(pending, ref=ref, line=number, timestamp=parse_time(when) or pending.timestamp)
                pending = None
            else:
                if pending is not None:
                    tally.person_turns += not pending.marks
                    yield pending
                    pending = None
                if not text.strip():
                    continue
                made = turn(ref, number, when, text)
            tally.person_turns += not made.marks
            yield made
            continue
        if pending is not None:
            tally.person_turns += not pending.marks
            yield pending
            pending = None
        if ptype == "message" and payload.get("role") == "user":
            text = _payload_text(payload)
            if text.strip():
                pending, pending_text = turn(ref, number, when, text), text
    if pending is not None:
        tally.person_turns += not pending.marks
        yield pending


def looks_like_rollout(path: Path) -> bool:
    """A ``rollout-*.jsonl`` file."""
    return path.suffix == ".jsonl" and path.name.startswith("rollout-") and path.is_file()
