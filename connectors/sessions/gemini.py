"""Gemini CLI sessions: ``~/.gemini/tmp/<project>/chats/session-*.json`` or ``.jsonl``.

Format (Gemini CLI's session-management documentation: sessions are saved automatically under
``~/.gemini/tmp/<project_hash>/chats/``; field names from its chat recorder): a session is
``{"sessionId", "projectHash", "startTime", "lastUpdated", "kind"?, "messages": [{"id",
"timestamp", "type", "content", "toolCalls"?, "thoughts"?}]}`` with ``type`` one of ``user``,
``gemini``, ``info``, ``error``, ``warning``; ``content`` is a string or a list of ``{"text"}``
parts. Newer versions write the same as JSON Lines: a first line with the session fields, then
one message per line, ``{"$set": {…}}`` lines updating the session fields, and a message written
again in full whenever it changes (the same ``id`` more than once: the last one stands).
``kind: "subagent"`` marks a sub-agent's session. ``<project>/.project_root`` (when present)
holds the working folder the project folder stands for.

As for the other agents, only the person's (``user``) messages are decoded; a ``gemini`` line
gives the names of its tool calls (each message once, at the end of the file, since the line is
rewritten as calls complete) and nothing of its text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bootstrap_app.types import AgentTurn

from .common import ReadTally, kept_text, own_part, parse_record, parse_time, project_of, stream_lines

__all__ = ["KNOWN_TYPES", "looks_like_gemini_session", "read_gemini_session"]

HARNESS = "gemini"
KNOWN_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
_GEMINI = re.compile(rb'"type"\s*:\s*"(gemini|info|error|warning)"')
_USER = re.compile(rb'"type"\s*:\s*"user"')
_ID = re.compile(rb'"id"\s*:\s*"([^"\\]{1,100})"')
_TOOL = re.compile(rb'"name"\s*:\s*"([^"\\]{1,80})"')
_SLASH = re.compile(r"^/[a-z][\w-]*(\s|$)")

Skip = Callable[[str, str], None]


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p)
    return ""


def _project(path: Path) -> str:
    marker = path.parent.parent / ".project_root"
    try:
        return project_of(marker.read_text("utf-8").strip()) if marker.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return ""


class _Session:
    """What one file has said so far: its id, whether a sub-agent ran it, the user ids seen."""

    def __init__(self, path: Path, source: str, project: str) -> None:
        self.path, self.source, self.project = path, source, project
        self.session = path.stem
        self.subagent = False
        self.seen: set[str] = set()
        self.tools: dict[str, list[str]] = {}

    def header(self, record: dict[str, Any]) -> None:
        self.session = str(record.get("sessionId") or self.session)
        self.subagent = record.get("kind") == "subagent" or self.subagent

    def person(self, message: dict[str, Any], ref: str, line: int, clean: Callable[[str], str],
               tally: ReadTally) -> AgentTurn | None:
        key = str(message.get("id") or ref)
        text = _text(message.get("content"))
        if key in self.seen or not text.strip():
            return None
        self.seen.add(key)
        text, found = own_part(text)
        marks = list(found)
        if _SLASH.match(text.strip()) and "\n" not in text.strip():
            marks.append("command")
        if self.subagent:
            marks.insert(0, "subagent")
        tally.person_turns += not marks
        return AgentTurn(source=self.source, ref=ref, timestamp=parse_time(message.get("timestamp")),
                         authored_by_owner=not marks, harness=HARNESS, session=self.session, line=line,
                         role="person", marks=tuple(dict.fromkeys(marks)), text=kept_text(text, marks, clean), project=self.project)

    def tool_turns(self) -> Iterator[AgentTurn]:
        for key, names in self.tools.items():
            for name in names:
                yield AgentTurn(source=self.source, ref=f"{self.path}#{key}", harness=HARNESS, session=self.session,
                                role="tool", tool=name, project=self.project)


def read_gemini_session(path: Path, source: str, tally: ReadTally, skip: Skip,
                        clean: Callable[[str], str]) -> Iterator[AgentTurn]:
    """Stream one Gemini CLI session's turns (a ``.json`` document or a ``.jsonl`` file)."""
    state = _Session(path, source, _project(path))
    tally.sessions += 1
    if path.suffix == ".json":
        try:
            document = json.loads(path.read_bytes())
        except ValueError as exc:
            tally.broken += 1
            skip(str(path), f"not a JSON session ({str(exc)[:60]})")
            return
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            tally.broken += 1
            skip(str(path), "not a Gemini CLI session (no messages)")
            return
        state.header(document)
        for number, message in enumerate(document["messages"], 1):
            tally.records += 1
            turn = _message(state, message, f"{path}#{number}", number, clean, tally, skip)
            if turn is not None:
                yield turn
        yield from state.tool_turns()
        return
    for number, line, complete in stream_lines(path):
        tally.records += 1
        ref = f"{path}:{number}"
        if _GEMINI.search(line[:400]) and not _USER.search(line[:400]):
            found = _ID.search(line)
            names = [n.decode("utf-8", "replace") for n in _TOOL.findall(line)] if b'"toolCalls"' in line else []
            state.tools[found.group(1).decode("utf-8", "replace") if found else ref] = names
            continue
        record = parse_record(line, complete, ref, tally, skip)
        if record is None:
            continue
        if "$set" in record:
            if isinstance(record["$set"], dict):
                state.header(record["$set"])
            continue
        if "type" not in record and "sessionId" in record:
            state.header(record)
            continue
        turn = _message(state, record, ref, number, clean, tally, skip)
        if turn is not None:
            yield turn
    yield from state.tool_turns()


def _message(state: _Session, message: object, ref: str, number: int, clean: Callable[[str], str],
             tally: ReadTally, skip: Skip) -> AgentTurn | None:
    if not isinstance(message, dict):
        return None
    kind = str(message.get("type", ""))
    if kind not in KNOWN_TYPES:
        if tally.count_unknown(f"{HARNESS}:{kind or '?'}"):
            skip(ref, f"unknown message type {kind or '(none)'!r}: counted and skipped")
        return None
    if kind == "gemini":
        calls = message.get("toolCalls")
        if isinstance(calls, list):
            state.tools[str(message.get("id") or ref)] = [str(c.get("name")) for c in calls
                                                          if isinstance(c, dict) and c.get("name")]
        return None
    if kind != "user":
        return None
    return state.person(message, ref, number, clean, tally)


def looks_like_gemini_session(path: Path) -> bool:
    """``session-*.json`` or ``session-*.jsonl`` inside a ``chats`` folder."""
    return (path.name.startswith("session-") and path.suffix in (".json", ".jsonl")
            and path.parent.name == "chats" and path.is_file())
