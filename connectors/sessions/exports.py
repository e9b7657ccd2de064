"""Chat assistant exports: ChatGPT's and Claude.ai's ``conversations.json`` (the file or the zip).

Formats (from each service's data export): both are one JSON array of conversations.

- ChatGPT: ``{"id"|"conversation_id", "title", "create_time", "current_node", "mapping": {node
  id: {"message": {"author": {"role"}, "create_time", "content": {"content_type", "parts"},
  "metadata"}, "parent", "children"}}}``. The conversation the person saw is the path from
  ``current_node`` back to the root (edits and regenerations leave other branches behind).
  ``user_editable_context`` content and ``is_visually_hidden_from_conversation`` messages are
  the custom instructions and harness text: marked ``meta``.
- Claude.ai: ``{"uuid", "name", "created_at", "chat_messages": [{"uuid", "sender": "human" |
  "assistant", "text", "content": [blocks], "created_at", "attachments": [{"extracted_content"}]}]}``.
  Attachments are files the person added, not words they typed: never read.

Why the whole file is parsed at once: the export is one JSON document and the standard library
has no streaming parser; exports are tens of megabytes, not the gigabytes of agent sessions.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bootstrap_app.types import AgentTurn

from .common import ReadTally, kept_text, own_part, parse_time

__all__ = ["export_flavour", "load_conversations", "read_chatgpt", "read_claude_ai"]

Skip = Callable[[str, str], None]
MEMBER = "conversations.json"


def _head(path: Path, size: int = 65536) -> bytes:
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == MEMBER]
                if not names:
                    return b""
                with archive.open(names[0]) as fh:
                    return fh.read(size)
        with path.open("rb") as fh:
            return fh.read(size)
    except (OSError, zipfile.BadZipFile):
        return b""


def export_flavour(path: Path) -> str:
    """``chatgpt``, ``claude-ai`` or "" for a ``conversations.json`` (or a zip holding one)."""
    if not path.is_file() or not (path.name == MEMBER or path.suffix == ".zip"):
        return ""
    head = _head(path)
    if not head.lstrip().startswith(b"["):
        return ""
    if b'"mapping"' in head:
        return "chatgpt"
    if b'"chat_messages"' in head:
        return "claude-ai"
    return ""


def load_conversations(path: Path) -> list[Any]:
    """The export's conversations (a ``ValueError`` naming what is wrong when it is not one)."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == MEMBER]
            if not names:
                raise ValueError(f"no {MEMBER} in the zip")
            data = json.loads(archive.read(names[0]))
    else:
        data = json.loads(path.read_bytes())
    if not isinstance(data, list):
        raise ValueError(f"{MEMBER} is not a list of conversations")
    return data


def _branch(mapping: dict[str, Any], current: object) -> list[dict[str, Any]]:
    """The nodes from the root to ``current`` (all nodes by time when there is no current node)."""
    if isinstance(current, str) and current in mapping:
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        node_id: object = current
        while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            node = mapping[node_id]
            out.append(node)
            node_id = node.get("parent") if isinstance(node, dict) else None
        return [n for n in reversed(out) if isinstance(n, dict)]
    nodes = [n for n in mapping.values() if isinstance(n, dict) and isinstance(n.get("message"), dict)]
    return sorted(nodes, key=lambda n: float(n["message"].get("create_time") or 0))


def read_chatgpt(path: Path, source: str, tally: ReadTally, skip: Skip,
                 clean: Callable[[str], str]) -> Iterator[AgentTurn]:
    for index, conv in enumerate(load_conversations(path)):
        cid = str(conv.get("conversation_id") or conv.get("id") or index) if isinstance(conv, dict) else ""
        if not isinstance(conv, dict) or not isinstance(conv.get("mapping"), dict):
            tally.broken += 1
            skip(f"{path}#{index}", "not a ChatGPT conversation (no mapping)")
            continue
        tally.sessions += 1
        for number, node in enumerate(_branch(conv["mapping"], conv.get("current_node")), 1):
            tally.records += 1
            message = node.get("message")
            if not isinstance(message, dict):
                continue
            author = message.get("author")
            role = author.get("role") if isinstance(author, dict) else None
            found = message.get("content")
            content: dict[str, Any] = found if isinstance(found, dict) else {}
            ctype = str(content.get("content_type", ""))
            if role != "user":
                if role not in ("assistant", "tool", "system"):
                    if tally.count_unknown(f"chatgpt:{role}"):
                        skip(f"{path}#{cid}/{number}", f"unknown author role {role!r}: counted and skipped")
                elif role == "tool":
                    yield AgentTurn(source=source, ref=f"{path}#{cid}/{number}", harness="chatgpt", session=cid,
                                    line=number, role="tool", tool=str((author or {}).get("name") or ctype))
                continue
            listed = content.get("parts")
            parts: list[Any] = listed if isinstance(listed, list) else []
            text = "\n".join(p for p in parts if isinstance(p, str))
            if not text.strip():
                continue
            meta = message.get("metadata")
            metadata: dict[str, Any] = meta if isinstance(meta, dict) else {}
            text, found = own_part(text)
            marks = list(found)
            if ctype == "user_editable_context" or metadata.get("is_visually_hidden_from_conversation"):
                marks.insert(0, "meta")
            tally.person_turns += not marks
            yield AgentTurn(source=source, ref=f"{path}#{cid}/{number}", timestamp=parse_time(message.get("create_time")),
                            authored_by_owner=not marks, harness="chatgpt", session=cid, line=number,
                            role="person", marks=tuple(marks), text=kept_text(text, marks, clean))


def read_claude_ai(path: Path, source: str, tally: ReadTally, skip: Skip,
                   clean: Callable[[str], str]) -> Iterator[AgentTurn]:
    for index, conv in enumerate(load_conversations(path)):
        if not isinstance(conv, dict) or not isinstance(conv.get("chat_messages"), list):
            tally.broken += 1
            skip(f"{path}#{index}", "not a Claude.ai conversation (no chat_messages)")
            continue
        cid = str(conv.get("uuid") or index)
        tally.sessions += 1
        for number, message in enumerate(conv["chat_messages"], 1):
            tally.records += 1
            if not isinstance(message, dict):
                continue
            sender = message.get("sender")
            if sender != "human":
                if sender != "assistant" and tally.count_unknown(f"claude-ai:{sender}"):
                    skip(f"{path}#{cid}/{number}", f"unknown sender {sender!r}: counted and skipped")
                continue
            given = message.get("content")
            blocks: list[Any] = given if isinstance(given, list) else []
            text = "\n".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text")
            text = text or str(message.get("text") or "")
            if not text.strip():
                continue
            text, marks = own_part(text)
            tally.person_turns += not marks
            yield AgentTurn(source=source, ref=f"{path}#{cid}/{number}", timestamp=parse_time(message.get("created_at")),
                            authored_by_owner=not marks, harness="claude-ai", session=cid, line=number,
                            role="person", marks=marks, text=kept_text(text, marks, clean))
